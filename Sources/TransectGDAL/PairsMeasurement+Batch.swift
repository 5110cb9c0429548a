import TransectCore

extension PairsMeasurement {
    /// A batch's results, row by row in input order: each row's pair in WGS84 where it could
    /// be read (nil where its coordinates, their transform, their range or its heights had a
    /// problem), and its measurement or why there is none.
    public struct Measured: Sendable {
        public var pairs: [MeasurementPair?]
        public var results: [Result<Measurement, Problem>]
    }

    /// Measures a batch of rows with one ``TerrainMeasurer/measure(_:)`` call, as the stream
    /// measures each of its batches: the rows' coordinates taken to WGS84 through `inputCRS`
    /// (all at once), checked by `checkWGS84`, and each row's first problem kept in its place.
    ///
    /// Pure but for the measurer and the transformer, which belong to the calling thread:
    /// batches measured on several threads, each with its own, give the same results.
    /// - Throws: the ``TerrainError`` of a failed read, as ``TerrainMeasurer/measure(_:)``.
    public static func measure(
        _ batch: PairsBatch, measurer: TerrainMeasurer, inputCRS: CoordinateTransformer?,
        checkWGS84: (Double, Double) -> Problem?
    ) throws(TerrainError) -> Measured {
        let n = batch.count
        var xs = batch.xs
        var ys = batch.ys
        if let inputCRS {
            // Only the rows whose coordinates were read go to PROJ.
            let read = (0..<n).filter { batch.coordinateProblems[$0] == nil }
            var readXs = read.flatMap { [xs[2 * $0], xs[2 * $0 + 1]] }
            var readYs = read.flatMap { [ys[2 * $0], ys[2 * $0 + 1]] }
            inputCRS.transform(x: &readXs, y: &readYs)
            for (j, k) in read.enumerated() {
                xs[2 * k] = readXs[2 * j]
                xs[2 * k + 1] = readXs[2 * j + 1]
                ys[2 * k] = readYs[2 * j]
                ys[2 * k + 1] = readYs[2 * j + 1]
            }
        }
        var pairs = [MeasurementPair?](repeating: nil, count: n)
        var results = [Result<Measurement, Problem>](repeating: .failure(Problem("not measured")), count: n)
        var wanted: [MeasurementPair] = []
        wanted.reserveCapacity(n)
        for k in 0..<n {
            if let problem = batch.coordinateProblems[k] {
                results[k] = .failure(Problem(problem))
                continue
            }
            let heights: Result<(from: Double?, to: Double?), Problem> =
                if let problem = batch.heightProblems[k] {
                    .failure(Problem(problem))
                } else {
                    .success((batch.heights[2 * k].isNaN ? nil : batch.heights[2 * k], batch.heights[2 * k + 1].isNaN ? nil : batch.heights[2 * k + 1]))
                }
            switch pair(from: (xs[2 * k], ys[2 * k]), to: (xs[2 * k + 1], ys[2 * k + 1]), heights: heights, checkWGS84: checkWGS84) {
            case .success(let p):
                pairs[k] = p
                wanted.append(p)
            case .failure(let problem): results[k] = .failure(problem)
            }
        }
        let measured = try measurer.measure(wanted)
        var next = 0
        for k in 0..<n where pairs[k] != nil {
            results[k] = measured[next].map(\.measurement).mapError { Problem($0.message) }
            next += 1
        }
        return Measured(pairs: pairs, results: results)
    }
}
