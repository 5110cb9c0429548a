import CGDAL
import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

@testable import TransectCLI

/// `--nodata` from the command line, `info` of several DEMs each on its own (or `--mosaic`), and
/// no data as its own entry in a tinted map's legend.
@Suite("--nodata, info of each DEM, and no data in the legend")
struct NoDataOptionTests {
    /// 0.001° cells over lon `x0`…`x0 + 0.1`, lat 45…45.1 (100 × 100), 100 + column + row, with a
    /// void of `void` (not flagged) in columns and rows 10…19.
    static func writeTile(_ path: String, x0: Double = 10, void: Double = 0) {
        SyntheticDEM.write(path: path, width: 100, height: 100, geoTransform: [x0, 0.001, 0, 45.1, 0, -0.001], crs: "EPSG:4326") { c, r in
            (10..<20).contains(c) && (10..<20).contains(r) ? void : Double(100 + c + r)
        }
    }

    /// The centre of the void, and of a cell outside it, as LON,LAT.
    static let void = "10.0155,45.0845"
    static let ground = "10.0505,45.0495"

    @Test("measure on a void filled with 0 gives 0 m; with --nodata 0 it is exit 1, the point on no data")
    func measure() throws {
        let dir = TemporaryDirectory()
        Self.writeTile(dir.file("dem.tif"))
        let plain = transect("measure", "--dem", dir.file("dem.tif"), "--from", Self.void, "--to", Self.ground, "--format", "json", "-r", "nearest")
        #expect(plain.code == 0, "\(plain.err)")
        #expect(plain.out.contains(#""start_elevation_m": 0"#) || plain.out.contains(#""elevation_m": 0"#), "\(plain.out)")
        let given = transect("measure", "--dem", dir.file("dem.tif"), "--nodata", "0", "--from", Self.void, "--to", Self.ground, "-r", "nearest")
        #expect(given.code == 1)
        #expect(given.err.hasPrefix("Error: point \(Self.void) falls on no data in the DEM '\(dir.file("dem.tif"))'"), "\(given.err)")
    }

    @Test("--nodata is given once, or once for each --dem; other counts, or no --dem, are usage errors of --nodata")
    func counts() throws {
        let dir = TemporaryDirectory()
        Self.writeTile(dir.file("a.tif"))
        Self.writeTile(dir.file("b.tif"), x0: 10.1, void: -9999)
        let line = ["--from", Self.ground, "--to", "10.1505,45.0495"]
        expectUsageError(
            ["measure", "--dem", dir.file("a.tif"), "--dem", dir.file("b.tif"), "--nodata", "0", "--nodata", "-9999", "--nodata", "1"] + line,
            "option '--nodata': given 3 times for 2 DEMs; give it once for every DEM, or once for each in the order of the DEMs")
        expectUsageError(["measure", "--nodata", "0"] + line, "option '--nodata': overrides the no-data value of the DEMs given; give --dem")
        expectUsageError(["measure", "--dem", dir.file("a.tif"), "--nodata", "nan"] + line, "option '--nodata': 'nan' is not a finite decimal number")
        let each = transect(
            ["profile", "--dem", dir.file("a.tif"), "--dem", dir.file("b.tif"), "--nodata", "0", "--nodata", "-9999", "--format", "json"] + line)
        #expect(each.code == 0, "\(each.err)")
    }

    @Test("info A B describes each DEM as gdalinfo would, --mosaic the one mosaic; --nodata shows in each")
    func infoOfEach() throws {
        let dir = TemporaryDirectory()
        Self.writeTile(dir.file("a.tif"))
        Self.writeTile(dir.file("b.tif"), x0: 10.1, void: -9999)
        let each = transect("info", dir.file("a.tif"), dir.file("b.tif"), "--nodata", "0", "--nodata", "-9999")
        #expect(each.code == 0, "\(each.err)")
        let blocks = each.out.components(separatedBy: "\n\n")
        #expect(blocks.count == 2, "\(each.out)")
        #expect(blocks.first?.hasPrefix("DEM:         \(dir.file("a.tif"))\n") == true)
        #expect(blocks.last?.hasPrefix("DEM:         \(dir.file("b.tif"))\n") == true)
        #expect(blocks.first?.contains("No data:     0 (--nodata)\n") == true, "\(each.out)")
        #expect(blocks.last?.contains("No data:     -9999 (--nodata)\n") == true, "\(each.out)")
        // Each without its void: 100 m up.
        #expect(blocks.allSatisfy { $0.contains("Elevation:   100.00 m … 298.00 m") }, "\(each.out)")

        let json = transect("info", dir.file("a.tif"), dir.file("b.tif"), "--format", "json")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        #expect(array.map { $0["dem"] as? String } == [dir.file("a.tif"), dir.file("b.tif")])
        #expect(array.map { $0["min_elevation_m"] as? Double } == [0, -9999])

        let mosaic = transect("info", dir.file("a.tif"), dir.file("b.tif"), "--mosaic", "--nodata", "0", "--nodata", "-9999")
        #expect(mosaic.code == 0, "\(mosaic.err)")
        #expect(mosaic.out.hasPrefix("DEM:         \(dir.file("a.tif")) and 1 more (2 tiles)\n"), "\(mosaic.out)")
        #expect(mosaic.out.contains("Size:        200 × 100 cells, Float64\n"), "\(mosaic.out)")
        #expect(mosaic.out.contains("No data:     0, -9999 (--nodata)\n"), "\(mosaic.out)")
        #expect(mosaic.out.contains("Elevation:   100.00 m … 298.00 m"), "\(mosaic.out)")
        let one = try #require(
            try JSONSerialization.jsonObject(with: Data(transect("info", dir.file("a.tif"), "--format", "json").out.utf8)) as? [String: Any])
        #expect(one["dem"] as? String == dir.file("a.tif") && one["nodata_given"] as? Bool == false)
    }

    /// The legend's box in the layout `render --layout` writes.
    static func legendBox(_ layout: String) throws -> [Double]? {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: layout))) as? [String: Any])
        let elements = try #require(json["elements"] as? [[String: Any]])
        return elements.first { $0["kind"] as? String == "legend" }?["box"] as? [Double]
    }

    @Test("a tinted map with no data in its frame has a 'no data' entry under the ramp: the legend is 20 px taller at 96 dpi")
    func legend() throws {
        let dir = TemporaryDirectory()
        Self.writeTile(dir.file("dem.tif"))
        let common = [
            "render", "--dem", dir.file("dem.tif"), "--basemap", "tint", "--size", "400x500", "--extent", "10.008,45.06,10.05,45.092", "--margin", "0",
        ]
        let plain = transect(common + ["-o", dir.file("plain.png"), "--layout", dir.file("plain.json")])
        #expect(plain.code == 0, "\(plain.err)")
        let given = transect(common + ["--nodata", "0", "-o", dir.file("void.png"), "--layout", dir.file("void.json")])
        #expect(given.code == 0, "\(given.err)")
        let a = try #require(try Self.legendBox(dir.file("plain.json")))
        let b = try #require(try Self.legendBox(dir.file("void.json")))
        #expect(a.count == 4 && b.count == 4)
        // Boxes are [x0, y0, x1, y1] in pixels.
        #expect(b[3] - b[1] == a[3] - a[1] + 20 && b[2] - b[0] == a[2] - a[0], "\(a) \(b)")
    }
}

/// `info` prints no `inf` and no `nan`, in text or JSON, whatever the DEM's numbers.
@Suite("info never prints inf or nan")
struct InfoFiniteTests {
    /// True when `text` holds `inf` or `nan` as a word (any case), as a formatter would print them.
    static func holdsNonFinite(_ text: String) -> Bool {
        text.lowercased().split { !$0.isLetter }.contains { $0 == "inf" || $0 == "nan" }
    }

    @Test(
        "a scale that overflows, heights beyond any terrain, a NaN or infinite no-data value",
        arguments: ["scale 1e308", "offset 1e300", "nodata nan", "nodata -inf"])
    func numbers(kind: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("dem.tif")
        let parts = kind.split(separator: " ")
        let value = Double(parts[1]) ?? (parts[1] == "nan" ? Double.nan : -Double.infinity)
        SyntheticDEM.write(
            path: path, width: 20, height: 10, geoTransform: [10, 0.01, 0, 45.1, 0, -0.01], crs: "EPSG:4326", type: GDT_Float32,
            noData: parts[0] == "nodata" ? value : nil, scale: parts[0] == "scale" ? value : nil, offset: parts[0] == "offset" ? value : nil
        ) { c, r in Double(c + r) + 100 }
        for format in ["text", "json"] {
            let r = transect("info", path, "--format", format)
            #expect(!Self.holdsNonFinite(r.out) && !Self.holdsNonFinite(r.err), "\(kind) \(format): \(r.out) \(r.err)")
            if parts[0] == "nodata" {
                #expect(r.code == 0, "\(r.err)")
                if format == "text" {
                    #expect(r.out.contains(kind.hasSuffix("nan") ? "No data:     not a number\n" : "No data:     minus infinity\n"), "\(r.out)")
                }
            } else {
                #expect(r.code == 1 && r.err.hasPrefix("Error: DEM '\(path)': "), "\(r.err)")
                #expect(r.err.contains(kind.hasPrefix("scale") ? "overflows a double" : "is beyond ±100,000 km"), "\(r.err)")
            }
        }
    }
}
