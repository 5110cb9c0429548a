import Testing
@testable import TransectAnalysis
import TransectTestSupport

/// gpx.studio's rules on tracks whose answers are known in closed form (no gpx.studio runs
/// here to be the oracle): a sawtooth Ramer–Douglas–Peucker keeps or flattens, a steady climb,
/// a constant-speed walk, the moving bounds and JavaScript's millisecond times.
@Suite("gpx.studio's statistics: haversine distance, moving bounds, RDP-simplified climb, windowed speed")
struct GPXStudioStatisticsTests {
    typealias S = GPXStudioStatistics

    /// A point on the 14° E meridian `metres` north of 46° N by gpx.studio's haversine
    /// (on a meridian it is R × Δφ), with a time in seconds.
    static func north(_ metres: Double, time: Double?) -> TrackPoint {
        TrackPoint(longitude: 14, latitude: 46 + metres / S.earthRadiusMetres * 180 / Double.pi, time: time)
    }

    @Test("a sawtooth of ±100 m every 50 m keeps every vertex at 20 m, one of 10 m none: gain and loss are the teeth")
    func sawtooth() {
        let cumulative = (0...20).map { Double($0) * 0.05 }  // kilometres
        let big: [Double?] = (0...20).map { $0 % 2 == 0 ? 0 : 100 }
        // Every chord between two vertices passes more than 20 m from some vertex between
        // them (a trough under a peak-to-peak chord is 100 m off; from a peak to a far trough,
        // the first trough between is at least 55 m from the chord): nothing is dropped.
        #expect(S.simplified(cumulative: cumulative, elevations: big) == Array(0...20))
        // Each stretch is then two points, its own ends: ten rises and ten falls of 100 m.
        #expect(S.gainAndLoss(cumulative: cumulative, elevations: big) == (1000, 1000))
        // Teeth of 10 m lie within 10 m of any chord: only the ends stay.
        let small: [Double?] = (0...20).map { $0 % 2 == 0 ? 0 : 10 }
        #expect(S.simplified(cumulative: cumulative, elevations: small) == [0, 20])
        // A point without an elevation is 0 m from every line, so it is never kept.
        var gap = big
        gap[5] = nil
        #expect(!S.simplified(cumulative: cumulative, elevations: gap).contains(5))
    }

    @Test("a steady climb of 1 m every 10 m: one stretch, smoothed means still rising, so gain is the climb exactly and loss 0")
    func steadyClimb() {
        let cumulative = (0...200).map { Double($0) * 0.01 }
        let z: [Double?] = (0...200).map { 5 + Double($0) }
        #expect(S.simplified(cumulative: cumulative, elevations: z) == [0, 200])
        // Each window's mean of consecutive integers is a half-integer that never falls, so
        // every difference is exact.
        #expect(S.gainAndLoss(cumulative: cumulative, elevations: z) == (200, 0))
    }

    @Test("the window: the points within it of i, and always i − 1 and i + 1, however far")
    func window() {
        var windows: [[Int]] = []
        S.windowSmoothing(
            0, 4, distance: { [0.0, 10, 20, 30][$1] - [0.0, 10, 20, 30][$0] }, window: 1, compute: { Double($0 * 10 + $1) },
            callback: { value, _ in windows.append([Int(value!) / 10, Int(value!) % 10]) })
        #expect(windows == [[0, 1], [0, 2], [1, 3], [2, 3]])
    }

    @Test("a walk at a constant 2.2 m/s: distance, moving time, duration, and a speed chart that tops at 2.2 m/s")
    func constantSpeed() {
        let points = (0..<100).map { Self.north(11 * Double($0), time: 5 * Double($0)) }
        let s = S(track: Track(segments: [points]), elevations: points.map { _ in 300 })
        // Each leg is R × Δφ with Δφ a difference of two latitudes near 0.8 rad: ~1e-16 rad of
        // rounding on 1.7e-6 rad, 1e-10 relative a leg.
        #expect(abs(s.distanceMetres / (99 * 11) - 1) < 1e-9)
        #expect(s.totalTimeSeconds == 495 && s.movingTimeSeconds == 495)
        #expect(abs(s.movingSpeedMetresPerSecond / 2.2 - 1) < 1e-9)  // the same 1e-10 a leg
        #expect(abs(s.maxSpeedMetresPerSecond! / 2.2 - 1) < 1e-9)  // and over the 10 s windows
        #expect(s.gainMetres == 0 && s.lossMetres == 0)
    }

    @Test("moving is 0.5 to 1,500 km/h: a creep, a jump of 50 km in 100 s, a repeated time and a stop are not")
    func movingBounds() {
        let points = [
            Self.north(0, time: 0), Self.north(1, time: 10),  // 0.36 km/h
            Self.north(11, time: 20),  // 3.6 km/h: moving
            Self.north(50_011, time: 120),  // 1,800 km/h
            Self.north(50_021, time: 120),  // no time passes
            Self.north(50_021, time: 130),  // no distance
        ]
        let s = S(track: Track(segments: [points]), elevations: points.map { _ in nil })
        #expect(s.movingTimeSeconds == 10)
        #expect(abs(s.movingDistanceMetres - 10) < 1e-8)  // the 10 m leg: ~1e-16 rad of rounding on its latitudes, 1e-9 m
        #expect(s.totalTimeSeconds == 130)
    }

    @Test("times are JavaScript's whole milliseconds: .0009 s and 10.0019 s make 10.001 s; segments add up; no times, no speed")
    func milliseconds() {
        let a = [
            TrackPoint(longitude: 14, latitude: 46, time: 0.0009, timeMicroseconds: 900),
            TrackPoint(longitude: 14, latitude: 46.001, time: 10.0019, timeMicroseconds: 10_001_900),
        ]
        let b = [Self.north(0, time: 1000), Self.north(100, time: 1060)]
        let s = S(track: Track(segments: [a, b]), elevations: [nil, nil, nil, nil])
        #expect(s.totalTimeSeconds == 10.001 + 60.0)
        let untimed = [Self.north(0, time: nil), Self.north(100, time: nil)]
        let u = S(track: Track(segments: [untimed]), elevations: [nil, nil])
        #expect(u.totalTimeSeconds == 0 && u.movingTimeSeconds == 0 && u.maxSpeedMetresPerSecond == nil)
        #expect(S.floorDivide(-1, 1000) == -1 && S.floorDivide(1999, 1000) == 1)
    }
}
