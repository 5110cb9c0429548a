import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectFormats
import TransectTestSupport
@testable import TransectCLI

/// What a GDAL or QGIS user types works: `-r near`, `--crs 32611`, `--units feet`.
@Suite("GIS habits: -r, bare EPSG codes, unit names")
struct TerrainOptionsTests {
    static let glacierPoint = "-119.573611,37.729722"

    /// The end elevation `measure` reports with `extra` options.
    static func endElevation(_ extra: String...) throws -> Double {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let result = transect(["measure", "--dem", dem, "--from", "-119.5329397,37.7460363", "--to", glacierPoint, "--format", "json"] + extra)
        #expect(result.code == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let end = try #require(object["end"] as? [String: Any])
        return try #require(end["elevation_m"] as? Double)
    }

    @Test("-r is --interpolation, and near is nearest, as gdalwarp spells them")
    func resampling() throws {
        let nearest = try Self.endElevation("--interpolation", "nearest")
        let bilinear = try Self.endElevation("--interpolation", "bilinear")
        let cubic = try Self.endElevation("--interpolation", "cubic")
        #expect(nearest != bilinear && bilinear != cubic)
        #expect(try Self.endElevation("-r", "near") == nearest)
        #expect(try Self.endElevation("-r", "nearest") == nearest)
        #expect(try Self.endElevation("--interpolation", "near") == nearest)
        #expect(try Self.endElevation("-r", "NEAR") == nearest)
        #expect(try Self.endElevation("-r", "bilinear") == bilinear)
        #expect(try Self.endElevation("-r", "cubic") == cubic)
    }

    @Test(
        "-r refuses what --interpolation refuses, and may not be given with it",
        arguments: [
            (["-r", "lanczos"], "option '--interpolation': 'lanczos' is not nearest (near), bilinear or cubic"),
            (["-r", "near", "--interpolation", "cubic"], "option '--interpolation' given more than once"),
        ])
    func resamplingRefused(extra: [String], message: String) {
        let result = transect(["measure", "--from", "1,2,0", "--to", "1,3,0"] + extra)
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("Error: " + message + "\n"), "\(result.err)")
    }

    @Test("--crs 32611 is EPSG:32611: the same measurement, the same bytes")
    func bareEPSG() {
        let args = ["measure", "--from", "270000,4180000,100", "--to", "275000,4181000,300", "--format", "json"]
        let bare = transect(args + ["--crs", "32611"])
        let spelled = transect(args + ["--crs", "EPSG:32611"])
        #expect(bare.code == 0 && spelled.code == 0, "\(bare.err)")
        #expect(bare.out == spelled.out && !bare.out.isEmpty)
        // Not the same as reading the numbers as lon/lat (which would be refused as out of range).
        #expect(transect(Array(args.dropLast(2))).code == 2)
        let unknown = transect(args + ["--crs", "99999999"])
        #expect(unknown.code == 2 && unknown.err.contains("EPSG:99999999"), "\(unknown.err)")
    }

    @Test("a bare code becomes EPSG:CODE for every command, from a scene as from a flag; other definitions stay as given")
    func canonicalCRS() throws {
        for command in [Commands.measure, Commands.profile, Commands.render] {
            let args = try ParsedArguments(["--crs", "3857"], specs: command.options, command: command.name)
            #expect(args.value("crs") == "EPSG:3857")
        }
        #expect(try ParsedArguments(["--crs=32611"], specs: Commands.render.options, command: "render").value("crs") == "EPSG:32611")
        #expect(try ParsedArguments(["--frame-crs=3857"], specs: Commands.render.options, command: "render").value("frame-crs") == "EPSG:3857")
        let scene = try SceneFile.arguments(data: Data(#"{"crs": 32611}"#.utf8), path: "s.json", knownOptions: ["crs"], flags: [])
        #expect(try ParsedArguments(scene, specs: Commands.render.options, command: "render").value("crs") == "EPSG:32611")
        for definition in ["EPSG:4326", "+proj=utm +zone=11", "32611.5", "-32611", "1234567890", "crs.wkt"] {
            #expect(CommonOptions.epsgCode(definition) == definition)
        }
    }

    @Test(
        "--units takes unit names as well as symbols",
        arguments: [
            ("feet", "ft"), ("foot", "ft"), ("meters", "m"), ("metres", "m"), ("miles", "mi"), ("kilometers", "km"),
            ("kilometres", "km"), ("yards", "yd"), ("nautical-miles", "nmi"), ("Feet", "ft"),
        ])
    func unitNames(name: String, symbol: String) {
        let args = ["measure", "--from", "6.865,45.832778,4806", "--to", "6.8694,45.9237,1035"]
        let named = transect(args + ["--units", name])
        let given = transect(args + ["--units", symbol])
        #expect(named.code == 0 && named.out == given.out, "\(named.err)")
        #expect(named.out.contains(" \(symbol) |"))
    }

    @Test("an unknown unit is refused with the names it could have been")
    func unknownUnit() {
        let result = transect("measure", "--from", "1,2,0", "--to", "1,3,0", "--units", "furlongs")
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("Error: option '--units': 'furlongs' is not metric, imperial, m, km, ft, mi, yd or nmi (or metres, feet, … by name)\n"))
    }

    @Test(
        "LAT,LON for LON,LAT gets a 'did you mean' with the pair swapped",
        arguments: [
            ("--from", "37.7,-119.5", "latitude -119.5 is beyond ±90° (did you mean -119.5,37.7? points are LON,LAT)"),
            ("--to", "45.9237,186.8694", "latitude 186.8694 is beyond ±90°\n"),
        ])
    func swapped(option: String, point: String, message: String) {
        var args = ["measure", "--from", "-119.6,37.7,0", "--to", "-119.5,37.8,0"]
        args[option == "--from" ? 2 : 4] = point
        let result = transect(args)
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("Error: option '\(option)': ") && result.err.contains(message), "\(result.err)")
    }
}
