import Testing
import TransectGeodesy
import TransectTestSupport

@Suite("ECEF conversions")
struct ECEFTests {
    let e = Ellipsoid.wgs84

    @Test("WGS84 derived quantities")
    func derived() {
        // Reference values: NIMA TR8350.2 (b) and GeographicLib (authalic radius).
        #expect(abs(e.polarRadius - 6356752.314245179) <= 1e-9)
        // The reference is printed to 17 decimals: one unit of its last digit (about 11 ulp of e²).
        #expect(abs(e.eccentricitySquared - 0.00669437999014132) <= 1e-17)
        #expect(abs(e.authalicRadius - 6371007.180918476) <= 1e-6)  // GeographicLib's value to 9 decimals; a closed form, so a few ulp (0.93 nm) would do
        #expect(abs(e.meanRadius - 6371008.771415059) <= 1e-6)  // (2a + b)/3 printed to 9 decimals; a few ulp (0.93 nm) would do
        #expect(e.inverseFlattening == 298.257223563)
    }

    @Test("exact values on the axes")
    func axes() {
        #expect(e.ecef(latitude: 0, longitude: 0, heightMetres: 0) == ECEF(x: 6_378_137, y: 0, z: 0))
        #expect(e.ecef(latitude: 0, longitude: 90, heightMetres: 0) == ECEF(x: 0, y: 6_378_137, z: 0))
        let np = e.ecef(latitude: 90, longitude: 33, heightMetres: 10)
        // About one ulp of b (0.93 nm): (N(1 − e²) + h) at the pole, rounded once or twice.
        #expect(np.x == 0 && np.y == 0 && abs(np.z - (e.polarRadius + 10)) <= 1e-9)
        // The centre maps to the north pole at depth b (GeographicLib convention).
        let c = e.geodetic(from: ECEF(x: 0, y: 0, z: 0))
        #expect(c.latitude == 90 && c.longitude == 0 && abs(c.heightMetres + e.polarRadius) <= 1e-9)  // about one ulp of b (0.93 nm), as on the axis above
        #expect(ECEF(x: 3, y: 4, z: 12).distance(to: ECEF(x: 0, y: 0, z: 0)) == 13)
    }

    @Test("geodetic → ECEF agrees with PROJ (EPSG:4979 → EPSG:4978)")
    func agreesWithPROJ() throws {
        // PROJ's geographic 3D → geocentric, longitude first.
        let proj = try ProjTransformation(from: "EPSG:4979", to: "EPSG:4978")
        var r = SeededRandom(seed: 0xECEF)
        var worst = 0.0
        var worstInverse = 0.0
        for k in 0..<20_000 {
            let lat = k % 50 == 0 ? r.sign() * 90 : r.uniform(-90, 90)
            let lon = r.uniform(-180, 180)
            let h = [r.uniform(-500, 9000), r.uniform(-6e6, 4e7), 0][k % 3]
            let mine = e.ecef(latitude: lat, longitude: lon, heightMetres: h)
            let out = proj.forward(lon, lat, h)
            let ref = SIMD3(out.x, out.y, out.z)
            worst = max(worst, mine.distance(to: ECEF(xyz: ref)))
            // PROJ's inverse (Bowring-type) is accurate near the surface; compare there.
            if abs(h) < 1e4 {
                let g = e.geodetic(from: ECEF(xyz: ref))
                let p = proj.inverse(ref.x, ref.y, ref.z)
                let w = min(1, (90 - abs(lat)) * .pi / 180)  // longitude undefined at a pole
                worstInverse = max(
                    worstInverse, abs(g.latitude - p.y),
                    angleError(g.longitude, p.x) * w)
                #expect(abs(g.heightMetres - p.z) <= 1e-6)  // 1 µm as the forward bound below; PROJ's Bowring inverse is trusted only near the surface
            }
        }
        print("[ECEF vs PROJ] forward \(worst) m, inverse \(worstInverse)°")
        // 1 µm: both sides are closed-form and exact to round-off (≈ 1 nm at 6e6 m).
        #expect(worst <= 1e-6, "worst ECEF difference \(worst) m")
        // PROJ's inverse (Bowring's formula in cart.cpp) is good to ~1e−11° near the
        // surface; 6.5e−12° observed.
        #expect(worstInverse <= 2e-11, "worst geodetic difference \(worstInverse)°")
    }

    @Test(
        "round trip geodetic → ECEF → geodetic",
        arguments: [
            Ellipsoid.wgs84, Ellipsoid(equatorialRadius: 6.4e6, flattening: -1 / 150.0),
            Ellipsoid(equatorialRadius: 6.4e6, flattening: 0),
        ])
    func roundTrip(_ ellipsoid: Ellipsoid) {
        var r = SeededRandom(seed: 0x7219)
        var worstAngle = 0.0
        var worstHeight = 0.0
        var worstRelativeHeight = 0.0
        for k in 0..<20_000 {
            let lat = k % 100 == 0 ? r.sign() * 90 : (k % 100 == 1 ? 0 : r.uniform(-90, 90))
            let lon = r.uniform(-180, 180)
            // Heights from deep underground (still outside the evolute, where the inverse is
            // unique) to above geostationary orbit.
            let h = [r.uniform(-1e3, 1e4), r.uniform(-1e5, 4e7), 0][k % 3]
            let p = ellipsoid.ecef(latitude: lat, longitude: lon, heightMetres: h)
            let g = ellipsoid.geodetic(from: p)
            let w = min(1, (90 - abs(lat)) * .pi / 180)  // longitude undefined at a pole
            worstAngle = max(worstAngle, abs(g.latitude - lat), angleError(g.longitude, lon) * w)
            if abs(h) <= 1e4 {
                worstHeight = max(worstHeight, abs(g.heightMetres - h))
            } else {
                worstRelativeHeight = max(
                    worstRelativeHeight,
                    abs(g.heightMetres - h) / (ellipsoid.equatorialRadius + abs(h)))
            }
        }
        // 1e−12° ≈ 0.1 µm on the ground. Heights: one ulp of a coordinate near 6.4e6 m is
        // 2⁻³⁰ m ≈ 0.93 nm, so 1 nm cannot be guaranteed after two conversions; near the surface
        // we allow 1e−8 m (≈ 10 ulp; 4.7 nm observed). Far from it the height inherits the
        // round-off of coordinates of size a + |h|, so the bound there is relative:
        // 2e−15 ≈ 9 ulp (5.5e−16 observed).
        #expect(worstAngle <= 1e-12, "worst angle \(worstAngle)°")
        #expect(worstHeight <= 1e-8, "worst height \(worstHeight) m")  // near the surface: ≈ 10 ulp of a coordinate, see above
        #expect(worstRelativeHeight <= 2e-15, "worst relative height \(worstRelativeHeight)")  // far from it, relative: ≈ 9 ulp, see above
        print("[ECEF round trip f=\(ellipsoid.flattening)] angle \(worstAngle)°, height \(worstHeight) m, relative \(worstRelativeHeight)")
    }

    @Test("round trip ECEF → geodetic → ECEF, including near the centre")
    func roundTripFromECEF() {
        var r = SeededRandom(seed: 0xCE17)
        var worst = 0.0
        for k in 0..<20_000 {
            let scale = [1e3, 1e5, 6.4e6, 3e7][k % 4]
            let p = ECEF(x: r.uniform(-1, 1) * scale, y: r.uniform(-1, 1) * scale, z: r.uniform(-1, 1) * scale)
            let g = e.geodetic(from: p)
            let q = e.ecef(latitude: g.latitude, longitude: g.longitude, heightMetres: g.heightMetres)
            worst = max(worst, p.distance(to: q) / max(1, p.distance(to: ECEF(x: 0, y: 0, z: 0)) / 6.4e6))
        }
        print("[ECEF→geodetic→ECEF] \(worst) m")
        // A few nm per 6400 km of distance from the centre.
        #expect(worst <= 1e-8, "worst \(worst) m")
    }

    @Test("batch forms match the scalar forms")
    func batch() {
        let pts = [
            GeoPoint(longitude: 10, latitude: 50, heightMetres: 100),
            GeoPoint(longitude: -170, latitude: -33), GeoPoint(longitude: 0, latitude: 90, heightMetres: -5),
        ]
        let xyz = e.ecef(pts)
        #expect(xyz == pts.map { e.ecef(latitude: $0.latitude, longitude: $0.longitude, heightMetres: $0.heightMetres ?? 0) })
        #expect(e.ecef(latitudes: [50, -33], longitudes: [10, -170], heightsMetres: [100, 0]) == Array(xyz.prefix(2)))
        let back = e.geodetic(from: xyz)
        #expect(back.count == 3)
        // The round trip's own bounds: 1e−12° (≈ 0.1 µm) and 1e−8 m near the surface, as above.
        #expect(abs(back[0].latitude - 50) <= 1e-12 && abs(back[0].heightMetres! - 100) <= 1e-8)
    }
}
