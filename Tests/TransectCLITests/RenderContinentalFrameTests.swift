import CGDAL
import Foundation
import Testing
import TransectCLITestSupport
import TransectGDAL
import TransectTestSupport

@testable import TransectCLI

/// `render` of a line across a continent: drawn azimuthal equidistant about its middle, with a
/// scale bar that says it holds at the map's centre; a local map stays in its UTM zone with a
/// plain bar. Over ETOPO5 (Debian's ferret-datasets), as a user without a DEM of Asia would.
@Suite("render: continental frames")
struct RenderContinentalFrameTests {
    static let etopo5 = "/usr/share/ferret-vis/data/etopo5.cdf"
    static let montBlanc = (lon: 6.8652, lat: 45.8326)
    static let everest = (lon: 86.9250, lat: 27.9881)

    static func render(_ dir: TemporaryDirectory, _ name: String, measure: String) -> (code: Int32, out: String, err: String) {
        transect(
            "render", "--dem", etopo5, "--measure", measure, "--size", "800x500", "-o", dir.file(name + ".png"), "--layout",
            dir.file(name + ".json"))
    }

    /// The map's CRS as a PROJ string, its authority code if any, and its geotransform, read
    /// back by GDAL from the PNG's `.aux.xml` and world file.
    static func georeference(_ path: String) throws -> (proj4: String, code: String?, geoTransform: [Double]) {
        prepareGDAL()
        let ds = try #require(GDALOpen(path, GA_ReadOnly))
        defer { GDALClose(ds) }
        var gt = [Double](repeating: 0, count: 6)
        #expect(GDALGetGeoTransform(ds, &gt) == CE_None)
        let srs = try #require(GDALGetSpatialRef(ds))
        var text: UnsafeMutablePointer<CChar>?
        #expect(OSRExportToProj4(srs, &text) == OGRERR_NONE)
        defer { VSIFree(text) }
        let code = OSRGetAuthorityCode(srs, nil).map { String(cString: $0) }
        return (String(cString: try #require(text)), code, gt)
    }

    /// The text of the layout's element of `kind`.
    static func text(_ kind: String, layout path: String) throws -> String? {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let elements = try #require(object["elements"] as? [[String: Any]])
        return elements.first { $0["kind"] as? String == kind }?["text"] as? String
    }

    /// The value of `+name=` in a PROJ string.
    static func parameter(_ name: String, in proj4: String) -> Double? {
        proj4.split(separator: " ").first { $0.hasPrefix("+\(name)=") }.flatMap { Double($0.dropFirst(name.count + 2)) }
    }

    @Test("Mont Blanc to Everest: azimuthal equidistant about the line's middle, and the scale bar holds 'at the map's centre'")
    func montBlancToEverest() throws {
        let dir = TemporaryDirectory()
        let measure = "\(Self.montBlanc.lon),\(Self.montBlanc.lat):\(Self.everest.lon),\(Self.everest.lat)"
        let result = Self.render(dir, "continent", measure: measure)
        #expect(result.code == 0, "\(result.err)")
        let g = try Self.georeference(dir.file("continent.png"))
        #expect(g.proj4.hasPrefix("+proj=aeqd ") && g.proj4.contains("+datum=WGS84"), "\(g.proj4)")
        let lat0 = try #require(Self.parameter("lat_0", in: g.proj4))
        let lon0 = try #require(Self.parameter("lon_0", in: g.proj4))
        // The geodesic's midpoint, by PROJ's GeographicLib: a geodesic through the projection's
        // centre is straight in it, so centring the line centres the projection on its middle.
        let oracle = ProjGeodesic.wgs84
        let line = oracle.inverse(Self.montBlanc.lat, Self.montBlanc.lon, Self.everest.lat, Self.everest.lon)
        let middle = oracle.direct(Self.montBlanc.lat, Self.montBlanc.lon, line.azi1, line.s12 / 2)
        // 10 m: the centre's four decimals (at most 7 m here) and what its centring leaves (1.3 m).
        let miss = oracle.inverse(lat0, lon0, middle.lat2, middle.lon2).s12
        #expect(miss < 10, "centre \(lat0), \(lon0) is \(miss) m from the midpoint \(middle.lat2), \(middle.lon2)")
        // The image is centred on the projection's centre (0, 0), to a pixel.
        let gt = g.geoTransform
        #expect(abs(gt[0] + gt[1] * 400) < gt[1] && abs(gt[3] + gt[5] * 250) < -gt[5], "\(gt)")
        let layout = dir.file("continent.json")
        let bar = try #require(try Self.text("scale_bar", layout: layout))
        #expect(bar.hasSuffix(" km at the map's centre"), "\(bar)")
        #expect(try Self.text("attribution", layout: layout)?.contains("Azimuthal equidistant") == true)
    }

    @Test("Mont Blanc to the Aiguille du Midi on the same DEM, a Yosemite-sized map: UTM zone 32N, and a scale bar without a note")
    func local() throws {
        let dir = TemporaryDirectory()
        let result = Self.render(dir, "local", measure: "\(Self.montBlanc.lon),\(Self.montBlanc.lat):6.8873,45.8786")
        #expect(result.code == 0, "\(result.err)")
        let g = try Self.georeference(dir.file("local.png"))
        #expect(g.code == "32632" && g.proj4.hasPrefix("+proj=utm +zone=32 "), "\(g.proj4)")
        let bar = try #require(try Self.text("scale_bar", layout: dir.file("local.json")))
        #expect(bar.hasSuffix(" km") || bar.hasSuffix(" m"), "\(bar)")
    }
}
