import CGDAL
import Foundation
import Glibc
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport
@testable import TransectCLI

/// Outputs never touch inputs; a result is written all or nothing; signals leave nothing behind.
@Suite("output safety")
struct OutputSafetyTests {
    static let from = "--from=-119.52,37.72"
    static let to = "--to=-119.50,37.73"

    /// A small geographic DEM over the two points above, a places file, a pairs CSV and a track.
    static func inputs(_ dir: TemporaryDirectory) throws {
        SyntheticDEM.write(
            path: dir.file("dem.tif"), width: 60, height: 40, geoTransform: [-119.53, 0.001, 0, 37.74, 0, -0.001],
            crs: "EPSG:4326", type: GDT_Float32
        ) { c, r in 1000 + Double(c) * 3 + Double(r) }
        try "name,lon,lat\nA,-119.52,37.72\n".write(toFile: dir.file("places.csv"), atomically: true, encoding: .utf8)
        try "from_lon,from_lat,to_lon,to_lat\n-119.52,37.72,-119.50,37.73\n".write(toFile: dir.file("pairs.csv"), atomically: true, encoding: .utf8)
        try "lon,lat\n-119.52,37.72\n-119.51,37.725\n-119.50,37.73\n".write(toFile: dir.file("track.csv"), atomically: true, encoding: .utf8)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// Files in `dir` other than the given ones (temporaries left behind show up here).
    static func extraFiles(_ dir: TemporaryDirectory, besides expected: Set<String>) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !expected.contains($0) }.sorted()
    }

    @Test(
        "an output naming an input is refused with exit 2 naming both, and the input keeps its bytes",
        arguments: [
            (["measure", "--dem", "dem.tif", from, to, "-o", "dem.tif"], "dem.tif"),
            (["measure", "--dem", "dem.tif", "--pairs", "pairs.csv", "-o", "pairs.csv"], "pairs.csv"),
            (["profile", "--dem", "dem.tif", from, to, "-o", "dem.tif"], "dem.tif"),
            (["profile", "--dem", "dem.tif", from, to, "--chart", "dem.tif", "--chart-format", "png"], "dem.tif"),
            (["profile", "--dem", "dem.tif", "--track", "track.csv", "--format", "csv", "-o", "track.csv"], "track.csv"),
            (["track", "--in", "track.csv", "--stats", "-o", "track.csv"], "track.csv"),
            (["track", "--in", "track.csv", "--simulate", "--dem", "dem.tif", "--format", "csv", "-o", "dem.tif"], "dem.tif"),
            (["render", "--dem", "dem.tif", "--places", "places.csv", "-o", "places.csv", "--format", "png"], "places.csv"),
            (["render", "--dem", "dem.tif", "--track", "track.csv", "-o", "track.csv", "--format", "png"], "track.csv"),
            (["render", "--dem", "dem.tif", "-o", "dem.tif"], "dem.tif"),
        ] as [([String], String)])
    func outputIsInput(arguments: [String], input: String) throws {
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        let args = arguments.map { ["dem.tif", "pairs.csv", "track.csv", "places.csv", "map.png"].contains($0) ? dir.file($0) : $0 }
        let before = ["dem.tif", "pairs.csv", "track.csv", "places.csv"].map { Self.bytes(dir.file($0)) }
        let r = transect(args)
        #expect(r.code == 2, "\(r.err)")
        #expect(r.err.contains("is the input") && r.err.contains(input), "\(r.err)")
        let after = ["dem.tif", "pairs.csv", "track.csv", "places.csv"].map { Self.bytes(dir.file($0)) }
        #expect(before == after)
        #expect(Self.extraFiles(dir, besides: ["dem.tif", "pairs.csv", "track.csv", "places.csv"]).isEmpty)
    }

    @Test("a symlink to an input, a scene writing over itself and a basemap image written over are refused")
    func indirectInputs() throws {
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.tif"), withDestinationPath: dir.file("dem.tif"))
        let dem = Self.bytes(dir.file("dem.tif"))
        var r = transect(["measure", "--dem", dir.file("dem.tif"), Self.from, Self.to, "-o", dir.file("link.tif")])
        #expect(r.code == 2 && r.err.contains("is the input"), "\(r.err)")
        #expect(Self.bytes(dir.file("dem.tif")) == dem)

        let scene = #"{"dem": "dem.tif", "out": "scene.json", "format": "png"}"#
        try scene.write(toFile: dir.file("scene.json"), atomically: true, encoding: .utf8)
        r = transect(["render", "--scene", dir.file("scene.json")])
        #expect(r.code == 2 && r.err.contains("scene.json"), "\(r.err)")
        #expect(String(data: Self.bytes(dir.file("scene.json")) ?? Data(), encoding: .utf8) == scene)

        // A map made first, then used as the basemap of a map written over it.
        r = transect(["render", "--dem", dir.file("dem.tif"), "--size", "200x150", "-o", dir.file("base.png")])
        #expect(r.code == 0, "\(r.err)")
        let base = Self.bytes(dir.file("base.png"))
        let world = Self.bytes(dir.file("base.pgw"))
        r = transect(["render", "--basemap", dir.file("base.png"), "--size", "200x150", "--extent=-119.52,37.71,-119.50,37.73", "-o", dir.file("base.png")])
        #expect(r.code == 2 && r.err.contains("is the input"), "\(r.err)")
        #expect(Self.bytes(dir.file("base.png")) == base && Self.bytes(dir.file("base.pgw")) == world)
    }

    @Test("two outputs of one run may not be the same file: --chart X -o X writes neither, nor frames and -o in a new directory")
    func twoOutputsOneFile() throws {
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        var r = transect([
            "profile", "--dem", dir.file("dem.tif"), Self.from, Self.to, "--chart", dir.file("x"), "--chart-format", "png", "-o", dir.file("./x"),
        ])
        #expect(r.code == 2 && r.err.contains("one run cannot write one file twice"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x")))
        r = transect([
            "render", "--dem", dir.file("dem.tif"), "--track", dir.file("track.csv"), "--frames", dir.file("new"),
            "-o", dir.file("new/sub/../frame_0001.png"),
        ])
        #expect(r.code == 2 && r.err.contains("one run cannot write one file twice"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("new")))
        #expect(FileKey.canonical(dir.file("new/./a/../f.png")) == FileKey.canonical(dir.path) + "/new/f.png")
    }

    @Test("an output that is a FIFO, a directory or a device node is refused and stays what it was")
    func nonRegularOutputs() throws {
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: dir.file("folder"), withIntermediateDirectories: false)
        var targets: [(String, mode_t)] = [("fifo", Glibc.S_IFIFO), ("folder", Glibc.S_IFDIR)]
        if getuid() == 0 {
            // A node like /dev/null (character device 1, 3).
            #expect(mknod(dir.file("null"), S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
            targets.append(("null", Glibc.S_IFCHR))
        } else {
            print("note: not root; the device-node case of this test is skipped (mknod needs root)")
        }
        for (name, kind) in targets {
            for args in [
                ["measure", "--dem", dir.file("dem.tif"), Self.from, Self.to, "-o", dir.file(name)],
                ["render", "--dem", dir.file("dem.tif"), "--size", "100x80", "-o", dir.file(name), "--format", "png"],
            ] {
                let r = transect(args)
                #expect(r.code == 2 && r.err.contains("outputs must be regular files"), "\(name): \(r.err)")
                var info = stat()
                #expect(lstat(dir.file(name), &info) == 0 && (info.st_mode & Glibc.S_IFMT) == kind, "\(name) changed kind")
            }
        }
    }

    @Test("a transaction that fails part way removes its temporaries and the files it already renamed")
    func rollback() throws {
        let dir = TemporaryDirectory()
        let t = OutputTransaction()
        try t.write("png", to: dir.file("map.png"))
        try t.write("world", to: dir.file("map.pgw"))
        // The second rename meets a directory where its file should go.
        try FileManager.default.createDirectory(atPath: dir.file("map.pgw"), withIntermediateDirectories: false)
        #expect(throws: CLIError.self) { try t.commit() }
        #expect(Self.extraFiles(dir, besides: ["map.pgw"]).isEmpty)
        #expect(!t.isCommitted)

        // A file that existed before comes back, with its bytes and its mode.
        try "old".write(toFile: dir.file("keep.png"), atomically: false, encoding: .utf8)
        chmod(dir.file("keep.png"), 0o600)
        let replacing = OutputTransaction()
        try replacing.write("new", to: dir.file("keep.png"))
        try replacing.write("world", to: dir.file("map.pgw"))
        #expect(throws: CLIError.self) { try replacing.commit() }
        #expect(try String(contentsOfFile: dir.file("keep.png"), encoding: .utf8) == "old")
        #expect(Self.extraFiles(dir, besides: ["map.pgw", "keep.png"]).isEmpty)

        // Written over for real, it keeps the mode the user gave it.
        let over = OutputTransaction()
        try over.write("new", to: dir.file("keep.png"))
        try over.commit()
        var info = stat()
        #expect(stat(dir.file("keep.png"), &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: dir.file("keep.png"), encoding: .utf8) == "new")
        #expect(Self.extraFiles(dir, besides: ["map.pgw", "keep.png"]).isEmpty)

        let ok = OutputTransaction()
        try ok.write("a", to: dir.file("a.txt"))
        try ok.write("b", to: dir.file("b.txt"))
        #expect(Self.extraFiles(dir, besides: ["map.pgw", "keep.png"]).count == 2)  // two temporaries
        try ok.commit()
        #expect(Self.extraFiles(dir, besides: ["map.pgw", "keep.png"]) == ["a.txt", "b.txt"])
    }

    @Test(
        "SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGXCPU and SIGXFSZ during a write remove the temporary and exit 128 + the signal",
        arguments: [
            (SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131), (SIGUSR1, 138), (SIGUSR2, 140), (SIGXCPU, 152), (SIGXFSZ, 153),
        ] as [(Int32, Int32)])
    func signals(signal: Int32, code: Int32) throws {
        try #require(TransectExecutable.path != nil, Comment(rawValue: TransectExecutable.missing))
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        // A batch from stdin that is still open: the output's temporary exists while it waits.
        try "previous".write(toFile: dir.file("out.csv"), atomically: false, encoding: .utf8)
        let run = try TransectExecutable.Run(["measure", "--dem", "dem.tif", "--pairs", "-", "-o", "out.csv"], directory: dir.path)
        run.stdin.fileHandleForWriting.write("from_lon,from_lat,to_lon,to_lat\n-119.52,37.72,-119.50,37.73\n".data(using: .utf8)!)
        var waited = 0
        while Self.extraFiles(dir, besides: []).filter({ $0.contains(".tmp-") }).isEmpty
            && waited < 3000 && run.process.isRunning
        {
            usleep(10_000)
            waited += 10
        }
        #expect(!Self.extraFiles(dir, besides: []).filter { $0.contains("out.csv.tmp-") }.isEmpty, "no temporary appeared")
        kill(run.process.processIdentifier, signal)
        let r = run.wait()
        try? run.stdin.fileHandleForWriting.close()
        #expect(r.code == code, "\(r.err)")
        #expect(Self.extraFiles(dir, besides: ["dem.tif", "pairs.csv", "track.csv", "places.csv", "out.csv"]).filter { !$0.hasPrefix(".std") }.isEmpty)
        #expect(try String(contentsOfFile: dir.file("out.csv"), encoding: .utf8) == "previous")
    }
}

/// The directory an ``OutputTransaction`` makes for its files is part of the result.
@Suite("OutputTransaction.makeDirectory")
struct OutputTransactionDirectoryTests {
    @Test("a directory it made goes with a rollback, stays with a commit; one that existed stays either way")
    func madeDirectory() throws {
        let dir = TemporaryDirectory()
        let rolledBack = dir.file("rolled-back")
        do {
            let transaction = OutputTransaction()
            try transaction.makeDirectory(rolledBack)
            try transaction.write("one\n", to: rolledBack + "/a.txt")
            #expect(FileManager.default.fileExists(atPath: rolledBack))
            transaction.rollback()
        }
        #expect(!FileManager.default.fileExists(atPath: rolledBack))

        let committed = dir.file("committed")
        let transaction = OutputTransaction()
        try transaction.makeDirectory(committed)
        try transaction.write("two\n", to: committed + "/b.txt")
        try transaction.commit()
        #expect(try String(contentsOfFile: committed + "/b.txt", encoding: .utf8) == "two\n")

        // An existing directory is used, and kept by a rollback.
        let again = OutputTransaction()
        try again.makeDirectory(committed)
        try again.write("three\n", to: committed + "/c.txt")
        again.rollback()
        #expect(try FileManager.default.contentsOfDirectory(atPath: committed) == ["b.txt"])

        // A file where the directory should be.
        #expect(FileManager.default.createFile(atPath: dir.file("plain"), contents: Data()))
        #expect(OutputTransaction.existsAndIsNotDirectory(dir.file("plain")))
        #expect(!OutputTransaction.existsAndIsNotDirectory(committed))
        #expect(!OutputTransaction.existsAndIsNotDirectory(dir.file("absent")))
        #expect(throws: CLIError.self) { try OutputTransaction().makeDirectory(dir.file("plain")) }
    }
}

/// A file target sends its bytes on to the disk as it goes (past every
/// ``OutputTarget/sendToDiskBytes``); what lands is still every byte, in order, once committed.
@Suite("output target: large files")
struct OutputTargetLargeFileTests {
    @Test("text and byte writes over several send-to-disk steps give the file those bytes exactly")
    func largeFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("out.csv")
        let target = try OutputTarget(path: path, console: Console.standard())
        var expected: [UInt8] = []
        var random = SeededRandom(seed: 3)
        while expected.count < 3 * OutputTarget.sendToDiskBytes + 12_345 {
            if Bool.random(using: &random) {
                let line = "row \(Int.random(in: 0...1_000_000, using: &random)),\(expected.count)\n"
                target.write(line)
                expected += Array(line.utf8)
            } else {
                var bytes = OutputBytes(capacity: 300_000)
                let piece = (0..<Int.random(in: 1...300_000, using: &random)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                piece.withUnsafeBufferPointer { bytes.append($0) }
                target.write(bytes)
                expected += piece
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        try target.commit()
        #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } == expected)
        #expect(OutputSafetyTests.extraFiles(dir, besides: ["out.csv"]).isEmpty)
    }
}
