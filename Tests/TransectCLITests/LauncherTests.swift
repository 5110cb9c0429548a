import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport
@testable import TransectCLI

/// The `transect` executable is a launcher: it runs a measure with both heights given itself
/// (``GivenHeightsMeasure``), hands every other measure (and a viewshed without an observers
/// file), untouched, to libTransectCLIMeasure.so and every other command line to the full command line in libTransectCLI.so. Whichever path runs,
/// the output is the full command line's.
@Suite("the launcher: measure with given heights without GDAL, everything else as before")
struct LauncherTests {
    static let from = "-119.5,37.7,1000"
    static let to = "-119.6,37.8,2000"

    /// Command lines the launcher runs itself.
    static let light: [[String]] = [
        ["measure", "--from", from, "--to", to],
        ["measure", "--to", to, "--from", from, "--format", "json"],
        ["measure", "--from=" + from, "--to=" + to, "--format=text", "--units=ft"],
        ["measure", "--from", from, "--to", to, "--units", "imperial", "--format", "json"],
        ["measure", "--from", from, "--to", to, "--units", "nautical-miles", "--above-ground", "25"],
        ["measure", "--from", " -119.5 , 37.7 , -50 ", "--to", "\t-119.6,37.8,8848.86"],
        ["measure", "--from", "190,0,0", "--to", "-170,0.001,10", "--format", "json"],
        ["measure", "--from", "0,90,0", "--to", "180,-90,0", "--units", "km"],
        ["measure", "--from", "1,2,3", "--to", "1,2,3", "--format", "json"],
        ["measure", "--from", "1e-3,2E1,0", "--to", "1,2,3"],
        ["measure", "--from", from, "--to", to, "--"],
    ]

    /// Valid command lines the libraries run (measure's, or the full command line): each needs
    /// GDAL or PROJ, or is not a single measurement to stdout.
    static let handedOn: [[String]] = [
        ["measure", "--from", from, "--to", to, "--crs", "EPSG:4326"],
        ["measure", "--from", from, "--to", to, "--crs", "4326", "--format", "json"],
        ["measure", "--from", from, "--to", to, "-r", "cubic"],
        ["measure", "--from", from, "--to", to, "--allow-network"],
        ["measure", "--from", from, "--to", to, "-o", "-"],
        ["measure", "--help"],
        ["measure", "-h", "--from", from],
        ["--version"],
        ["help", "measure"],
    ]

    /// Wrong command lines: every one goes to a library (measure's for a measure), which reports it.
    static let wrong: [[String]] = [
        [],
        ["measure"],
        ["measure", "--from", from],
        ["measure", "--to", to],
        ["measure", "--from", "-119.5,97.7,1000", "--to", to],
        ["measure", "--from", "-600,37.7,1000", "--to", to],
        ["measure", "--from", "a,b,c", "--to", to],
        ["measure", "--from", "-119.5,37.7,1e9", "--to", to],
        ["measure", "--from", "-119.5,37.7,nan", "--to", to],
        ["measure", "--from", "-119.5,37.7,1,2", "--to", to],
        ["measure", "--from=", "--to", to],
        ["measure", "--from", "--to", to],
        ["measure", "--from", from, "--to", to, "--units", "furlongs"],
        ["measure", "--from", from, "--to", to, "--units"],
        ["measure", "--from", from, "--to", to, "--format", "xml"],
        ["measure", "--from", from, "--to", to, "--format", "csv"],
        ["measure", "--from", from, "--from", from, "--to", to],
        ["measure", "--from", from, "--to", to, "--bogus"],
        ["measure", "--from", from, "--to", to, "-x"],
        ["measure", "--from", from, "--to", to, "extra"],
        ["measure", "--from", from, "--to", to, "--", "extra"],
        ["measure", "--from", from, "--to", to, "--above-ground", "1e99"],
        ["measure", "--from", from, "--to", to, "--above-ground", "high"],
        ["measure", "--from", from, "--to", to, "--strict"],
        ["measure", "--from", from, "--to", to, "--pairs", "missing.csv"],
        ["measure", "--from", from, "--to", to, "--crs", "EPSG:4978"],
        ["measure", "--from", from, "--to", to, "--geoid", "missing.gtx"],
        ["measure", "--from", from, "--to", to, "--dem", "missing.tif"],
        ["measure", "--from", from, "--to", to, "--strict=1"],
        ["measure", "--from", "-119.5,37.7", "--to", to, "--dem", "missing.tif"],
        ["Measure", "--from", from, "--to", to],
        ["bogus"],
    ]

    @Test("in process, the light path takes exactly the given-heights measures, and prints what the full command line prints")
    func lightPathInProcess() {
        for arguments in Self.light {
            let console = Console.capturing()
            let code = GivenHeightsMeasure.run(arguments, console: console)
            let full = transect(arguments)
            #expect(code == 0, "\(arguments): not taken")
            #expect(full.code == 0, "\(arguments): \(full.err)")
            #expect(code == full.code && console.capturedOut == full.out && console.capturedErr == full.err, "\(arguments)")
        }
        for arguments in Self.handedOn + Self.wrong {
            let console = Console.capturing()
            #expect(GivenHeightsMeasure.run(arguments, console: console) == nil, "\(arguments): taken")
            #expect(console.capturedOut.isEmpty && console.capturedErr.isEmpty, "\(arguments)")
        }
    }

    @Test("the executable prints, on stdout and stderr, and exits with what the library returns, on either path")
    func executableMatchesTheLibrary() throws {
        try #require(TransectExecutable.path != nil, Comment(rawValue: TransectExecutable.missing))
        let dir = TemporaryDirectory()
        for arguments in Self.light + Self.handedOn + Self.wrong {
            let run = try TransectExecutable.run(arguments, directory: dir.path)
            let full = transect(arguments)
            #expect(run.code == full.code, "\(arguments): \(run.err)")
            #expect(run.out == full.out, "\(arguments)")
            #expect(run.err == full.err, "\(arguments)")
        }
    }

    @Test("a measure with given heights loads neither GDAL, PROJ, cairo, libpng nor Foundation; --crs loads GDAL through the measure library")
    func loadedLibraries() throws {
        let light = try Self.loadedLibraries(["measure", "--from", Self.from, "--to", Self.to, "--format", "json"])
        #expect(light.code == 0)
        #expect(!light.libraries.isEmpty, "LD_DEBUG listed no libraries")
        for name in ["libgdal", "libproj", "libcairo", "libpng", "libFoundation", "libTransectCLI", "libTransectCLIMeasure"] {
            #expect(!light.libraries.contains { $0.contains(name) }, "\(name) loaded: \(light.libraries)")
        }
        let crs = try Self.loadedLibraries(["measure", "--from", Self.from, "--to", Self.to, "--crs", "EPSG:4326"])
        #expect(crs.code == 0)
        for name in ["libTransectCLIMeasure", "libgdal", "libproj"] {
            #expect(crs.libraries.contains { $0.contains(name) }, "\(name) not loaded: \(crs.libraries)")
        }
        #expect(!crs.libraries.contains { $0.hasSuffix("/libTransectCLI.so") }, "\(crs.libraries)")
    }

    @Test("without the libraries beside it, the launcher still measures given heights, and says in one line why anything else fails")
    func missingLibrary() throws {
        let path = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let dir = TemporaryDirectory()
        let copy = dir.file("transect")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let light = try TransectExecutable.run(["measure", "--from", Self.from, "--to", Self.to], directory: dir.path, executable: copy)
        #expect(light.code == 0 && light.out == transect(["measure", "--from", Self.from, "--to", Self.to]).out, "\(light.err)")
        let other = try TransectExecutable.run(
            ["measure", "--from", Self.from, "--to", Self.to, "--crs", "EPSG:4326"], directory: dir.path, executable: copy)
        #expect(other.code == 1)
        #expect(other.out.isEmpty)
        let lines = other.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(other.err)")
        #expect(
            other.err.hasPrefix("Error: cannot load libTransectCLIMeasure.so: ") && other.err.contains(dir.file("libTransectCLIMeasure.so")),
            "\(other.err)")
        let version = try TransectExecutable.run(["--version"], directory: dir.path, executable: copy)
        #expect(version.code == 1 && version.out.isEmpty)
        #expect(
            version.err.hasPrefix("Error: cannot load libTransectCLI.so: ") && version.err.contains(dir.file("libTransectCLI.so")),
            "\(version.err)")
    }

    /// The shared libraries the executable loads for `arguments`, as the dynamic loader reports
    /// them (`LD_DEBUG=files`).
    static func loadedLibraries(_ arguments: [String], environment: [String: String] = [:]) throws -> (code: Int32, libraries: [String]) {
        let path = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let dir = TemporaryDirectory()
        let run = try TransectExecutable.run(arguments, directory: dir.path, executable: path, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
        let libraries = run.err.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
        return (run.code, libraries)
    }
}
