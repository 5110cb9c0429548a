import Foundation
import Testing
import TransectAnalysis
import TransectCLITestSupport
import TransectFormats
import TransectGeodesy
import TransectTestSupport
@testable import TransectCLI
import TransectSupport

/// `track -o`: the track written after the steps asked for, segments kept; statistics apart.
@Suite("track output: written tracks, segments kept, statistics apart")
struct TrackOutputTests {
    static let shared = ["gpxpy_Mojstrovka", "gpxpy_cerknicko-jezero", "gpxpy_korita-zbevnica", "srtmpy_setnjica-kod-karojbe"]

    /// The longest geodesic step within a segment.
    static func longestStep(_ track: Track) -> Double {
        track.segments.flatMap { s in
            zip(s, s.dropFirst()).map {
                Geodesic.wgs84.inverse(latitude1: $0.latitude, longitude1: $0.longitude, latitude2: $1.latitude, longitude2: $1.longitude)
                    .distanceMetres
            }
        }.max() ?? 0
    }

    /// Positions as the writers print them: 9 decimals of a degree, 3 of a metre, whole ms.
    static func printed(_ track: Track) -> [[[String]]] {
        track.segments.map { s in
            s.map {
                [
                    NumberFormatting.fixed($0.longitude, decimals: 9), NumberFormatting.fixed($0.latitude, decimals: 9),
                    $0.elevationMetres.map { NumberFormatting.fixed($0, decimals: 3) } ?? "", $0.time.map(Timestamp.iso8601) ?? "",
                ]
            }
        }
    }

    @Test(
        "the shared tracks densified to 5 m and written as GPX, GeoJSON and CSV: their segments, no step over 5 m, the same points back",
        arguments: shared)
    func densifiedReadBack(name: String) throws {
        let input = try SharedData.path("gpx/\(name).gpx")
        let expected = try TrackFile.load(path: input).track.densifiedChecked(maxSegmentMetres: 5)
        let dir = TemporaryDirectory()
        for format in ["gpx", "geojson", "csv"] {
            let out = dir.file("dense.\(format)")
            let r = transect("track", "--in", input, "--max-segment", "5", "-o", out)
            #expect(r.code == 0, "\(r.err)")
            // The statistics went to stdout, never into the track file.
            #expect(r.out.hasPrefix("Track         "))
            let back = try TrackFile.read(path: out)
            #expect(back.segments.count == expected.segments.count)
            // Steps of exactly 5 m, each end printed to 9 decimals of a degree (≤ 0.056 mm): 0.2 mm.
            #expect(Self.longestStep(back) <= 5 + 2e-4)
            #expect(Self.printed(back) == Self.printed(expected), "\(format)")
        }
    }

    @Test("the shared tracks simulated, per vertex and at 1.4 m/s: one segment of fixes per segment, none bridged", arguments: shared)
    func simulatedSegments(name: String) throws {
        let input = try SharedData.path("gpx/\(name).gpx")
        let track = try TrackFile.load(path: input).track
        let dir = TemporaryDirectory()
        for speed in [[], ["--speed", "1.4"]] {
            let out = dir.file("sim.gpx")
            let r = transect(["track", "--in", input, "--simulate", "-o", out, "--stats-out", dir.file("sim.json")] + speed)
            #expect(r.code == 0, "\(r.err)")
            let back = try TrackFile.read(path: out)
            #expect(back.segments.count == track.segments.count)
            // Steps of up to 50 m, each end printed to 9 decimals of a degree (≤ 0.056 mm): 0.2 mm.
            #expect(Self.longestStep(back) <= 50 + 2e-4)
            // Nothing walked across a gap: per vertex the length is the track's (each printed
            // end moves a step by ≤ 0.11 mm); at a speed, chords cut the corners, never longer.
            let slack = 2e-4 * Double(back.pointCount)  // see above: 0.2 mm a point
            if speed.isEmpty {
                #expect(abs(back.lengthMetres() - track.lengthMetres()) < slack)
            } else {
                #expect(back.lengthMetres() < track.lengthMetres() + slack)
            }
            let stats = try TrackCommandTests.json(try String(contentsOfFile: dir.file("sim.json"), encoding: .utf8))
            #expect(stats["segments"] as? Int == track.segments.count)
            // No step of the simulation is faster than the densified 50 m in 1 s.
            #expect(try #require(stats["max_speed_raw_mps"] as? Double) <= 50 + 1e-6)  // printed to 6 decimals
        }
    }

    @Test("GeoPackage: a lines layer of one feature per segment and a fixes layer of every point, read back by SQLite")
    func geoPackage() throws {
        guard ExternalTool.available("sqlite3") else {
            Issue.record("sqlite3 is not installed (Debian's sqlite3); skipped")
            return
        }
        let input = try SharedData.path("gpx/gpxpy_cerknicko-jezero.gpx")
        let track = try TrackFile.load(path: input).track
        let dir = TemporaryDirectory()
        let out = dir.file("track.gpkg")
        let r = transect("track", "--in", input, "-o", out, "--stats-out", dir.file("stats.txt"))
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.isEmpty)
        let lines = try ExternalTool.run("sqlite3", [out, "SELECT segment, points FROM lines ORDER BY fid"]).out
        #expect(lines == track.segments.enumerated().map { "\($0.offset + 1)|\($0.element.count)\n" }.joined())
        let fixes = try ExternalTool.run("sqlite3", [out, "SELECT COUNT(*), COUNT(DISTINCT segment), COUNT(time) FROM fixes"]).out
        #expect(fixes == "\(track.pointCount)|\(track.segments.count)|\(track.points.filter { $0.time != nil }.count)\n")
        let again = dir.file("again.gpkg")
        #expect(transect("track", "--in", input, "-o", again, "--stats-out", dir.file("s2.txt")).code == 0)
        #expect(FileManager.default.contents(atPath: out) == FileManager.default.contents(atPath: again))  // deterministic
    }

    @Test("-o that names no track format is a usage error that says where statistics go, and writes nothing")
    func notATrackFormat() {
        let dir = TemporaryDirectory()
        expectUsageError(
            ["track", "--in", TrackCommandTests.sample, "-o", dir.file("stats.txt")],
            "option '--out': '\(dir.file("stats.txt"))' does not name a track format (.gpx, .geojson, .csv or .gpkg; or give --format); statistics go to stdout or --stats-out"
        )
        expectUsageError(["track", "--in", TrackCommandTests.sample, "--format", "gpkg"], "option '--format': gpkg is a database and needs a file")
        expectUsageError(
            ["track", "--in", TrackCommandTests.sample, "-o", "-", "--format", "gpx", "--stats"], "option '--stats-out': stdout carries the track")
        expectUsageError(
            ["track", "--in", TrackCommandTests.sample, "--simulate", "--speed", "60"],
            "option '--speed': 60 m/s makes steps of 60 m, longer than the 50 m --max-segment; raise --max-segment")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) == [])
    }

    @Test("--in - reads the track from stdin, -o - writes it to stdout, the statistics to --stats-out")
    func standardStreams() throws {
        let input = try SharedData.path("gpx/gpxpy_korita-zbevnica.gpx")
        let dir = TemporaryDirectory()
        let run = try TransectExecutable.Run(["track", "--in", "-", "-o", "-", "--format", "geojson", "--stats-out", "s.json"], directory: dir.path)
        run.stdin.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: input)))
        try run.stdin.fileHandleForWriting.close()
        let r = run.wait()
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("'stdin'"))
        let back = try TrackFile.read(data: Data(r.out.utf8), path: "out.geojson")
        let track = try TrackFile.load(path: input).track
        #expect(Self.printed(back) == Self.printed(track))
        let stats = try TrackCommandTests.json(try String(contentsOfFile: dir.file("s.json"), encoding: .utf8))
        #expect(stats["segments"] as? Int == 3)
    }

    @Test("a map of a track of three segments draws three lines: its trails layer is a MultiLineString of three, as ogrinfo reads it")
    func mapSegments() throws {
        guard ExternalTool.available("ogrinfo") else {
            Issue.record("ogrinfo is not installed (Debian's gdal-bin); skipped")
            return
        }
        let input = try SharedData.path("gpx/gpxpy_korita-zbevnica.gpx")
        let track = try TrackFile.load(path: input).track
        let dir = TemporaryDirectory()
        let r = transect("render", "--track", input, "--size", "400x300", "-o", dir.file("k.png"), "--layers", dir.file("k.gpkg"))
        #expect(r.code == 0, "\(r.err)")
        let info = try ExternalTool.run("ogrinfo", ["-ro", "-al", "-geom=SUMMARY", dir.file("k.gpkg"), "trails"]).out
        #expect(info.contains("MULTILINESTRING : \(track.segments.count) geometries"))
        // Each line is its segment densified along the geodesics: never fewer points.
        let counts = info.split(separator: "\n").filter { $0.hasPrefix("LINESTRING : ") }.compactMap { Int($0.split(separator: " ")[2]) }
        #expect(counts.count == track.segments.count)
        #expect(zip(counts, track.segments).allSatisfy { $0 >= $1.count })
    }
}
