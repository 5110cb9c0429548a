import Glibc

/// A track's figures as gpxpy computes them: `GPX.length_2d()`, `length_3d()`,
/// `get_duration()`, `get_moving_data()` and `get_uphill_downhill()` of gpxpy 1.6 (read in
/// its `geo.py` and `gpx.py`), rule for rule, so that the numbers are gpxpy's to rounding.
///
/// **Distance** (`geo.distance`). Between two points less than 0.2° apart in latitude and in
/// longitude, a flat approximation: √(Δφ² + (Δλ·cos φ)²) × 111,319.49 m, with Δφ, Δλ in
/// degrees, φ the latitude of the later point and 111,319.49 m one degree on a sphere of the
/// WGS84 equatorial radius (2π × 6,378,137 m / 360). Farther apart, the haversine distance on
/// that sphere, with no elevation. The 3D distance adds the elevation difference to the flat
/// one by Pythagoras when both points have an elevation and they differ.
///
/// **Lengths** sum the step distances within each segment, segments summed; never across the
/// gap between two segments.
///
/// **Duration** sums, segment by segment, the time from its first to its last point (the
/// second or the second-to-last when an end has no time); it is unknown (nil) when any segment
/// of two or more points has no time at both candidates of an end, or ends before it starts.
/// Times are whole microseconds, as Python's `datetime` keeps them (``TrackPoint/exactMicroseconds``).
///
/// **Moving data.** A step between two timed points that takes more than 0 s and covers more
/// than 0 m is *stopped* at 1 km/h or slower and *moving* above it. The step's distance is 3D
/// when both elevations are known and not 0 (gpxpy tests them for truth), else 2D. Each
/// segment's maximum speed comes from its steps from the first moving one on (stopped ones
/// after it included): steps whose distance lies more than 1.5 standard deviations from the
/// mean step distance are set aside, and of the others' speeds, sorted, the one at index
/// ⌊0.95 n⌋ (the top 5 % dropped); a segment with fewer than two such steps has none. The
/// track's maximum is the largest of its segments', 0 when none has one.
///
/// **Uphill and downhill**, segment by segment: the elevations that are known, each but the
/// first and last replaced by 0.3 × the one before + 0.4 × itself + 0.3 × the one after, then
/// the rises summed as uphill and the falls as downhill.
///
/// gpxpy's own figures count GPX tracks only; routes (which ``Track`` reads as segments too)
/// are in these. Sums run left to right, as Python 3.11's `sum` does (3.12's compensated `sum`
/// can move the 1.5-deviation cut by a rounding).
///
/// - Complexity: O(n), plus sorting each segment's step speeds.
public struct GPXPyStatistics: Sendable, Hashable {
    /// `length_2d()`, metres.
    public var length2DMetres: Double
    /// `length_3d()`, metres.
    public var length3DMetres: Double
    /// `get_duration()`, seconds; nil where gpxpy returns None.
    public var durationSeconds: Double?
    /// `get_moving_data()`'s moving and stopped time (seconds) and distance (metres).
    public var movingTimeSeconds: Double
    public var stoppedTimeSeconds: Double
    public var movingDistanceMetres: Double
    public var stoppedDistanceMetres: Double
    /// `get_moving_data()`'s maximum speed, m/s.
    public var maxSpeedMetresPerSecond: Double
    /// `get_uphill_downhill()`, metres.
    public var uphillMetres: Double
    public var downhillMetres: Double

    /// gpxpy's `EARTH_RADIUS`: the WGS84 semi-major axis, written as 6378.137 × 1000.
    public static let earthRadiusMetres = 6378.137 * 1000
    /// gpxpy's `ONE_DEGREE`: a degree of that sphere's great circle, metres.
    public static let oneDegreeMetres = (2 * Double.pi * earthRadiusMetres) / 360
    /// Points farther apart than this in latitude or longitude, degrees, use the haversine.
    public static let flatLimitDegrees = 0.2
    /// gpxpy's `DEFAULT_STOPPED_SPEED_THRESHOLD`, km/h: a step this fast or slower is stopped.
    public static let stoppedSpeedKilometresPerHour = 1.0
    /// gpxpy's `IGNORE_TOP_SPEED_PERCENTILES`: the fraction of fastest steps left out.
    public static let ignoredTopSpeedFraction = 0.05

    /// gpxpy's figures of `track` with `elevations` (one per point, segment after segment; nil
    /// where unknown) standing for the points' `ele`.
    public init(track: Track, elevations: [Double?]) {
        precondition(elevations.count == track.pointCount, "one elevation per point")
        length2DMetres = 0
        length3DMetres = 0
        movingTimeSeconds = 0
        stoppedTimeSeconds = 0
        movingDistanceMetres = 0
        stoppedDistanceMetres = 0
        maxSpeedMetresPerSecond = 0
        uphillMetres = 0
        downhillMetres = 0
        var duration: Double? = 0
        var k = 0
        for segment in track.segments {
            let z = Array(elevations[k..<(k + segment.count)])
            let times = segment.map(\.exactMicroseconds)
            k += segment.count
            var length2D = 0.0
            var length3D = 0.0
            for i in segment.indices.dropFirst() {
                let (p, q) = (segment[i], segment[i - 1])
                let d2 = Self.distance(p.latitude, p.longitude, nil, q.latitude, q.longitude, nil)
                if d2 != 0 { length2D += d2 }
                let d3 = Self.distance(p.latitude, p.longitude, z[i], q.latitude, q.longitude, z[i - 1])
                if d3 != 0 { length3D += d3 }
            }
            if length2D != 0 { length2DMetres += length2D }
            if length3D != 0 { length3DMetres += length3D }
            if duration != nil { duration = Self.segmentDuration(times).map { duration! + $0 } }
            let moving = Self.movingData(segment, times: times, elevations: z)
            movingTimeSeconds += moving.movingTime
            stoppedTimeSeconds += moving.stoppedTime
            movingDistanceMetres += moving.movingDistance
            stoppedDistanceMetres += moving.stoppedDistance
            if let m = moving.maxSpeed, m > maxSpeedMetresPerSecond { maxSpeedMetresPerSecond = m }
            let (up, down) = Self.uphillDownhill(z)
            uphillMetres += up
            downhillMetres += down
        }
        durationSeconds = duration
    }

    /// `geo.distance`: from the point at `latitude1`, `longitude1` (the later one: its
    /// latitude scales the longitudes) to the other, metres; 3D when both elevations are given.
    public static func distance(
        _ latitude1: Double, _ longitude1: Double, _ elevation1: Double?, _ latitude2: Double, _ longitude2: Double,
        _ elevation2: Double?
    ) -> Double {
        if (latitude1 - latitude2).magnitude > flatLimitDegrees || (longitude1 - longitude2).magnitude > flatLimitDegrees {
            return haversine(latitude1, longitude1, latitude2, longitude2)
        }
        let coef = cos(radians(latitude1))
        let x = latitude1 - latitude2
        let y = (longitude1 - longitude2) * coef
        let flat = (x * x + y * y).squareRoot() * oneDegreeMetres
        guard let elevation1, let elevation2, elevation1 != elevation2 else { return flat }
        return (pow(flat, 2) + pow(elevation1 - elevation2, 2)).squareRoot()
    }

    /// `geo.haversine_distance` on the sphere of ``earthRadiusMetres``, metres.
    public static func haversine(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let dLon = radians(longitude1 - longitude2)
        let lat1 = radians(latitude1)
        let lat2 = radians(latitude2)
        let dLat = lat1 - lat2
        let a = pow(sin(dLat / 2), 2) + pow(sin(dLon / 2), 2) * cos(lat1) * cos(lat2)
        return earthRadiusMetres * (2 * asin(a.squareRoot()))
    }

    /// Python's `math.radians`: degrees × (π / 180), the factor rounded once.
    static func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }

    /// `GPXTrackSegment.get_duration`, seconds: 0 below two points, nil without times at an end
    /// or when the end is before the start.
    static func segmentDuration(_ times: [Int64?]) -> Double? {
        guard times.count >= 2 else { return 0 }
        guard let first = times[0] ?? times[1], let last = times[times.count - 1] ?? times[times.count - 2] else { return nil }
        guard last >= first else { return nil }
        return Double(last - first) / 1e6
    }

    /// `GPXTrackSegment.get_moving_data` with its defaults: moving and stopped time and
    /// distance, and the maximum speed (nil where gpxpy's is None).
    static func movingData(
        _ segment: [TrackPoint], times: [Int64?], elevations z: [Double?]
    ) -> (
        movingTime: Double, stoppedTime: Double, movingDistance: Double, stoppedDistance: Double, maxSpeed: Double?
    ) {
        var movingTime = 0.0
        var stoppedTime = 0.0
        var movingDistance = 0.0
        var stoppedDistance = 0.0
        var speedsAndDistances: [(speed: Double, distance: Double)] = []
        for i in segment.indices.dropFirst() {
            guard let t = times[i], let tq = times[i - 1] else { continue }
            let (p, q) = (segment[i], segment[i - 1])
            // `if point.elevation and previous.elevation`: 0 m counts as no elevation here.
            let both = (z[i] ?? 0) != 0 && (z[i - 1] ?? 0) != 0
            let distance = Self.distance(p.latitude, p.longitude, both ? z[i] : nil, q.latitude, q.longitude, both ? z[i - 1] : nil)
            let seconds = Double(t - tq) / 1e6
            guard seconds > 0, distance != 0 else { continue }
            let kilometresPerHour = (distance / 1000) / (seconds / 3600)
            if kilometresPerHour <= stoppedSpeedKilometresPerHour {
                stoppedTime += seconds
                stoppedDistance += distance
            } else {
                movingTime += seconds
                movingDistance += distance
            }
            if movingTime != 0 { speedsAndDistances.append((distance / seconds, distance)) }
        }
        return (movingTime, stoppedTime, movingDistance, stoppedDistance, maxSpeed(speedsAndDistances))
    }

    /// `geo.calculate_max_speed` with gpxpy's defaults: steps more than 1.5 standard deviations
    /// from the mean distance set aside, then the speed at ⌊0.95 n⌋ of the rest sorted; nil for
    /// fewer than two steps.
    static func maxSpeed(_ steps: [(speed: Double, distance: Double)]) -> Double? {
        guard steps.count >= 2 else { return nil }
        let size = Double(steps.count)
        var sum = 0.0
        for s in steps { sum += s.distance }
        let average = sum / size
        var squares = 0.0
        for s in steps { squares += pow(s.distance - average, 2) }
        let deviation = (squares / size).squareRoot()
        let speeds = steps.filter { ($0.distance - average).magnitude <= deviation * 1.5 }.map(\.speed).sorted()
        guard !speeds.isEmpty else { return nil }
        let index = Int(Double(speeds.count) * (1 - ignoredTopSpeedFraction))
        return index >= speeds.count ? speeds[speeds.count - 1] : speeds[index]
    }

    /// `geo.calculate_uphill_downhill`: the known elevations smoothed 0.3/0.4/0.3 with their
    /// neighbours (the ends kept), rises and falls summed.
    static func uphillDownhill(_ elevations: [Double?]) -> (up: Double, down: Double) {
        let z = elevations.compactMap { $0 }
        var smoothed = z
        if z.count > 2 {
            for n in 1..<(z.count - 1) { smoothed[n] = z[n - 1] * 0.3 + z[n] * 0.4 + z[n + 1] * 0.3 }
        }
        var up = 0.0
        var down = 0.0
        for (previous, current) in zip(smoothed, smoothed.dropFirst()) {
            let d = current - previous
            if d > 0 { up += d } else { down -= d }
        }
        return (up, down)
    }
}
