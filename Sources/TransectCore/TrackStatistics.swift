/// A track's statistics: lengths, climbing, extremes, times and speeds.
///
/// Lengths and speeds run within segments only. Elevation gain and loss use hysteresis: a
/// change counts only once the elevation has moved `gainThresholdMetres` from the last counted
/// level, so GPS and DEM noise smaller than the threshold does not add up (a steady climb of
/// H metres still counts as H; a ±2 m jitter with a 3 m threshold counts as nothing).
public struct TrackStatistics: Sendable {
    public var points: Int
    public var segments: Int
    /// Sum of geodesic step lengths, metres.
    public var length2DMetres: Double
    /// Sum of √(d² + Δz²) over steps (d alone where an elevation is missing), metres.
    public var length3DMetres: Double
    public var elevationGainMetres: Double
    public var elevationLossMetres: Double
    public var minElevationMetres: Double?
    public var maxElevationMetres: Double?
    /// From the first timestamp to the last, seconds; nil without times.
    public var durationSeconds: Double?
    /// Time spent in steps faster than `movingSpeedThreshold`, seconds; nil without times.
    public var movingTimeSeconds: Double?
    /// 2D length of the moving steps over the moving time, m/s.
    public var averageSpeedMetresPerSecond: Double?
    /// The fastest step, m/s.
    public var maxSpeedMetresPerSecond: Double?
    /// West, south, east, north in degrees; nil for an empty track.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)?

    /// Steps slower than this (1 km/h) count as standing still.
    public static let movingSpeedThreshold = 1000.0 / 3600

    /// Statistics of `track` with `elevations` (one per point, segment after segment; nil where
    /// unknown). Pass the recorded elevations or ones sampled from a DEM.
    public init(track: Track, elevations: [Double?], gainThresholdMetres: Double = 3, geodesic: Geodesic = .wgs84) {
        precondition(elevations.count == track.pointCount, "one elevation per point")
        points = track.pointCount
        segments = track.segments.count
        length2DMetres = 0; length3DMetres = 0
        elevationGainMetres = 0; elevationLossMetres = 0
        var moving = 0.0, movingDistance = 0.0, maxSpeed: Double? = nil
        var firstTime: Double? = nil, lastTime: Double? = nil
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        var k = 0
        var anyTime = false
        for segment in track.segments {
            var reference: Double? = nil
            for (i, p) in segment.enumerated() {
                let z = elevations[k]
                west = min(west, p.longitude); east = max(east, p.longitude)
                south = min(south, p.latitude); north = max(north, p.latitude)
                if let z {
                    minElevationMetres = min(minElevationMetres ?? z, z)
                    maxElevationMetres = max(maxElevationMetres ?? z, z)
                    if let r = reference {
                        if z - r >= gainThresholdMetres { elevationGainMetres += z - r; reference = z }
                        else if r - z >= gainThresholdMetres { elevationLossMetres += r - z; reference = z }
                    } else {
                        reference = z
                    }
                }
                if let t = p.time {
                    anyTime = true
                    firstTime = min(firstTime ?? t, t)
                    lastTime = max(lastTime ?? t, t)
                }
                if i > 0 {
                    let q = segment[i - 1]
                    let d = geodesic.inverse(latitude1: q.latitude, longitude1: q.longitude, latitude2: p.latitude, longitude2: p.longitude).distanceMetres
                    length2DMetres += d
                    if let z, let zq = elevations[k - 1] { length3DMetres += (d * d + (z - zq) * (z - zq)).squareRoot() } else { length3DMetres += d }
                    if let t = p.time, let tq = q.time, t > tq {
                        let speed = d / (t - tq)
                        if speed >= Self.movingSpeedThreshold {
                            moving += t - tq
                            movingDistance += d
                        }
                        maxSpeed = max(maxSpeed ?? speed, speed)
                    }
                }
                k += 1
            }
        }
        if anyTime, let firstTime, let lastTime {
            durationSeconds = lastTime - firstTime
            movingTimeSeconds = moving
            averageSpeedMetresPerSecond = moving > 0 ? movingDistance / moving : 0
            maxSpeedMetresPerSecond = maxSpeed ?? 0
        }
        boundingBox = points > 0 ? (west, south, east, north) : nil
    }
}
