import Testing
@testable import TransectAnalysis
import TransectTestSupport

/// gpxpy's rules on tracks whose answers are known in closed form; the CLI tests hold the same
/// code to gpxpy itself on real and built GPX files.
@Suite("gpxpy's statistics: its distance, moving data, maximum speed, duration and smoothed climb")
struct GPXPyStatisticsTests {
    typealias G = GPXPyStatistics

    @Test("its constants: a degree of a 6,378,137 m sphere, 111,319.49 m, as Python computes it")
    func constants() {
        #expect(G.earthRadiusMetres == 6_378_137)
        #expect(G.oneDegreeMetres == 111_319.490_793_273_58)  // Python's repr of (2π × 6378.137 × 1000) / 360
    }

    @Test("distance: flat along a meridian and the equator, the haversine beyond 0.2°, 3D by Pythagoras when elevations differ")
    func distance() {
        // 0.001° of latitude, and of longitude on the equator (cos 0 = 1): 0.001 × a degree.
        // The degree differences carry the rounding of 46.001 and 14.001 (~1e-15 of 1e-3).
        #expect(abs(G.distance(46.001, 14, nil, 46, 14, nil) / (0.001 * G.oneDegreeMetres) - 1) < 1e-11)
        #expect(abs(G.distance(0, 14.001, nil, 0, 14, nil) / (0.001 * G.oneDegreeMetres) - 1) < 1e-11)  // as above
        // 0.3° apart: the haversine, bit for bit; 0.1° apart: the flat formula, which differs.
        #expect(G.distance(46.3, 14.1, nil, 46, 14, nil) == G.haversine(46.3, 14.1, 46, 14))
        #expect(G.distance(46.1, 14.1, nil, 46, 14, nil) != G.haversine(46.1, 14.1, 46, 14))
        // A degree of meridian by the haversine is R × π/180: radians(47) − radians(46) keeps
        // about 47 ulps of π/180 (~1e-14 relative), asin(sin(x)) = x to a few more.
        #expect(abs(G.haversine(47, 14, 46, 14) / (G.earthRadiusMetres * Double.pi / 180) - 1) < 1e-13)
        let flat = G.distance(46.001, 14, nil, 46, 14, nil)
        #expect(G.distance(46.001, 14, 110, 46, 14, 100) == (flat * flat + 100).squareRoot())
        #expect(G.distance(46.001, 14, 100, 46, 14, 100) == flat)
        // Beyond 0.2° the elevation is left out, as gpxpy leaves it.
        #expect(G.distance(46.3, 14, 1000, 46, 14, 0) == G.haversine(46.3, 14, 46, 14))
    }

    @Test("uphill and downhill after 0.3/0.4/0.3 smoothing of the known elevations: 0, 10, 0, 10 climbs 10 m, not 20")
    func smoothedClimb() {
        // Smoothed: 0, 4, 6, 10 (the ends kept): three rises summing to 10 m, no fall.
        #expect(G.uphillDownhill([0, 10, 0, 10]) == (10, 0))
        // Unknown elevations are left out before smoothing: the same four.
        #expect(G.uphillDownhill([0, nil, 10, nil, 0, 10]) == (10, 0))
        #expect(G.uphillDownhill([5]) == (0, 0) && G.uphillDownhill([]) == (0, 0))
        // Through the track: two segments, each climbed on its own, summed.
        let points = (0..<4).map { TrackPoint(longitude: 14 + Double($0) * 1e-4, latitude: 46) }
        let s = G(track: Track(segments: [points, points]), elevations: [0, 10, 0, 10, 10, 0, 10, 0])
        #expect(s.uphillMetres == 10.0 && s.downhillMetres == 10.0)  // the first climbs 10 m, the second falls 10 m
    }

    /// A point on the equator `metres` east of 14° E by gpxpy's flat distance, at `time`.
    static func east(_ metres: Double, time: Double?) -> TrackPoint {
        TrackPoint(longitude: 14 + metres / G.oneDegreeMetres, latitude: 0, time: time)
    }

    @Test("moving data: above 1 km/h moving, 1 km/h or slower stopped, steps of no time or no length in neither")
    func movingData() {
        // Steps: 2 m in 10 s (0.72 km/h, stopped), 100 m in 10 s (moving), 0 m in 10 s (neither),
        // 50 m in 0 s (neither), 2.4 m in 9 s (0.96 km/h, stopped).
        let points = [
            Self.east(0, time: 0), Self.east(2, time: 10), Self.east(102, time: 20), Self.east(102, time: 30), Self.east(152, time: 30),
            Self.east(154.4, time: 39),
        ]
        let s = G(track: Track(segments: [points]), elevations: points.map { _ in nil })
        #expect(s.movingTimeSeconds == 10 && s.stoppedTimeSeconds == 19)
        // Distances are the degree offsets back in metres: within rounding of 14 + x/111,319 (~1e-12 m).
        #expect(abs(s.movingDistanceMetres - 100) < 1e-9 && abs(s.stoppedDistanceMetres - 4.4) < 1e-9)
        // From the first moving step on: 100 m in 10 s and 2.4 m in 9 s; the top of two is at ⌊1.9⌋ = 1.
        #expect(abs(s.maxSpeedMetresPerSecond - 10) < 1e-10)  // 1e-9 m over 10 s, as above
        #expect(s.durationSeconds == 39)
    }

    @Test(
        "the maximum speed: steps 1.5 standard deviations from the mean length set aside, then the top 5 % of the rest",
        arguments: [
            // One 100 m step among twenty of 10 m lies 4.5 deviations out: it does not count.
            (Array(repeating: (2.0, 10.0), count: 20) + [(20, 100)], 2.0),
            // Forty speeds of equal steps: ⌊40 × 0.95⌋ = 38, the 39th fastest.
            ((1...40).map { (Double($0), 10.0) }, 39),
            // Twenty: ⌊20 × 0.95⌋ = 19, the fastest itself.
            ((1...20).map { (Double($0), 10.0) }, 20),
            ([(5, 10)], nil),  // one step gives none
        ] as [([(Double, Double)], Double?)])
    func maxSpeed(steps: [(Double, Double)], expected: Double?) {
        #expect(G.maxSpeed(steps.map { (speed: $0.0, distance: $0.1) }) == expected)
    }

    @Test("duration: each segment from its first time to its last (the second or second-to-last when an end has none), summed")
    func duration() {
        let a = [Self.east(0, time: nil), Self.east(10, time: 100), Self.east(20, time: 160), Self.east(30, time: nil)]
        let b = [Self.east(0, time: 1000), Self.east(10, time: 1030)]
        let one = [Self.east(0, time: nil)]
        let s = G(track: Track(segments: [a, b, one]), elevations: Array(repeating: nil, count: 7))
        #expect(s.durationSeconds == 90.0)  // 60 s and 30 s: the 840 s between the segments is not in it
        // Both of an end untimed: gpxpy's None for the whole track.
        let c = [Self.east(0, time: 0), Self.east(10, time: nil), Self.east(20, time: nil)]
        #expect(G(track: Track(segments: [b, c]), elevations: Array(repeating: nil, count: 5)).durationSeconds == nil)
        // An end before the start: None too.
        let back = [Self.east(0, time: 50), Self.east(10, time: 20)]
        #expect(G(track: Track(segments: [back]), elevations: [nil, nil]).durationSeconds == nil)
    }

    @Test("times in whole microseconds: 0.2073437 s and 0.207 s, 1901 and all, are 343 µs apart as in Python")
    func microseconds() {
        let t0 = Timestamp.parseISO8601Microseconds("1901-12-13T20:45:52.2073437Z")!
        let t1 = Timestamp.parseISO8601Microseconds("1901-12-13T20:45:52.207Z")!
        #expect(t0 - t1 == 343)
        let p = TrackPoint(longitude: 14, latitude: 46, time: Timestamp.parseISO8601("1901-12-13T20:45:52.2073437Z"), timeMicroseconds: t0)
        #expect(p.exactMicroseconds == t0)
        // A time changed after reading no longer matches: the double's own microseconds are used.
        var moved = p
        moved.time = 60
        #expect(moved.exactMicroseconds == 60_000_000)
        // 7 decimals and a zone offset: the sixth digit kept, the offset applied.
        #expect(Timestamp.parseISO8601Microseconds("1970-01-01T01:00:00.9999999+01:00") == 999_999)
        #expect(Timestamp.parseISO8601Microseconds("1970-01-01T00:00:01Z") == 1_000_000)
        #expect(Timestamp.parseISO8601Microseconds("1970-01-01T00:00:60Z") == nil)
        // Kept beside the Float accuracy: a point stays five doubles' size.
        #expect(MemoryLayout<TrackPoint>.stride == 40)
        // Times before 1970 and a fraction that rounds the double up to the next second.
        let up = TrackPoint(longitude: 0, latitude: 0, time: Timestamp.parseISO8601("1901-01-01T00:00:00.9999999Z"))
        var written = up
        written.timeMicroseconds = Timestamp.parseISO8601Microseconds("1901-01-01T00:00:00.9999999Z")
        #expect(written.exactMicroseconds == Timestamp.parseISO8601Microseconds("1901-01-01T00:00:00.999999Z"))
    }
}
