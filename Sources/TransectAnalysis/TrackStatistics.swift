import TransectGeodesy

/// How the fixes' timestamps took part in a track's time statistics. Every fix counts in
/// exactly one field, so the four add up to the number of fixes.
///
/// Within a segment a fix's time is *usable* when it is later than the last usable time
/// before it, and not a time that jumps ahead of the clock: when the next timed fix falls
/// between the last usable time and this one, this one is the odd one out (a single stamp far
/// in the future would otherwise make every later fix look backwards). The segment's first
/// timed fix is always usable. The others keep their position
/// and lose only their time:
/// - *repeated*: equal to the last usable time (coarse times, a receiver that repeats its
///   clock, or an unchanged timestamp written with every point);
/// - *backwards*: earlier than the last usable time, or ahead of the clock as above (a
///   glitch); a clock that is reset for good leaves every later fix of the segment here;
/// - *missing*: no time, or one that is not finite.
public struct TimeCounts: Sendable, Hashable {
    public var usable = 0
    public var repeated = 0
    public var backwards = 0
    public var missing = 0
    public init(usable: Int = 0, repeated: Int = 0, backwards: Int = 0, missing: Int = 0) {
        self.usable = usable
        self.repeated = repeated
        self.backwards = backwards
        self.missing = missing
    }
}

/// A track's statistics: lengths, climbing, extremes, times and speeds.
///
/// Lengths run over every fix, within segments. Elevation gain and loss use hysteresis: a
/// change counts only once the elevation has moved `gainThresholdMetres` from the last counted
/// level, so GPS and DEM noise smaller than the threshold does not add up (a steady climb of
/// H metres still counts as H; a ±2 m jitter with a 3 m threshold counts as nothing).
///
/// **Time steps.** Times come only from fixes whose time is usable (see ``TimeCounts``). A
/// time step runs from one usable fix to the next in the same segment; its duration is the
/// difference of their times (always > 0) and its distance the geodesic length of *every*
/// step between them, fixes without a usable time included. So consecutive fixes sharing one
/// coarse timestamp form a run, and the step goes from the run's first fix to the next run's
/// first fix over the summed distance; a fix with a missing or backward time is walked
/// through the same way. Distance after a segment's last usable time (or before its first)
/// is in the lengths but in no time step. Duration, moving time and speeds use time steps only.
public struct TrackStatistics: Sendable {
    public var points: Int
    public var segments: Int
    /// Sum of geodesic step lengths over all fixes, metres.
    public var length2DMetres: Double
    /// Sum of √(d² + Δz²) over steps (d alone where an elevation is missing), metres.
    public var length3DMetres: Double
    public var elevationGainMetres: Double
    public var elevationLossMetres: Double
    public var minElevationMetres: Double?
    public var maxElevationMetres: Double?
    /// How many fixes had a usable time, and why the others had not.
    public var times: TimeCounts
    /// The number of time steps (see the type's documentation).
    public var timeSteps: Int
    /// From the earliest usable time to the latest, seconds; nil without any usable time.
    public var durationSeconds: Double?
    /// Time spent in time steps at `movingSpeedThreshold` or faster, seconds; nil without
    /// time steps.
    public var movingTimeSeconds: Double?
    /// Distance of the moving time steps over the moving time, m/s; 0 when nothing moved,
    /// nil without time steps.
    public var averageSpeedMetresPerSecond: Double?
    /// The maximum speed a GPS glitch cannot explain (``robustMaximumSpeed(_:)``), m/s; nil
    /// without time steps.
    public var maxSpeedMetresPerSecond: Double?
    /// The fastest single time step, m/s; nil without time steps.
    public var maxSpeedRawMetresPerSecond: Double?
    /// West, south, east, north in degrees; nil for an empty track.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)?

    /// Steps slower than this (1 km/h) count as standing still.
    public static let movingSpeedThreshold = 1000.0 / 3600

    /// How many consecutive time steps the robust maximum speed looks at together.
    public static let speedWindow = 5

    /// Statistics of `track` with `elevations` (one per point, segment after segment; nil where
    /// unknown): ones sampled from a DEM, or nil for the points' own recorded elevations (read
    /// where they are, so a track of millions of fixes is not held twice).
    ///
    /// - Complexity: O(n) geodesic inverses.
    public init(track: Track, elevations: [Double?]?, gainThresholdMetres: Double = 3, geodesic: Geodesic = .wgs84) {
        precondition(elevations.map { $0.count == track.pointCount } ?? true, "one elevation per point")
        points = track.pointCount
        segments = track.segments.count
        length2DMetres = 0
        length3DMetres = 0
        elevationGainMetres = 0
        elevationLossMetres = 0
        times = TimeCounts()
        timeSteps = 0
        var moving = 0.0
        var movingDistance = 0.0
        var rawMax: Double? = nil
        var firstTime: Double? = nil
        var lastTime: Double? = nil
        var window = RobustMaximum(window: Self.speedWindow)
        var west = Double.infinity
        var south = Double.infinity
        var east = -Double.infinity
        var north = -Double.infinity
        var k = 0
        for segment in track.segments {
            var reference: Double? = nil
            // The last usable time in this segment and the distance walked since its fix.
            var anchorTime: Double? = nil
            var sinceAnchor = 0.0
            // The index of the next fix after the current one with a finite time, found by a
            // scan that only moves forward (no array of a segment's times: a track of millions
            // of fixes is not held twice).
            var nextTimed = 0
            func nextTime(after i: Int) -> Double? {
                if nextTimed <= i { nextTimed = i + 1 }
                while nextTimed < segment.count {
                    if let t = segment[nextTimed].time, t.isFinite { return t }
                    nextTimed += 1
                }
                return nil
            }
            for (i, p) in segment.enumerated() {
                let z = elevations.map { $0[k] } ?? p.elevationMetres
                west = min(west, p.longitude)
                east = max(east, p.longitude)
                south = min(south, p.latitude)
                north = max(north, p.latitude)
                if let z {
                    minElevationMetres = min(minElevationMetres ?? z, z)
                    maxElevationMetres = max(maxElevationMetres ?? z, z)
                    if let r = reference {
                        if z - r >= gainThresholdMetres {
                            elevationGainMetres += z - r
                            reference = z
                        } else if r - z >= gainThresholdMetres {
                            elevationLossMetres += r - z
                            reference = z
                        }
                    } else {
                        reference = z
                    }
                }
                if i > 0 {
                    let q = segment[i - 1]
                    let d = geodesic.inverse(latitude1: q.latitude, longitude1: q.longitude, latitude2: p.latitude, longitude2: p.longitude).distanceMetres
                    length2DMetres += d
                    let zq = elevations.map { $0[k - 1] } ?? segment[i - 1].elevationMetres
                    if let z, let zq { length3DMetres += (d * d + (z - zq) * (z - zq)).squareRoot() } else { length3DMetres += d }
                    sinceAnchor += d
                }
                if let t = p.time, t.isFinite {
                    if let a = anchorTime, t == a {
                        times.repeated += 1
                    } else if let a = anchorTime, t < a {
                        times.backwards += 1
                    } else if let a = anchorTime, let n = nextTime(after: i), n < t, n > a {
                        // Ahead of the clock: the next fix resumes before this time.
                        times.backwards += 1
                    } else {
                        times.usable += 1
                        firstTime = min(firstTime ?? t, t)
                        lastTime = max(lastTime ?? t, t)
                        if let a = anchorTime {
                            let dt = t - a
                            let speed = sinceAnchor / dt
                            timeSteps += 1
                            if speed >= Self.movingSpeedThreshold {
                                moving += dt
                                movingDistance += sinceAnchor
                            }
                            rawMax = max(rawMax ?? speed, speed)
                            window.add(speed)
                        }
                        anchorTime = t
                        sinceAnchor = 0
                    }
                } else {
                    times.missing += 1
                }
                k += 1
            }
        }
        if let firstTime, let lastTime { durationSeconds = lastTime - firstTime }
        if timeSteps > 0 {
            movingTimeSeconds = moving
            averageSpeedMetresPerSecond = moving > 0 ? movingDistance / moving : 0
            maxSpeedRawMetresPerSecond = rawMax
            maxSpeedMetresPerSecond = window.value
        }
        boundingBox = points > 0 ? (west, south, east, north) : nil
    }

    /// The highest speed that most of some ``speedWindow`` consecutive time steps reach: the
    /// largest lower median over every run of five consecutive step speeds (or of all of
    /// them when there are fewer), in recording order across segments.
    ///
    /// Why this rule: one bad position (a multipath jump, a fix from a cell tower) spoils the
    /// two steps on either side of it, and a timestamp a little off spoils one; two spoiled
    /// steps are a minority of five, so they never decide the maximum, while a real burst of
    /// speed that lasts three steps does. Unlike a percentile of all steps, the result does
    /// not depend on how long the rest of the track is; unlike a minimum step length, it does
    /// not depend on the sampling interval. Two or more bad fixes in a row are not caught:
    /// ``TrackStatistics/maxSpeedRawMetresPerSecond`` is reported beside it.
    ///
    /// - Complexity: O(n), with n the number of speeds.
    public static func robustMaximumSpeed(_ speeds: [Double]) -> Double? {
        var window = RobustMaximum(window: speedWindow)
        for v in speeds { window.add(v) }
        return window.value
    }
}

/// The streaming form of ``TrackStatistics/robustMaximumSpeed(_:)``: the last `window` values
/// in a ring, the best lower median so far.
struct RobustMaximum {
    let window: Int
    private var last: [Double] = []
    private var next = 0
    private var best: Double? = nil

    init(window: Int) {
        precondition(window > 0)
        self.window = window
        last.reserveCapacity(window)
    }

    mutating func add(_ value: Double) {
        if last.count < window { last.append(value) } else { last[next] = value }
        next = (next + 1) % window
        if last.count == window {
            let m = Self.lowerMedian(last)
            best = max(best ?? m, m)
        }
    }

    /// The best lower median of a full window, or that of every value when fewer than a
    /// window arrived; nil with no values.
    var value: Double? {
        if last.count < window { return last.isEmpty ? nil : Self.lowerMedian(last) }
        return best
    }

    static func lowerMedian(_ values: [Double]) -> Double {
        values.sorted()[(values.count - 1) / 2]
    }
}
