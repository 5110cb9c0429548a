import Foundation
import Testing
import TransectCLITestSupport
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
        let extent = try #require(o["extent_lonlat"] as? [String: Double])
        // Cell-centred SRTM: edges half a 3″ cell beyond the whole degrees.
        let west = try #require(extent["west"])
        let north = try #require(extent["north"])
        // The extent prints nine decimals: one unit of the 9th, past the half unit of rounding.
        #expect(abs(west - (-72 - 1.5 / 3600)) < 1e-9 && abs(north - (45 + 1.5 / 3600)) < 1e-9)
        // The tile's highest cell is Mt Washington at 1,908 m.
        #expect(o["max_elevation_m"] as? Double == 1908)
        let resolution = try #require(o["resolution_m"] as? [String: Double])
        // 3″ of latitude is ~92.6 m; of longitude at 44.5° ~66.3 m.
        let ry = try #require(resolution["y"])
        let rx = try #require(resolution["x"])
        // 0.2 m: the expected values are rounded to 0.1 m (info prints 92.60 and 66.27 m).
        #expect(abs(ry - 92.6) < 0.2 && abs(rx - 66.3) < 0.2)
    }

    @Test("the default surface, described without --dem, says its CRS is assumed")
    func defaultSurface() {
        let result = transect("info")
        #expect(result.code == 0)
        #expect(result.out.contains("EPSG:4326 (WGS 84) (assumed: none recorded)"))
        #expect(result.err.contains("EPSG:4326"))
    }

    /// A 0.001° DEM over lon 10…10.2, lat 45…45.1 whose value is 100 + column + row.
    static func writeDEM(_ path: String, width: Int = 200, height: Int = 100) {
        SyntheticDEM.write(
            path: path, width: width, height: height, geoTransform: [10, 0.001, 0, 45.1, 0, -0.001],
            crs: "EPSG:4326"
        ) { c, r in Double(100 + c + r) }
    }

    static func vrt(source: String, relative: Bool = true) -> String {
        """
        <VRTDataset rasterXSize="200" rasterYSize="100"><SRS>EPSG:4326</SRS>
          <GeoTransform>10, 0.001, 0, 45.1, 0, -0.001</GeoTransform>
          <VRTRasterBand dataType="Float64" band="1"><SimpleSource>
            <SourceFilename relativeToVRT="\(relative ? 1 : 0)">\(source)</SourceFilename><SourceBand>1</SourceBand>
          </SimpleSource></VRTRasterBand>
        </VRTDataset>
        """
    }

    /// info, measure and profile over `dem`, each as the CLI runs it.
    static func readers(_ dem: String, _ more: [String] = []) -> [(command: String, result: (code: Int32, out: String, err: String))] {
        [
            ("info", transect(["info", "--dem", dem] + more)),
            ("measure", transect(["measure", "--dem", dem, "--from", "10.05,45.05", "--to", "10.15,45.01"] + more)),
            ("profile", transect(["profile", "--dem", dem, "--from", "10.05,45.05", "--to", "10.15,45.01"] + more)),
        ]
    }

    @Test(
        "a raw-band VRT, and with --confine VRTs over files outside its directory, are refused by info, measure and profile",
        arguments: ["raw", "absolute", "parent"])
    func confined(kind: String) throws {
        let root = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.file("named"), withIntermediateDirectories: true)
        Self.writeDEM(root.file("outside.tif"))
        let vrt = root.file("named/dem.vrt")
        let expected: String
        switch kind {
        case "raw":
            try "root:x:0:0:root:/root:/bin/sh\n".write(toFile: root.file("named/passwd"), atomically: true, encoding: .utf8)
            try """
            <VRTDataset rasterXSize="8" rasterYSize="4"><SRS>EPSG:4326</SRS><GeoTransform>10, 0.05, 0, 45.1, 0, -0.05</GeoTransform>
            <VRTRasterBand dataType="Byte" band="1" subClass="VRTRawRasterBand"><SourceFilename relativeToVRT="1">passwd</SourceFilename>
            <ImageOffset>0</ImageOffset><PixelOffset>1</PixelOffset><LineOffset>8</LineOffset></VRTRasterBand></VRTDataset>
            """.write(toFile: vrt, atomically: true, encoding: .utf8)
            expected = "Error: DEM '\(vrt)': has a raw-file band (VRTRawRasterBand)"
        case "absolute":
            try Self.vrt(source: root.file("outside.tif"), relative: false).write(toFile: vrt, atomically: true, encoding: .utf8)
            expected = "Error: DEM '\(vrt)': source '\(root.file("outside.tif"))' lies outside the directories given with --confine (\(root.file("named")))\n"
        default:
            try Self.vrt(source: "../outside.tif").write(toFile: vrt, atomically: true, encoding: .utf8)
            expected = "Error: DEM '\(vrt)': source '../outside.tif' lies outside the directories given with --confine (\(root.file("named")))\n"
        }
        if kind != "raw" {
            // Unconfined, a GeoTIFF outside is a raster file: read.
            for (command, result) in Self.readers(vrt) { #expect(result.code == 0, "\(command): \(result.err)") }
        }
        for (command, result) in Self.readers(vrt, ["--confine", root.file("named")]) {
            #expect(result.code == 1, "\(command)")
            #expect(result.err.hasPrefix(expected), "\(command): \(result.err)")
            #expect(result.out.isEmpty, "\(command)")
        }
    }

    @Test("--confine names an existing directory: anything else is a usage error of --confine")
    func confineNotADirectory() throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"))
        expectUsageError(["info", dir.file("dem.tif"), "--confine", dir.file("none")], "option '--confine': '\(dir.file("none"))' is not a directory")
        expectUsageError(["info", dir.file("dem.tif"), "--confine", dir.file("dem.tif")], "option '--confine': '\(dir.file("dem.tif"))' is not a directory")
        #expect(transect("info", dir.file("dem.tif"), "--confine", dir.path, "--confine", "/tmp").code == 0)
    }

    @Test("a VRT over a sibling file reads like the file itself")
    func siblingVRT() throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"))
        try Self.vrt(source: "dem.tif").write(toFile: dir.file("dem.vrt"), atomically: true, encoding: .utf8)
        let direct = transect("measure", "--dem", dir.file("dem.tif"), "--from", "10.05,45.05", "--to", "10.15,45.01", "--format", "json")
        let viaVRT = transect("measure", "--dem", dir.file("dem.vrt"), "--from", "10.05,45.05", "--to", "10.15,45.01", "--format", "json")
        #expect(direct.code == 0 && viaVRT.code == 0, "\(viaVRT.err)")
        // The same measurement; only the DEM's name differs.
        #expect(!direct.out.isEmpty && direct.out == viaVRT.out.replacingOccurrences(of: "dem.vrt", with: "dem.tif"))
        let info = transect("info", "--dem", dir.file("dem.vrt"))
        #expect(info.code == 0 && info.out.contains("Elevation:   100.00 m … 398.00 m"), "\(info.out)")
    }

    @Test(
        "a DEM GDAL cannot read in full makes info, measure and profile fail with GDAL's reason",
        arguments: ["truncated", "missing source", "self-referencing"])
    func unreadable(kind: String) throws {
        let dir = TemporaryDirectory()
        let dem: String
        let expected: String
        switch kind {
        case "truncated":
            dem = dir.file("cut.tif")
            Self.writeDEM(dem)
            let handle = try #require(FileHandle(forWritingAtPath: dem))
            try handle.truncate(atOffset: 20_000)
            try handle.close()
            expected = "Error: DEM '\(dem)': read failed: "
        case "missing source":
            dem = dir.file("missing.vrt")
            try Self.vrt(source: "gone.tif").write(toFile: dem, atomically: true, encoding: .utf8)
            expected = "Error: DEM '\(dem)': source 'gone.tif' does not exist"
        default:
            dem = dir.file("self.vrt")
            try Self.vrt(source: "self.vrt").write(toFile: dem, atomically: true, encoding: .utf8)
            expected = "Error: DEM '\(dem)': source 'self.vrt' leads back to a VRT that contains it (a cycle)"
        }
        for (command, result) in Self.readers(dem) {
            #expect(result.code == 1, "\(command): \(result.out)")
            #expect(result.err.hasPrefix(expected), "\(command): \(result.err)")
            #expect(!result.out.contains("no data in the DEM"), "\(command)")
        }
    }

    @Test("a network DEM needs --allow-network (exit 2); with it a refused connection fails at once (exit 75, worth retrying)")
    func network() throws {
        let url = "/vsicurl/http://127.0.0.1:9/x.tif"
        let dir = TemporaryDirectory()
        try "lon,lat\n10.01,45.01\n10.02,45.02\n".write(toFile: dir.file("track.csv"), atomically: true, encoding: .utf8)
        let line = ["--from", "10.01,45.01", "--to", "10.02,45.02"]
        let runs: [(String, [String])] = [
            ("info", []), ("measure", line), ("profile", line),
            ("render", ["-o", dir.file("map.png")]), ("track", ["--in", dir.file("track.csv")]),
        ]
        for (command, extra) in runs {
            let refused = transect([command, "--dem", url] + extra)
            #expect(refused.code == 2, "\(command): \(refused.err)")
            #expect(
                refused.err.hasPrefix("Error: DEM '\(url)': reaches the network; Transect reads it only with --allow-network"),
                "\(command): \(refused.err)")
        }
        let allowed = transect("info", "--dem", url, "--allow-network")
        // 75 when curl reports the refused connection; 1 when GDAL, in this shared test
        // process, answers from its cache of paths that failed before (ObjectStorageTests
        // checks 75 in a fresh process).
        #expect([75, 1].contains(allowed.code))
        #expect(allowed.err.hasPrefix("Error: DEM '\(url)': cannot open: "), "\(allowed.err)")
        let measured = transect("measure", "--dem", url, "--allow-network", "--from", "10,45", "--to", "10.1,45")
        #expect([75, 1].contains(measured.code) && measured.err.hasPrefix("Error: DEM '\(url)': cannot open: "), "\(measured.err)")
        #expect(transect("help", "info").out.contains("--allow-network"))
        #expect(transect("help", "render").out.contains("--allow-network"))
    }

    @Test("the executable exits 1 for a self-referencing VRT")
    func selfReferenceExitCode() async {
        await #expect(processExitsWith: .exitCode(1)) {
            // The exit test captures nothing: the child writes its own VRT.
            let dir = TemporaryDirectory()
            try? InfoCommandTests.vrt(source: "self.vrt").write(toFile: dir.file("self.vrt"), atomically: true, encoding: .utf8)
            exit(CommandLineTool.main(["transect", "info", dir.file("self.vrt")]))
        }
    }

    @Test(
        "--crs must be geographic or projected (exit 2, naming the option); a bad CRS file is named",
        arguments: ["measure", "profile"])
    func inputCRS(command: String) throws {
        for (crs, kind) in [("EPSG:4978", "geocentric"), ("EPSG:5773", "vertical")] {
            let result = transect(command, "--crs", crs, "--from", "1,2", "--to", "3,4")
            #expect(result.code == 2, "\(crs)")
            #expect(
                result.err.hasPrefix("Error: option '--crs': \(crs)") && result.err.contains("a \(kind) CRS, not a geographic or projected one"),
                "\(result.err)")
        }
        let dir = TemporaryDirectory()
        try "PROJCS[broken".write(toFile: dir.file("crs.wkt"), atomically: true, encoding: .utf8)
        let file = transect(command, "--crs", dir.file("crs.wkt"), "--from", "1,2", "--to", "3,4")
        #expect(file.code == 2)
        #expect(file.err.hasPrefix("Error: option '--crs': CRS '\(dir.file("crs.wkt"))': the file is not a CRS PROJ can read"), "\(file.err)")
        let url = transect(command, "--crs", "http://127.0.0.1:9/crs.wkt", "--from", "1,2", "--to", "3,4")
        #expect(url.code == 2 && url.err.contains("does not fetch CRS definitions from the network"), "\(url.err)")
    }

    @Test(
        "a DEM in a geocentric CRS, or with a non-finite geotransform, is refused (exit 1)",
        arguments: ["geocentric", "nan cell", "infinite origin"])
    func unusableGeoreferencing(kind: String) throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"))
        var vrt = Self.vrt(source: "dem.tif")
        switch kind {
        case "geocentric": vrt = vrt.replacingOccurrences(of: "<SRS>EPSG:4326</SRS>", with: "<SRS>EPSG:4978</SRS>")
        case "nan cell": vrt = vrt.replacingOccurrences(of: "10, 0.001, 0, 45.1", with: "10, nan, 0, 45.1")
        default: vrt = vrt.replacingOccurrences(of: "10, 0.001, 0, 45.1", with: "inf, 0.001, 0, 45.1")
        }
        try vrt.write(toFile: dir.file("dem.vrt"), atomically: true, encoding: .utf8)
        for (command, result) in Self.readers(dir.file("dem.vrt")) {
            #expect(result.code == 1, "\(command)")
            let expected = kind == "geocentric" ? "a geocentric CRS; a DEM needs a geographic or projected one" : "has an unusable geotransform"
            #expect(result.err.hasPrefix("Error: DEM '\(dir.file("dem.vrt"))': ") && result.err.contains(expected), "\(command): \(result.err)")
        }
    }
}
