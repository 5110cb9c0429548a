import Testing
@testable import TransectGeodesy
@testable import TransectAnalysis
import TransectTestSupport

@Suite("Profile sampling, statistics and line of sight")
struct ProfileTests {
    @Test(
        "sample positions lie on the geodesic: each agrees with PROJ's geod_direct from the start within 1e-6 m",
        arguments: [
            (10.0, 45.0, 10.3, 45.2, 30.0), (-119.53, 37.746, -119.573, 37.7308, 7.3),
            (179.9, -10, -179.7, -10.5, 100.0), (0, 89.9, 120, 89.95, 50.0), (-70, -33, 18, -34, 25_000.0),
        ])
    func positionsOnTheGeodesic(lon1: Double, lat1: Double, lon2: Double, lat2: Double, step: Double) {
        let plan = ProfilePlan(
            vertices: [GeoPoint(longitude: lon1, latitude: lat1), GeoPoint(longitude: lon2, latitude: lat2)],
            spacing: .step(step))
        let proj = ProjGeodesic.wgs84
        let line = proj.inverse(lat1, lon1, lat2, lon2)
        #expect(plan.distancesMetres.first == 0)
        #expect(abs(plan.distancesMetres.last! - line.s12) < 1e-6)  // 1 µm, the geodesic oracle suite's distance bound (≈ 70× GeographicLib's 15 nm)
        // Every step is `step` long except the last, which may be shorter.
        for k in 1..<(plan.distancesMetres.count - 1) {
            #expect(abs(plan.distancesMetres[k] - plan.distancesMetres[k - 1] - step) < 1e-6)  // 1 µm, as the length above
        }
        #expect(plan.distancesMetres.last! - plan.distancesMetres[plan.distancesMetres.count - 2] <= step + 1e-9)
        var worst = 0.0
        for k in plan.distancesMetres.indices {
            let expected = proj.direct(lat1, lon1, line.azi1, plan.distancesMetres[k])
            worst = max(worst, proj.inverse(expected.lat2, expected.lon2, plan.latitudes[k], plan.longitudes[k]).s12)
        }
        #expect(worst < 1e-6, "worst position error \(worst) m")  // 1 µm, the geodesic distance bound: positions against PROJ's direct at the same distance
    }

    @Test("a path is profiled leg after leg: vertices are samples and distance runs on continuously")
    func multiLeg() throws {
        let vertices = [
            GeoPoint(longitude: 10, latitude: 45), GeoPoint(longitude: 10.01, latitude: 45),
            GeoPoint(longitude: 10.01, latitude: 45.01), GeoPoint(longitude: 10.01, latitude: 45.01),
        ]
        let plan = ProfilePlan(vertices: vertices, spacing: .step(100))
        let proj = ProjGeodesic.wgs84
        let leg1 = proj.inverse(45, 10, 45, 10.01).s12
        let leg2 = proj.inverse(45, 10.01, 45.01, 10.01).s12
        #expect(abs(plan.distancesMetres.last! - (leg1 + leg2)) < 1e-6)  // 1 µm, the geodesic distance bound
        // The joint's distance is the first leg's length, up to round-off (ulps of ~800 m are 1e−13 m).
        let joint = try #require(plan.distancesMetres.firstIndex { abs($0 - leg1) < 1e-9 })
        #expect(plan.longitudes[joint] == 10.01 && plan.latitudes[joint] == 45)
        #expect(zip(plan.distancesMetres, plan.distancesMetres.dropFirst()).allSatisfy { $0 < $1 })
        // The zero-length last leg adds nothing; identical endpoints give one sample.
        let single = ProfilePlan(vertices: [vertices[0], vertices[0]], spacing: .step(10))
        #expect(single.distancesMetres == [0])
        #expect(ProfilePlan(vertices: [vertices[0], vertices[1]], spacing: .count(11)).distancesMetres.count == 11)
    }

    static func randomProfile(_ rng: inout SeededRandom, count: Int, gaps: Double) -> Profile {
        var d = [0.0]
        var z: [Double] = []
        for _ in 1..<count { d.append(d.last! + (rng.unit() < 0.05 ? 0 : 1 + 30 * rng.unit())) }
        for _ in 0..<count { z.append(rng.unit() < gaps ? .nan : 1000 + 800 * rng.unit()) }
        return Profile(distancesMetres: d, longitudes: d.map { _ in 0 }, latitudes: d.map { _ in 0 }, elevationsMetres: z)
    }

    @Test("the SIMD statistics kernel agrees with the scalar reference", arguments: [2, 3, 5, 8, 1001, 4096])
    func simdMatchesScalar(count: Int) {
        var rng = SeededRandom(seed: UInt64(count))
        for gaps in [0.0, 0.2] {
            let p = Self.randomProfile(&rng, count: count, gaps: gaps)
            let a = ProfileStatistics(p)
            let b = ProfileStatistics.reference(p)
            // Sums run in four lanes in the kernel and in one in the reference: they may differ
            // by the reordering of additions, a few ulps of totals up to ~1e6.
            for (x, y) in [
                (a.elevationGainMetres, b.elevationGainMetres), (a.elevationLossMetres, b.elevationLossMetres),
                (a.surfaceLengthWithDataMetres, b.surfaceLengthWithDataMetres),
                (a.horizontalLengthWithDataMetres, b.horizontalLengthWithDataMetres), (a.averagePositiveSlopePercent, b.averagePositiveSlopePercent),
                (a.averageNegativeSlopePercent, b.averageNegativeSlopePercent),
            ] {
                #expect(abs(x - y) <= 1e-12 * max(1, abs(y)))  // the few ulps above, relative (1e−12 ≈ 4,500 ε, room for 4,096 reordered terms)
            }
            #expect(a.maxPositiveSlopePercent == b.maxPositiveSlopePercent && a.maxNegativeSlopePercent == b.maxNegativeSlopePercent)
        }
    }

    /// What a profile's elevations alone say, counted here the plain way rather than by the
    /// statistics' own pass (which the kernel and the reference share, so comparing the two
    /// says nothing about it).
    struct ElevationFacts: Equatable {
        var minimum: ProfileStatistics.Extreme?, maximum: ProfileStatistics.Extreme?
        var validCount = 0, gapCount = 0
        /// Each sample without data owns the stretch from the midpoint before it to the midpoint
        /// after it (the path's end at either end); a gap's length is the sum over its samples.
        var gapLengthMetres = 0.0
        var averageElevationMetres = Double.nan

        init(_ p: Profile) {
            let z = p.elevationsMetres
            let d = p.distancesMetres
            let n = z.count
            let valid = z.indices.filter { !z[$0].isNaN }
            if let low = valid.map({ z[$0] }).min(), let high = valid.map({ z[$0] }).max(),
                let first = z.firstIndex(of: low), let top = z.firstIndex(of: high)
            {
                minimum = .init(elevationMetres: low, index: first)
                maximum = .init(elevationMetres: high, index: top)
                averageElevationMetres = valid.map { z[$0] }.reduce(0, +) / Double(valid.count)
            }
            validCount = valid.count
            gapCount = z.indices.filter { z[$0].isNaN && ($0 == 0 || !z[$0 - 1].isNaN) }.count
            for k in z.indices where z[k].isNaN {
                let from = k == 0 ? d[0] : (d[k - 1] + d[k]) / 2
                let to = k == n - 1 ? d[n - 1] : (d[k] + d[k + 1]) / 2
                gapLengthMetres += to - from
            }
        }
    }

    @Test(
        "extremes (first index of each), counts, gaps and the mean agree with a plain count of the elevations",
        arguments: [2, 3, 5, 8, 1001, 4096])
    func elevationFacts(count: Int) {
        var rng = SeededRandom(seed: 500 + UInt64(count))
        for gaps in [0.0, 0.2, 0.7, 1.0] {
            let random = Self.randomProfile(&rng, count: count, gaps: gaps)
            // Whole metres in a 6 m band: ties everywhere, so "the first sample that has it" matters.
            var tied = random
            tied.elevationsMetres = random.elevationsMetres.map { $0.isNaN ? .nan : (1000 + ($0 - 1000) / 800 * 6).rounded(.down) }
            for p in [random, tied] {
                let facts = ElevationFacts(p)
                for s in [ProfileStatistics(p), ProfileStatistics.reference(p)] {
                    #expect(s.minimum == facts.minimum && s.maximum == facts.maximum)
                    #expect(s.validCount == facts.validCount && s.gapCount == facts.gapCount)
                    // Per sample here, per run there: each midpoint and difference rounds by at
                    // most an ulp of the path's length, a few per sample.
                    #expect(abs(s.gapLengthMetres - facts.gapLengthMetres) <= 4 * Double(count) * p.lengthMetres.ulp)
                    // The same values added in the same order: equal.
                    #expect(
                        s.averageElevationMetres == facts.averageElevationMetres
                            || (s.averageElevationMetres.isNaN && facts.averageElevationMetres.isNaN))
                }
            }
        }
    }

    @Test("statistics of a hand-made profile: gaps skipped, zero-length steps kept out of slopes")
    func handMade() {
        // d: 0 10 20 20 30 40 50 60; z: 100 110 105 107 nan nan 120 90
        let p = Profile(
            distancesMetres: [0, 10, 20, 20, 30, 40, 50, 60], longitudes: Array(repeating: 0, count: 8),
            latitudes: Array(repeating: 0, count: 8), elevationsMetres: [100, 110, 105, 107, .nan, .nan, 120, 90])
        let s = ProfileStatistics(p)
        #expect(s.minimum == .init(elevationMetres: 90, index: 7) && s.maximum == .init(elevationMetres: 120, index: 6))
        #expect(s.elevationGainMetres == 10 + 2 && s.elevationLossMetres == 5 + 30)
        #expect(s.maxPositiveSlopePercent == 100 && s.maxNegativeSlopePercent == -300)
        #expect(s.averagePositiveSlopePercent == 100 && s.averageNegativeSlopePercent == (-50 - 300) / 2)
        #expect(s.gapCount == 1 && s.gapLengthMetres == 45 - 25)
        // Four square roots summed in another order: a few ulp of ~59 m (7e−15 m); 1e−12 leaves room.
        #expect(abs(s.surfaceLengthWithDataMetres - (200.0.squareRoot() + 125.0.squareRoot() + 2 + 1000.0.squareRoot())) < 1e-12)
        // Steps with data at both ends: 0–10, 10–20, 20–20 and 50–60; the 20–50 stretch touches the gap.
        #expect(s.horizontalLengthWithDataMetres == 30 && s.horizontalLengthMetres == 60)
        #expect(s.averageElevationMetres == 632.0 / 6)
    }

    @Test(
        "the surface length with data is never below the horizontal length with data, and equals it on flat ground",
        arguments: [2, 3, 7, 1001, 4096])
    func surfaceAtLeastHorizontal(count: Int) {
        var rng = SeededRandom(seed: 77 + UInt64(count))
        for gaps in [0.0, 0.3, 0.9] {
            var p = Self.randomProfile(&rng, count: count, gaps: gaps)
            for s in [ProfileStatistics(p), ProfileStatistics.reference(p)] {
                #expect(s.surfaceLengthWithDataMetres >= s.horizontalLengthWithDataMetres)
                #expect(s.horizontalLengthWithDataMetres <= s.horizontalLengthMetres * (1 + 1e-12))
            }
            // Flat with the same gaps: each step's √(Δd² + 0) is Δd exactly, so the two sums are equal.
            p.elevationsMetres = p.elevationsMetres.map { $0.isNaN ? .nan : 1234.5 }
            for s in [ProfileStatistics(p), ProfileStatistics.reference(p)] {
                #expect(s.surfaceLengthWithDataMetres == s.horizontalLengthWithDataMetres)
                // No gaps: a sum of up to 4,095 steps against last minus first, n·ε ≈ 5e−13 relative at most.
                if gaps == 0 { #expect(abs(s.horizontalLengthWithDataMetres - s.horizontalLengthMetres) <= 1e-9 * s.horizontalLengthMetres) }
            }
        }
    }

    /// The point `s` metres from (10°E, 45°N) along azimuth 60°, moved `off` metres to its right.
    static func onLine(_ s: Double, off: Double = 0) -> GeoPoint {
        let g = Geodesic.wgs84
        let p = g.direct(latitude1: 45, longitude1: 10, azimuth1Degrees: 60, distanceMetres: s)
        guard off != 0 else { return p.point }
        return g.direct(from: p.point, azimuthDegrees: p.azimuth2Degrees + 90, distanceMetres: off).point
    }

    @Test("a path is straight when its vertices lie on the geodesic between its ends, in order, within 1e-6 of its length")
    func pathShape() {
        let a = Self.onLine(0)
        let b = Self.onLine(4000)
        #expect(LineOfSight.shape(of: [[a, b]]) == .straight)
        #expect(LineOfSight.shape(of: [[a, Self.onLine(1000), Self.onLine(2500), b]]) == .straight)
        #expect(LineOfSight.shape(of: [[a, a, Self.onLine(1000), Self.onLine(1000), b]]) == .straight)
        #expect(LineOfSight.shape(of: [[a, a]]) == .straight && LineOfSight.shape(of: [[a]]) == .straight)
        // 4 km long: the tolerance is 4 mm. 2 mm off the line is on it; 8 mm off is a bend.
        #expect(LineOfSight.shape(of: [[a, Self.onLine(2000, off: 0.002), b]]) == .straight)
        guard case .bends(let vertex, let offset) = LineOfSight.shape(of: [[a, Self.onLine(2000, off: 0.008), b]]) else {
            Issue.record("an 8 mm bend on a 4 km path is a bend")
            return
        }
        #expect(vertex == 1 && abs(offset - 0.008) < 1e-6)  // 1 µm, the geodesic distance bound (the offset is built and measured by geodesics)
        // The farthest vertex is named: 3 m off at 3 km beats 1 m off at 1 km.
        guard case .bends(let far, let farOffset) = LineOfSight.shape(of: [[a, Self.onLine(1000, off: -1), Self.onLine(3000, off: 3), b]]) else {
            Issue.record("a 3 m bend is a bend")
            return
        }
        // The point at |AV| along the line lies (√(3000² + 9) − 3000) ≈ 1.5 mm past the foot of
        // the perpendicular: the offset is 3 m within 1e-6.
        #expect(far == 2 && abs(farOffset - 3) < 1e-6)
        // On the line but running back: 500 m past the end and back is 1 km longer.
        guard case .turnsBack(let excess) = LineOfSight.shape(of: [[a, Self.onLine(4500), b]]) else {
            Issue.record("a path past its end and back turns back")
            return
        }
        #expect(abs(excess - 1000) < 1e-6)  // 1 µm, the geodesic distance bound
        guard case .turnsBack(let loop) = LineOfSight.shape(of: [[a, b, a]]) else {
            Issue.record("out and back turns back")
            return
        }
        #expect(abs(loop - 8000) < 1e-6)  // 1 µm, the geodesic distance bound
        // A track's segments are separate lines even when they lie on one geodesic.
        #expect(LineOfSight.shape(of: [[a, Self.onLine(1000)], [], [Self.onLine(2000), b]]) == .segmented(count: 2))
        #expect(LineOfSight.shape(of: [[], [a, b]]) == .straight)
    }

    @Test("line of sight on a flat earth profile: two 2 m masts part at √(16R/cc)")
    func masts() {
        let radius = LineOfSight.earthRadiusMetres
        let cc = LineOfSight.defaultCurvature
        // Clearance at the middle is 2 − cc·D²/(8R): zero at length* = √(16R/cc) ≈ 10,905 m.
        let limit = (16 * radius / cc).squareRoot()
        for (factor, expected) in [(0.99, LineOfSight.Verdict.visible), (1.01, .obstructed)] {
            let length = limit * factor
            let d = (0...1000).map { length * Double($0) / 1000 }
            let p = Profile(
                distancesMetres: d, longitudes: d.map { _ in 0 }, latitudes: d.map { _ in 0 },
                elevationsMetres: d.map { _ in 0 })
            let los = LineOfSight(profile: p, observerHeightMetres: 2, targetHeightMetres: 2)!
            #expect(los.verdict == expected)
            #expect(los.minimumClearance?.index == 500)
            // 1 nm: the closed form at the middle sample, reordered; ulps of 2 m are 4.4e−16 m.
            #expect(abs(los.minimumClearance!.clearanceMetres - (2 - cc * length * length / (8 * radius))) < 1e-9)
        }
        // A gap where the line would clear: unknown, not visible.
        var d = (0...10).map { Double($0) * 100 }
        var z = d.map { _ in 0.0 }
        z[5] = .nan
        var p = Profile(distancesMetres: d, longitudes: d.map { _ in 0 }, latitudes: d.map { _ in 0 }, elevationsMetres: z)
        #expect(LineOfSight(profile: p, observerHeightMetres: 2, targetHeightMetres: 2)?.verdict == .unknown)
        // An end on no data: no verdict at all.
        z[10] = .nan
        p.elevationsMetres = z
        #expect(LineOfSight(profile: p, observerHeightMetres: 2, targetHeightMetres: 2) == nil)
        d = [0]
        #expect(
            LineOfSight(
                profile: Profile(distancesMetres: d, longitudes: [0], latitudes: [0], elevationsMetres: [5]),
                observerHeightMetres: 2, targetHeightMetres: 0)?.verdict == .visible)
    }
}
