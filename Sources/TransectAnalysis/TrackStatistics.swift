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
/// is in the lengths but in no time step. Duration, moving time and speeds use time steps only,
/// so the pause between two segments is in none of them.
///
/// **Maximum speed** is the highest average speed over any stretch of consecutive time steps
/// of one segment that lasts at least ``maxSpeedWindowSeconds`` and covers at least
/// ``maxSpeedWindowMetres`` (``windowedMaximumSpeed(_:)``); the fastest single step is kept
/// beside it as the raw maximum.
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
    /// The recorded time: each segment's from its first usable time to its last, summed,
    /// seconds (the sum of the time steps); nil without any usable time.
    public var durationSeconds: Double?
    /// From the earliest usable time of the track to the latest, seconds, pauses between
    /// segments included; nil without any usable time.
    public var elapsedSeconds: Double?
    /// Time spent in time steps at `movingSpeedThreshold` or faster, seconds; nil without
    /// time steps.
    public var movingTimeSeconds: Double?
    /// Time spent in slower time steps, seconds; nil without time steps. Moving and stopped
    /// time add up to the duration.
    public var stoppedTimeSeconds: Double?
    /// Distance of the moving time steps over the moving time, m/s; 0 when nothing moved,
    /// nil without time steps.
    public var averageSpeedMetresPerSecond: Double?
    /// The highest average speed over ``maxSpeedWindowSeconds`` and ``maxSpeedWindowMetres``
    /// (``windowedMaximumSpeed(_:)``), m/s; nil when no stretch of one segment is that long.
    public var maxSpeedMetresPerSecond: Double?
    /// The fastest single time step, m/s; nil without time steps.
    public var maxSpeedRawMetresPerSecond: Double?
    /// West, south, east, north in degrees; nil for an empty track.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)?

    /// Steps slower than this (1 km/h) count as standing still.
    public static let movingSpeedThreshold = 1000.0 / 3600

    /// The shortest time, seconds, a stretch of time steps must last to give the maximum
    /// speed: a minute, long enough that a timestamp a second off or positions scattered by
    /// tens of metres (a phone's 1 s fixes under trees) move the speed by a few km/h, short
    /// enough to keep a real burst (a run down a hill, a stretch in a bus).
    public static let maxSpeedWindowSeconds = 60.0
    /// The shortest distance, metres, such a stretch must cover: where fixes are sparse in
    /// space (a slow walk, a stop), position noise of a few metres is a small part of it.
    public static let maxSpeedWindowMetres = 200.0

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
        var stopped = 0.0
        var movingDistance = 0.0
        var rawMax: Double? = nil
        var firstTime: Double? = nil
        var lastTime: Double? = nil
        var recorded: Double? = nil
        // Each segment's running totals of its time steps, for the windowed maximum.
        var sums: [StepSums] = []
        var west = Double.infinity
        var south = Double.infinity
        var east = -Double.infinity
        var north = -Double.infinity
        var k = 0
        for segment in track.segments {
            var reference: Double? = nil
            // The last usable time in this segment and the distance walked since its fix.
            var anchorTime: Double? = nil
            var segmentFirstTime: Double? = nil
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
            var segmentSums = StepSums(capacity: segment.count)
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
                            } else {
                                stopped += dt
                            }
                            rawMax = max(rawMax ?? speed, speed)
                            segmentSums.append(TimeStep(seconds: dt, metres: sinceAnchor))
                        }
                        if segmentFirstTime == nil { segmentFirstTime = t }
                        anchorTime = t
                        sinceAnchor = 0
                    }
                } else {
                    times.missing += 1
                }
                k += 1
            }
            if let segmentFirstTime, let anchorTime { recorded = (recorded ?? 0) + (anchorTime - segmentFirstTime) }
            if segmentSums.count > 0 { sums.append(segmentSums) }
        }
        durationSeconds = recorded
        if let firstTime, let lastTime { elapsedSeconds = lastTime - firstTime }
        if timeSteps > 0 {
            movingTimeSeconds = moving
            stoppedTimeSeconds = stopped
            averageSpeedMetresPerSecond = moving > 0 ? movingDistance / moving : 0
            maxSpeedRawMetresPerSecond = rawMax
            maxSpeedMetresPerSecond = Self.windowedMaximumSpeed(sums, seconds: Self.maxSpeedWindowSeconds, metres: Self.maxSpeedWindowMetres)
        }
        boundingBox = points > 0 ? (west, south, east, north) : nil
    }

    /// The highest average speed, m/s, over any stretch of consecutive time steps within one
    /// segment (one inner array of `segments`) that lasts at least `seconds` and covers at
    /// least `metres`; nil when no stretch is that long.
    ///
    /// Why a window: a single step's speed is its distance error over its time error, and both
    /// are large against a step of a second or two (a position a few metres off, a timestamp
    /// rounded to the second). Over a stretch of a minute and 200 m the same errors move the
    /// average by far less, and a stretch that long is still short against the movements
    /// people want the top speed of (on Karojba's walk, 1 s fixes with jumps of tens of
    /// metres, the fastest single step is 161 km/h, the best 10 s 51 km/h, 30 s and 100 m
    /// 28 km/h, a minute and 200 m 20 km/h; gpxpy says 21). Both bounds are needed: time alone lets a stop
    /// sampled once a minute into the window, distance alone a fast car sampled once a second.
    ///
    /// The maximum is over every such stretch, not only the shortest ones, found by
    /// Dinkelbach's iteration: for a trial speed v, the stretch that maximises distance − v ×
    /// time is found in one pass (a stretch ending at step j may start at any step up to the
    /// last one that leaves it long enough, so a running minimum of the prefix sums gives the
    /// best start); its average speed becomes the next v, until it no longer rises. Each pass
    /// is O(n); the iteration converges superlinearly, so the passes are few (bounded here by
    /// 64).
    ///
    /// - Parameters:
    ///   - segments: each segment's time steps in order; each step lasts more than 0 s.
    ///   - seconds: the shortest stretch in time, seconds (``maxSpeedWindowSeconds``).
    ///   - metres: the shortest stretch in distance, metres (``maxSpeedWindowMetres``).
    /// - Complexity: O(n) per pass, with n the number of time steps.
    public static func windowedMaximumSpeed(
        _ segments: [[TimeStep]], seconds: Double = maxSpeedWindowSeconds, metres: Double = maxSpeedWindowMetres
    ) -> Double? {
        windowedMaximumSpeed(
            segments.map { steps in
                var sums = StepSums()
                for s in steps { sums.append(s) }
                return sums
            }, seconds: seconds, metres: metres)
    }

    /// ``windowedMaximumSpeed(_:seconds:metres:)`` over each segment's running totals: a
    /// stretch's distance and time are differences of them (rounded at the ulp of the
    /// running distance, ~1e-11 m on a 50 km segment), and they take half the memory of the
    /// steps and their totals together.
    static func windowedMaximumSpeed(_ sums: [StepSums], seconds: Double, metres: Double) -> Double? {
        // The stretch (segment, first, last prefix index) that maximises distance − v × time.
        func best(_ v: Double) -> (segment: Int, from: Int, to: Int)? {
            var found: (segment: Int, from: Int, to: Int, value: Double)? = nil
            for (g, p) in sums.enumerated() {
                var last = -1
                var low = (index: -1, value: Double.infinity)
                for j in p.time.indices {
                    while last + 1 < j && p.time[j] - p.time[last + 1] >= seconds && p.distance[j] - p.distance[last + 1] >= metres {
                        last += 1
                        let value = p.distance[last] - v * p.time[last]
                        if value < low.value { low = (last, value) }
                    }
                    guard low.index >= 0 else { continue }
                    let value = p.distance[j] - v * p.time[j] - low.value
                    if found == nil || value > found!.value { found = (g, low.index, j, value) }
                }
            }
            return found.map { ($0.segment, $0.from, $0.to) }
        }
        func speed(_ s: (segment: Int, from: Int, to: Int)) -> Double {
            let p = sums[s.segment]
            return (p.distance[s.to] - p.distance[s.from]) / (p.time[s.to] - p.time[s.from])
        }
        guard let first = best(0) else { return nil }
        var v = speed(first)
        for _ in 0..<64 {
            guard let next = best(v) else { break }
            let w = speed(next)
            guard w > v else { break }
            v = w
        }
        return v
    }
}

/// A segment's time steps as running totals: after k steps, `distance[k]` metres in `time[k]`
/// seconds (both start at 0).
struct StepSums {
    var distance: [Double] = [0]
    var time: [Double] = [0]

    /// Room for `steps` steps, so that a long segment's totals take no more than they need.
    init(capacity steps: Int = 0) {
        distance.reserveCapacity(steps + 1)
        time.reserveCapacity(steps + 1)
    }
    /// The number of steps.
    var count: Int { time.count - 1 }

    mutating func append(_ step: TimeStep) {
        distance.append(distance[distance.count - 1] + step.metres)
        time.append(time[time.count - 1] + step.seconds)
    }
}

/// One time step of a track (``TrackStatistics``): from one usable time to the next in a
/// segment, over the distance walked between them.
public struct TimeStep: Sendable, Hashable {
    /// Its duration, seconds (> 0).
    public var seconds: Double
    /// The distance walked in it, metres (≥ 0).
    public var metres: Double
    public init(seconds: Double, metres: Double) {
        self.seconds = seconds
        self.metres = metres
    }
}
