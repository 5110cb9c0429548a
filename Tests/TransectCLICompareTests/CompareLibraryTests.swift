import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

@testable import TransectCLIBase
@testable import TransectCLICompare
@testable import TransectRender

/// A compare of PNGs with its verdict on stdout runs in libTransectCLICompare.so, which loads
/// libpng but neither GDAL, cairo nor Foundation, and prints what the full command line prints;
/// every other compare it hands on, having printed nothing.
@Suite("the compare library: PNGs to stdout without GDAL, the full command line's bytes")
struct CompareLibraryTests {
    /// Libraries the compare library must not bring: GDAL, cairo, Foundation, the full command line.
    static let foreign = ["libgdal", "libproj", "libcairo", "libFoundation", "lib_FoundationICU", "libTransectCLI.so"]

    /// Two directories of PNGs (one pair identical, one differing, one one-sided) and a GeoTIFF.
    static func inputs(_ dir: TemporaryDirectory) throws {
        for d in ["b", "c"] { try FileManager.default.createDirectory(atPath: dir.file(d), withIntermediateDirectories: true) }
        func flat(_ path: String, _ v: UInt8, alpha: UInt8 = 255) throws {
            try PNGFile.encode(path: dir.file(path), rgba: [UInt8]((0..<(12 * 9)).flatMap { _ in [v, v, 255 - v, alpha] }), width: 12, height: 9)
        }
        try flat("b/same.png", 40)
        try flat("c/same.png", 40)
        try flat("b/diff.png", 40)
        try flat("c/diff.png", 90, alpha: 200)
        try flat("c/new.png", 1)
        try "not a PNG".write(toFile: dir.file("c/notes.tif"), atomically: true, encoding: .utf8)
    }

    /// Command lines the library runs, and ones it hands on.
    static let runHere: [[String]] = [
        ["compare", "b/same.png", "c/same.png"],
        ["compare", "b/diff.png", "c/diff.png", "--json", "-"],
        ["compare", "b/diff.png", "c/diff.png", "--tolerance", "rms=100", "--threads", "1"],
        ["compare", "b/same.png", "c/diff.png", "--tolerance", "pixels=5%", "--threshold", "0.5"],
    ]
    static let handedOn: [[String]] = [
        ["compare", "b", "c"],
        ["compare", "b/diff.png", "c/diff.png", "--report", "r.html"],
        ["compare", "b/diff.png", "c/diff.png", "--json", "j.json"],
        ["compare", "b/diff.png", "c/diff.png", "--diff", "d"],
        ["compare", "b/diff.png", "c/diff.png", "--update"],
        ["compare", "--help"],
        ["compare", "b/diff.png"],
        ["compare", "b/diff.png", "c/notes.tif"],
        ["compare", "b/diff.png", "c/none.png"],
        ["compare", "b/diff.png", "c/diff.png", "--tolerance", "ssim=1"],
    ]

    @Test("in process: the library runs the PNG compares to stdout as the full command line does, and hands on the rest having printed nothing")
    func inProcess() throws {
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        // The command lines name files relative to the inputs' directory; in process both run
        // on the same absolute paths.
        func absolute(_ arguments: [String]) -> [String] {
            arguments.map { $0.contains("/") || ["b", "c", "d", "r.html", "j.json"].contains($0) ? dir.file($0) : $0 }
        }
        for arguments in Self.runHere {
            let console = Console.capturing()
            let code = CompareLight.run(Array(absolute(arguments).dropFirst()), console: console)
            let full = transect(absolute(arguments))
            #expect(code == full.code && console.capturedOut == full.out && console.capturedErr.isEmpty, "\(arguments): \(full.err)")
        }
        for arguments in Self.handedOn {
            let console = Console.capturing()
            #expect(CompareLight.run(Array(absolute(arguments).dropFirst()), console: console) == nil, "\(arguments)")
            #expect(console.capturedOut.isEmpty && console.capturedErr.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["b", "c"], "nothing written")
    }

    @Test("through the launcher: a compare of PNGs loads libTransectCLICompare.so and none of GDAL, cairo, Foundation or libTransectCLI.so")
    func loadsTheCompareLibrary() throws {
        let path = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        func run(_ arguments: [String]) throws -> (code: Int32, out: String, libraries: [String]) {
            let r = try TransectExecutable.run(arguments, directory: dir.path, executable: path, environment: ["LD_DEBUG": "files"])
            let libraries = r.err.split(separator: "\n").compactMap { line -> String? in
                guard let start = line.range(of: "file=") else { return nil }
                return String(line[start.upperBound...].prefix { $0 != " " && $0 != "[" })
            }
            return (r.code, r.out, libraries)
        }
        for arguments in Self.runHere {
            let light = try run(arguments)
            let plain = try TransectExecutable.run(arguments, directory: dir.path, executable: path)
            #expect(light.libraries.contains { $0.hasSuffix("/libTransectCLICompare.so") }, "\(arguments): \(light.libraries)")
            for name in Self.foreign { #expect(!light.libraries.contains { $0.contains(name) }, "\(arguments): \(name) loaded") }
            #expect(plain.code == light.code && plain.out == light.out && plain.err.isEmpty, "\(arguments): \(plain.err)")
        }
        for arguments in Self.handedOn {
            let handed = try run(arguments)
            #expect(handed.libraries.contains { $0.hasSuffix("/libTransectCLI.so") }, "\(arguments): \(handed.libraries)")
        }
    }
}
