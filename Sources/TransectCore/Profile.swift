/// An elevation profile along a geodesic path: samples at distances from the start, each with
/// its position and elevation, or a gap (`nan`) where the DEM has no data. A gap is never a zero.
///
/// Stored as parallel arrays (structure of arrays) so the statistics kernels run over
/// contiguous doubles.
public struct Profile: Sendable {
    /// Geodesic distance from the start along the path, metres, non-decreasing.
    public var distancesMetres: [Double]
    /// Longitudes in degrees, in −180…180.
    public var longitudes: [Double]
    /// Latitudes in degrees.
    public var latitudes: [Double]
    /// Elevations in metres; `nan` marks a gap.
    public var elevationsMetres: [Double]

    public init(distancesMetres: [Double], longitudes: [Double], latitudes: [Double], elevationsMetres: [Double]) {
        precondition(
            distancesMetres.count == longitudes.count && longitudes.count == latitudes.count
                && latitudes.count == elevationsMetres.count, "profile arrays must have equal lengths")
        self.distancesMetres = distancesMetres
        self.longitudes = longitudes
        self.latitudes = latitudes
        self.elevationsMetres = elevationsMetres
    }

    /// The number of samples.
    public var count: Int { distancesMetres.count }

    /// The path's horizontal length in metres (the distance of the last sample).
    public var lengthMetres: Double { distancesMetres.last ?? 0 }
}

/// Where to take the samples of a profile along a path of geodesic legs.
public struct ProfilePlan: Sendable {
    /// Distances from the start of the path, metres.
    public var distancesMetres: [Double]
    /// Positions of the samples.
    public var longitudes: [Double]
    public var latitudes: [Double]

    /// How samples are spaced.
    public enum Spacing: Sendable, Hashable {
        /// A fixed step in metres along each leg; the last step of a leg may be shorter.
        case step(Double)
        /// This many samples over the whole path, evenly spaced (at least 2 unless the path has
        /// no length).
        case count(Int)
    }

    /// A plan from explicit samples (for paths assembled by the caller).
    public init(distancesMetres: [Double], longitudes: [Double], latitudes: [Double]) {
        precondition(distancesMetres.count == longitudes.count && longitudes.count == latitudes.count)
        self.distancesMetres = distancesMetres
        self.longitudes = longitudes
        self.latitudes = latitudes
    }

    /// Counts the samples a path would get, without computing them, so that a request for
    /// billions can be refused before it allocates.
    public static func sampleCount(legLengthsMetres: [Double], spacing: Spacing) -> Int {
        switch spacing {
        case .count(let n):
            return legLengthsMetres.reduce(0, +) > 0 ? max(n, 2) : 1
        case .step(let step):
            var total = 1.0
            for length in legLengthsMetres where length > 0 { total += (length / step).rounded(.up) }
            // Saturate rather than trap: the caller compares with its limit.
            return total < 1e15 ? Int(total) : Int(1e15)
        }
    }

    /// Samples along the geodesic legs between consecutive `vertices` (longitude, latitude in
    /// degrees). Every vertex is a sample; distance runs on continuously from leg to leg.
    /// Positions come from ``GeodesicLine/positions(atDistances:)``, not from a straight line
    /// in longitude/latitude.
    ///
    /// - Complexity: O(n) for n samples.
    public init(vertices: [GeoPoint], spacing: Spacing, geodesic: Geodesic = .wgs84) {
        precondition(!vertices.isEmpty, "a path needs at least one vertex")
        let lines = zip(vertices, vertices.dropFirst()).map { geodesic.inverseLine(from: $0, to: $1) }
        let lengths = lines.map { $0.distanceMetres ?? 0 }
        let total = lengths.reduce(0, +)
        var distances: [Double] = [0]
        var lons: [Double] = [GeoPoint.reducedLongitude(vertices[0].longitude)]
        var lats: [Double] = [vertices[0].latitude]
        let expected = Self.sampleCount(legLengthsMetres: lengths, spacing: spacing)
        distances.reserveCapacity(expected)
        lons.reserveCapacity(expected)
        lats.reserveCapacity(expected)
        var start = 0.0
        for (leg, line) in lines.enumerated() {
            let length = lengths[leg]
            guard length > 0 else { continue }
            var local: [Double] = []
            switch spacing {
            case .step(let step):
                let steps = Int((length / step).rounded(.up))
                local.reserveCapacity(steps)
                for k in 1..<steps { local.append(Double(k) * step) }
            case .count(let n):
                // Spread n − 1 intervals over the path; each leg gets its share, at least one.
                let intervals = max(1, Int((Double(max(n, 2) - 1) * length / total).rounded()))
                for k in 1..<intervals { local.append(length * Double(k) / Double(intervals)) }
            }
            let positions = line.positions(atDistances: local)
            for (k, p) in positions.enumerated() {
                distances.append(start + local[k])
                lons.append(p.longitude)
                lats.append(p.latitude)
            }
            // The leg's end is the next vertex itself, exactly.
            start += length
            distances.append(start)
            lons.append(GeoPoint.reducedLongitude(vertices[leg + 1].longitude))
            lats.append(vertices[leg + 1].latitude)
        }
        distancesMetres = distances
        longitudes = lons
        latitudes = lats
    }
}
