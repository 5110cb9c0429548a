import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectGeodesy
import TransectFormats
import TransectGDAL
import TransectTestSupport

@testable import TransectCLI

/// `measure --pairs` by bytes and on worker threads writes what the row-by-row stream wrote
/// (`PairsMeasurement.next()` and `cells`, kept as the reference), for any `--threads`.
@Suite("measure --pairs: the same bytes for any thread count, and as the row-by-row stream")
struct MeasurePairsThreadsTests {
    /// Rows over Yosemite Valley across several batches: good rows, given heights, bad values,
    /// rows off the DEM, quoted and non-ASCII ids, blank lines, CRLF.
    static func input(rows: Int, seed: UInt64) -> String {
        var random = SeededRandom(seed: seed)
        var text = "id,from_lon,from_lat,to_lon,to_lat,from_z,to_z\r\n"
        for k in 0..<rows {
            let lon0 = random.uniform(-119.66, -119.46)
            let lat0 = random.uniform(37.69, 37.85)
            let lon1 = random.uniform(-119.66, -119.46)
            let lat1 = random.uniform(37.69, 37.85)
            let z = random.below(5) == 0 ? String(random.uniform(-100, 4000)) : ""
            switch k % 1013 {
            case 17: text += "bad\(k),abc,37.7,-119.5,37.7,,\n"
            case 29: text += "\"q,\(k)\",\(lon0),\(lat0),10,45,,\n"
            case 31: text += "é\(k),\(lon0),\(lat0),\(lon1),\(lat1),1e9,\n"
            case 37: text += "\n  \n"
            default: text += "r\(k),\(lon0),\(lat0),\(String(format: "%.6f", lon1)),\(lat1),\(z),\r\n"
            }
        }
        return text
    }

    /// The reference: the row-by-row stream and its cells, joined as the command joined them.
    static func reference(_ path: String, dem: String, crs: String? = nil) throws -> String {
        let reader = try PairsReader(path: path)
        let transformer = try crs.map { try CoordinateTransformer(from: SpatialReference($0), to: .wgs84()) }
        let stream = PairsMeasurement(
            measurer: TerrainMeasurer(model: try ElevationModel([dem])), inputCRS: transformer, strict: false,
            checkWGS84: { PointArgument.checkGeographic(longitude: $0, latitude: $1).map { .init($0.text) } },
            next: { try reader.next().map { MeasureCommand.input($0, reader: reader) } })
        var out = MeasureCommand.pairsHeader + "\n"
        while let row = try stream.next() { out += MeasureCommand.cells(row).map(CSVLine.field).joined(separator: ",") + "\n" }
        return out
    }

    @Test("1, 2 and 3 threads write the reference's bytes, with the same note")
    func sameBytes() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        try Self.input(rows: 3 * PairsMeasurement.batchRows + 123, seed: 11).write(toFile: dir.file("p.csv"), atomically: true, encoding: .utf8)
        let expected = try Self.reference(dir.file("p.csv"), dem: dem)
        var notes: Set<String> = []
        for threads in ["1", "2", "3"] {
            let r = transect("measure", "--dem", dem, "--pairs", dir.file("p.csv"), "-o", dir.file("out\(threads).csv"), "--threads", threads)
            #expect(r.code == 0, "\(r.err)")
            notes.insert(r.err)
            let written = try String(contentsOfFile: dir.file("out\(threads).csv"), encoding: .utf8)
            #expect(written == expected, "--threads \(threads)")
        }
        #expect(notes.count == 1 && notes.first?.contains(" rows in ") == true, "\(notes)")
    }

    @Test("--crs: the rows' coordinates transformed by batch give the row-by-row bytes")
    func inputCRS() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let toUTM = try CoordinateTransformer(from: .wgs84(), to: SpatialReference("EPSG:32611"))
        var random = SeededRandom(seed: 5)
        var text = "from_lon,from_lat,to_lon,to_lat\n"
        for k in 0..<5000 {
            let a = try #require(try toUTM.transform(x: random.uniform(-119.66, -119.46), y: random.uniform(37.69, 37.85)))
            let b = try #require(try toUTM.transform(x: random.uniform(-119.66, -119.46), y: random.uniform(37.69, 37.85)))
            text += k % 777 == 3 ? "1e30,1e30,\(b.x),\(b.y)\n" : "\(a.x),\(a.y),\(b.x),\(b.y)\n"
        }
        try text.write(toFile: dir.file("utm.csv"), atomically: true, encoding: .utf8)
        let expected = try Self.reference(dir.file("utm.csv"), dem: dem, crs: "EPSG:32611")
        for threads in ["1", "2"] {
            let r = transect("measure", "--dem", dem, "--crs", "32611", "--pairs", dir.file("utm.csv"), "--threads", threads)
            #expect(r.code == 0, "\(r.err)")
            #expect(r.out == expected, "--threads \(threads)")
        }
    }

    @Test("--strict stops at the same row for any thread count: the rows before it on stdout, no file with -o")
    func strict() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        var text = "id,from_lon,from_lat,to_lon,to_lat\n"
        for k in 1...(2 * PairsMeasurement.batchRows + 500) {
            text += k == PairsMeasurement.batchRows + 200 ? "stop,1,91,2,3\n" : "r\(k),-119.6,37.7,-119.55,37.75\n"
        }
        try text.write(toFile: dir.file("p.csv"), atomically: true, encoding: .utf8)
        let expected = try Self.reference(dir.file("p.csv"), dem: dem)
        let before =
            expected.split(separator: "\n", omittingEmptySubsequences: false).prefix(PairsMeasurement.batchRows + 200)
            .joined(separator: "\n") + "\n"
        for threads in ["1", "2"] {
            let r = transect("measure", "--dem", dem, "--pairs", dir.file("p.csv"), "--strict", "--threads", threads)
            #expect(r.code == 1)
            #expect(r.err.hasPrefix("Error: pairs '\(dir.file("p.csv"))' row stop: "), "\(r.err)")
            #expect(r.out == before, "--threads \(threads)")
            let file = transect("measure", "--dem", dem, "--pairs", dir.file("p.csv"), "--strict", "--threads", threads, "-o", dir.file("o.csv"))
            #expect(file.code == 1 && !FileManager.default.fileExists(atPath: dir.file("o.csv")))
        }
    }

    @Test("a NUL byte in a later batch: the batches before it are written, then the error, for any thread count")
    func lineError() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        var text = "from_lon,from_lat,to_lon,to_lat\n"
        for k in 1...(3 * PairsMeasurement.batchRows) { text += k == 2 * PairsMeasurement.batchRows + 9 ? "1\u{0},2,3,4\n" : "-119.6,37.7,-119.55,37.75\n" }
        try text.write(toFile: dir.file("p.csv"), atomically: true, encoding: .utf8)
        var outputs: Set<String> = []
        for threads in ["1", "2"] {
            let r = transect("measure", "--dem", dem, "--pairs", dir.file("p.csv"), "--threads", threads)
            #expect(r.code == 1)
            #expect(r.err.hasPrefix("Error: pairs '\(dir.file("p.csv"))': line \(2 * PairsMeasurement.batchRows + 10) contains a NUL byte"), "\(r.err)")
            #expect(r.out.split(separator: "\n").count == 1 + 2 * PairsMeasurement.batchRows)
            outputs.insert(r.out)
        }
        #expect(outputs.count == 1)
    }

    @Test("--threads takes a whole number from 1 to 256")
    func option() {
        expectUsageError(["measure", "--pairs", "p.csv", "--threads", "0"], "option '--threads': '0' is not a whole number from 1 to 256")
        expectUsageError(
            ["measure", "--from", "1,2,3", "--to", "2,3,4", "--threads", "2"],
            "option '--threads': splits a --pairs batch across threads; one measurement runs on one")
    }
}

/// `profile --format csv|json` writes its samples in chunks formatted on worker threads.
@Suite("profile: CSV and JSON samples as bytes, the same for any thread count")
struct ProfileThreadsTests {
    @Test("1 and 2 threads write the same CSV and JSON, whose sample rows are Fixed.format's numbers")
    func sameBytes() throws {
        let dir = TemporaryDirectory()
        // A geographic DEM with a band of no data: gaps (empty in CSV, null in JSON) among the samples.
        SyntheticDEM.write(
            path: dir.file("hole.tif"), width: 200, height: 100, geoTransform: [10, 0.001, 0, 45.1, 0, -0.001], crs: "EPSG:4326",
            noData: -9999
        ) { x, y in (80..<90).contains(x) ? -9999 : 100 + Double(x) * 0.37 + Double(y) * 1.3 }
        let base = ["profile", "--dem", dir.file("hole.tif"), "--from", "10.01,45.05", "--to", "10.19,45.02", "--samples", "40000"]
        for format in ["csv", "json"] {
            let one = transect(base + ["--format", format, "--threads", "1"])
            let two = transect(base + ["--format", format, "--threads", "2"])
            #expect(one.code == 0 && two.code == 0, "\(one.err)")
            #expect(one.out == two.out && one.out.count > 1_000_000, "\(format)")
            if format == "csv" {
                let lines = one.out.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 40_002 && lines.contains { $0.hasSuffix(",") })
            } else {
                #expect(one.out.contains("\"elevation_m\": null}"))
            }
        }
    }

    @Test("a CSV row is the four numbers as Fixed.format writes them")
    func rowsAsFixed() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let r = transect("profile", "--dem", dem, "--from", "-119.6,37.7", "--to", "-119.5,37.8", "--samples", "3", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let samples = try #require(object["samples"] as? [[String: Any]])
        let csv = transect("profile", "--dem", dem, "--from", "-119.6,37.7", "--to", "-119.5,37.8", "--samples", "3", "--format", "csv")
        let rows = csv.out.split(separator: "\n").dropFirst().map(String.init)
        for (row, sample) in zip(rows, samples) {
            let values = try ["distance_m", "lon", "lat", "elevation_m"].map { try #require(sample[$0] as? Double) }
            let expected = zip(values, [6, 9, 9, 6]).map { Fixed.format($0, decimals: $1) }.joined(separator: ",")
            #expect(row == expected)
        }
    }
}
