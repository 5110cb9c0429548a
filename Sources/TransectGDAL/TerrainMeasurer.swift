import TransectCore

/// Measures pairs of points over terrain: heights from the DEM for endpoints without one
/// (raised by a height above ground), ellipsoidal heights h = H + N when a geoid is given, and
/// the ``Measurement`` between the two.
public struct TerrainMeasurer {
    /// The DEM; needed only when some endpoint has no given height.
    public let model: ElevationModel?
    public let geoid: Geoid?
    /// Added to every height sampled from the DEM (not to given heights), metres.
    public var aboveGroundMetres: Double
    public var interpolation: Interpolation

    public init(
        model: ElevationModel?, geoid: Geoid? = nil, aboveGroundMetres: Double = 0,
        interpolation: Interpolation = .bilinear
    ) {
        self.model = model
        self.geoid = geoid
        self.aboveGroundMetres = aboveGroundMetres
        self.interpolation = interpolation
    }

    /// Measures a batch: one DEM read for every endpoint without a height, one geoid read for
    /// every endpoint. Each pair succeeds or fails on its own, in order:
    /// - an endpoint without a height on no data, or off the DEM, fails the pair with
    ///   ``TerrainError/noData(point:dem:)`` or ``TerrainError/outsideCoverage(point:dem:)``
    ///   (the first such endpoint is named);
    /// - with a geoid, an endpoint where the geoid has no value fails the pair with
    ///   ``TerrainError/outsideCoverage(point:dem:)`` naming the geoid (the start when both).
    ///
    /// Errors of the reads themselves (a failed read, an implausible height) throw.
    /// - Precondition: ``model`` is set when a pair lacks a height.
    ///
    /// `sampled`, when given, holds ``demHeights(for:)`` of these pairs (read beforehand with
    /// other pairs, say), and the DEM is not read again.
    public func measure(
        _ pairs: [MeasurementPair], sampled given: [Double]? = nil
    ) throws(TerrainError) -> [Result<
        MeasuredPair, TerrainError
    >] {
        let sampled: [Double]
        if let given { sampled = given } else { sampled = try demHeights(for: pairs) }
        var undulations: [Double] = []
        if let geoid {
            undulations = try geoid.undulations(at: pairs.flatMap { [$0.from, $0.to] })
        }
        // Every pair's geodesic at once, four pairs at a time (the same bits as one by one).
        let geodesics = Geodesic.wgs84.inverse(from: pairs.map(\.from), to: pairs.map(\.to))
        var next = 0
        var results: [Result<MeasuredPair, TerrainError>] = []
        results.reserveCapacity(pairs.count)
        for (k, pair) in pairs.enumerated() {
            var heights: [Double] = []
            var sources: [HeightSource] = []
            var failure: TerrainError?
            for (point, z) in [(pair.from, pair.fromZ), (pair.to, pair.toZ)] {
                if let z {
                    heights.append(z)
                    sources.append(.given)
                    continue
                }
                let h = sampled[next]
                next += 1
                if h.isNaN, failure == nil, let model {
                    failure = model.missingHeightError(at: point)
                }
                heights.append(h + aboveGroundMetres)
                sources.append(.dem)
            }
            if let failure {
                results.append(.failure(failure))
                continue
            }
            var ellipsoidal: [Double?] = [nil, nil]
            if let geoid {
                let n1 = undulations[2 * k]
                let n2 = undulations[2 * k + 1]
                guard n1.isFinite, n2.isFinite else {
                    let point = n1.isFinite ? pair.to : pair.from
                    results.append(.failure(.outsideCoverage(point: point.coordinateText, dem: geoid.label)))
                    continue
                }
                ellipsoidal = [heights[0] + n1, heights[1] + n2]
            }
            var start = pair.from
            var end = pair.to
            start.heightMetres = heights[0]
            end.heightMetres = heights[1]
            let m = Measurement(
                start: start, end: end, startEllipsoidalHeightMetres: ellipsoidal[0],
                endEllipsoidalHeightMetres: ellipsoidal[1], inverse: geodesics[k])
            results.append(.success(MeasuredPair(measurement: m, startSource: sources[0], endSource: sources[1])))
        }
        return results
    }

    /// Heights from the DEM, in metres, of the endpoints of `pairs` that have no given height,
    /// in order (`from` before `to`): `nan` off the DEM or on no data, no height above ground
    /// added. One read for them all (``ElevationModel/elevations(at:interpolation:)``).
    /// - Precondition: ``model`` is set when a pair lacks a height.
    public func demHeights(for pairs: [MeasurementPair]) throws(TerrainError) -> [Double] {
        var wanted: [GeoPoint] = []
        for pair in pairs {
            if pair.fromZ == nil { wanted.append(pair.from) }
            if pair.toZ == nil { wanted.append(pair.to) }
        }
        guard !wanted.isEmpty else { return [] }
        guard let model else { preconditionFailure("a pair without a given height needs a DEM") }
        return try model.elevations(at: wanted, interpolation: interpolation)
    }

    /// Measures one pair; its failure throws.
    public func measure(_ pair: MeasurementPair) throws(TerrainError) -> MeasuredPair {
        try measure([pair])[0].get()
    }
}
