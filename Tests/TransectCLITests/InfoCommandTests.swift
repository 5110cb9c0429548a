import Foundation
import Testing
import TransectTestSupport
@testable import TransectCLI

@Suite("transect info")
struct InfoCommandTests {
    @Test("the SRTM tile: driver, size, CRS, extent, resolution, nodata and range as GDAL reports them")
    func srtm() throws {
        let hgt = try SharedData.path("N44W072.hgt")
        let result = transect("info", "--dem", hgt, "--format", "json")
        #expect(result.code == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(o["driver"] as? String == "SRTMHGT")
        #expect(o["width"] as? Int == 1201 && o["height"] as? Int == 1201)
        #expect((o["crs"] as? String)?.hasPrefix("EPSG:4326") == true)
        #expect(o["nodata"] as? Int == -32768)
        let extent = o["extent_lonlat"] as! [String: Double]
        // Cell-centred SRTM: edges half a 3″ cell beyond the whole degrees.
        #expect(abs(extent["west"]! - (-72 - 1.5 / 3600)) < 1e-9 && abs(extent["north"]! - (45 + 1.5 / 3600)) < 1e-9)
        // The tile's highest cell is Mt Washington at 1,908 m.
        #expect(o["max_elevation_m"] as? Double == 1908)
        let resolution = o["resolution_m"] as! [String: Double]
        // 3″ of latitude is ~92.6 m; of longitude at 44.5° ~66.3 m.
        #expect(abs(resolution["y"]! - 92.6) < 0.2 && abs(resolution["x"]! - 66.3) < 0.2)
    }

    @Test("the default surface, described without --dem, says its CRS is assumed")
    func defaultSurface() {
        let result = transect("info")
        #expect(result.code == 0)
        #expect(result.out.contains("EPSG:4326 (WGS 84) (assumed: none recorded)"))
        #expect(result.err.contains("EPSG:4326"))
    }
}
