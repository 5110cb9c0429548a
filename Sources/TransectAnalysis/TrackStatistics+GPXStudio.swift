import Glibc

/// A track's figures as gpx.studio computes them, reproduced from its source: `gpx/src/gpx.ts`
/// of github.com/gpxstudio/gpx.studio (`TrackSegment._computeStatistics`,
/// `_elevationComputation`, `distance`, `getElevationDistanceFunction` and the window
/// smoothing functions), in the version that keeps its statistics types in
/// `gpx/src/statistics.ts` (read at commit 5062de8), and `gpx/src/simplify.ts`
/// (`ramerDouglasPeucker`, read at commit 069a598). Each segment is computed on its own and
/// the segments' figures summed, as its `GPXStatisticsGroup` does.
///
/// **Distance**: the haversine on a sphere of 6,371,008.8 m (the mean Earth radius), point to
/// point within a segment.
///
/// **Time**: a segment's total time runs from its first timed point to its last; a step
/// between two timed points is *moving* when its speed is from 0.5 to 1,500 km/h. Times are
/// whole milliseconds, as a JavaScript `Date` keeps them (the digits past the third dropped).
///
/// **Gain and loss.** The segment is simplified by Ramer–Douglas–Peucker at 20 m in the
/// distance–elevation plane (x the distance along the segment in metres, y the elevation;
/// a point with an unknown elevation is 0 m from any line). Within each stretch between two
/// kept points, every point's elevation is replaced by the mean elevation of the points
/// within 0.1 km of it along the track (at least its two neighbours, unknown elevations as
/// 0 m), the stretch's ends keep their own, and the rises and falls of that sequence are summed.
///
/// **Speed.** gpx.studio shows no maximum speed; its speed chart gives each point the speed
/// over the points within 10 s of it (at least its two neighbours; a pair with equal times or
/// either untimed counts as outside the window): distance over time, the time at least 1 s.
/// ``maxSpeedMetresPerSecond`` is the top of that chart.
///
/// The arithmetic follows the TypeScript step by step; JavaScript's `Math` functions may
/// round their last bit unlike the C library's, so figures agree to about 1e-15 relative, not
/// bit for bit. gpx.studio keeps every point; ``TrackFile`` has dropped (0, 0) fixes and
/// invalid positions before this sees them.
///
/// - Complexity: O(n log n) for most tracks (the simplification), O(n²) at worst.
public struct GPXStudioStatistics: Sendable, Hashable {
    /// `distance.total`, metres.
    public var distanceMetres: Double
    /// `distance.moving`, metres.
    public var movingDistanceMetres: Double
    /// `time.total` (0 without times) and `time.moving`, seconds.
    public var totalTimeSeconds: Double
    public var movingTimeSeconds: Double
    /// `speed.moving`: moving distance over moving time (0 when nothing moved), m/s.
    public var movingSpeedMetresPerSecond: Double
    /// `elevation.gain` and `elevation.loss`, metres.
    public var gainMetres: Double
    public var lossMetres: Double
    /// The top of the speed chart, m/s; nil when no point has a speed (no two timed points).
    public var maxSpeedMetresPerSecond: Double?

    /// gpx.studio's `earthRadius`, metres.
    public static let earthRadiusMetres = 6_371_008.8
    /// The Ramer–Douglas–Peucker tolerance for gain and loss, metres.
    public static let simplificationMetres = 20.0
    /// The elevation window, kilometres (gpx.studio's unit).
    public static let elevationWindowKilometres = 0.1
    /// The speed window, milliseconds.
    public static let speedWindowMilliseconds = 10_000.0
    /// Moving speeds, km/h.
    public static let movingSpeeds = 0.5...1500.0

    /// gpx.studio's figures of `track` with `elevations` (one per point, segment after segment;
    /// nil where unknown) standing for the points' `ele`.
    public init(track: Track, elevations: [Double?]) {
        precondition(elevations.count == track.pointCount, "one elevation per point")
        var distance = 0.0
        var movingDistance = 0.0
        var totalTime = 0.0
        var movingTime = 0.0
        var gain = 0.0
        var loss = 0.0
        var maxSpeed: Double? = nil
        var k = 0
        for segment in track.segments {
            let z = Array(elevations[k..<(k + segment.count)])
            k += segment.count
            let s = Self.segment(segment, elevations: z)
            distance += s.distance
            movingDistance += s.movingDistance
            totalTime += s.totalTime
            movingTime += s.movingTime
            gain += s.gain
            loss += s.loss
            if let m = s.maxSpeed { maxSpeed = max(maxSpeed ?? m, m) }
        }
        distanceMetres = distance * 1000
        movingDistanceMetres = movingDistance * 1000
        totalTimeSeconds = totalTime
        movingTimeSeconds = movingTime
        movingSpeedMetresPerSecond = movingTime > 0 ? movingDistance / (movingTime / 3600) / 3.6 : 0
        gainMetres = gain
        lossMetres = loss
        maxSpeedMetresPerSecond = maxSpeed.map { $0 / 3.6 }
    }

    /// One segment's figures in gpx.studio's units: kilometres, seconds, metres of elevation,
    /// km/h.
    static func segment(
        _ points: [TrackPoint], elevations ele: [Double?]
    ) -> (
        distance: Double, movingDistance: Double, totalTime: Double, movingTime: Double, gain: Double, loss: Double, maxSpeed: Double?
    ) {
        let n = points.count
        let times = points.map(\.exactMicroseconds).map { $0.map { Self.floorDivide($0, 1000) } }
        var cumulative = [Double](repeating: 0, count: n)
        var total = 0.0
        var movingDistance = 0.0
        var movingTime = 0.0
        var start: Int64? = nil
        var end: Int64? = nil
        for i in 0..<n {
            var step = 0.0
            if i > 0 {
                step = haversine(points[i - 1], points[i]) / 1000
                total += step
            }
            cumulative[i] = total
            if let t = times[i] {
                if start == nil { start = t }
                end = t
            }
            if i > 0, let t0 = times[i - 1], let t1 = times[i] {
                let seconds = Double(t1 - t0) / 1000
                let speed = step / (seconds / 3600)
                if movingSpeeds.contains(speed) {
                    movingDistance += step
                    movingTime += seconds
                }
            }
        }
        let (gain, loss) = gainAndLoss(cumulative: cumulative, elevations: ele)
        var maxSpeed: Double? = nil
        windowSmoothing(
            0, n,
            distance: { a, b in
                guard let ta = times[a], let tb = times[b], tb != ta else { return 2 * speedWindowMilliseconds }
                return Double(tb - ta)
            }, window: speedWindowMilliseconds,
            compute: { a, b -> Double? in
                guard let ta = times[a], let tb = times[b] else { return nil }
                return 3600 * (cumulative[b] - cumulative[a]) / max(Double(tb - ta) / 1000, 1)
            },
            callback: { value, _ in if let value { maxSpeed = max(maxSpeed ?? value, value) } })
        let totalTime = start.flatMap { s in end.map { Double($0 - s) / 1000 } } ?? 0
        return (total, movingDistance, totalTime, movingTime, gain, loss, maxSpeed)
    }

    /// gpx.studio's `distance`: the haversine on ``earthRadiusMetres``, metres.
    static func haversine(_ p: TrackPoint, _ q: TrackPoint) -> Double {
        let rad = Double.pi / 180
        let lat1 = p.latitude * rad
        let lat2 = q.latitude * rad
        let dLat = lat2 - lat1
        let dLon = (q.longitude - p.longitude) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return earthRadiusMetres * (2 * asin(min(a, 1).squareRoot()))
    }

    /// `_elevationComputation`'s gain and loss over one segment, from the cumulative distance
    /// (km) at each point and the elevations.
    static func gainAndLoss(cumulative: [Double], elevations ele: [Double?]) -> (gain: Double, loss: Double) {
        let kept = simplified(cumulative: cumulative, elevations: ele)
        var gain = 0.0
        var loss = 0.0
        for (start, end) in zip(kept, kept.dropFirst()) {
            // A running sum over the window, as the original keeps it (its rounding included).
            var sum = 0.0
            var currentStart = start
            var currentEnd = start
            var previous = 0.0
            windowSmoothing(
                start, end + 1, distance: { cumulative[$1] - cumulative[$0] }, window: elevationWindowKilometres,
                compute: { s, e -> Double? in
                    for i in stride(from: currentStart, to: s, by: 1) { sum -= ele[i] ?? 0 }
                    for i in stride(from: currentEnd, through: e, by: 1) { sum += ele[i] ?? 0 }
                    currentStart = s
                    currentEnd = e + 1
                    return sum / Double(e - s + 1)
                },
                callback: { value, j in
                    var smoothed = value ?? 0
                    if j == start {
                        smoothed = ele[start] ?? 0
                        previous = smoothed
                    } else if j == end {
                        smoothed = ele[end] ?? 0
                    }
                    let d = smoothed - previous
                    if d > 0 { gain += d } else if d < 0 { loss -= d }
                    previous = smoothed
                })
        }
        return (gain, loss)
    }

    /// The indices Ramer–Douglas–Peucker keeps at ``simplificationMetres`` in the
    /// distance–elevation plane (`ramerDouglasPeucker` with `getElevationDistanceFunction`):
    /// the ends, and recursively the point farthest from the chord of a stretch while that is
    /// more than the tolerance (the first of equals). An explicit stack stands for the
    /// recursion, which a long steady climb would take deeper than a thread's stack.
    static func simplified(cumulative: [Double], elevations ele: [Double?]) -> [Int] {
        let n = cumulative.count
        guard n > 1 else { return Array(0..<n) }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var stack = [(0, n - 1)]
        while let (start, end) = stack.popLast() {
            var largest = (index: 0, distance: 0.0)
            for i in stride(from: start + 1, to: end, by: 1) {
                let d = lineDistance(start, end, i, cumulative: cumulative, elevations: ele)
                if d > largest.distance { largest = (i, d) }
            }
            if largest.distance > simplificationMetres && largest.index != 0 {
                keep[largest.index] = true
                stack.append((largest.index, end))
                stack.append((start, largest.index))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// `getElevationDistanceFunction`: how far point `c` lies from the line through `a` and `b`
    /// in the plane of distance (m) and elevation (m); 0 when any of the three has no elevation.
    static func lineDistance(_ a: Int, _ b: Int, _ c: Int, cumulative: [Double], elevations ele: [Double?]) -> Double {
        guard let y1 = ele[a], let y2 = ele[b], let y3 = ele[c] else { return 0 }
        let x1 = cumulative[a] * 1000
        let x2 = cumulative[b] * 1000
        let x3 = cumulative[c] * 1000
        let chord = (pow(y2 - y1, 2) + pow(x2 - x1, 2)).squareRoot()
        if chord == 0 { return (pow(x3 - x1, 2) + pow(y3 - y1, 2)).squareRoot() }
        return ((y2 - y1) * x3 - (x2 - x1) * y3 + x2 * y1 - y2 * x1).magnitude / chord
    }

    /// `windowSmoothing`: for each index `i` of `left..<right`, `compute` over the points from
    /// the first within `window` before it (at least `i − 1`) to the last within `window`
    /// after it (at least `i + 1`), handed to `callback` with `i`.
    static func windowSmoothing(
        _ left: Int, _ right: Int, distance: (Int, Int) -> Double, window: Double, compute: (Int, Int) -> Double?,
        callback: (Double?, Int) -> Void
    ) {
        var start = left
        for i in left..<right {
            while start + 1 < i && distance(start, i) > window { start += 1 }
            var end = min(i + 2, right)
            while end < right && distance(i, end) <= window { end += 1 }
            callback(compute(start, end - 1), i)
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return a % b < 0 ? q - 1 : q
    }
}
