import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport
@testable import TransectCLI

/// Text output reads as written English: `1 segment`, `1 fix`, and no `-0.00`.
@Suite("text output: counts agree with nouns, no negative zero")
struct TextAgreementTests {
    @Test("one of a thing is singular in track, simulate and pairs messages")
    func singulars() throws {
        let dir = TemporaryDirectory()
        try "lon,lat,ele\n10,45,100\n0,0,100\n10.001,45,100\n".write(toFile: dir.file("t.csv"), atomically: true, encoding: .utf8)
        let stats = transect("track", "--in", dir.file("t.csv"), "--stats")
        #expect(stats.code == 0, "\(stats.err)")
        #expect(stats.err.contains("dropped 1 invalid fix (1 zero zero)"), "\(stats.err)")
        #expect(stats.out.contains("Points        2 in 1 segment\n"), "\(stats.out)")
        try "lon,lat\n10,45\n".write(toFile: dir.file("one.csv"), atomically: true, encoding: .utf8)
        let simulated = transect("track", "--in", dir.file("one.csv"), "--simulate", "--out", dir.file("fixes.csv"))
        #expect(simulated.code == 0, "\(simulated.err)")
        #expect(simulated.err.contains("note: simulated 1 fix from "), "\(simulated.err)")
        try "id,from_lon,from_lat,to_lon,to_lat,from_z,to_z\nbad,abc,45,10,45,0,0\n".write(toFile: dir.file("pairs.csv"), atomically: true, encoding: .utf8)
        let pairs = transect("measure", "--pairs", dir.file("pairs.csv"), "--out", dir.file("out.csv"))
        #expect(pairs.code == 0, "\(pairs.err)")
        #expect(pairs.err.contains("note: 1 of 1 row in "), "\(pairs.err)")
    }

    @Test("many of a thing is plural, grouped")
    func plurals() throws {
        let dir = TemporaryDirectory()
        try "lon,lat\n10,45\n10.1,45\n".write(toFile: dir.file("line.csv"), atomically: true, encoding: .utf8)
        let simulated = transect("track", "--in", dir.file("line.csv"), "--simulate", "--max-segment", "5", "--out", dir.file("fixes.csv"))
        #expect(simulated.code == 0, "\(simulated.err)")
        let fixes = try String(contentsOfFile: dir.file("fixes.csv"), encoding: .utf8).split(separator: "\n").count - 1
        #expect(fixes > 1000)
        #expect(simulated.err.contains("note: simulated \(NumberFormatting.grouped(Double(fixes), decimals: 0)) fixes from "), "\(simulated.err)")
    }

    @Test("a flat track and a flat profile gain and lose 0.00 m, not +0.00 and -0.00")
    func flatGainLoss() throws {
        let dir = TemporaryDirectory()
        try "lon,lat,ele\n-119.55,37.74,1000\n-119.551,37.74,1000\n".write(toFile: dir.file("flat.csv"), atomically: true, encoding: .utf8)
        let track = transect("track", "--in", dir.file("flat.csv"), "--stats")
        #expect(track.code == 0, "\(track.err)")
        #expect(track.out.contains("Gain / loss   0.00 m / 0.00 m (recorded elevations)\n"), "\(track.out)")
        SyntheticDEM.write(path: dir.file("flat.tif"), width: 20, height: 20, geoTransform: [10, 0.001, 0, 45.02, 0, -0.001], crs: "EPSG:4326") { _, _ in 500 }
        let profile = transect("profile", "--dem", dir.file("flat.tif"), "--from", "10.002,45.01", "--to", "10.015,45.01")
        #expect(profile.code == 0, "\(profile.err)")
        #expect(profile.out.contains("Gain / loss   0.00 m / 0.00 m\n"), "\(profile.out)")
        #expect(!profile.out.contains("-0.0") && !track.out.contains("-0.0"))
    }

    @Test("a climbing track keeps its signs: gain with +, loss with -")
    func signedGainLoss() throws {
        let dir = TemporaryDirectory()
        try "lon,lat,ele\n10,45,100\n10.001,45,150\n10.002,45,120\n".write(toFile: dir.file("hill.csv"), atomically: true, encoding: .utf8)
        let track = transect("track", "--in", dir.file("hill.csv"), "--stats")
        #expect(track.out.contains("Gain / loss   +50.00 m / -30.00 m (recorded elevations)\n"), "\(track.out)")
    }

    @Test("a zero-length measurement prints no negative zero, in text or JSON")
    func zeroMeasurement() {
        for format in ["text", "json"] {
            let result = transect("measure", "--from", "-119.55,37.74,1000", "--to", "-119.55,37.74,999.9999999", "--format", format)
            #expect(result.code == 0, "\(result.err)")
            #expect(!result.out.contains("-0.00") && !result.out.contains(": -0,") && !result.out.contains(": -0\n"), "\(result.out)")
        }
    }
}
