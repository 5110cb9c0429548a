import TransectAnalysis
import TransectGeodesy
import TransectRaster

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
        var results: [Result<MeasuredPair, TerrainError>] = []
        try measure(pairs, sampled: given, into: &results)
        return results
    }

    /// ``measure(_:sampled:)`` into `results`, whose elements are replaced and its storage
    /// kept, so that a caller measuring batch after batch allocates it once (left as it was
    /// when this throws).
    public func measure(
        _ pairs: [MeasurementPair], sampled given: [Double]? = nil, into results: inout [Result<MeasuredPair, TerrainError>]
    ) throws(TerrainError) {
        let sampled: [Double]
        if let given { sampled = given } else { sampled = try demHeights(for: pairs) }
        var undulations: [Double] = []
        if let geoid {
            undulations = try geoid.undulations(at: pairs.flatMap { [$0.from, $0.to] })
        }
        // Every pair's geodesic at once, four pairs at a time (the same bits as one by one).
        let geodesics = Geodesic.wgs84.inverse(from: pairs.map(\.from), to: pairs.map(\.to))
        var next = 0
        results.reserveCapacity(pairs.count)
        for (k, pair) in pairs.enumerated() {
            // Scalars rather than small arrays: no allocation per pair.
            var failure: TerrainError?
            let (startHeight, startSource) = height(pair.fromZ, at: pair.from, sampled: sampled, next: &next, failure: &failure)
            let (endHeight, endSource) = height(pair.toZ, at: pair.to, sampled: sampled, next: &next, failure: &failure)
            if let failure {
                results.put(.failure(failure), at: k)
                continue
            }
            var startEllipsoidal: Double?
            var endEllipsoidal: Double?
            if let geoid {
                let n1 = undulations[2 * k]
                let n2 = undulations[2 * k + 1]
                guard n1.isFinite, n2.isFinite else {
                    let point = n1.isFinite ? pair.to : pair.from
                    results.put(.failure(.outsideCoverage(point: point.coordinateText, dem: geoid.label)), at: k)
                    continue
                }
                startEllipsoidal = startHeight + n1
                endEllipsoidal = endHeight + n2
            }
            var start = pair.from
            var end = pair.to
            start.heightMetres = startHeight
            end.heightMetres = endHeight
            let m = Measurement(
                start: start, end: end, startEllipsoidalHeightMetres: startEllipsoidal,
                endEllipsoidalHeightMetres: endEllipsoidal, inverse: geodesics[k])
            results.put(.success(MeasuredPair(measurement: m, startSource: startSource, endSource: endSource)), at: k)
        }
        if results.count > pairs.count { results.removeSubrange(pairs.count...) }
    }

    /// An endpoint's height and where it came from: `z` when given, else the next of
    /// `sampled` raised by ``aboveGroundMetres``; a sampled `nan` sets `failure` unless set.
    private func height(
        _ z: Double?, at point: GeoPoint, sampled: [Double], next: inout Int, failure: inout TerrainError?
    ) -> (Double, HeightSource) {
        if let z { return (z, .given) }
        let h = sampled[next]
        next += 1
        if h.isNaN, failure == nil, let model {
            failure = model.missingHeightError(at: point)
        }
        return (h + aboveGroundMetres, .dem)
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

extension Array {
    /// Sets element `index`, at most ``count``: over the one there, or appended at the end.
    /// An array kept from batch to batch and refilled this way lets go of each old element
    /// in place (specialised code), where `removeAll(keepingCapacity:)` destroys them all
    /// through the generic value witnesses, one call per element.
    @inline(__always) mutating func put(_ element: Element, at index: Int) {
        if index < count { self[index] = element } else { append(element) }
    }
}
