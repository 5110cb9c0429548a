import Foundation
import Testing
import TransectTestSupport
@testable import TransectCLI

/// In render as everywhere, `--crs` is the CRS of coordinates on the command line (the
/// `--measure` points); the map's projection is `--frame-crs`.
@Suite("render: --crs for the --measure points, --frame-crs for the map")
struct RenderFrameCRSTests {
    /// Web Mercator (EPSG:3857) of a WGS84 point, in closed form: x = aλ, y = a·ln tan(π/4 + φ/2).
    static func webMercator(_ lon: Double, _ lat: Double) -> String {
        let a = 6_378_137.0
        let x = a * lon * .pi / 180
        let y = a * log(tan(.pi / 4 + lat * .pi / 360))
        return "\(x),\(y)"
    }

    static func render(_ dir: TemporaryDirectory, _ name: String, _ extra: [String]) -> (code: Int32, out: String, err: String) {
        transect(
            [
                "render", "--dem", dir.file("dem.tif"), "--extent-crs", RenderCommandTests.extent, "--size", "240x160",
                "--decorations", "none", "-o", dir.file(name + ".png"), "--layout", dir.file(name + ".json"),
            ] + extra)
    }

    static func auxXML(_ dir: TemporaryDirectory, _ name: String) throws -> String {
        try String(contentsOfFile: dir.file(name + ".png.aux.xml"), encoding: .utf8)
    }

    @Test("--crs converts the --measure points and leaves the frame in the DEM's CRS")
    func measurePoints() throws {
        let dir = TemporaryDirectory()
        RenderCommandTests.writeTerrain(dir.file("dem.tif"))
        let a = (-116.99, 37.915)
        let b = (-116.96, 37.935)
        let lonLat = Self.render(dir, "lonlat", ["--measure", "\(a.0),\(a.1):\(b.0),\(b.1)"])
        #expect(lonLat.code == 0, "\(lonLat.err)")
        let mercator = Self.render(
            dir, "mercator",
            [
                "--crs", "EPSG:3857", "--measure",
                Self.webMercator(a.0, a.1) + ":" + Self.webMercator(b.0, b.1),
            ])
        #expect(mercator.code == 0, "\(mercator.err)")
        // The same measurement, label and placement; the frame stays UTM 11N (the DEM's).
        let layout = try String(contentsOfFile: dir.file("lonlat.json"), encoding: .utf8)
        // Both markers where the points are, and the label: the measurement was drawn.
        #expect(layout.contains("\"kind\": \"measurement_label\",\n      \"text\": \"Direct: "), "\(layout)")
        #expect(layout.components(separatedBy: "\"kind\": \"marker\"").count == 3, "\(layout)")
        #expect(try String(contentsOfFile: dir.file("mercator.json"), encoding: .utf8) == layout)
        #expect(try Self.auxXML(dir, "mercator").contains("UTM zone 11N"))
        #expect(try !Self.auxXML(dir, "mercator").contains("Pseudo-Mercator"))
    }

    @Test("--frame-crs sets the map's projection; it must be projected")
    func frameCRS() throws {
        let dir = TemporaryDirectory()
        RenderCommandTests.writeTerrain(dir.file("dem.tif"))
        let utm = Self.render(dir, "utm", ["--frame-crs", "32611"])
        #expect(utm.code == 0, "\(utm.err)")
        #expect(try Self.auxXML(dir, "utm").contains("UTM zone 11N"))
        let geographic = Self.render(dir, "geo", ["--frame-crs", "EPSG:4326"])
        #expect(geographic.code == 2)
        #expect(geographic.err.hasPrefix("Error: option '--frame-crs': the map frame needs a projected CRS, not "), "\(geographic.err)")
        let unknown = Self.render(dir, "bad", ["--frame-crs", "EPSG:99999999"])
        #expect(unknown.code == 2 && unknown.err.hasPrefix("Error: option '--frame-crs': ") && unknown.err.contains("EPSG:99999999"), "\(unknown.err)")
        // A geographic --crs is fine in render now: it only reads points.
        let points = Self.render(dir, "points", ["--crs", "EPSG:4326", "--measure", "-116.99,37.915:-116.96,37.935"])
        #expect(points.code == 0, "\(points.err)")
    }

    @Test("a --frame-crs file is an input: the map may not be written over it")
    func frameCRSFileIsInput() throws {
        let dir = TemporaryDirectory()
        RenderCommandTests.writeTerrain(dir.file("dem.tif"))
        try "+proj=utm +zone=11 +datum=WGS84 +units=m +no_defs".write(toFile: dir.file("crs.png"), atomically: true, encoding: .utf8)
        let r = transect(
            "render", "--dem", dir.file("dem.tif"), "--extent-crs", RenderCommandTests.extent, "--size", "240x160",
            "--frame-crs", dir.file("crs.png"), "-o", dir.file("crs.png"))
        #expect(r.code == 2, "\(r.err)")
        #expect(r.err.hasPrefix("Error: option '-o': '\(dir.file("crs.png"))' is the input '\(dir.file("crs.png"))' (--frame-crs)"), "\(r.err)")
    }
}
