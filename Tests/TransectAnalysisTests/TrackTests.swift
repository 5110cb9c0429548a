import Testing
@testable import TransectAnalysis
import TransectTestSupport

@Suite("tracks: cleaning, densifying, simulating, statistics")
struct TrackTests {
    static let proj = ProjGeodesic.wgs84

    static func sample() -> Track {
        Track(segments: [
            [
                TrackPoint(longitude: 13.80, latitude: 46.40, elevationMetres: 1600, time: 0),
                TrackPoint(longitude: 13.81, latitude: 46.41, elevationMetres: 1700, time: 600),
                TrackPoint(longitude: 13.83, latitude: 46.41, elevationMetres: 1650, time: 1200),
            ],
            [
                TrackPoint(longitude: 14.00, latitude: 46.00, elevationMetres: 500, time: 5000),
                TrackPoint(longitude: 14.00, latitude: 46.002, elevationMetres: 510, time: 5100),
            ],
        ])
    }

    @Test(
        "densified steps are all within the maximum and every point lies on the geodesic (PROJ's geod_inverse)",
        arguments: [50.0, 7.5, 1000])
    func densify(maximum: Double) {
        let original = Self.sample()
        let dense = original.densified(maxSegmentMetres: maximum)
        #expect(dense.segments.count == 2)
        for (segment, source) in zip(dense.segments, original.segments) {
            // The original vertices are all kept, in order.
            #expect(source.allSatisfy { v in segment.contains(v) })
            for (a, b) in zip(segment, segment.dropFirst()) {
                #expect(Self.proj.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12 <= maximum + 1e-9)
            }
            // Inserted points sit on the geodesic between their original neighbours.
            var start = 0
            for k in 1..<segment.count where source.contains(segment[k]) {
                let a = segment[start]
                let b = segment[k]
                let whole = Self.proj.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12
                for p in segment[(start + 1)..<k] {
                    let via =
                        Self.proj.inverse(a.latitude, a.longitude, p.latitude, p.longitude).s12
                        + Self.proj.inverse(p.latitude, p.longitude, b.latitude, b.longitude).s12
                    // Off the geodesic by h, the detour grows by ~2h²/L: 1e-9 m here means h < 1e-4 m;
                    // round-off of the two sums is ~1e-9 m.
                    #expect(abs(via - whole) < 1e-8)
                }
                start = k
            }
        }
        // Elevation and time are interpolated linearly in distance.
        let mid = dense.segments[1][dense.segments[1].count / 2]
        if dense.segments[1].count > 2 {
            let f = (mid.time! - 5000) / 100
            // Elevations near 510 m have ulps of 1.1e−13 m; 1 nm covers the time fraction's round-off.
            #expect(abs(mid.elevationMetres! - (500 + 10 * f)) < 1e-9)
        }
    }

    @Test("cleaning drops (0, 0), out-of-range and negative accuracy, and counts them; a repeated time drops nothing")
    func clean() {
        let t = Track(segments: [
            [
                TrackPoint(longitude: 10, latitude: 45, time: 1), TrackPoint(longitude: 0, latitude: 0, time: 2),
                TrackPoint(longitude: 10.1, latitude: 95, time: 3), TrackPoint(longitude: .nan, latitude: 45, time: 4),
                TrackPoint(longitude: 10.2, latitude: 45, time: 5, accuracyMetres: -1), TrackPoint(longitude: 10.3, latitude: 45, time: 6, accuracyMetres: 5),
                TrackPoint(longitude: 10.4, latitude: 45, time: 6),
            ], [TrackPoint(longitude: 0, latitude: 0)],
        ])
        let (cleaned, dropped) = t.cleaned()
        // The fix at 10.4 repeats the time 6 s and stays, with its time: statistics decide.
        #expect(cleaned.segments == [[t.segments[0][0], t.segments[0][5], t.segments[0][6]]])
        #expect(dropped == [.zeroZero: 2, .outOfRange: 2, .negativeAccuracy: 1])
    }

    @Test("simulated fixes are 1 s apart, one per vertex, with the geodesic's courses and speeds")
    func simulatePerVertex() {
        let track = Self.sample().densified(maxSegmentMetres: 50)
        let fixes = LocationSimulator.fixesPerVertex(track, startTime: 946_684_800).flatMap { $0 }
        #expect(fixes.count == track.pointCount)
        for (k, f) in fixes.enumerated() { #expect(f.time == 946_684_800 + Double(k)) }
        let points = track.segments[0]
        for k in 0..<(points.count - 1) {
            let inv = Self.proj.inverse(points[k].latitude, points[k].longitude, points[k + 1].latitude, points[k + 1].longitude)
            let course = inv.azi1 < 0 ? inv.azi1 + 360 : inv.azi1
            // On legs ≤ 50 m an ulp of a sine moves the course by ~1e-9°: compare the sideways
            // displacement it makes at the leg's end, as the geodesic oracle suite does.
            let dc = abs(fixes[k].courseDegrees - course)
            #expect(dc < 1e-9 || dc * .pi / 180 * inv.s12 < 1e-8)  // see above: 1e−9° or 10 nm sideways
            #expect(abs(fixes[k].speedMetresPerSecond - inv.s12) < 1e-9)  // a leg per second: 1 nm, our inverse against PROJ's on legs ≤ 50 m
        }
        #expect(fixes.allSatisfy { (0..<360).contains($0.courseDegrees) })
    }

    @Test("at a given speed fixes are speed × 1 s apart along the line, the last at the end")
    func simulateAtSpeed() {
        let track = Track(segments: [
            [
                TrackPoint(longitude: 10, latitude: 45), TrackPoint(longitude: 10.01, latitude: 45),
                TrackPoint(longitude: 10.01, latitude: 45.01),
            ]
        ])
        let fixes = LocationSimulator.fixesAtSpeed(track, speed: 1.4, startTime: 0).flatMap { $0 }
        let total = Self.proj.inverse(45, 10, 45, 10.01).s12 + Self.proj.inverse(45, 10.01, 45.01, 10.01).s12
        #expect(fixes.count == Int((total / 1.4).rounded(.up)) + 1)
        // The last fix is the last vertex through a geodesic direct: ulps of 45° are 7e−15°.
        #expect(fixes.last!.longitude == 10.01 && abs(fixes.last!.latitude - 45.01) < 1e-12)
        // Consecutive fixes on the first leg are 1.4 m apart and head east (course ~90°).
        let a = fixes[10]
        let b = fixes[11]
        #expect(abs(Self.proj.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12 - 1.4) < 1e-6)  // 1 µm, the geodesic oracle suite's distance bound
        // 0.01°: along the 787 m east leg at 45° N the geodesic's azimuth turns with the meridians
        // by sin(45°) × 0.01° = 0.007°, from 89.996° to 90.004°.
        #expect(abs(a.courseDegrees - 90) < 0.01)
        #expect(abs(fixes[fixes.count - 2].courseDegrees - 0) < 1e-6)  // on 1.4 m legs a latitude's ulp (0.8 nm) turns the course by up to 3e−8°
    }

    @Test("gain and loss: a noisy climb counts its rise, the noise counts nothing")
    func hysteresis() {
        // 100 m climbed in 1 m steps with ±2 m alternating noise on top, then flat with noise.
        var z: [Double?] = []
        for k in 0...100 { z.append(Double(k) + (k % 2 == 0 ? 2 : -2)) }
        for k in 0..<100 { z.append(100 + (k % 2 == 0 ? 2 : -2)) }
        let points = z.indices.map { TrackPoint(longitude: 10 + Double($0) * 1e-4, latitude: 45) }
        let track = Track(segments: [points])
        let s = TrackStatistics(track: track, elevations: z, gainThresholdMetres: 5)
        // Raw sums would be ~500 m up and ~400 m down; with a 5 m threshold the rise is ~100 m.
        #expect(abs(s.elevationGainMetres - 100) <= 5)
        #expect(s.elevationLossMetres <= 5)
        let raw = TrackStatistics(track: track, elevations: z, gainThresholdMetres: 0)
        #expect(raw.elevationGainMetres > 400)
    }

    @Test("statistics: geodesic lengths per segment, duration, moving time and speeds")
    func statistics() {
        let track = Self.sample()
        let s = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        let legs = [
            Self.proj.inverse(46.40, 13.80, 46.41, 13.81).s12, Self.proj.inverse(46.41, 13.81, 46.41, 13.83).s12,
            Self.proj.inverse(46.00, 14.00, 46.002, 14.00).s12,
        ]
        #expect(abs(s.length2DMetres - legs.reduce(0, +)) < 1e-6)  // 1 µm, the geodesic distance bound
        let climbs = [(legs[0], 100.0), (legs[1], -50.0), (legs[2], 10.0)]
        #expect(abs(s.length3DMetres - climbs.map { ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() }.reduce(0, +)) < 1e-6)  // 1 µm, the geodesic distance bound
        // Recorded time is each segment's (1,200 s and 100 s); the 3,800 s between them is only in the elapsed time.
        #expect(s.durationSeconds == 1300 && s.elapsedSeconds == 5100 && s.movingTimeSeconds == 1300 && s.stoppedTimeSeconds == 0)
        #expect(abs(s.averageSpeedMetresPerSecond! - legs.reduce(0, +) / 1300) < 1e-9)  // the 1 µm length bound over 1,300 s is under 1e−9 m/s
        #expect(s.elevationGainMetres == 110 && s.elevationLossMetres == 50)
        #expect(s.minElevationMetres == 500 && s.maxElevationMetres == 1700)
        #expect(s.boundingBox!.west == 13.80 && s.boundingBox!.north == 46.41)
    }

    // MARK: Times that are not clean

    /// A zigzag walk at `speed` m/s: 49 fixes 5 s apart, each `5 × speed` metres from the one
    /// before along azimuths alternating 60° and 120° (PROJ's geod_direct), so any stretch of
    /// it between fixes j < k is (k − j) × 5 × speed metres long while the straight line is
    /// shorter: a statistic that skips a fix gets a shorter length.
    static func zigzag(speed: Double, times: (Int) -> Double?) -> Track {
        var lat = 46.0
        var lon = 14.0
        var points: [TrackPoint] = []
        for k in 0..<49 {
            points.append(TrackPoint(longitude: lon, latitude: lat, elevationMetres: 300, time: times(k)))
            let next = proj.direct(lat, lon, k % 2 == 0 ? 60 : 120, 5 * speed)
            lat = next.lat2
            lon = next.lon2
        }
        return Track(segments: [points])
    }

    static func projLength(_ track: Track) -> Double {
        track.segments.reduce(0) { sum, segment in
            zip(segment, segment.dropFirst()).reduce(sum) { $0 + proj.inverse($1.0.latitude, $1.0.longitude, $1.1.latitude, $1.1.longitude).s12 }
        }
    }

    struct TimeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let times: @Sendable (Int) -> Double?
        let counts: TimeCounts
        let steps: Int
        var testDescription: String { name }
    }

    static let timeCases: [TimeCase] = [
        TimeCase(name: "clean", times: { 5 * Double($0) }, counts: TimeCounts(usable: 49), steps: 48),
        // Fix 7 repeats fix 6's time: the step runs 6 → 8 over two legs in 10 s.
        TimeCase(name: "repeated", times: { $0 == 7 ? 30 : 5 * Double($0) }, counts: TimeCounts(usable: 48, repeated: 1), steps: 47),
        // Fix 10 says 100 s before the start: walked through like a missing time.
        TimeCase(name: "backwards", times: { $0 == 10 ? -50 : 5 * Double($0) }, counts: TimeCounts(usable: 48, backwards: 1), steps: 47),
        // Fix 10 says a million seconds on (a glitch ahead of the clock): it alone loses its time.
        TimeCase(name: "ahead", times: { $0 == 10 ? 1e6 : 5 * Double($0) }, counts: TimeCounts(usable: 48, backwards: 1), steps: 47),
        TimeCase(name: "missing", times: { $0 == 20 || $0 == 21 ? nil : 5 * Double($0) }, counts: TimeCounts(usable: 47, missing: 2), steps: 46),
        // Times rounded down to the minute: runs of 12 fixes start at fixes 0, 12, 24, 36 and 48
        // (true times 0, 60, 120, 180, 240 s), so each step is 60 s over 12 legs.
        TimeCase(name: "coarse", times: { (5 * Double($0) / 60).rounded(.down) * 60 }, counts: TimeCounts(usable: 5, repeated: 44), steps: 4),
    ]

    @Test(
        "every fix stays whatever its time; durations and speeds come from the usable times, over the summed distance",
        arguments: timeCases)
    func untidyTimes(c: TimeCase) {
        let speed = 1.5
        let raw = Self.zigzag(speed: speed, times: c.times)
        let (track, dropped) = raw.cleaned()
        #expect(dropped.isEmpty && track == raw)
        let s = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        #expect(s.points == 49)
        // Each of the 48 legs is our inverse of PROJ's direct output, against PROJ's own inverse:
        // they differ by the rounding of the end points' sines and cosines (ours are not libm's),
        // up to ~1e-9 m a leg; 48 nm bounds the sum.
        #expect(abs(s.length2DMetres - Self.projLength(track)) < 48e-9)
        #expect(abs(s.length2DMetres - 48 * 5 * speed) < 1e-6)  // the 48e−9 above, plus the simulator's legs of 5 s at speed (the direct, then our inverse)
        #expect(s.times == c.counts && s.timeSteps == c.steps)
        #expect(c.counts.usable + c.counts.repeated + c.counts.backwards + c.counts.missing == 49)
        // Every time step covers (k − j) legs of 7.5 m in (k − j) × 5 s: exactly 1.5 m/s, up to
        // the legs' positions rounded to doubles (~1e-9 m each).
        #expect(s.durationSeconds == 240 && s.movingTimeSeconds == 240)
        for v in [s.averageSpeedMetresPerSecond, s.maxSpeedMetresPerSecond, s.maxSpeedRawMetresPerSecond] {
            #expect(abs(v! - speed) < 1e-9)  // ~1e−9 m a leg over ≥ 5 s, as above
        }
    }

    @Test("every fix at one time (Mojstrovka's 1901 stamp): one usable time, no time steps, unknown speeds, full length")
    func oneTimeForAll() {
        let track = Self.zigzag(speed: 2, times: { _ in -2_147_483_647.792_656_2 })
        let s = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        #expect(s.times == TimeCounts(usable: 1, repeated: 48) && s.timeSteps == 0)
        #expect(s.durationSeconds == 0 && s.movingTimeSeconds == nil)
        #expect(s.averageSpeedMetresPerSecond == nil && s.maxSpeedMetresPerSecond == nil && s.maxSpeedRawMetresPerSecond == nil)
        #expect(abs(s.length2DMetres - Self.projLength(track)) < 48e-9)  // 1e-9 m a leg, as above
    }

    @Test("one fix thrown 300 m sideways: the raw maximum is its step, the windowed maximum the best minute and 200 m around it")
    func glitch() {
        let speed = 1.2
        var track = Self.zigzag(speed: speed, times: { 5 * Double($0) })
        let g = track.segments[0][25]
        let thrown = Self.proj.direct(g.latitude, g.longitude, 0, 300)
        track.segments[0][25].latitude = thrown.lat2
        track.segments[0][25].longitude = thrown.lon2
        let s = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        let p = track.segments[0]
        let out = Self.proj.inverse(p[24].latitude, p[24].longitude, p[25].latitude, p[25].longitude).s12
        let back = Self.proj.inverse(p[25].latitude, p[25].longitude, p[26].latitude, p[26].longitude).s12
        // Our inverse against PROJ's on ~300 m: well under 1e-9 m, divided by 5 s.
        #expect(abs(s.maxSpeedRawMetresPerSecond! - max(out, back) / 5) < 1e-9)
        #expect(s.maxSpeedRawMetresPerSecond! > 50)
        let steps = zip(p, p.dropFirst()).map { a, b in
            TimeStep(seconds: 5, metres: Self.proj.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12)
        }
        let every = Self.bruteWindowedMaximum([steps], seconds: TrackStatistics.maxSpeedWindowSeconds, metres: TrackStatistics.maxSpeedWindowMetres)!
        // PROJ's legs against ours, ~1e-9 m each over at least 30 s.
        #expect(abs(s.maxSpeedMetresPerSecond! - every) < 1e-9)
        // A minute with the throw in it: the 600 m out and back and 10 walking legs, far below the raw step, far above walking.
        #expect(s.maxSpeedMetresPerSecond! < s.maxSpeedRawMetresPerSecond! / 2 && s.maxSpeedMetresPerSecond! > 5 * speed)
    }

    @Test(
        "the windowed maximum: the best average over any stretch of 60 s and 200 m within a segment",
        arguments: [
            ([[]], nil),
            ([Array(repeating: (10.0, 50.0), count: 10)], 5),  // a steady 5 m/s
            ([[(20, 100), (20, 100)]], nil),  // 40 s: no stretch lasts 60 s
            ([[(20, 100), (20, 100)], [(20, 100), (20, 100)]], nil),  // nor across the break between segments
            // One fast second: a minute of walking with it, 260 m in 61 s.
            ([[(20, 20), (20, 20), (20, 20), (1, 200), (20, 20), (20, 20), (20, 20)]], 260.0 / 61),
            ([[(100, 100), (100, 100)]], 1),  // 200 m need both steps
            // 10 m/s, a 20 s stop, 10 m/s: the whole (1,000 m in 120 s) beats either shortest stretch (500 m in 70 s).
            ([[(50, 500), (20, 0), (50, 500)]], 1000.0 / 120),
        ] as [([[(Double, Double)]], Double?)])
    func windowedMaximum(steps: [[(Double, Double)]], expected: Double?) {
        let segments = steps.map { $0.map { TimeStep(seconds: $0.0, metres: $0.1) } }
        #expect(TrackStatistics.windowedMaximumSpeed(segments) == expected)
    }

    /// Every stretch of every segment, the scalar reference for ``TrackStatistics/windowedMaximumSpeed(_:seconds:metres:)``.
    static func bruteWindowedMaximum(_ segments: [[TimeStep]], seconds: Double, metres: Double) -> Double? {
        var best: Double? = nil
        for steps in segments {
            for i in steps.indices {
                var d = 0.0
                var t = 0.0
                for j in i..<steps.count {
                    d += steps[j].metres
                    t += steps[j].seconds
                    if t >= seconds && d >= metres { best = max(best ?? d / t, d / t) }
                }
            }
        }
        return best
    }

    @Test("the windowed maximum equals the best of every stretch, on random tracks with stops and bursts", arguments: 0..<40)
    func windowedMaximumAgainstEveryStretch(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed + 1))
        let segments = (0..<(1 + seed % 3)).map { _ in
            (0..<Int(random.next() % 60)).map { _ in
                let seconds = [1.0, 2, 5, 10, 30][Int(random.next() % 5)]
                let speed = random.next() % 4 == 0 ? 0 : Double(random.next() % 30_000) / 1000
                return TimeStep(seconds: seconds, metres: speed * seconds)
            }
        }
        let window = [(60.0, 200.0), (10, 0), (0, 50)][seed % 3]
        let fast = TrackStatistics.windowedMaximumSpeed(segments, seconds: window.0, metres: window.1)
        let every = Self.bruteWindowedMaximum(segments, seconds: window.0, metres: window.1)
        #expect((fast == nil) == (every == nil))
        if let fast, let every {
            // The fast one takes a stretch's distance as a difference of running totals (up to
            // 60 steps of at most 900 m: rounded at the ulp of 54 km, ~7e-12 m a step), over at
            // least 1 s; the reference sums the stretch itself. 1e-9 m/s bounds the difference.
            #expect(abs(fast - every) <= 1e-9, "\(fast) vs \(every)")
        }
    }

    @Test(
        "speeds shown in km/h, mph or knots with the unit system",
        arguments: [
            (UnitSystem.metric, "36.00 km/h"), (.imperial, "22.37 mph"), (.fixed(.nauticalMiles), "19.44 kn"),
            (.fixed(.metres), "36.00 km/h"), (.fixed(.feet), "22.37 mph"), (.fixed(.kilometres), "36.00 km/h"),
        ])
    func speedUnits(units: UnitSystem, text: String) {
        // 10 m/s = 36 km/h exactly = 36,000 / 1,609.344 mph (22.369…) = 36,000 / 1,852 kn (19.438…).
        #expect(units.speedUnit.format(10) == text)
        let unit = units.speedUnit
        #expect(abs(unit.convert(metresPerSecond: unit.metresPerSecond) - 1) < 1e-15)  // a division and its inverse round twice: a few ulp of 1 (2.2e−16)
    }

    @Test("DEM elevations with recorded ones where the DEM has none; counted, never zero")
    func mergedElevations() {
        let track = Track(segments: [
            [
                TrackPoint(longitude: 1, latitude: 1, elevationMetres: 10),
                TrackPoint(longitude: 2, latitude: 1, elevationMetres: 20),
            ],
            [TrackPoint(longitude: 3, latitude: 1), TrackPoint(longitude: 4, latitude: 1, elevationMetres: 40)],
        ])
        let e = TrackElevations(sampled: [100, .nan, .nan, 400], track: track)
        #expect(e.values == [100, 20, nil, 400])
        #expect(e.fromDEM == 2 && e.recorded == 1 && e.missing == 1)
        #expect(e.sourceLabel(demRequested: true) == "dem+recorded")
        #expect(e.applied(to: track).points.map(\.elevationMetres) == [100, 20, nil, 400])
        let inside = TrackElevations(sampled: [1, 2, 3, 4], track: track)
        #expect(inside.sourceLabel(demRequested: true) == "dem" && inside.recorded == 0 && inside.missing == 0)
        let recorded = TrackElevations(recordedIn: track)
        #expect(recorded.values == [10, 20, nil, 40] && recorded.recorded == 3 && recorded.missing == 1)
        #expect(recorded.sourceLabel(demRequested: false) == "recorded")
    }
}
