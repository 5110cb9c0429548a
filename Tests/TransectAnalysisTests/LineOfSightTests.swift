import Testing
import TransectAnalysis

@Suite("LineOfSight: the sight line at any distance")
struct LineOfSightTests {
    static func profile(_ z: [Double], step: Double) -> Profile {
        let d = z.indices.map { Double($0) * step }
        return Profile(distancesMetres: d, longitudes: d.map { _ in 0 }, latitudes: d.map { _ in 0 }, elevationsMetres: z)
    }

    @Test("on a flat earth the sight line is straight from the observer's eye to the target")
    func flat() throws {
        let p = Self.profile([100, 80, 60, 40, 50], step: 250)
        let los = try #require(LineOfSight(profile: p, observerHeightMetres: 2, targetHeightMetres: 2, curvature: 0))
        // From 102 m at 0 to 52 m at 1000 m: 102 − 0.05 m per metre.
        #expect(los.sightLineMetres(atDistance: 0) == 102)
        #expect(los.sightLineMetres(atDistance: 500) == 77)
        #expect(los.sightLineMetres(atDistance: 1000) == 52)
    }

    @Test("with curvature the line sags toward the earth between the eye and the target, which stay where they are")
    func curved() throws {
        let p = Self.profile([0, 0, 0, 0, 0], step: 10_000)
        let los = try #require(LineOfSight(profile: p, observerHeightMetres: 10, targetHeightMetres: 10, curvature: 1))
        let k = 1 / (2 * LineOfSight.earthRadiusMetres)
        // Reduced frame: from 10 to 10 − k·L²; back in the terrain's frame at d: that line plus k·d².
        let length = 40_000.0
        // Within 1 nm: the expectation is the same arithmetic in another order, a few ulps of
        // heights under 100 m (about 1e-14 m) apart.
        for d in [10_000.0, 20_000, 30_000] {
            let expected = 10 + (10 - k * length * length - 10) * d / length + k * d * d
            #expect(abs(los.sightLineMetres(atDistance: d) - expected) <= 1e-9)  // 1 nm, see above
        }
        #expect(abs(los.sightLineMetres(atDistance: length) - 10) <= 1e-9)  // 1 nm, see above
        // A straight line between two points at one height above a curved earth runs closer to
        // it between them: k·d·(L − d) lower, k·L²/4 (31.4 m here) at the middle.
        #expect(abs(los.sightLineMetres(atDistance: 20_000) - (10 - k * length * length / 4)) <= 1e-9)
    }

    @Test("agrees bit for bit with the heights the verdict recorded at its samples")
    func agreesWithPoints() throws {
        let z = (0...40).map { 1000 + Double(($0 * 37) % 11) * 40 }
        let p = Self.profile(z, step: 137.5)
        let los = try #require(LineOfSight(profile: p, observerHeightMetres: 1.7, targetHeightMetres: 30))
        let points = [los.firstObstruction, los.minimumClearance].compactMap { $0 }
        #expect(!points.isEmpty)
        for point in points {
            #expect(los.sightLineMetres(atDistance: p.distancesMetres[point.index]) == point.sightLineMetres)
        }
    }
}
