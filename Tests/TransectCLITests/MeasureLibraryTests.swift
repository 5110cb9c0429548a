import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport
@testable import TransectCLI

/// Every measure the launcher does not run itself, and every viewshed without an observers file,
/// runs in libTransectCLIMeasure.so, which links GDAL but neither Foundation, cairo nor libpng,
/// and prints and writes what the full command line prints and writes.
@Suite("the measure library: measure and viewshed without Foundation or cairo, the full command line's bytes")
struct MeasureLibraryTests {
    /// Libraries no measure may load: Foundation (and its ICU), cairo and what cairo brings, and
    /// the full command line.
    static let foreign = ["libFoundation", "lib_FoundationICU", "libcairo", "libpixman", "libX11", "libxcb", "libTransectCLI.so"]

    /// Measures of every form, run in `dir` (which holds `pairs.csv`), each with what it writes.
    static func commandLines(dem: String) -> [(arguments: [String], files: [String])] {
        [
            (["measure", "--dem", dem, "--from", "-119.53,37.74", "--to", "-119.57,37.73"], []),
            (["measure", "--dem", dem, "--from", "-119.53,37.74", "--to", "-119.57,37.73,2000", "--format", "json"], []),
            (["measure", "--dem", dem, "--pairs", "pairs.csv", "--threads", "2", "-o", "all.csv"], ["all.csv"]),
            (["measure", "--dem", dem, "--pairs", "pairs.csv", "--shard", "2/2", "-o", "part.csv"], ["part.csv", "part.csv.manifest.json"]),
            (["measure", "--dem", dem, "--pairs", "pairs.csv", "--shard", "2/2", "-o", "part.csv", "--skip-existing"], []),
            (["measure", "--help"], []),
            (["measure", "--dem", dem, "--pairs", "missing.csv"], []),
            (["measure", "--from", "a,b", "--to", "1,2"], []),
            (["measure"], []),
        ] + viewshedLines(dem: dem)
    }

    /// Viewsheds of observers on the command line (the measure library's), each with what it
    /// writes.
    static func viewshedLines(dem: String) -> [(arguments: [String], files: [String])] {
        let halfDome = "-119.533333,37.745833"
        return [
            (["viewshed", "--dem", dem, "--observer", halfDome, "--max-distance", "3000", "-o", "v.tif"], ["v.tif"]),
            (
                ["viewshed", "--dem", dem, "--observer", halfDome, "--max-distance", "2000", "--output", "min-height", "--horizon", "h.csv", "-o", "v.tif"],
                ["v.tif", "h.csv"]
            ),
            (
                [
                    "viewshed", "--dem", dem, "--observer", halfDome, "--observer", "-119.55,37.74,2500", "--max-distance", "2000", "--format", "json", "-o",
                    "v.tif",
                ],
                ["v.tif"]
            ),
            (["viewshed", "--help"], []),
            (["viewshed", "--dem", dem, "--observer", "-120.5,37.7", "-o", "v.tif"], []),
            (["viewshed", "--dem", dem, "--observer", halfDome, "-o", "v.png"], []),
            (["viewshed"], []),
        ]
    }

    static func pairs(in dir: TemporaryDirectory) throws {
        let rows = (0..<40).map { k in "p\(k),-119.5\(k % 10),37.7\(k % 7),-119.6\(k % 9),37.7\(k % 5)" }
        try (["id,from_lon,from_lat,to_lon,to_lat"] + rows + ["bad,x,37.7,-119.6,37.7"]).joined(separator: "\n")
            .write(toFile: dir.file("pairs.csv"), atomically: true, encoding: .utf8)
    }

    @Test("every form of measure loads libTransectCLIMeasure.so, never Foundation, cairo or libTransectCLI.so")
    func loadsTheMeasureLibrary() throws {
        let path = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let dir = TemporaryDirectory()
        try Self.pairs(in: dir)
        for (arguments, _) in Self.commandLines(dem: dem) {
            let run = try TransectExecutable.run(arguments, directory: dir.path, executable: path, environment: ["LD_DEBUG": "files"])
            let loaded = run.err.split(separator: "\n").compactMap { line -> String? in
                guard let start = line.range(of: "file=") else { return nil }
                return String(line[start.upperBound...].prefix { $0 != " " && $0 != "[" })
            }
            #expect(loaded.contains { $0.hasSuffix("/libTransectCLIMeasure.so") }, "\(arguments): \(loaded)")
            #expect(loaded.contains { $0.contains("libgdal") }, "\(arguments): \(loaded)")
            for name in Self.foreign {
                #expect(!loaded.contains { $0.contains(name) }, "\(arguments): \(name) loaded")
            }
        }
        let other = try LauncherTests.loadedLibraries(["--version"])
        #expect(other.libraries.contains { $0.hasSuffix("/libTransectCLI.so") } && !other.libraries.contains { $0.contains("libTransectCLIMeasure") })
    }

    @Test("the measure library prints, writes and exits with what the full command line does")
    func sameBytesAsTheFullCommandLine() throws {
        try #require(TransectExecutable.path != nil, Comment(rawValue: TransectExecutable.missing))
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let library = TemporaryDirectory()
        let full = TemporaryDirectory()
        try Self.pairs(in: library)
        try Self.pairs(in: full)
        for (arguments, files) in Self.commandLines(dem: dem) {
            let run = try TransectExecutable.run(arguments, directory: library.path)
            // In process, in the full command line, with the paths made absolute in its folder.
            let inFull = transect(
                arguments.map { ["pairs.csv", "missing.csv", "all.csv", "part.csv", "v.tif", "h.csv", "v.png"].contains($0) ? full.file($0) : $0 })
            #expect(run.code == inFull.code, "\(arguments): \(run.err)")
            #expect(run.out == inFull.out.replacingOccurrences(of: full.path + "/", with: ""), "\(arguments)")
            #expect(run.err == inFull.err.replacingOccurrences(of: full.path + "/", with: ""), "\(arguments)")
            for file in files where file.hasSuffix(".tif") {
                let written = try Data(contentsOf: URL(fileURLWithPath: library.file(file)))
                #expect(written == (try Data(contentsOf: URL(fileURLWithPath: full.file(file)))), "\(arguments): \(file)")
                #expect(!written.isEmpty)
            }
            for file in files where !file.hasSuffix(".tif") {
                let written = try Data(contentsOf: URL(fileURLWithPath: library.file(file)))
                let expected = try String(contentsOfFile: full.file(file), encoding: .utf8)
                #expect(String(decoding: written, as: UTF8.self) == expected.replacingOccurrences(of: full.path + "/", with: ""), "\(file)")
                #expect(!written.isEmpty)
            }
        }
    }

    @Test("the measure library's entry hands back any other command line, a viewshed with an observers file too, having done nothing")
    func notAMeasure() {
        let others = [
            ["transect"], ["transect", "profile", "--help"], ["transect", "Measure"], ["transect", "help", "measure"], ["transect", "help", "viewshed"],
            ["transect", "viewshed", "--observers", "towers.csv", "-o", "v.tif"], ["transect", "viewshed", "--observers=towers.gpkg", "-o", "v.tif"],
        ]
        for arguments in others {
            #expect(MeasureCommand.main(arguments) == MeasureEntry.notHandled, "\(arguments)")
        }
        #expect(MeasureEntry.notHandled < 0)
    }

    @Test("through the launcher, a viewshed with an observers file runs in libTransectCLI.so")
    func observersFilesGoToTheFullCommandLine() throws {
        let path = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let dir = TemporaryDirectory()
        try "lon,lat\n-119.533333,37.745833\n".write(toFile: dir.file("towers.csv"), atomically: true, encoding: .utf8)
        let run = try TransectExecutable.run(
            ["viewshed", "--dem", dem, "--observers", "towers.csv", "--max-distance", "2000", "-o", "v.tif"], directory: dir.path, executable: path,
            environment: ["LD_DEBUG": "files"])
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("/libTransectCLIMeasure.so") && run.err.contains("/libTransectCLI.so"))
    }

    @Test("the product links GDAL and none of Foundation, cairo, pixman, X11, xcb or libpng itself")
    func neededLibraries() throws {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let library = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("libTransectCLIMeasure.so").path
        try #require(FileManager.default.fileExists(atPath: library), "libTransectCLIMeasure.so is not built beside \(executable)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["readelf", "-d", library]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "readelf -d \(library) failed")
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libgdal") }, "\(needed)")
        for name in Self.foreign + ["libpng"] {
            #expect(!needed.contains { $0.contains(name) }, "\(name) needed: \(needed)")
        }
    }
}
