import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

@testable import TransectCLI

/// A mistyped option, subcommand or scene key names the one meant; `help help` is the overview.
@Suite("did you mean: options, subcommands, scene keys; help help")
struct DidYouMeanTests {
    @Test("mistyped options and subcommands are usage errors that name the one meant")
    func commandLine() {
        expectUsageError(["render", "--sise", "800x600"], "unknown option '--sise'; did you mean '--size'?", exactLine: true)
        expectUsageError(["measure", "--form", "1,2", "--to", "1,3"], "unknown option '--form'; did you mean '--from'?", exactLine: true)
        expectUsageError(["mesure"], "unknown subcommand 'mesure'; did you mean 'measure'?", exactLine: true)
        expectUsageError(["help", "rendr"], "no help for unknown subcommand 'rendr'; did you mean 'render'?", exactLine: true)
        expectUsageError(["render", "--zzzzzz"], "unknown option '--zzzzzz'", exactLine: true)
    }

    @Test("a mistyped scene key names the key meant, as the scene file spells keys")
    func sceneKey() throws {
        let dir = TemporaryDirectory()
        try #"{"sise": [100, 80], "max_pixel": 10}"#.write(toFile: dir.file("s.json"), atomically: true, encoding: .utf8)
        let r = transect("render", "--scene", dir.file("s.json"))
        #expect(r.code != 0)
        #expect(
            r.err.contains("unknown setting 'max_pixel'; did you mean 'max_pixels'?") || r.err.contains("unknown setting 'sise'; did you mean 'size'?"),
            "\(r.err)")
    }

    @Test("help help prints the overview and exits 0")
    func helpHelp() {
        let r = transect("help", "help")
        #expect(r.code == 0 && r.err.isEmpty)
        #expect(r.out == transect("--help").out)
    }
}

/// Errors name the option they belong to: a geoid that is no file is an error of `--geoid`.
@Suite("errors name their option: --geoid")
struct GeoidOptionErrorTests {
    @Test("--geoid egm2008 and a missing grid are usage errors of --geoid, not DEMs that cannot be opened")
    func geoid() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let line = ["measure", "--dem", dem, "--from", "-119.6,37.7", "--to", "-119.5,37.75", "--geoid"]
        expectUsageError(
            line + ["egm2008"],
            "option '--geoid': 'egm2008' is not a geoid Transect knows (egm96) nor a geoid grid file; give egm96 or the path of a grid (.gtx, .tif)",
            exactLine: true)
        expectUsageError(line + ["/nonexistent/g.gtx"], "option '--geoid': '/nonexistent/g.gtx': no such geoid grid file", exactLine: true)
    }
}

/// A usage error's usage line is the command's form the command line used: a `--pairs` batch's,
/// a shard's, a `--scenes` list's.
@Suite("usage errors show the usage line of the form given")
struct UsageLineTests {
    @Test(
        "measure --pairs, measure --pairs --shard, render --scenes and a plain measure each get their own line",
        arguments: [
            (["measure", "--pairs", "p.csv", "--strict", "--units", "parsecs"], "transect measure [--dem PATH…] --pairs FILE|- [--out FILE] [--strict]"),
            (
                ["measure", "--pairs", "p.csv", "--shard", "0/2"],
                "transect measure [--dem PATH…] --pairs FILE --shard K/N|auto [--out PART [--skip-existing]]"
            ),
            (
                ["render", "--scenes", "-"],
                "transect render --scenes LIST [--shard K/N|auto [--skip-existing] [--manifest FILE]] [options]"
            ),
            (["measure", "--from", "1,2"], "transect measure [--dem PATH…] --from LON,LAT[,Z] --to LON,LAT[,Z] [options]"),
            (["render", "--size", "0x0"], "transect render [--dem PATH…] -o FILE.png|svg|pdf|tif [--scene FILE.json] [options]"),
        ])
    func lines(arguments: [String], usage: String) {
        let r = transect(arguments)
        #expect(r.code == 2, "\(r.err)")
        #expect(r.err.contains("\nUsage: \(usage)\n"), "\(r.err)")
    }
}
