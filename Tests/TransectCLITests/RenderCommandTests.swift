import CGDAL
import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectGDAL
import TransectRender
import TransectTestSupport
@testable import TransectCLI

@Suite("transect render and charts")
struct RenderCommandTests {
    /// A projected DEM (UTM 11N, 30 m cells, 240 × 160) of hills, a ridge and a cliff.
    static func writeTerrain(_ path: String, noDataHole: Bool = false) {
        SyntheticDEM.write(
            path: path, width: 240, height: 160, geoTransform: [500_000, 30, 0, 4_200_000, 0, -30],
            crs: "EPSG:32611", type: GDT_Float32, noData: noDataHole ? -9999 : nil
        ) { c, r in
            let x = Double(c)
            let y = Double(r)
            if noDataHole && (100..<120).contains(c) && (60..<80).contains(r) { return -9999 }
            var z = 1200 + 300 * sin(x / 23) * cos(y / 17) + 2.5 * x
            z += 400 * exp(-((x - 150) * (x - 150) + (y - 60) * (y - 60)) / 300)
            if c > 200 { z += 150 }
            return z
        }
    }

    static let extent = "500000,4195200,507200,4200000"

    /// Runs gdaldem on `dem` and returns its Byte output.
    static func gdaldem(_ dem: String, out: String, extra: [String]) throws -> [Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gdaldem")
        process.arguments = ["hillshade", "-q", "-compute_edges"] + extra + [dem, out]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return SyntheticDEM.readAll(path: out).values
    }

    @Test(
        "a bare hillshade map is gdaldem hillshade, pixel for pixel (±1 on ≥ 99.9 %)",
        arguments: [([String](), false), (["-multidirectional"], false), ([], true)])
    func bareHillshadeIsGdaldem(extra: [String], hole: Bool) throws {
        let dir = TemporaryDirectory()
        // With a no-data hole, the warped frame carries it as nan and both write 0 there.
        Self.writeTerrain(dir.file("dem.tif"), noDataHole: hole)
        // The frame is the DEM's own grid, so the warper only copies cells.
        let result = transect(
            [
                "render", "--dem", dir.file("dem.tif"), "--extent-crs", Self.extent, "--size", "240x160",
                "--decorations", "none", "-o", dir.file("map.png"),
            ] + (extra.isEmpty ? [] : ["--multidirectional"]))
        #expect(result.code == 0, "\(result.err)")
        let expected = try Self.gdaldem(dir.file("dem.tif"), out: dir.file("gdaldem.tif"), extra: extra)
        let image = try PNGFile.readRGBA(path: dir.file("map.png"))
        #expect(image.width == 240 && image.height == 160)
        var within = 0
        var worst = 0
        for k in 0..<(240 * 160) {
            let r = image.pixels[4 * k]
            let g = image.pixels[4 * k + 1]
            let b = image.pixels[4 * k + 2]
            #expect(r == g && g == b)
            let d = abs(Int(r) - Int(expected[k]))
            worst = max(worst, d)
            if d <= 1 { within += 1 }
        }
        let share = Double(within) / Double(240 * 160)
        #expect(share >= 0.999, "share within ±1: \(share), worst \(worst)")
    }

    @Test("the PNG reads back in GDAL with the frame's extent and CRS, with tEXt metadata and no time chunk")
    func georeferenced() throws {
        let dir = TemporaryDirectory()
        Self.writeTerrain(dir.file("dem.tif"))
        let result = transect(
            "render", "--dem", dir.file("dem.tif"), "--extent-crs", Self.extent, "--size", "480x320",
            "--title", "Synthetic", "--dpi", "144", "-o", dir.file("map.png"))
        #expect(result.code == 0, "\(result.err)")
        prepareGDAL()
        let ds = try #require(GDALOpen(dir.file("map.png"), GA_ReadOnly))
        defer { GDALClose(ds) }
        var gt = [Double](repeating: 0, count: 6)
        GDALGetGeoTransform(ds, &gt)
        #expect(gt == [500_000, 15, 0, 4_200_000, 0, -15])
        let srs = try #require(GDALGetSpatialRef(ds))
        #expect(String(cString: OSRGetAuthorityCode(srs, nil)) == "32611")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.file("map.png")))
        #expect(bytes.range(of: Data("tEXtSoftware\0transect".utf8)) != nil)
        #expect(bytes.range(of: Data("tEXtCRS\0EPSG:32611".utf8)) != nil)
        #expect(bytes.range(of: Data("pHYs".utf8)) != nil)
        #expect(bytes.range(of: Data("tIME".utf8)) == nil)
    }

    @Test("two renders of one scene are byte-identical, and a scene equals its flags")
    func deterministic() throws {
        let dir = TemporaryDirectory()
        Self.writeTerrain(dir.file("dem.tif"))
        try "name,lon,lat\nHill,-116.9876,37.9260\nCliff,-116.9478,37.9100\n".write(toFile: dir.file("places.csv"), atomically: true, encoding: .utf8)
        let scene = """
            {"dem": "dem.tif", "size": [400, 300], "extent_crs": [500000, 4195200, 507200, 4200000], "basemap": "tint",
             "places": ["places.csv"], "measure": [{"from": [-116.99, 37.92], "to": [-116.95, 37.935]}], "title": "Scene",
             "out": "scene.png"}
            """
        try scene.write(toFile: dir.file("scene.json"), atomically: true, encoding: .utf8)
        #expect(transect("render", "--scene", dir.file("scene.json")).code == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: dir.file("scene.png")))
        #expect(transect("render", "--scene", dir.file("scene.json")).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("scene.png"))) == first)
        let flags = transect(
            "render", "--dem", dir.file("dem.tif"), "--size", "400x300", "--extent-crs", Self.extent, "--basemap", "tint",
            "--places", dir.file("places.csv"), "--measure=-116.99,37.92:-116.95,37.935", "--title", "Scene",
            "-o", dir.file("flags.png"))
        #expect(flags.code == 0)
        // The Source chunk names the DEM as each was given; the pixels are the same.
        #expect(try PNGFile.readRGBA(path: dir.file("flags.png")).pixels == PNGFile.readRGBA(path: dir.file("scene.png")).pixels)
    }

    @Test(
        "bad inputs give clear errors and leave no file behind",
        arguments: [
            (["--basemap", "sepia"], 2, "option '--basemap': 'sepia' is not hillshade, light-gray, tint, none or an image file"),
            (["--basemap", "/nonexistent/image.png"], 1, "image '/nonexistent/image.png': cannot open: "),
            (["--size", "0x100"], 2, "option '--size': '0x100' must be at least 1 × 1 pixels"),
            (["--size", "20000x20000"], 2, "400,000,000 pixels, over the limit of 100,000,000; raise --max-pixels"),
            (["--size", "wide"], 2, "'wide' is not WIDTHxHEIGHT"),
            (["--extent-crs", "600000,4000000,610000,4010000"], 1, "the map frame does not overlap the DEM"),
            (["--decorations", "some"], 2, "'some' is not all or none"),
        ])
    func badInputs(extra: [String], code: Int32, message: String) throws {
        let dir = TemporaryDirectory()
        Self.writeTerrain(dir.file("dem.tif"))
        var args = ["render", "--dem", dir.file("dem.tif"), "-o", dir.file("map.png")]
        if !extra.contains("--extent-crs") { args += ["--extent-crs", Self.extent] }
        if !extra.contains("--size") { args += ["--size", "240x160"] }
        let result = transect(args + extra)
        #expect(result.code == code)
        #expect(result.err.hasPrefix("Error: ") && result.err.contains(message), "stderr: \(result.err)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "dem.tif" }
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test("an image basemap is drawn where it is georeferenced")
    func imageBasemap() throws {
        let dir = TemporaryDirectory()
        // A red GeoTIFF over the western half of the frame.
        SyntheticDEM.write(
            path: dir.file("red.tif"), width: 120, height: 160, geoTransform: [500_000, 30, 0, 4_200_000, 0, -30],
            crs: "EPSG:32611", type: GDT_Byte
        ) { _, _ in 200 }
        let result = transect(
            "render", "--basemap", dir.file("red.tif"), "--extent-crs", Self.extent, "--size", "240x160",
            "--decorations", "none", "--frame-crs", "EPSG:32611", "-o", dir.file("map.png"))
        #expect(result.code == 0, "\(result.err)")
        let image = try PNGFile.readRGBA(path: dir.file("map.png"))
        let west = 4 * (80 * 240 + 30)
        let east = 4 * (80 * 240 + 200)
        #expect(Array(image.pixels[west..<(west + 3)]) == [200, 200, 200])
        // Beyond the image: the plain canvas.
        #expect(Array(image.pixels[east..<(east + 3)]) == [0xF2, 0xF1, 0xEE])
    }

    @Test("profile charts: drawn, deterministic, and the terrain breaks at gaps instead of dropping to zero")
    func chart() throws {
        let dir = TemporaryDirectory()
        Self.writeTerrain(dir.file("dem.tif"), noDataHole: true)
        // West to east through the no-data hole (columns 100–119, rows 60–79).
        let args = [
            "profile", "--dem", dir.file("dem.tif"), "--crs", "EPSG:32611", "--from", "500015,4197915", "--to", "507185,4197915",
            "--chart", dir.file("chart.png"), "--chart-size", "900x450",
        ]
        #expect(transect(args).code == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: dir.file("chart.png")))
        #expect(transect(args).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("chart.png"))) == first)
        let image = try PNGFile.readRGBA(path: dir.file("chart.png"))
        #expect(image.width == 900 && image.height == 450)
        // Terrain fill colour (0xB9A88F at 90 % over white) appears in the columns either side of
        // the gap, and not in the column at the gap's middle.
        func column(_ x: Int) -> Int {
            (0..<450).filter { y in
                let k = 4 * (y * 900 + x)
                // 3 of 255: cairo blends in 8-bit premultiplied steps, one level or two from the exact
                // 0.9 × fill + 0.1 × white (192, 176.7, 154.2).
                return abs(Int(image.pixels[k]) - 0xBF) <= 3 && abs(Int(image.pixels[k + 1]) - 0xB0) <= 3 && abs(Int(image.pixels[k + 2]) - 0x99) <= 3
            }.count
        }
        // The plot spans roughly x = 80…872 over 7,170 m; the gap is at 3,000…3,600 m.
        let plotLeft = 80.0
        let plotWidth = 792.0
        func x(_ metres: Double) -> Int { Int(plotLeft + plotWidth * metres / 7170) }
        #expect(column(x(1500)) > 20)
        #expect(column(x(3300)) == 0)
        #expect(column(x(5500)) > 20)
    }

    @Test("--threads 1 and 2 write the same bytes; every --png preset the same pixels; a preset in a scene")
    func threadsAndPresets() throws {
        let dir = TemporaryDirectory()
        Self.writeTerrain(dir.file("dem.tif"))
        let base = [
            "render", "--dem", dir.file("dem.tif"), "--extent-crs", Self.extent, "--size", "720x480", "--basemap", "tint",
            "--measure=-116.99,37.92:-116.95,37.935",
        ]
        var files: [String: Data] = [:]
        for preset in ["fast", "balanced", "small"] {
            for threads in ["1", "2"] {
                let path = dir.file("\(preset)-\(threads).png")
                let r = transect(base + ["--png", preset, "--threads", threads, "-o", path])
                #expect(r.code == 0, "\(r.err)")
                files[path] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
            #expect(files[dir.file("\(preset)-1.png")] == files[dir.file("\(preset)-2.png")], "\(preset)")
        }
        let balanced = try PNGFile.readRGBA(path: dir.file("balanced-1.png")).pixels
        #expect(try PNGFile.readRGBA(path: dir.file("fast-1.png")).pixels == balanced)
        #expect(try PNGFile.readRGBA(path: dir.file("small-1.png")).pixels == balanced)
        #expect(files[dir.file("fast-1.png")] != files[dir.file("small-1.png")])
        // Without --png the preset is balanced.
        #expect(transect(base + ["-o", dir.file("default.png")]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("default.png"))) == files[dir.file("balanced-1.png")])
        // A scene may name a preset (not a thread count: that is the machine's).
        try
            #"{"dem": "dem.tif", "size": [720, 480], "extent_crs": [500000, 4195200, 507200, 4200000], "basemap": "tint", "png": "fast", "measure": [{"from": [-116.99, 37.92], "to": [-116.95, 37.935]}], "out": "scene.png"}"#
            .write(toFile: dir.file("scene.json"), atomically: true, encoding: .utf8)
        #expect(transect("render", "--scene", dir.file("scene.json")).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("scene.png"))) == files[dir.file("fast-1.png")])
        expectUsageError(base + ["--png", "tiny", "-o", dir.file("x.png")], "option '--png'")
        expectUsageError(base + ["--threads", "0", "-o", dir.file("x.png")], "option '--threads'")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.png")))
    }
}
