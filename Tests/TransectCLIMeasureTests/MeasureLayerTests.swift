import CGDAL
import Foundation
import Testing
import TransectCLITestSupport
import TransectFormats
import TransectGDAL
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

@Suite("measure to GIS layers: GeoJSON, GeoJSONSeq, GeoPackage, FlatGeobuf")
struct MeasureLayerTests {
    static let formats: [(ext: String, format: String)] = [("geojson", "geojson"), ("geojsonl", "geojsonseq"), ("gpkg", "gpkg"), ("fgb", "flatgeobuf")]

    /// Five rows over Yosemite Valley, the fourth outside the DEM.
    static let pairs = """
        id,from_lon,from_lat,to_lon,to_lat
        half-dome,-119.5329397,37.7460363,-119.573056,37.730833
        long,-119.66,37.70,-119.40,37.84
        short,-119.55,37.75,-119.5499,37.7501
        outside,-121.0,37.7,-119.5,37.7
        "quoted, id",-119.60,37.80,-119.45,37.65

        """

    /// The decimals the CSV prints a column's numbers with.
    static func decimals(_ column: String) -> Int { column.hasSuffix("_lon") || column.hasSuffix("_lat") || column == "azimuth_deg" ? 9 : 6 }

    struct Setup {
        let dir = TemporaryDirectory()
        let dem: String
        let input: String
        let csv: [[String]]

        init() throws {
            dem = try SharedData.path("yosemite_valley_ned1as.tif")
            input = dir.file("pairs.csv")
            try MeasureLayerTests.pairs.write(toFile: input, atomically: true, encoding: .utf8)
            let r = transect("measure", "--dem", dem, "--pairs", input, "-o", dir.file("rows.csv"))
            #expect(r.code == 0, "\(r.err)")
            let text = try String(contentsOfFile: dir.file("rows.csv"), encoding: .utf8)
            csv = text.split(separator: "\n").dropFirst().map { CSVLine.split(String($0)) }
        }
    }

    @Test("each format reads back through GDAL with the CSV's rows: fields to the printed decimals, the line from start to end", arguments: formats)
    func readsBackAsTheCSV(ext: String, format: String) throws {
        let s = try Setup()
        let out = s.dir.file("m." + ext)
        let r = transect("measure", "--dem", s.dem, "--pairs", s.input, "-o", out)
        #expect(r.code == 0, "\(r.err)")
        let layer = try ReadLayer(out)
        // A GeoJSON text sequence has no name of its own: GDAL names the layer for the file.
        #expect(layer.name == (ext == "geojsonl" ? "m" : "measurements"))
        let header = MeasureCommand.pairsHeader.split(separator: ",").map(String.init)
        // FlatGeobuf (GDAL 3.6) keeps no feature without a geometry: the row in error is absent.
        let rows = ext == "fgb" ? s.csv.filter { $0.last?.isEmpty ?? false } : s.csv
        #expect(layer.features.count == rows.count)
        for (feature, row) in zip(layer.features, rows) {
            for (k, column) in header.enumerated() {
                let cell = row[k]
                guard let value = feature.fields[column] else {
                    Issue.record("no field \(column)")
                    continue
                }
                if cell.isEmpty {
                    #expect(value == nil, "\(column) of \(row[0])")
                } else if column != "id" && column != "error" {
                    // The field is the CSV's number: the same text once printed as the CSV prints it.
                    #expect(Fixed.format(Double(value ?? ""), decimals: Self.decimals(column)) == cell, "\(column) of \(row[0])")
                } else {
                    #expect(value == cell, "\(column) of \(row[0])")
                }
            }
            if row.last?.isEmpty == false {
                #expect(feature.vertices.isEmpty, "a row in error has no geometry")
                continue
            }
            let first = try #require(feature.vertices.first)
            let last = try #require(feature.vertices.last)
            #expect(Fixed.format(first.x, decimals: 9) == row[1] && Fixed.format(first.y, decimals: 9) == row[2])
            #expect(Fixed.format(first.z, decimals: 6) == row[3])
            #expect(Fixed.format(last.x, decimals: 9) == row[4] && Fixed.format(last.y, decimals: 9) == row[5])
            #expect(Fixed.format(last.z, decimals: 6) == row[6])
            let horizontal = try #require(Double(row[7]))
            #expect(feature.vertices.count - 1 == max(1, Int((horizontal / 1000).rounded(.up))))
        }
        // Each feature's id is its row's number in the input.
        #expect(layer.features.map(\.fid) == (ext == "fgb" ? [0, 1, 2, 3] : [1, 2, 3, 4, 5]))
    }

    @Test("ogrinfo -al -so names the layer, its count, 3D line strings, EPSG:4326 and typed fields", arguments: formats)
    func ogrinfoSummary(ext: String, format: String) throws {
        guard ExternalTool.available("ogrinfo") else { return print("skipped: ogrinfo (gdal-bin) is not installed") }
        let s = try Setup()
        let out = s.dir.file("m.data")
        #expect(transect("measure", "--dem", s.dem, "--pairs", s.input, "--format", format, "-o", out).code == 0)
        let info = try ExternalTool.run("ogrinfo", ["-al", "-so", out])
        #expect(info.code == 0, "\(info.err)")
        #expect(info.out.contains("Layer name: \(ext == "geojsonl" ? "m" : "measurements")"), "\(info.out)")
        #expect(info.out.contains("Feature Count: \(ext == "fgb" ? 4 : 5)"), "\(info.out)")
        #expect(info.out.contains("Geometry: 3D Line String"), "\(info.out)")
        // GDAL's GeoJSON reader gives 3D coordinates EPSG:4979, the other drivers record 4326.
        #expect(info.out.contains(ext == "geojson" ? #"ID["EPSG",4979]"# : #"ID["EPSG",4326]"#), "\(info.out)")
        for field in ["id: String", "from_lon: Real", "horizontal_m: Real", "azimuth_deg: Real", "error: String"] {
            #expect(info.out.contains(field), "\(field) in \(info.out)")
        }
    }

    @Test("two runs of each format, for a batch and for one measurement, give the same bytes", arguments: formats)
    func deterministic(ext: String, format: String) throws {
        let s = try Setup()
        for run in 1...2 {
            #expect(transect("measure", "--dem", s.dem, "--pairs", s.input, "--threads", "2", "-o", s.dir.file("b\(run).\(ext)")).code == 0)
            let one = transect("measure", "--dem", s.dem, "--from", "-119.6,37.7", "--to", "-119.5,37.75", "-o", s.dir.file("o\(run).\(ext)"))
            #expect(one.code == 0, "\(one.err)")
        }
        let b = try [1, 2].map { try Data(contentsOf: URL(fileURLWithPath: s.dir.file("b\($0).\(ext)"))) }
        #expect(!b[0].isEmpty && b[0] == b[1])
        let o = try [1, 2].map { try Data(contentsOf: URL(fileURLWithPath: s.dir.file("o\($0).\(ext)"))) }
        #expect(!o[0].isEmpty && o[0] == o[1])
        let one = try ReadLayer(s.dir.file("o1.\(ext)"))
        #expect(one.features.count == 1 && one.features.first?.fields["id"] == "1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.dir.path).allSatisfy { !$0.hasPrefix(".") }, "no temporaries left")
    }

    @Test("a GeoPackage is a sound SQLite database with its R-tree and the fixed date in gpkg_contents")
    func geoPackageIntegrity() throws {
        guard ExternalTool.available("sqlite3") else { return print("skipped: sqlite3 is not installed") }
        let s = try Setup()
        let out = s.dir.file("m.gpkg")
        #expect(transect("measure", "--dem", s.dem, "--pairs", s.input, "-o", out).code == 0)
        let check = try ExternalTool.run("sqlite3", [out, "PRAGMA integrity_check;"])
        #expect(check.out == "ok\n", "\(check.out)\(check.err)")
        let contents = try ExternalTool.run("sqlite3", [out, "SELECT table_name, data_type, last_change, srs_id FROM gpkg_contents;"])
        #expect(contents.out == "measurements|features|\(LayerWriter.date)|4326\n", "\(contents.out)")
        let rtree = try ExternalTool.run("sqlite3", [out, "SELECT count(*) FROM rtree_measurements_geom;"])
        #expect(rtree.out == "4\n", "\(rtree.out)\(rtree.err)")
    }

    @Test("the GeoJSON is RFC 7946: one FeatureCollection, no crs, longitude before latitude, null geometry for the row in error")
    func geoJSONFollowsRFC7946() throws {
        let s = try Setup()
        let out = s.dir.file("m.geojson")
        #expect(transect("measure", "--dem", s.dem, "--pairs", s.input, "-o", out).code == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        #expect(object["crs"] == nil)
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == 5)
        for (feature, row) in zip(features, s.csv) {
            #expect(feature["type"] as? String == "Feature")
            guard let geometry = feature["geometry"] as? [String: Any] else {
                #expect(feature["geometry"] is NSNull && row.last?.isEmpty == false)
                continue
            }
            #expect(geometry["type"] as? String == "LineString")
            let coordinates = try #require(geometry["coordinates"] as? [[Double]])
            #expect(coordinates.allSatisfy { $0.count == 3 && abs($0[0]) <= 180 && abs($0[1]) <= 90 })
            #expect(coordinates.first.map { Fixed.format($0[0], decimals: 9) } == row[1])
            #expect(coordinates.first.map { Fixed.format($0[1], decimals: 9) } == row[2])
        }
    }

    @Test("geojsonseq shards concatenate to one run's bytes", arguments: [1, 2, 3, 7])
    func geoJSONSeqShardsConcatenate(n: Int) throws {
        let s = try Setup()
        #expect(transect("measure", "--dem", s.dem, "--pairs", s.input, "-o", s.dir.file("whole.geojsonl")).code == 0)
        var joined = Data()
        for k in 1...n {
            let part = s.dir.file("part-\(k).geojsonl")
            let r = transect("measure", "--dem", s.dem, "--pairs", s.input, "--shard", "\(k)/\(n)", "-o", part)
            #expect(r.code == 0, "\(r.err)")
            joined += try Data(contentsOf: URL(fileURLWithPath: part))
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: s.dir.file("whole.geojsonl")))
        #expect(joined == whole)
    }

    @Test(
        "GeoPackage and FlatGeobuf shards merge into one run's bytes",
        arguments: [("gpkg", 1), ("gpkg", 2), ("gpkg", 3), ("gpkg", 7), ("fgb", 1), ("fgb", 2), ("fgb", 3), ("fgb", 7)])
    func shardsMerge(ext: String, n: Int) throws {
        let s = try Setup()
        #expect(transect("measure", "--dem", s.dem, "--pairs", s.input, "-o", s.dir.file("whole.\(ext)")).code == 0)
        var parts: [String] = []
        for k in 1...n {
            let part = s.dir.file("part-\(k).\(ext)")
            let r = transect("measure", "--dem", s.dem, "--pairs", s.input, "--shard", "\(k)/\(n)", "-o", part)
            #expect(r.code == 0, "\(r.err)")
            parts.append(part)
        }
        let merged = transect(["merge"] + parts.reversed() + ["-o", s.dir.file("merged.\(ext)")])
        #expect(merged.code == 0, "\(merged.err)")
        let bytes = try ["whole", "merged"].map { try Data(contentsOf: URL(fileURLWithPath: s.dir.file("\($0).\(ext)"))) }
        #expect(!bytes[0].isEmpty && bytes[0] == bytes[1])
        // A part changed after its shard finished is refused, naming it.
        if n > 1 {
            try Data("x".utf8).write(to: URL(fileURLWithPath: parts[1]))
            let refused = transect(["merge"] + parts + ["-o", s.dir.file("again.\(ext)")])
            #expect(refused.code == 1 && refused.err.contains(parts[1]), "\(refused.err)")
            #expect(!FileManager.default.fileExists(atPath: s.dir.file("again.\(ext)")))
        }
    }

    @Test(
        "a layer needs a file, GeoJSON does not shard, and --max-segment shapes layers only",
        arguments: [
            (["--format", "gpkg"], "option '--format': a gpkg layer is written to a file: give -o FILE"),
            (["--shard", "1/2", "-o", "x.geojson"], "option '--shard': GeoJSON parts do not concatenate"),
            (["--max-segment", "50", "-o", "x.csv"], "option '--max-segment': densifies the lines of a layer"),
            (["--max-segment", "0.5", "-o", "x.gpkg"], "option '--max-segment'"),
        ] as [([String], String)])
    func usageErrors(extra: [String], message: String) throws {
        let s = try Setup()
        let args = ["measure", "--dem", s.dem, "--pairs", s.input] + extra.map { $0.hasPrefix("x.") ? s.dir.file($0) : $0 }
        expectUsageError(args, message)
    }
}
