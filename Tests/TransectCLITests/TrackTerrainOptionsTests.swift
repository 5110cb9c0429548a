import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

@testable import TransectCLI

/// `track --dem` reads DEMs as the other commands do, so it takes their `--nodata`, `--confine`
/// and `--timeout`, each with the same effect and the same refusals.
@Suite("track: --nodata, --confine and --timeout")
struct TrackTerrainOptionsTests {
    /// Three fixes as CSV: the first on the void of ``NoDataOptionTests/writeTile(_:x0:void:)``,
    /// the others on ground (cells 200 and 220 at their centres); with `ele` their recorded
    /// elevations.
    static func writeTrack(_ path: String, recorded: Bool) throws {
        let text =
            recorded
            ? "lon,lat,ele\n10.0155,45.0845,555\n10.0505,45.0495,600\n10.0605,45.0395,610\n"
            : "lon,lat\n10.0155,45.0845\n10.0505,45.0495\n10.0605,45.0395\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The `elevation_m` column of a track written as CSV (time,lon,lat,elevation_m,segment).
    static func elevations(_ csv: String) -> [String] {
        csv.split(separator: "\n").dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[3]) }
    }

    @Test("--nodata 0 turns a void filled with 0 into no data: the fix keeps its recorded elevation, or has none")
    func noData() throws {
        let dir = TemporaryDirectory()
        NoDataOptionTests.writeTile(dir.file("dem.tif"))
        try Self.writeTrack(dir.file("recorded.csv"), recorded: true)
        try Self.writeTrack(dir.file("bare.csv"), recorded: false)
        let base = ["track", "--dem", dir.file("dem.tif"), "-r", "nearest", "-o", "-", "--in"]
        let plain = transect(base + [dir.file("bare.csv")])
        #expect(plain.code == 0, "\(plain.err)")
        #expect(Self.elevations(plain.out) == ["0.000", "200.000", "220.000"], "\(plain.out)")
        let bare = transect(base + [dir.file("bare.csv"), "--nodata", "0"])
        #expect(bare.code == 0, "\(bare.err)")
        #expect(Self.elevations(bare.out) == ["", "200.000", "220.000"], "\(bare.out)")
        #expect(bare.err.contains("1 of 3 fixes lie outside the DEM '\(dir.file("dem.tif"))' or on its no data"), "\(bare.err)")
        let recorded = transect(base + [dir.file("recorded.csv"), "--nodata", "0"])
        #expect(recorded.code == 0, "\(recorded.err)")
        #expect(Self.elevations(recorded.out) == ["555.000", "200.000", "220.000"], "\(recorded.out)")
        // Refused as the other commands refuse it: one a DEM, and only with --dem.
        expectUsageError(
            ["track", "--in", dir.file("bare.csv"), "--nodata", "0"], "option '--nodata': overrides the no-data value of the DEMs given; give --dem")
        expectUsageError(
            ["track", "--in", dir.file("bare.csv"), "--dem", dir.file("dem.tif"), "--nodata", "0", "--nodata", "1"],
            "option '--nodata': given 2 times for 1 DEMs")
    }

    @Test("--confine refuses a VRT whose source lies outside the directories given; without it the source is read")
    func confine() throws {
        let root = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.file("named"), withIntermediateDirectories: true)
        InfoCommandTests.writeDEM(root.file("outside.tif"))
        let vrt = root.file("named/dem.vrt")
        try InfoCommandTests.vrt(source: "../outside.tif").write(toFile: vrt, atomically: true, encoding: .utf8)
        try Self.writeTrack(root.file("track.csv"), recorded: false)
        let base = ["track", "--in", root.file("track.csv"), "--dem", vrt, "--format", "json"]
        let open = transect(base)
        #expect(open.code == 0, "\(open.err)")
        let confined = transect(base + ["--confine", root.file("named")])
        #expect(confined.code == 1)
        #expect(
            confined.err.hasPrefix(
                "Error: DEM '\(vrt)': source '../outside.tif' lies outside the directories given with --confine (\(root.file("named")))\n"),
            "\(confined.err)")
        #expect(confined.out.isEmpty)
        expectUsageError(base + ["--confine", root.file("none")], "option '--confine': '\(root.file("none"))' is not a directory")
    }

    @Test("--timeout: a whole number of seconds from 1 to 3,600 with --allow-network; a silent server's DEM fails the run within it, exit 75")
    func timeout() throws {
        let dir = TemporaryDirectory()
        try Self.writeTrack(dir.file("track.csv"), recorded: false)
        let track = ["track", "--in", dir.file("track.csv")]
        expectUsageError(track + ["--timeout", "2"], "option '--timeout': bounds network reads; give --allow-network")
        expectUsageError(track + ["--allow-network", "--timeout", "0"], "option '--timeout': ")
        expectUsageError(track + ["--allow-network", "--timeout", "3601"], "option '--timeout': ")
        expectUsageError(track + ["--allow-network", "--timeout", "2.5"], "option '--timeout': ")
        let server = try NetworkTimeoutTests.SilentServer()
        let dem = "/vsicurl/http://127.0.0.1:\(server.port)/dem.tif"
        // Killed after 60 s (exit 1009): a run that waits on the server is the failure.
        let r = try TransectExecutable.run(track + ["--dem", dem, "--allow-network", "--timeout", "2"], directory: dir.path, timeout: 60)
        #expect(r.code == 75, "exit \(r.code): \(r.err)")
        #expect(r.err.hasPrefix("Error: DEM '\(dem)': cannot open: "), "\(r.err)")
        #expect(r.err.lowercased().contains("timed out"), "\(r.err)")
    }
}
