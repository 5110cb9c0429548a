import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

/// `-` where an input or output has no companions: `--places -` reads stdin, `view -o -` and
/// `profile --chart -` (with `-o FILE`) write the figure to stdout, whole once it is made, with
/// the same bytes as a file, leaving no temporary behind.
@Suite("--places -, view -o - and --chart -")
struct StandardStreamsTests {
    static func dem() throws -> String { try SharedData.path("yosemite_valley_ned1as.tif") }

    /// Runs `arguments` with stdout into `out` (bash redirection), TMPDIR inside `dir`.
    static func runToFile(_ arguments: [String], out: String, in dir: TemporaryDirectory, stdin: String = "") throws -> (code: Int32, err: String) {
        let executable = try #require(TransectExecutable.path, "\(TransectExecutable.missing)")
        try FileManager.default.createDirectory(atPath: dir.file("tmp"), withIntermediateDirectories: true)
        let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let r = try TransectExecutable.run(
            ["-c", "printf '%s' \"$TRANSECT_STDIN\" | " + quoted + " > '" + out + "'"], directory: dir.path, executable: "/bin/bash",
            environment: ["TMPDIR": dir.file("tmp"), "TRANSECT_STDIN": stdin])
        return (r.code, r.err)
    }

    @Test("view -o - writes the PNG (or --format svg) a file would hold, and no temporary stays in TMPDIR")
    func viewToStdout() throws {
        let dir = TemporaryDirectory()
        let view = ["view", "--dem", try Self.dem(), "--look-at", "-119.6,37.72", "--distance", "3000", "--size", "320x200"]
        for format in ["png", "svg"] {
            #expect(transect(view + ["-o", dir.file("file.\(format)")]).code == 0)
            let r = try Self.runToFile(view + ["-o", "-", "--format", format], out: dir.file("stdout.\(format)"), in: dir)
            #expect(r.code == 0, "\(r.err)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: dir.file("stdout.\(format)"))) == Data(contentsOf: URL(fileURLWithPath: dir.file("file.\(format)"))))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("tmp")).isEmpty)
    }

    @Test("profile -o FILE --chart - writes the chart to stdout and the profile to FILE; without -o, --chart - is a usage error")
    func chartToStdout() throws {
        let dir = TemporaryDirectory()
        let profile = ["profile", "--dem", try Self.dem(), "--from", "-119.6,37.7", "--to", "-119.5,37.75", "--format", "csv"]
        #expect(transect(profile + ["-o", dir.file("a.csv"), "--chart", dir.file("chart.png")]).code == 0)
        let r = try Self.runToFile(profile + ["-o", dir.file("b.csv"), "--chart", "-"], out: dir.file("stdout.png"), in: dir)
        #expect(r.code == 0, "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("stdout.png"))) == Data(contentsOf: URL(fileURLWithPath: dir.file("chart.png"))))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("b.csv"))) == Data(contentsOf: URL(fileURLWithPath: dir.file("a.csv"))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("tmp")).isEmpty)
        expectUsageError(
            profile + ["--chart", "-"],
            "option '--chart': '-' is stdout, where the profile goes without -o; give -o FILE for the profile, or a FILE for the chart")
    }

    @Test("render --places - reads the places from stdin, as from a file; stdin named twice, or in a scene list, is a usage error")
    func placesFromStdin() throws {
        let dir = TemporaryDirectory()
        let places = "name,lon,lat\nHalf Dome,-119.5329,37.7459\nEl Capitan,-119.6377,37.7341\n"
        try places.write(toFile: dir.file("places.csv"), atomically: true, encoding: .utf8)
        let render = ["render", "--dem", try Self.dem(), "--size", "320x200"]
        #expect(transect(render + ["--places", dir.file("places.csv"), "-o", dir.file("file.png")]).code == 0)
        let r = try Self.runToFile(render + ["--places", "-", "-o", dir.file("stdin.png")], out: "/dev/null", in: dir, stdin: places)
        #expect(r.code == 0, "\(r.err)")
        // The PNG's text names its inputs the same way either way, as Transect names them.
        let a = try Data(contentsOf: URL(fileURLWithPath: dir.file("file.png")))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir.file("stdin.png")))
        #expect(a.count > 1000 && b.count > 1000)
        #expect(try PNGPixels.same(dir.file("file.png"), dir.file("stdin.png")))
        expectUsageError(
            render + ["--places", "-", "--places", "-", "-o", dir.file("x.png")], "option '--places': '-' (stdin) is given 2 times; stdin can be read once")
        try "\n".write(toFile: dir.file("list.txt"), atomically: true, encoding: .utf8)
        expectUsageError(
            ["render", "--scenes", dir.file("list.txt"), "--places", "-"],
            "option '--places': '-' (stdin) can be read once, not by every scene of a list; give a FILE")
    }
}

/// Two PNGs' pixels compared with the `compare` command's reader (their text chunks aside).
enum PNGPixels {
    static func same(_ a: String, _ b: String) throws -> Bool {
        let r = transect("compare", a, b)
        return r.code == 0
    }
}
