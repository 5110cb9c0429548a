import CGDAL
import Foundation
import Testing
import TransectCLITestSupport
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

    /// A render that must be refused with exit 2 and `message`, writing no map.
    static func expectRefused(_ dir: TemporaryDirectory, _ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectUsageError(["render", "-o", dir.file("refused.png")] + arguments, message, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: dir.file("refused.png")), sourceLocation: sourceLocation)
    }

    @Test("--crs without --measure is refused: it once set the map's projection, which is --frame-crs now")
    func crsWithoutMeasure() throws {
        let dir = TemporaryDirectory()
        RenderCommandTests.writeTerrain(dir.file("dem.tif"))
        let message = "option '--crs': gives the CRS of --measure points; the map's projection is --frame-crs"
        // California Albers once; silently UTM 11N after --crs changed meaning.
        Self.expectRefused(dir, ["--crs", "3310", "--extent", "-120,37,-119,38", "--no-dem"], message)
        Self.expectRefused(dir, ["--crs", "3310", "--dem", dir.file("dem.tif"), "--extent-crs", RenderCommandTests.extent], message)
        // With --measure it reads the points, as measurePoints shows.
    }

    @Test("--extent-crs needs --frame-crs or a projected DEM to say which CRS the box is in")
    func extentCRSNeedsCRS() throws {
        let dir = TemporaryDirectory()
        SyntheticDEM.write(
            path: dir.file("geographic.tif"), width: 60, height: 40, geoTransform: [-117, 0.001, 0, 38, 0, -0.001], crs: "EPSG:4326",
            type: GDT_Float32
        ) { c, r in 1000 + Double(c + r) }
        let message = "option '--extent-crs': needs --frame-crs (or a DEM in a projected CRS) to say which CRS the box is in"
        Self.expectRefused(dir, ["--no-dem", "--extent-crs", RenderCommandTests.extent], message)
        Self.expectRefused(dir, ["--dem", dir.file("geographic.tif"), "--extent-crs", RenderCommandTests.extent], message)
        // Named, the box is drawn in that CRS: the .aux.xml says UTM 11N.
        let named = transect(
            "render", "--no-dem", "--frame-crs", "32611", "--extent-crs", RenderCommandTests.extent, "--size", "240x160", "-o", dir.file("named.png"))
        #expect(named.code == 0, "\(named.err)")
        #expect(try Self.auxXML(dir, "named").contains("UTM zone 11N"))
    }

    @Test("nothing to show names every way to give content, --extent-crs with or without --frame-crs")
    func nothingToShow() {
        let dir = TemporaryDirectory()
        Self.expectRefused(
            dir, ["--no-dem"], "nothing to show: give --dem, --measure, --places, --track, --extent, or --extent-crs with --frame-crs")
        Self.expectRefused(
            dir, ["--no-dem", "--frame-crs", "3310"], "nothing to show: give --dem, --measure, --places, --track, --extent or --extent-crs")
    }

    @Test("--geoid only shapes --measure heights: refused without --measure; -r also resamples the map, so it is not")
    func measureOnlyOptions() throws {
        let dir = TemporaryDirectory()
        RenderCommandTests.writeTerrain(dir.file("dem.tif"))
        let base = ["--dem", dir.file("dem.tif"), "--extent-crs", RenderCommandTests.extent, "--size", "240x160"]
        #expect(transect(["render"] + base + ["-r", "cubic", "-o", dir.file("cubic.png")]).code == 0)
        Self.expectRefused(dir, base + ["--geoid", "egm96"], "option '--geoid': gives ellipsoidal heights to --measure lines; give --measure")
        let measured = transect(
            ["render"] + base + ["-r", "cubic", "--measure", "-116.99,37.915:-116.96,37.935", "-o", dir.file("measured.png")])
        #expect(measured.code == 0, "\(measured.err)")
    }

    @Test("usage errors come before any work: a bad option wins over a DEM that does not exist")
    func usageBeforeWork() {
        let dir = TemporaryDirectory()
        let missing = ["--dem", dir.file("missing.tif")]
        Self.expectRefused(dir, missing + ["--frame-crs", "4326"], "option '--frame-crs': the map frame needs a projected CRS, not ")
        // Not even the default surface is opened for --measure before the refusal.
        Self.expectRefused(
            dir, ["--measure", "-119.5,37.7:-119.6,37.8", "--frame-crs", "4326"], "option '--frame-crs': the map frame needs a projected CRS, not ")
        Self.expectRefused(dir, missing + ["--layout", "-"], "option '--layout': give a FILE.json; '-' (stdout) is not one")
        Self.expectRefused(dir, missing + ["--frames", dir.file("frames")], "--frames draws a track as it grows: give --track")
        Self.expectRefused(dir, missing + ["--crs", "32611"], "option '--crs': gives the CRS of --measure points; the map's projection is --frame-crs")
        Self.expectRefused(dir, missing + ["--measure", "-119.5,95:-119.6,37.8"], "option '--measure': ")
        let stdout = transect(["render"] + missing + ["-o", "-"])
        #expect(stdout.code == 2 && stdout.err.hasPrefix("Error: option '-o': a map is a file"), "\(stdout.err)")
        #expect(FileManager.default.createFile(atPath: dir.file("plain"), contents: Data()))
        Self.expectRefused(
            dir, missing + ["--track", dir.file("missing.csv"), "--frames", dir.file("plain")],
            "option '--frames': '\(dir.file("plain"))' exists and is not a directory")
    }
}
