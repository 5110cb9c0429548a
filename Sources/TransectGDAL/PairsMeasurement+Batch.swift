import TransectAnalysis
import TransectRaster

extension PairsMeasurement {
    /// Rows whose DEM heights are read together when the DEM is large
    /// (``rowsReadTogether(model:interpolation:)``): eight ``batchRows`` batches. The endpoints
    /// of so many rows are sampled chunk by chunk of the raster, the chunks in the order of a
    /// Hilbert curve over them (``HilbertCurve``), so rows far apart in the
    /// input that touch the same DEM blocks share one read of them: with the rows in no spatial
    /// order, eight times fewer window reads than batch by batch. Memory stays bounded by it (a
    /// few megabytes of rows and output per span), never by the input.
    public static let spanRows = 8 * batchRows

    /// The rows to measure together over `model`: ``spanRows`` when the DEM's windows (one per
    /// chunk of the raster) would not all fit in its window cache, so that batches in no
    /// spatial order would read most windows again and again; ``batchRows`` when they fit
    /// (after its first batches every window is at hand, and larger spans would only cost
    /// memory and page faults) or without a DEM.
    public static func rowsReadTogether(model: ElevationModel?, interpolation: Interpolation) -> Int {
        guard let model else { return batchRows }
        let chunk = ElevationModel.sampleChunk
        let chunks = ((model.width + chunk - 1) / chunk) * ((model.height + chunk - 1) / chunk)
        let side = chunk + 2 * interpolation.radius + 1
        let windowBytes = side * side * (model.storesFloat32Windows ? 4 : 8)
        return chunks.multipliedReportingOverflow(by: windowBytes).partialValue <= model.windowCache.budgetBytes && chunks < 1 << 20
            ? batchRows : spanRows
    }

    /// A batch's results, row by row in input order: each row's pair in WGS84 where it could
    /// be read (nil where its coordinates, their transform, their range or its heights had a
    /// problem), and its measurement or why there is none.
    public struct Measured: Sendable {
        public var pairs: [MeasurementPair?]
        public var results: [Result<Measurement, Problem>]
    }

    /// Measures a batch of rows with one ``TerrainMeasurer/measure(_:sampled:)`` call, as the
    /// stream measures each of its batches: the rows' coordinates taken to WGS84 through
    /// `inputCRS` (all at once), checked by `checkWGS84`, and each row's first problem kept in
    /// its place.
    ///
    /// Pure but for the measurer and the transformer, which belong to the calling thread:
    /// batches measured on several threads, each with its own, give the same results.
    /// - Throws: the ``TerrainError`` of a failed read, as ``TerrainMeasurer/measure(_:sampled:)``.
    public static func measure(
        _ batch: PairsBatch, measurer: TerrainMeasurer, inputCRS: CoordinateTransformer?,
        checkWGS84: (Double, Double) -> Problem?
    ) throws(TerrainError) -> Measured {
        var whole = Measured(pairs: [], results: [])
        try measure(batch, measurer: measurer, inputCRS: inputCRS, checkWGS84: checkWGS84, rowsPerStep: max(batch.count, 1)) {
            whole = $1
        }
        return whole
    }

    /// Measures a span of rows (up to ``spanRows``) in steps of `rowsPerStep`, handing each
    /// step's rows and results to `body` in input order: the results of
    /// ``measure(_:measurer:inputCRS:checkWGS84:)`` on each step, bit for bit, with the DEM read
    /// once for the whole span, in the order of its blocks rather than of the rows. A cell's
    /// value does not depend on the read that brought it (see
    /// ``ElevationModel/elevations(at:interpolation:)``), so only the speed differs, while
    /// the results beyond the heights (geodesics, geoid, ECEF) stay a step's worth of memory.
    /// - Throws: the ``TerrainError`` of a failed read, before `body` sees any step.
    public static func measure(
        _ batch: PairsBatch, measurer: TerrainMeasurer, inputCRS: CoordinateTransformer?,
        checkWGS84: (Double, Double) -> Problem?, rowsPerStep: Int, _ body: (PairsBatch, Measured) -> Void
    ) throws(TerrainError) {
        var scratch = Scratch()
        try measure(
            batch, measurer: measurer, inputCRS: inputCRS, checkWGS84: checkWGS84, rowsPerStep: rowsPerStep, scratch: &scratch, body)
    }

    /// The arrays a span's measurement fills, kept from span to span by whoever measures many
    /// (one per thread), so that their storage is allocated, and its pages touched, once.
    public struct Scratch {
        var pairs: [MeasurementPair?] = []
        var problems: [Problem?] = []
        var read: [MeasurementPair] = []
        var measured: [Result<MeasuredPair, TerrainError>] = []
        var step = Measured(pairs: [], results: [])

        public init() {}
    }

    /// ``measure(_:measurer:inputCRS:checkWGS84:rowsPerStep:_:)`` with its arrays in `scratch`.
    public static func measure(
        _ batch: PairsBatch, measurer: TerrainMeasurer, inputCRS: CoordinateTransformer?,
        checkWGS84: (Double, Double) -> Problem?, rowsPerStep: Int, scratch: inout Scratch,
        _ body: (PairsBatch, Measured) -> Void
    ) throws(TerrainError) {
        precondition(rowsPerStep >= 1, "a step holds a row at least")
        let n = batch.count
        var xs = batch.xs
        var ys = batch.ys
        if let inputCRS {
            // Only the rows whose coordinates were read go to PROJ.
            let read = (0..<n).filter { batch.coordinateProblems[$0] == nil }
            var readXs = read.flatMap { [xs[2 * $0], xs[2 * $0 + 1]] }
            var readYs = read.flatMap { [ys[2 * $0], ys[2 * $0 + 1]] }
            try inputCRS.transform(x: &readXs, y: &readYs)
            for (j, k) in read.enumerated() {
                xs[2 * k] = readXs[2 * j]
                xs[2 * k + 1] = readXs[2 * j + 1]
                ys[2 * k] = readYs[2 * j]
                ys[2 * k + 1] = readYs[2 * j + 1]
            }
        }
        // Taken out of the scratch for the span (so that they have one owner) and put back after.
        var pairs = scratch.pairs
        var problems = scratch.problems
        var read = scratch.read
        var measured = scratch.measured
        var step = scratch.step
        scratch = Scratch()
        defer {
            scratch.pairs = pairs
            scratch.problems = problems
            scratch.read = read
            scratch.measured = measured
            scratch.step = step
        }
        pairs.removeAll(keepingCapacity: true)
        pairs.append(contentsOf: repeatElement(nil, count: n))
        problems.removeAll(keepingCapacity: true)
        problems.append(contentsOf: repeatElement(nil, count: n))
        // Most batches have no problem at all: no dictionary lookup per row then.
        let anyCoordinateProblem = !batch.coordinateProblems.isEmpty
        let anyHeightProblem = !batch.heightProblems.isEmpty
        for k in 0..<n {
            if anyCoordinateProblem, let problem = batch.coordinateProblems[k] {
                problems[k] = Problem(problem)
                continue
            }
            let heights: Result<(from: Double?, to: Double?), Problem> =
                if anyHeightProblem, let problem = batch.heightProblems[k] {
                    .failure(Problem(problem))
                } else {
                    .success((batch.heights[2 * k].isNaN ? nil : batch.heights[2 * k], batch.heights[2 * k + 1].isNaN ? nil : batch.heights[2 * k + 1]))
                }
            switch pair(from: (xs[2 * k], ys[2 * k]), to: (xs[2 * k + 1], ys[2 * k + 1]), heights: heights, checkWGS84: checkWGS84) {
            case .success(let p): pairs[k] = p
            case .failure(let problem): problems[k] = problem
            }
        }
        // Every height the span needs from the DEM, in one read.
        read.removeAll(keepingCapacity: true)
        for case let pair? in pairs { read.append(pair) }
        let heights = try measurer.demHeights(for: read)
        var nextHeight = 0
        var start = 0
        while start < n {
            let end = min(start + rowsPerStep, n)
            // A span of one step (the usual case) measures what was read as it is, uncopied.
            let whole = start == 0 && end == n
            let wanted = whole ? read : pairs[start..<end].compactMap { $0 }
            let needed = wanted.reduce(0) { $0 + ($1.fromZ == nil ? 1 : 0) + ($1.toZ == nil ? 1 : 0) }
            try measurer.measure(
                wanted, sampled: whole ? heights : Array(heights[nextHeight..<nextHeight + needed]), into: &measured)
            nextHeight += needed
            step.results.reserveCapacity(end - start)
            var next = 0
            for k in start..<end {
                if pairs[k] != nil {
                    step.results.put(measured[next].map(\.measurement).mapError { Problem($0.message) }, at: k - start)
                    next += 1
                } else {
                    step.results.put(.failure(problems[k] ?? Problem("not measured")), at: k - start)
                }
            }
            if step.results.count > end - start { step.results.removeSubrange((end - start)...) }
            // The whole span's pairs are lent to the step rather than copied, and taken back.
            if whole {
                swap(&step.pairs, &pairs)
            } else {
                step.pairs.removeAll(keepingCapacity: true)
                step.pairs.append(contentsOf: pairs[start..<end])
            }
            // `body` sees the step's arrays only while it runs (it keeps a copy at its cost).
            body(batch.rows(start..<end), step)
            if whole { swap(&step.pairs, &pairs) }
            start = end
        }
    }
}
