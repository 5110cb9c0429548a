import TransectGeodesy
import TransectSupport

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
    /// Positions come from ``GeodesicLine/positions(atDistances:latitudes:longitudes:azimuths:)``
    /// (four at a time, each bit for bit ``GeodesicLine/position(atDistance:)``), not from a
    /// straight line in longitude/latitude, written straight into the plan's arrays.
    ///
    /// - Parameter parallel: a loop that runs chunks of a leg's positions on several threads
    ///   (nil: on this one). Each position is its own, so the plan is the same bits either way.
    /// - Complexity: O(n) for n samples.
    public init(vertices: [GeoPoint], spacing: Spacing, geodesic: Geodesic = .wgs84, parallel: ParallelLoop? = nil) {
        precondition(!vertices.isEmpty, "a path needs at least one vertex")
        let lines = zip(vertices, vertices.dropFirst()).map { geodesic.inverseLine(from: $0, to: $1) }
        let lengths = lines.map { $0.distanceMetres ?? 0 }
        let total = lengths.reduce(0, +)
        // Each leg's samples strictly inside it, k = 1…inner, at `local(k)` metres from its start.
        let legs = lengths.map { length -> (inner: Int, local: @Sendable (Int) -> Double) in
            guard length > 0 else { return (0, { _ in 0 }) }
            switch spacing {
            case .step(let step):
                let steps = Int((length / step).rounded(.up))
                return (max(0, steps - 1), { k in Double(k) * step })
            case .count(let n):
                // Spread n − 1 intervals over the path; each leg gets its share, at least one.
                let intervals = max(1, Int((Double(max(n, 2) - 1) * length / total).rounded()))
                return (intervals - 1, { k in length * Double(k) / Double(intervals) })
            }
        }
        var count = 1
        for (leg, length) in lengths.enumerated() where length > 0 { count += legs[leg].inner + 1 }
        // Every entry is written below (the first vertex, each leg's inner samples, each leg's
        // end), so the arrays start uninitialised: their pages are first touched by the
        // threads that fill them.
        var lons: [Double] = []
        var lats: [Double] = []
        let distances = [Double](unsafeUninitializedCapacity: count) { d, dCount in
            lons = [Double](unsafeUninitializedCapacity: count) { lo, loCount in
                lats = [Double](unsafeUninitializedCapacity: count) { la, laCount in
                    guard let dp = d.baseAddress, let lop = lo.baseAddress, let lap = la.baseAddress else { return }
                    let out = Self.Outputs(distances: dp, longitudes: lop, latitudes: lap)
                    out.distances[0] = 0
                    out.longitudes[0] = GeoPoint.reducedLongitude(vertices[0].longitude)
                    out.latitudes[0] = vertices[0].latitude
                    var index = 1
                    var start = 0.0
                    for (leg, line) in lines.enumerated() {
                        let length = lengths[leg]
                        guard length > 0 else { continue }
                        Self.fill(line, inner: legs[leg].inner, local: legs[leg].local, from: start, at: index, into: out, parallel: parallel)
                        index += legs[leg].inner
                        // The leg's end is the next vertex itself, exactly.
                        start += length
                        out.distances[index] = start
                        out.longitudes[index] = GeoPoint.reducedLongitude(vertices[leg + 1].longitude)
                        out.latitudes[index] = vertices[leg + 1].latitude
                        index += 1
                    }
                    laCount = count
                }
                loCount = count
            }
            dCount = count
        }
        distancesMetres = distances
        longitudes = lons
        latitudes = lats
    }

    /// The plan's three arrays while they are filled.
    ///
    /// `@unchecked Sendable` is safe because each chunk of ``fill(_:inner:local:from:at:into:parallel:)``
    /// writes only its own indices, and the arrays are read only after the loop has returned.
    struct Outputs: @unchecked Sendable {
        let distances: UnsafeMutablePointer<Double>
        let longitudes: UnsafeMutablePointer<Double>
        let latitudes: UnsafeMutablePointer<Double>
    }

    /// Positions along a leg at a fixed chunk size: the same chunks on any thread count.
    static let chunk = 1 << 14

    /// Samples k = 1…`inner` of a leg at indices `index`…: distance `start + local(k)` and the
    /// position at `local(k)` on `line`.
    static func fill(
        _ line: GeodesicLine, inner: Int, local: @escaping @Sendable (Int) -> Double, from start: Double, at index: Int, into out: Outputs,
        parallel: ParallelLoop?
    ) {
        let chunks = (inner + chunk - 1) / chunk
        let part: @Sendable (Int) -> Void = { c in
            let lo = c * chunk
            let n = min(inner, lo + chunk) - lo
            let at = index + lo
            for k in 0..<n { out.distances[at + k] = start + local(lo + k + 1) }
            line.fillPositions(count: n, latitudes: out.latitudes + at, longitudes: out.longitudes + at, azimuths: nil) { k in
                local(lo + k + 1)
            }
        }
        if let parallel, chunks > 1 {
            parallel(chunks, part)
        } else {
            for c in 0..<chunks { part(c) }
        }
    }
}

extension Profile {
    /// The profile a track records: one sample at each of its points, with the elevation it
    /// recorded (`nan` where it has none: a gap, as a DEM's no data is), distances running on
    /// along the geodesics between consecutive points, and between two segments a break
    /// sample (`nan` position and elevation) at the distance where one ends and the next
    /// begins, so no step, length or climb is measured across the jump.
    ///
    /// - Complexity: O(n) geodesic inverses.
    public init(recordedAlong track: Track, geodesic: Geodesic = .wgs84) {
        let n = track.pointCount + max(track.segments.count - 1, 0)
        var d: [Double] = []
        var lon: [Double] = []
        var lat: [Double] = []
        var z: [Double] = []
        d.reserveCapacity(n)
        lon.reserveCapacity(n)
        lat.reserveCapacity(n)
        z.reserveCapacity(n)
        var distance = 0.0
        for (s, segment) in track.segments.enumerated() where !segment.isEmpty {
            if s > 0 && !d.isEmpty {
                d.append(distance)
                lon.append(.nan)
                lat.append(.nan)
                z.append(.nan)
            }
            for (i, p) in segment.enumerated() {
                if i > 0 {
                    let q = segment[i - 1]
                    distance += geodesic.inverse(latitude1: q.latitude, longitude1: q.longitude, latitude2: p.latitude, longitude2: p.longitude).distanceMetres
                }
                d.append(distance)
                lon.append(p.longitude)
                lat.append(p.latitude)
                z.append(p.elevationMetres ?? .nan)
            }
        }
        self.init(distancesMetres: d, longitudes: lon, latitudes: lat, elevationsMetres: z)
    }
}
