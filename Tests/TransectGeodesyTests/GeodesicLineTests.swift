import Testing
import TransectSupport
import TransectTestSupport
import TransectGeodesy

@Suite("GeodesicLine")
struct GeodesicLineTests {
    /// Start points and azimuths covering an ordinary line, one over a pole, one along the
    /// equator, a meridian, and one crossing the antimeridian repeatedly.
    static let lines: [(lat: Double, lon: Double, azi: Double)] = [
        (40.6, -73.8, 53.5), (89.5, 10, 3), (0, 0, 90), (-30, 170, 0), (-12.5, 179.9, 91),
        (90, 45, -120), (-45, -180, -0.0), (0, 179.99, -90),
    ]

    @Test(
        "batch positions agree with geod_direct from the start point",
        arguments: lines.indices)
    func batchAgreesWithPROJ(_ i: Int) {
        let (lat, lon, azi) = Self.lines[i]
        let line = geodWGS84.line(latitude1: lat, longitude1: lon, azimuth1Degrees: azi)
        var rng = SeededRandom(seed: 0x11E5 + UInt64(i))
        // Distances over more than a full circuit in both directions, plus exact 0.
        var distances = (0..<5_000).map { _ in rng.uniform(-4.1e7, 4.1e7) }
        distances.append(0)
        let batch = line.positions(atDistances: distances)
        #expect(batch.count == distances.count)
        var worstLat = 0.0
        var worstLon = 0.0
        var worstAzi = 0.0
        for (s, p) in zip(distances, batch) {
            let e = ProjGeodesic.wgs84.direct(lat, lon, azi, s)
            worstLat = max(worstLat, valueError(p.latitude, e.lat2))
            // Longitude and azimuth errors scaled by cos φ (≈ the angular distance to the
            // pole): at a pole they are undefined and nearby they are ill-conditioned.
            let w = min(1, (90 - e.lat2.magnitude) * .pi / 180)
            worstLon = max(worstLon, angleError(p.longitude, e.lon2) * w)
            worstAzi = max(worstAzi, angleError(p.azimuth2Degrees, e.azi2) * w)
            // The batch is the scalar function applied element-wise, bit for bit.
            #expect(p == line.position(atDistance: s))
        }
        // 1e−8° ≈ 1 mm on the ground; see GeodesicOracleTests in GeodesicTests.swift.
        #expect(worstLat <= 1e-8)
        #expect(worstLon <= 1e-8)  // the same 1e−8°, scaled by cos φ
        #expect(worstAzi <= 1e-8)  // the same 1e−8°, scaled by cos φ
    }

    @Test("inverse line: knows its length, and evenly spaced samples end at point 2")
    func inverseLineEndPoints() throws {
        let line = geodWGS84.inverseLine(latitude1: -41.3, longitude1: 174.8, latitude2: 40.97, longitude2: -5.5)
        let ref = ProjGeodesic.wgs84.inverse(-41.3, 174.8, 40.97, -5.5)
        let length = try #require(line.distanceMetres)
        #expect(abs(length - ref.s12) <= 1e-6)  // 1 µm, the oracle suite's distance bound (≈ 70× GeographicLib's 15 nm accuracy)
        #expect(abs(try #require(line.arcDegrees) - ref.a12) <= 1e-8)  // 1e−8° (≈ 1 mm on the ground), the oracle suite's angle bound
        #expect(abs(line.azimuth1Degrees - ref.azi1) <= 1e-8)  // 1e−8°, the oracle suite's angle bound

        let samples = line.positions(count: 1001)
        #expect(samples.count == 1001)
        // Point 1 at distance 0 is the start, to a few ulp of 174.8° (2.8e−14°).
        #expect(abs(samples[0].latitude - -41.3) <= 1e-12 && abs(samples[0].longitude - 174.8) <= 1e-12)
        // Point 2 is reproduced to round-off (GeographicLib accuracy ≈ 15 nm ≈ 1.5e−13°).
        #expect(abs(samples[1000].latitude - 40.97) <= 1e-11)
        #expect(angleError(samples[1000].longitude, -5.5) <= 1e-11)  // as the latitude above: round-off, GeographicLib's 15 nm ≈ 1.5e−13°
        #expect(abs(samples[1000].azimuth2Degrees - ref.azi2) <= 1e-8)  // 1e−8°, the oracle suite's angle bound
        // Each sample agrees with PROJ's direct problem at the same distance.
        for (k, p) in samples.enumerated() {
            let e = ProjGeodesic.wgs84.direct(-41.3, 174.8, ref.azi1, length * Double(k) / 1000)
            #expect(abs(p.latitude - e.lat2) <= 1e-8)  // 1e−8° (≈ 1 mm on the ground), the oracle suite's angle bound
            #expect(angleError(p.longitude, e.lon2) <= 1e-8)  // 1e−8°, the oracle suite's angle bound
        }

        let stepped = line.evenlySpaced(stepMetres: 1_000_000)
        #expect(stepped.count == Int((length / 1_000_000).rounded(.up)) + 1)
        #expect(stepped.last == line.position(atDistance: length))
        #expect(line.positions(count: 0).isEmpty)
        #expect(line.positions(count: 1) == [line.position(atDistance: 0)])
    }

    @Test("inverse line between coincident points has length 0")
    func degenerateInverseLine() {
        let line = geodWGS84.inverseLine(latitude1: 10, longitude1: 20, latitude2: 10, longitude2: 380)
        #expect(line.distanceMetres == 0)
        #expect(line.evenlySpaced(stepMetres: 10).count == 1)
        #expect(line.positions(atDistances: []).isEmpty)
    }
}
