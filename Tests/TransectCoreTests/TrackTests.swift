import Testing
@testable import TransectCore

@Suite("tracks: cleaning, densifying, simulating, statistics")
struct TrackTests {
    static let proj = ProjGeodesic.wgs84

    static func sample() -> Track {
        Track(segments: [
            [TrackPoint(longitude: 13.80, latitude: 46.40, elevationMetres: 1600, time: 0),
             TrackPoint(longitude: 13.81, latitude: 46.41, elevationMetres: 1700, time: 600),
             TrackPoint(longitude: 13.83, latitude: 46.41, elevationMetres: 1650, time: 1200)],
            [TrackPoint(longitude: 14.00, latitude: 46.00, elevationMetres: 500, time: 5000),
             TrackPoint(longitude: 14.00, latitude: 46.002, elevationMetres: 510, time: 5100)],
        ])
    }

    @Test("densified steps are all within the maximum and every point lies on the geodesic (PROJ's geod_inverse)",
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
                let a = segment[start], b = segment[k]
                let whole = Self.proj.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12
                for p in segment[(start + 1)..<k] {
                    let via = Self.proj.inverse(a.latitude, a.longitude, p.latitude, p.longitude).s12
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
            #expect(abs(mid.elevationMetres! - (500 + 10 * f)) < 1e-9)
        }
    }

    @Test("cleaning drops (0, 0), out-of-range, negative accuracy and repeated times, and counts them")
    func clean() {
        let t = Track(segments: [[
            TrackPoint(longitude: 10, latitude: 45, time: 1), TrackPoint(longitude: 0, latitude: 0, time: 2),
            TrackPoint(longitude: 10.1, latitude: 95, time: 3), TrackPoint(longitude: .nan, latitude: 45, time: 4),
            TrackPoint(longitude: 10.2, latitude: 45, time: 5, accuracyMetres: -1), TrackPoint(longitude: 10.3, latitude: 45, time: 6, accuracyMetres: 5),
            TrackPoint(longitude: 10.4, latitude: 45, time: 6),
        ], [TrackPoint(longitude: 0, latitude: 0)]])
        let (cleaned, dropped) = t.cleaned()
        #expect(cleaned.segments.count == 1 && cleaned.pointCount == 2)
        #expect(dropped == [.zeroZero: 2, .outOfRange: 2, .negativeAccuracy: 1, .repeatedTime: 1])
    }

    @Test("simulated fixes are 1 s apart, one per vertex, with the geodesic's courses and speeds")
    func simulatePerVertex() {
        let track = Self.sample().densified(maxSegmentMetres: 50)
        let fixes = LocationSimulator.fixesPerVertex(track, startTime: 946_684_800)
        #expect(fixes.count == track.pointCount)
        for (k, f) in fixes.enumerated() { #expect(f.time == 946_684_800 + Double(k)) }
        let points = track.segments[0]
        for k in 0..<(points.count - 1) {
            let inv = Self.proj.inverse(points[k].latitude, points[k].longitude, points[k + 1].latitude, points[k + 1].longitude)
            let course = inv.azi1 < 0 ? inv.azi1 + 360 : inv.azi1
            #expect(abs(fixes[k].courseDegrees - course) < 1e-9)
            #expect(abs(fixes[k].speedMetresPerSecond - inv.s12) < 1e-9)
        }
        #expect(fixes.allSatisfy { (0..<360).contains($0.courseDegrees) })
    }

    @Test("at a given speed fixes are speed × 1 s apart along the line, the last at the end")
    func simulateAtSpeed() {
        let track = Track(segments: [[TrackPoint(longitude: 10, latitude: 45), TrackPoint(longitude: 10.01, latitude: 45),
                                      TrackPoint(longitude: 10.01, latitude: 45.01)]])
        let fixes = LocationSimulator.fixesAtSpeed(track, speed: 1.4, startTime: 0)
        let total = Self.proj.inverse(45, 10, 45, 10.01).s12 + Self.proj.inverse(45, 10.01, 45.01, 10.01).s12
        #expect(fixes.count == Int((total / 1.4).rounded(.up)) + 1)
        #expect(fixes.last!.longitude == 10.01 && abs(fixes.last!.latitude - 45.01) < 1e-12)
        // Consecutive fixes on the first leg are 1.4 m apart and head east (course ~90°).
        let a = fixes[10], b = fixes[11]
        #expect(abs(Self.proj.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12 - 1.4) < 1e-6)
        #expect(abs(a.courseDegrees - 90) < 0.01)
        #expect(abs(fixes[fixes.count - 2].courseDegrees - 0) < 1e-6)
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
        let legs = [Self.proj.inverse(46.40, 13.80, 46.41, 13.81).s12, Self.proj.inverse(46.41, 13.81, 46.41, 13.83).s12,
                    Self.proj.inverse(46.00, 14.00, 46.002, 14.00).s12]
        #expect(abs(s.length2DMetres - legs.reduce(0, +)) < 1e-6)
        let climbs = [(legs[0], 100.0), (legs[1], -50.0), (legs[2], 10.0)]
        #expect(abs(s.length3DMetres - climbs.map { ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() }.reduce(0, +)) < 1e-6)
        #expect(s.durationSeconds == 5100 && s.movingTimeSeconds == 1300)
        #expect(abs(s.averageSpeedMetresPerSecond! - legs.reduce(0, +) / 1300) < 1e-9)
        #expect(s.elevationGainMetres == 110 && s.elevationLossMetres == 50)
        #expect(s.minElevationMetres == 500 && s.maxElevationMetres == 1700)
        #expect(s.boundingBox!.west == 13.80 && s.boundingBox!.north == 46.41)
    }
}
