import Testing
@testable import TransectGeodesy
import TransectTestSupport

@Suite("Web Mercator")
struct WebMercatorTests {
    @Test("forward and inverse agree with PROJ over random points (|lat| ≤ 85.06°)")
    func againstProj() throws {
        // PROJ's EPSG:4326 → EPSG:3857, longitude first.
        let proj = try ProjTransformation(from: "EPSG:4326", to: "EPSG:3857")
        var random = SeededRandom(seed: 3857)
        var worstMetres = 0.0
        var worstDegrees = 0.0
        for _ in 0..<5000 {
            let lon = random.uniform(-180, 180)
            let lat = random.uniform(-85.06, 85.06)
            let mine = WebMercator.projected(longitude: lon, latitude: lat)
            let theirs = proj.forward(lon, lat)
            worstMetres = max(worstMetres, (mine.x - theirs.x).magnitude, (mine.y - theirs.y).magnitude)
            let back = WebMercator.geographic(x: theirs.x, y: theirs.y)
            let theirsBack = proj.inverse(theirs.x, theirs.y)
            worstDegrees = max(worstDegrees, (back.longitude - theirsBack.x).magnitude, (back.latitude - theirsBack.y).magnitude)
        }
        // Eastings and northings reach 2e7 m, whose ulp is 3.7e-9 m: a few ulps is ~1e-8 m.
        #expect(worstMetres < 1e-7, "worst \(worstMetres) m")
        // Degrees up to 180 have ulps of 2.8e-14°.
        #expect(worstDegrees < 1e-12, "worst \(worstDegrees)°")
    }

    @Test("round trips and exact special values")
    func roundTrip() {
        var random = SeededRandom(seed: 102_100)
        for _ in 0..<2000 {
            let lon = random.uniform(-180, 180)
            let lat = random.uniform(-89, 89)
            let p = WebMercator.projected(longitude: lon, latitude: lat)
            let g = WebMercator.geographic(x: p.x, y: p.y)
            #expect((g.longitude - lon).magnitude < 1e-12)  // about 35 ulp of 180° (2.8e−14°): atan(sinh) and back, a few roundings each
            #expect((g.latitude - lat).magnitude < 1e-12)  // as the longitude
        }
        #expect(WebMercator.projected(longitude: 0, latitude: 0) == (0, 0))
        #expect(WebMercator.geographic(x: 0, y: 0) == (0, 0))
        #expect(WebMercator.geographic(x: 0, y: 1e9).latitude == 90)
        // The northing of the web-map clip latitude is π·R.
        let clip = WebMercator.projected(longitude: 180, latitude: 85.051_128_779_806_59)
        // The latitude is given to 14 decimals, ±5e−15° ≈ 7 nm of northing at 1.3e6 m per degree there, plus ulps of 2e7 m.
        #expect((clip.y - Double.pi * 6_378_137).magnitude < 1e-6)
        #expect((clip.x - Double.pi * 6_378_137).magnitude < 1e-8)  // λ·R is one product: a few ulp of 2e7 m (3.7e−9 m)
    }

    @Test("tiny northings keep full relative accuracy (the case 90° − 2·atan(exp(−y/R)) loses)")
    func nearEquator() {
        // For |y/R| ≪ 1, atan(sinh t) = t − t³/6 + …, so lat = t·180/π to within t³.
        for y in [1e-6, 1e-3, 0.5, -0.25, 10.0] {
            let t = y / 6_378_137
            let expected = (t - t * t * t / 6) * 180 / Double.pi
            let lat = WebMercator.geographic(x: 0, y: y).latitude
            // 2 ulp: each side rounds its last operations once; the series' next term, t⁵/24, lies far
            // below an ulp.
            #expect((lat - expected).magnitude <= 2 * expected.ulp, "y = \(y): \(lat) vs \(expected)")
        }
    }
}
