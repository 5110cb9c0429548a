import CGDAL
import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport
@testable import TransectCLI

@Suite("transect measure")
struct MeasureCommandTests {
    static let halfDome = "-119.5329397,37.7460363"
    static let glacierPoint = "-119.573056,37.730833"

    @Test("Half Dome → Glacier Point prints the label, and JSON elevations equal GDAL's bilinear reading")
    func halfDomeToGlacierPoint() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let text = transect("measure", "--dem", dem, "--from", Self.halfDome, "--to", Self.glacierPoint)
        #expect(text.code == 0)
        #expect(text.out.hasPrefix("Direct: ") && text.out.contains(" | Horizontal: ") && text.out.contains(" | Vertical: "))
        let json = transect("measure", "--dem", dem, "--from", Self.halfDome, "--to", Self.glacierPoint, "--format", "json")
        #expect(json.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let start = try #require(object["start"] as? [String: Any])
        let end = try #require(object["end"] as? [String: Any])
        let raster = SyntheticDEM.readAll(path: dem)
        let expectStart = SyntheticDEM.bilinear(raster, x: -119.5329397, y: 37.7460363)
        let expectEnd = SyntheticDEM.bilinear(raster, x: -119.573056, y: 37.730833)
        let startElevation = try #require(start["elevation_m"] as? Double)
        let endElevation = try #require(end["elevation_m"] as? Double)
        // 1 mm, though JSON prints elevations to six decimals (half a unit: 5e−7 m): 2000× looser than the printing needs.
        #expect(abs(startElevation - expectStart) < 1e-3)
        #expect(abs(endElevation - expectEnd) < 1e-3)  // 1 mm, as above
        #expect(start["height_source"] as? String == "dem")
        let vertical = try #require(object["vertical_m"] as? Double)
        #expect(abs(vertical - (expectEnd - expectStart)) < 1e-3)  // 1 mm, as above (vertical_m also prints six decimals)
        for key in ["horizontal_m", "direct_m", "azimuth_start_deg", "azimuth_end_deg", "slope_deg"] {
            #expect(object[key] is Double, "\(key) missing")
        }
        #expect(object["label"] as? String == text.out.trimmingCharacters(in: .newlines))
    }

    @Test("given Z overrides the DEM; --above-ground adds to DEM heights only; imperial units")
    func heightsAndUnits() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let given = transect(
            "measure", "--dem", dem, "--from", Self.halfDome + ",2000", "--to", Self.glacierPoint + ",1000",
            "--above-ground", "50", "--format", "json")
        #expect(given.code == 0)
        #expect(given.out.contains("\"elevation_m\": 2000") && given.out.contains("\"height_source\": \"given\""))
        #expect(given.out.contains("\"vertical_m\": -1000"))
        let lifted = transect(
            "measure", "--dem", dem, "--from", Self.halfDome, "--to", Self.glacierPoint + ",1000",
            "--above-ground", "50", "--format", "json")
        let raster = SyntheticDEM.readAll(path: dem)
        let start = SyntheticDEM.bilinear(raster, x: -119.5329397, y: 37.7460363) + 50
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lifted.out.utf8)) as? [String: Any])
        let liftedStart = try #require((object["start"] as? [String: Any])?["elevation_m"] as? Double)
        #expect(abs(liftedStart - start) < 1e-3)  // 1 mm, as above; JSON prints six decimals
        let feet = transect("measure", "--from", "0,0,0", "--to", "0,0.001,10", "--units", "imperial")
        // 0.001° of latitude at the equator is 110.574 m = 362.78 ft; 10 m = 32.81 ft; √(110.574² + 10²) m = 364.26 ft.
        #expect(feet.out == "Direct: 364.26 ft | Horizontal: 362.78 ft | Vertical: 32.81 ft\n")
    }

    @Test("with a geoid, ellipsoidal heights are H + N with N from EGM96 as GDAL reads it")
    func geoid() throws {
        let result = transect("measure", "--from", "10,45,100", "--to", "10.5,45.5,200", "--geoid", "egm96", "--format", "json")
        #expect(result.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let gtx = SyntheticDEM.readAll(path: "/usr/share/proj/egm96_15.gtx")
        let n1 = SyntheticDEM.bilinear(gtx, x: 10, y: 45)
        let n2 = SyntheticDEM.bilinear(gtx, x: 10.5, y: 45.5)
        let start = try #require((object["start"] as? [String: Any])?["ellipsoidal_height_m"] as? Double)
        let end = try #require((object["end"] as? [String: Any])?["ellipsoidal_height_m"] as? Double)
        #expect(abs(start - (100 + n1)) < 1e-6)  // ellipsoidal_height_m prints six decimals: one unit of the 6th, past the half unit of rounding
        #expect(abs(end - (200 + n2)) < 1e-6)  // one unit of the 6th printed decimal, as above
        // `echo "45 10 0" | cs2cs EPSG:4979 EPSG:4326+5773` gives H = −39.05 m, so N = 39.05 m there.
        #expect(abs(n1 - 39.05) < 0.01)
    }

    @Test("--crs takes projected coordinates: UTM input measures the same as its lon/lat")
    func inputCRS() throws {
        // EPSG:32611 (500000, 4180000) and a point 3 km north-east, with given heights.
        let utm = transect("measure", "--crs", "EPSG:32611", "--from", "500000,4180000,100", "--to", "503000,4183000,200", "--format", "json")
        #expect(utm.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(utm.out.utf8)) as? [String: Any])
        let start = try #require(object["start"] as? [String: Any])
        let end = try #require(object["end"] as? [String: Any])
        let from = try ["lon", "lat"].map { try #require(start[$0] as? Double) }
        let to = try ["lon", "lat"].map { try #require(end[$0] as? Double) }
        let lonlat = transect("measure", "--from", "\(from[0]),\(from[1]),100", "--to", "\(to[0]),\(to[1]),200", "--format", "json")
        let other = try #require(try JSONSerialization.jsonObject(with: Data(lonlat.out.utf8)) as? [String: Any])
        // JSON rounds lon/lat to 1e-9° (≤ 0.06 mm), so the re-entered points differ by that much.
        let horizontal = try #require(object["horizontal_m"] as? Double)
        let otherHorizontal = try #require(other["horizontal_m"] as? Double)
        #expect(abs(horizontal - otherHorizontal) < 1e-4)  // 0.1 mm: the re-entered points' 1e-9° rounding (≤ 0.06 mm each, above)
        // On the central meridian the UTM scale factor is 0.9996: 3√2 km of grid is longer on the ground.
        #expect(abs(horizontal - 3000 * 2.0.squareRoot() / 0.9996) < 2)
    }

    @Test(
        "errors: one line naming the input, exit 1 for bad data and 2 for bad usage",
        arguments: [
            (["measure", "--from", "1,2"], 2, "missing --to"),
            (["measure", "--from", "abc,2", "--to", "1,2"], 2, "'abc' in 'abc,2' is not a number"),
            (["measure", "--from", "1,95", "--to", "1,2"], 2, "latitude 95 is beyond ±90°"),
            (["measure", "--from", "nan,2", "--to", "1,2"], 2, "'nan' in 'nan,2' is not a finite number"),
            (["measure", "--from", "1", "--to", "1,2"], 2, "'1' is not LON,LAT or LON,LAT,Z"),
            (["measure", "--from", "1,2", "--to", "1,2", "--units", "cubits"], 2, "'cubits' is not metric"),
            (["measure", "--from", "1,2", "--to", "1,2", "--interpolation", "spline"], 2, "'spline' is not nearest"),
            (["measure", "--from", "1,2", "--to", "1,2", "--bogus"], 2, "unknown option '--bogus'"),
            (["measure", "--from", "1,2,3", "--to", "1,2,3", "--crs", "EPSG:999999"], 2, "CRS 'EPSG:999999'"),
            (["frobnicate"], 2, "unknown subcommand 'frobnicate'"),
            ([], 2, "missing subcommand"),
            (
                ["measure", "--dem", "/nonexistent/dem.tif", "--from", "1,2", "--to", "1,3"], 1,
                "DEM '/nonexistent/dem.tif': cannot open: no such file or directory"
            ),
        ])
    func errors(arguments: [String], code: Int32, message: String) {
        let result = transect(arguments)
        #expect(result.code == code)
        #expect(result.out.isEmpty)
        let first = result.err.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Error: ") && first.contains(message), "stderr was: \(result.err)")
        if code == 2 { #expect(result.err.contains("Usage: transect")) }
    }

    @Test("data errors: not a raster, outside the DEM, on no data")
    func dataErrors() throws {
        let dir = TemporaryDirectory()
        try "hello\n".write(toFile: dir.file("notes.txt"), atomically: true, encoding: .utf8)
        let notRaster = transect("measure", "--dem", dir.file("notes.txt"), "--from", "1,2", "--to", "1,3")
        #expect(notRaster.code == 1 && notRaster.err.hasPrefix("Error: DEM '\(dir.file("notes.txt"))': cannot open: "))
        let dem = try SharedData.path("N44W072.hgt")
        let outside = transect("measure", "--dem", dem, "--from", "10,45", "--to", "-71.3,44.27")
        #expect(outside.code == 1)
        #expect(outside.err == "Error: point 10,45 is outside the DEM '\(dem)'\n")
        SyntheticDEM.write(
            path: dir.file("hole.tif"), width: 4, height: 4, geoTransform: [0, 1, 0, 4, 0, -1], crs: "EPSG:4326",
            noData: -9999
        ) { c, r in c == 1 && r == 1 ? -9999 : 5 }
        let hole = transect("measure", "--dem", dir.file("hole.tif"), "--from", "1.5,2.5", "--to", "3,3", "-o", dir.file("out.txt"))
        #expect(hole.code == 1)
        #expect(hole.err == "Error: point 1.5,2.5 falls on no data in the DEM '\(dir.file("hole.tif"))'\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.txt")))
    }

    @Test("--pairs streams CSV; a bad row gets an error and the batch goes on; --strict stops and writes nothing")
    func pairs() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let input = """
            id,from_lon,from_lat,to_lon,to_lat,to_z
            hd-gp,-119.5329397,37.7460363,-119.573056,37.730833,
            far,-119.5329397,37.7460363,10,45,
            junk,abc,37.7,-119.5,37.7,
            given,-119.5329397,37.7460363,-119.573056,37.730833,1000

            """
        try input.write(toFile: dir.file("pairs.csv"), atomically: true, encoding: .utf8)
        let result = transect("measure", "--dem", dem, "--pairs", dir.file("pairs.csv"), "--out", dir.file("out.csv"))
        #expect(result.code == 0)
        #expect(result.err.contains("2 of 4 rows"))
        let lines = try String(contentsOfFile: dir.file("out.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == MeasureCommand.pairsHeader)
        #expect(lines[1].hasPrefix("hd-gp,-119.5329397,37.7460363,") && lines[1].hasSuffix(","))
        #expect(lines[2].hasPrefix("far,") && lines[2].contains("is outside the DEM"))
        #expect(lines[3].hasPrefix("junk,") && lines[3].hasSuffix("from_lon 'abc' is not a number"))
        #expect(lines[4].contains(",1000,"))
        // The single measurement agrees with the batch row.
        let single = transect("measure", "--dem", dem, "--from", MeasureCommandTests.halfDome, "--to", MeasureCommandTests.glacierPoint, "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(single.out.utf8)) as? [String: Any])
        let fields = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        let batch = try #require(Double(fields[7]))
        let horizontal = try #require(object["horizontal_m"] as? Double)
        #expect(abs(batch - horizontal) < 1e-6)  // the CSV prints six decimals, JSON nine: the halves of their last units sum to 5.005e−7 m

        let strict = transect("measure", "--dem", dem, "--pairs", dir.file("pairs.csv"), "--out", dir.file("strict.csv"), "--strict")
        #expect(strict.code == 1)
        #expect(strict.err.hasPrefix("Error: pairs '\(dir.file("pairs.csv"))' row far: point 10,45 is outside the DEM"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("strict.csv")))

        try "a,b\n1,2\n".write(toFile: dir.file("bad.csv"), atomically: true, encoding: .utf8)
        let badHeader = transect("measure", "--dem", dem, "--pairs", dir.file("bad.csv"))
        #expect(badHeader.code == 1 && badHeader.err.hasPrefix("Error: pairs '\(dir.file("bad.csv"))': header lacks 'from_lon'"))
    }

    @Test("help and version go to stdout with exit 0")
    func help() {
        for args in [["--help"], ["help"], ["help", "measure"], ["measure", "--help"], ["info", "-h"], ["--version"]] {
            let result = transect(args)
            #expect(result.code == 0 && !result.out.isEmpty && result.err.isEmpty, "\(args)")
        }
        #expect(transect("help", "measure").out.contains("--pairs FILE|-"))
    }

    @Test("the transect executable exits with the codes the library returns")
    func processExitCodes() async {
        await #expect(processExitsWith: .exitCode(2)) {
            exit(CommandLineTool.main(["transect", "measure", "--from", "1,100", "--to", "1,2"]))
        }
        await #expect(processExitsWith: .success) {
            exit(CommandLineTool.main(["transect", "--version"]))
        }
    }

    @Test("measure: --format is text, json or a layer for one measurement, csv or a layer for --pairs, checked before anything is read")
    func measureFormat() {
        let dir = TemporaryDirectory()
        let missing = ["measure", "--dem", dir.file("missing.tif"), "--from", "-119.5,37.7", "--to", "-119.6,37.8"]
        expectUsageError(missing + ["--format", "csv"], "option '--format': csv is for a --pairs batch; one measurement writes text, json or a layer")
        expectUsageError(missing + ["--format", "xml"], "option '--format': 'xml' is not text, json, csv, geojson, geojsonseq, gpkg or flatgeobuf")
        expectUsageError(
            ["measure", "--dem", dir.file("missing.tif"), "--pairs", dir.file("missing.csv"), "--format", "json"],
            "option '--format': a --pairs batch writes csv")
        expectUsageError(missing + ["--to", "1,2"], "option '--to' given more than once")
        expectUsageError(missing + ["--pairs", dir.file("missing.csv")], "--pairs cannot be combined with --from/--to")
    }

    @Test("measure --format: the declared default follows -o's layer extension, then --pairs, and the help states it")
    func measureFormatDefault() throws {
        let single = try ParsedArguments(["--from", "1,2", "--to", "3,4"], specs: MeasureOptions.all, command: "measure")
        #expect(try single.value(MeasureOptions.format) == .text)
        let batch = try ParsedArguments(["--pairs", "p.csv"], specs: MeasureOptions.all, command: "measure")
        #expect(try batch.value(MeasureOptions.format) == .csv)
        #expect(
            try ParsedArguments(["--pairs", "p.csv", "--format", "csv"], specs: MeasureOptions.all, command: "measure").value(MeasureOptions.format) == .csv)
        for (name, format) in [("m.gpkg", MeasureFormat.gpkg), ("m.GeoJSON", .geojson), ("m.geojsonl", .geojsonseq), ("m.fgb", .flatgeobuf), ("m.txt", .csv)] {
            let args = try ParsedArguments(["--pairs", "p.csv", "-o", name], specs: MeasureOptions.all, command: "measure")
            #expect(try args.value(MeasureOptions.format) == format)
        }
        let overridden = try ParsedArguments(["--pairs", "p.csv", "-o", "m.gpkg", "--format", "csv"], specs: MeasureOptions.all, command: "measure")
        #expect(try overridden.value(MeasureOptions.format) == .csv)
        #expect(MeasureOptions.format.spec.defaultText == "by -o's extension, else text (csv with --pairs)")
    }
}
