import Foundation
import Testing
import TransectTestSupport

@testable import TransectGDAL

/// The azimuthal equidistant CRS a continental map is drawn in, against its definition: the
/// centre at (0, 0), every point at its geodesic distance and azimuth from the centre (PROJ's
/// GeographicLib as the oracle).
@Suite("SpatialReference.azimuthalEquidistant")
struct SpatialReferenceAzimuthalTests {
    @Test("named for its centre in degrees N/S and E/W, four decimals, the longitude reduced")
    func naming() throws {
        let crs = try SpatialReference.azimuthalEquidistant(longitude: 190, latitude: -33.123456)
        #expect(crs.name == "WGS 84 / Azimuthal equidistant at 33.1235°S 170.0000°W")
        #expect(crs.isProjected && crs.authorityCode == nil)
        #expect(try crs.wkt.contains("Azimuthal Equidistant"))
        let north = try SpatialReference.azimuthalEquidistant(longitude: 52.53094, latitude: 44.34586)
        #expect(north.name == "WGS 84 / Azimuthal equidistant at 44.3459°N 52.5309°E")
    }

    @Test(
        "the centre is (0, 0) and a point lies at its geodesic distance and azimuth from it",
        arguments: [(52.5309, 44.3459, 86.925, 27.9881), (-150, 89, 30, 60), (170, -40, -170, -10)])
    func definition(lon0: Double, lat0: Double, lon: Double, lat: Double) throws {
        let crs = try SpatialReference.azimuthalEquidistant(longitude: lon0, latitude: lat0)
        let t = try CoordinateTransformer(from: .wgs84(), to: crs)
        let origin = try #require(try t.transform(x: lon0, y: lat0))
        // 1 nm: the centre's own image, which PROJ computes as zero up to rounding.
        #expect(abs(origin.x) < 1e-9 && abs(origin.y) < 1e-9, "\(origin)")
        let p = try #require(try t.transform(x: lon, y: lat))
        let g = ProjGeodesic.wgs84.inverse(lat0, lon0, lat, lon)
        // 1 mm over up to 4,000 km: PROJ's aeqd solves the same geodesic (GeographicLib), to µm.
        #expect(abs((p.x * p.x + p.y * p.y).squareRoot() - g.s12) < 1e-3, "\(p) \(g)")
        // 1e-9° of azimuth: 0.07 mm at 4,000 km, the same bound.
        #expect(angleError(atan2(p.x, p.y) * 180 / .pi, g.azi1) < 1e-9, "\(p) \(g)")
    }
}
