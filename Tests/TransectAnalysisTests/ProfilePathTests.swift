import Testing
@testable import TransectSupport
@testable import TransectGeodesy
@testable import TransectAnalysis
import TransectTestSupport

@Suite("ProfilePath: multi-segment profiles with continuous distance")
struct ProfilePathTests {
    /// Two segments on the meridian 10° E: 45.0°→45.1°→45.2° and 46.0°→46.05°. Along a meridian
    /// every sample is the meridian arc from its segment's start, which PROJ's geod_inverse and
    /// geod_direct give independently.
    static let segmentA = [
        GeoPoint(longitude: 10, latitude: 45), GeoPoint(longitude: 10, latitude: 45.1),
        GeoPoint(longitude: 10, latitude: 45.2),
    ]
    static let segmentB = [GeoPoint(longitude: 10, latitude: 46), GeoPoint(longitude: 10, latitude: 46.05)]

    /// The meridian arc from `lat1` to `lat2` at 10° E, metres (PROJ).
    static func arc(_ lat1: Double, _ lat2: Double) -> Double { ProjGeodesic.wgs84.inverse(lat1, 10, lat2, 10).s12 }

    @Test("legs are the meridian arcs; a step plan runs on across the break with one gap sample; sampleCount is its exact size")
    func stepAcrossSegments() throws {
        let path = ProfilePath(segments: [Self.segmentA, Self.segmentB])
        let l1 = Self.arc(45, 45.1)
        let l2 = Self.arc(45.1, 45.2)
        let l3 = Self.arc(46, 46.05)
        #expect(path.legLengthsMetres.count == 2)
        // 1 µm, the geodesic oracle suite's distance bound (≈ 70× GeographicLib's 15 nm).
        #expect(abs(path.legLengthsMetres[0][0] - l1) < 1e-6 && abs(path.legLengthsMetres[0][1] - l2) < 1e-6)
        #expect(abs(path.legLengthsMetres[1][0] - l3) < 1e-6)  // 1 µm, as above
        #expect(abs(path.lengthMetres - (l1 + l2 + l3)) < 1e-6)  // 1 µm, as above

        let step = 1000.0
        let plan = path.plan(spacing: .step(step))
        let n1 = Int((l1 / step).rounded(.up))
        let n2 = Int((l2 / step).rounded(.up))
        let n3 = Int((l3 / step).rounded(.up))
        // Segment A: its start, every step of each leg and each leg's end; the gap; segment B likewise.
        let countA = 1 + n1 + n2
        let countB = 1 + n3
        #expect(plan.distancesMetres.count == countA + 1 + countB)
        #expect(path.sampleCount(spacing: .step(step)) == plan.distancesMetres.count)

        // Segment A on the meridian from 45°: distance d lies at geod_direct(45°, 10°, azimuth 0, d).
        for k in 0..<countA {
            let d = plan.distancesMetres[k]
            let expected = ProjGeodesic.wgs84.direct(45, 10, 0, d)
            // Under half a unit of the 9 decimals profile prints positions with (5e−10°); 1e−10° ≈ 11 µm.
            #expect(abs(plan.latitudes[k] - expected.lat2) < 1e-10, "sample \(k) at \(d) m")
            #expect(abs(plan.longitudes[k] - 10) < 1e-10)  // as the latitude: under the 9 printed decimals
        }
        // The vertex between the legs is a sample at exactly the first leg's length.
        #expect(abs(plan.distancesMetres[n1] - l1) < 1e-6 && plan.latitudes[n1] == 45.1)
        #expect(abs(plan.distancesMetres[countA - 1] - (l1 + l2)) < 1e-6 && plan.latitudes[countA - 1] == 45.2)  // 1 µm, the geodesic distance bound, as above
        // The break: a gap at segment A's end distance, then segment B from that same distance.
        let gap = countA
        #expect(plan.latitudes[gap].isNaN && plan.longitudes[gap].isNaN)
        #expect(plan.distancesMetres[gap] == plan.distancesMetres[gap - 1])
        #expect(plan.distancesMetres[gap + 1] == plan.distancesMetres[gap - 1] && plan.latitudes[gap + 1] == 46)
        for k in (gap + 1)..<plan.distancesMetres.count {
            let d = plan.distancesMetres[k] - plan.distancesMetres[gap]
            // Under half a unit of the 9 printed decimals, as for segment A.
            #expect(abs(plan.latitudes[k] - ProjGeodesic.wgs84.direct(46, 10, 0, d).lat2) < 1e-10, "sample \(k)")
        }
        #expect(abs(plan.distancesMetres.last! - (l1 + l2 + l3)) < 1e-6)  // 1 µm, the geodesic distance bound
        #expect(zip(plan.distancesMetres, plan.distancesMetres.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("a count is shared among segments in proportion to their lengths, at least two each")
    func countShared() {
        let path = ProfilePath(segments: [Self.segmentA, Self.segmentB])
        let lA = Self.arc(45, 45.1) + Self.arc(45.1, 45.2)
        let lB = Self.arc(46, 46.05)
        let total = lA + lB
        for n in [101, 7, 2] {
            let shareA = max(2, Int((Double(n) * lA / total).rounded()))
            let shareB = max(2, Int((Double(n) * lB / total).rounded()))
            // Within a segment the samples are evenly spaced over its whole length.
            let plan = path.plan(spacing: .count(n))
            let single = ProfilePlan(vertices: Self.segmentA, spacing: .count(shareA))
            let other = ProfilePlan(vertices: Self.segmentB, spacing: .count(shareB))
            #expect(plan.distancesMetres.count == single.distancesMetres.count + 1 + other.distancesMetres.count, "n = \(n)")
            #expect(Array(plan.latitudes.prefix(single.latitudes.count)) == single.latitudes)
            #expect(Array(plan.latitudes.suffix(other.latitudes.count)) == other.latitudes)
            #expect(path.sampleCount(spacing: .count(n)) == max(n, 2) + 2)
        }
    }

    @Test("the middle is halfway along the longest segment, on the meridian")
    func middle() {
        // Segment B is the shorter: the middle is segment A's, past its first leg (the arc
        // grows with latitude, so the second leg is the longer).
        let path = ProfilePath(segments: [Self.segmentB, Self.segmentA])
        #expect(path.longestSegment == 1)
        let half = (Self.arc(45, 45.1) + Self.arc(45.1, 45.2)) / 2
        let expected = ProjGeodesic.wgs84.direct(45, 10, 0, half)
        // Under half a unit of the 9 decimals profile prints positions with.
        #expect(abs(path.middle.latitude - expected.lat2) < 1e-10 && abs(path.middle.longitude - 10) < 1e-10)
        #expect(path.middle.latitude > 45.1 - 1e-9)
        // A path of one point has its middle there.
        #expect(ProfilePath(vertices: [Self.segmentB[0]]).middle == Self.segmentB[0])
        // Segments without length, the first of them empty: the path's first vertex.
        #expect(ProfilePath(segments: [[], [Self.segmentB[1]], [Self.segmentA[0]]]).middle == Self.segmentB[1])
    }

    @Test("one segment plans as ProfilePlan does; empty segments are skipped; the shape says segmented")
    func oneSegmentAndEmpty() {
        let one = ProfilePath(vertices: Self.segmentA)
        let direct = ProfilePlan(vertices: Self.segmentA, spacing: .step(500))
        let planned = one.plan(spacing: .step(500))
        #expect(
            planned.distancesMetres == direct.distancesMetres && planned.latitudes == direct.latitudes
                && planned.longitudes == direct.longitudes)
        #expect(one.shape == .straight)
        let withEmpty = ProfilePath(segments: [[], Self.segmentB, []])
        let plan = withEmpty.plan(spacing: .step(500))
        #expect(plan.distancesMetres == ProfilePlan(vertices: Self.segmentB, spacing: .step(500)).distancesMetres)
        #expect(!plan.latitudes.contains { $0.isNaN })
        #expect(ProfilePath(segments: [Self.segmentA, Self.segmentB]).shape == .segmented(count: 2))
    }
    @Test("a plan is the scalar positions bit for bit, the same when its chunks run out of order on a loop")
    func planLanesAndLoop() {
        // Two segments, three legs; 100,001 samples by count (chunks of 16,384 on the long leg)
        // and a 5 m step.
        let path = ProfilePath(segments: [
            [GeoPoint(longitude: -119.6, latitude: 37.7), GeoPoint(longitude: -118.3, latitude: 36.2), GeoPoint(longitude: -118.2, latitude: 36.25)],
            [GeoPoint(longitude: 179.99, latitude: -0.01), GeoPoint(longitude: -179.9, latitude: 0.02)],
        ])
        // Parts from last to first, on this thread: a plan that depended on the order would differ.
        let reversed: ParallelLoop = { count, body in for part in (0..<count).reversed() { body(part) } }
        for spacing in [ProfilePlan.Spacing.count(100_001), .step(5)] {
            let serial = path.plan(spacing: spacing)
            let looped = path.plan(spacing: spacing, parallel: reversed)
            #expect(serial.distancesMetres.map(\.bitPattern) == looped.distancesMetres.map(\.bitPattern))
            #expect(serial.longitudes.map(\.bitPattern) == looped.longitudes.map(\.bitPattern))
            #expect(serial.latitudes.map(\.bitPattern) == looped.latitudes.map(\.bitPattern))
            #expect(serial.distancesMetres.count <= path.sampleCount(spacing: spacing))
            // Inner samples of the first leg: the scalar position at their distance.
            let line = Geodesic.wgs84.inverseLine(from: path.segments[0][0], to: path.segments[0][1])
            var checked = 0
            for k in stride(from: 1, to: serial.distancesMetres.count, by: 997) where serial.distancesMetres[k] < (line.distanceMetres ?? 0) {
                let p = line.position(atDistance: serial.distancesMetres[k])
                #expect(p.latitude.bitPattern == serial.latitudes[k].bitPattern && p.longitude.bitPattern == serial.longitudes[k].bitPattern)
                checked += 1
            }
            #expect(checked > 20)
        }
    }
}
