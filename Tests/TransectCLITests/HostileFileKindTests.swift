import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// Inputs that must be regular files: a FIFO with no writer, a device and a directory as a
/// pairs file, a scene list, a scene in a list, a manifest and a merge part are refused by name
/// before a byte is read. Run as a separate process with a time limit, so that a stall fails
/// the test (killed: exit code 1009) instead of stalling the suite.
@Suite("hostile file kinds: FIFOs, devices and directories at the doors that read files")
struct HostileFileKindTests {
    static let fifo = "is a FIFO (named pipe), not a regular file"
    static let device = "is a character device, not a regular file"

    static func run(_ arguments: [String], in dir: TemporaryDirectory) throws -> (code: Int32, out: String, err: String) {
        try TransectExecutable.run(arguments, directory: dir.path, timeout: 60)
    }

    @Test("a FIFO with no writer, /dev/zero and a directory as --pairs, --scenes and a list's scene")
    func inputs() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: dir.file("folder"), withIntermediateDirectories: true)
        for (path, reason) in [(dir.file("fifo"), Self.fifo), ("/dev/zero", Self.device), (dir.file("folder"), "is a directory")] {
            var r = try Self.run(["measure", "--dem", dem, "--pairs", path, "-o", dir.file("o.csv")], in: dir)
            #expect(r.code == 1 && r.err == "Error: cannot read '\(path)': \(reason)\n", "\(r.err)")
            r = try Self.run(["render", "--scenes", path], in: dir)
            #expect(r.code == 1 && r.err == "Error: cannot read '\(path)': \(reason)\n", "\(r.err)")
            try "\(path)\n".write(toFile: dir.file("list.txt"), atomically: true, encoding: .utf8)
            r = try Self.run(["render", "--scenes", dir.file("list.txt")], in: dir)
            #expect(r.code == 1 && r.err.contains("scene '\(path)': cannot read '\(path)': \(reason)\n"), "\(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("o.csv")))
    }

    @Test("a FIFO or /dev/zero as a shard's manifest or as a merge part is refused, naming it")
    func mergeDoors() throws {
        let s = try MeasureShardTests.Setup()
        for k in 1...2 { #expect(s.shard(k, of: 2).code == 0) }
        let (part, manifest) = (s.part(1, 2), ShardManifest.path(for: s.part(1, 2)))
        let out = s.dir.file("m.csv")
        func expectRefused(_ what: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let r = try TransectExecutable.run(["merge", part, s.part(2, 2), "-o", out], directory: s.dir.path, timeout: 60)
            #expect(r.code == 1, "\(r.err)", sourceLocation: sourceLocation)
            #expect(r.err == "Error: \(what): \(reason)\n", "\(r.err)", sourceLocation: sourceLocation)
            #expect(!FileManager.default.fileExists(atPath: out), sourceLocation: sourceLocation)
        }
        try FileManager.default.moveItem(atPath: manifest, toPath: s.dir.file("kept.json"))
        #expect(mkfifo(manifest, 0o600) == 0)
        try expectRefused("shard manifest '\(manifest)'", Self.fifo)
        try FileManager.default.removeItem(atPath: manifest)
        try FileManager.default.createSymbolicLink(atPath: manifest, withDestinationPath: "/dev/zero")
        try expectRefused("shard manifest '\(manifest)'", Self.device)
        try FileManager.default.removeItem(atPath: manifest)
        try FileManager.default.moveItem(atPath: s.dir.file("kept.json"), toPath: manifest)

        try FileManager.default.moveItem(atPath: part, toPath: s.dir.file("kept.csv"))
        #expect(mkfifo(part, 0o600) == 0)
        try expectRefused("cannot read '\(part)'", Self.fifo)
        try FileManager.default.removeItem(atPath: part)
        try FileManager.default.createSymbolicLink(atPath: part, withDestinationPath: "/dev/zero")
        try expectRefused("cannot read '\(part)'", Self.device)
    }

    @Test("a manifest larger than 64 MiB is refused by its size, not read into memory")
    func largeManifest() throws {
        let s = try MeasureShardTests.Setup()
        #expect(s.shard(1, of: 1).code == 0)
        let manifest = ShardManifest.path(for: s.part(1, 1))
        // Sparse: 64 MiB + 1 of NUL bytes after the real text, as a forged manifest could be.
        let handle = try #require(FileHandle(forWritingAtPath: manifest))
        try handle.truncate(atOffset: UInt64(ShardManifest.Fields.maximumBytes + 1))
        try handle.close()
        let r = transect("merge", s.part(1, 1), "-o", s.dir.file("m.csv"))
        #expect(r.code == 1)
        #expect(r.err.hasPrefix("Error: shard manifest '\(manifest)': is larger than 64 MiB"), "\(r.err)")
    }
}

/// `-o /dev/stdout` and its aliases write to standard output, and no output is staged in /dev
/// or /proc: a temporary renamed over `/dev/stdout` replaced the link itself.
@Suite("hostile outputs: standard output by name, and /dev and /proc")
struct HostileStandardOutputTests {
    @Test("-o /dev/stdout, /dev/fd/1 and /proc/self/fd/1 write to stdout, the bytes of -o -", arguments: ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func standardOutput(name: String) throws {
        let s = try MeasureShardTests.Setup()
        let r = transect("measure", "--dem", s.dem, "--pairs", s.pairs, "-o", name)
        #expect(r.code == 0, "\(r.err)")
        #expect(Data(r.out.utf8) == s.whole)
        let dash = transect("merge", "-o", name)
        #expect(dash.code == 2 && dash.err.hasPrefix("Error: give the shards' outputs to merge"), "\(dash.err)")
    }

    @Test("an output whose directory is /dev or /proc, directly or through a link, is a usage error")
    func deviceDirectories() throws {
        let s = try MeasureShardTests.Setup()
        try FileManager.default.createSymbolicLink(atPath: s.dir.file("devices"), withDestinationPath: "/dev")
        for path in ["/proc/self/fd/2", s.dir.file("devices/null"), s.dir.file("devices/transect-new.csv")] {
            let r = transect("measure", "--dem", s.dem, "--pairs", s.pairs, "-o", path)
            #expect(r.code == 2, "\(path): \(r.err)")
            #expect(r.err.hasPrefix("Error: option '-o': '") && r.err.contains("' is in /"), "\(r.err)")
            #expect(r.err.contains("outputs must be regular files (use - for stdout)"), "\(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/transect-new.csv"))
    }
}

/// A shard reads its input twice (counting, then measuring): an input changed in between is a
/// failure worth retrying (exit 75), never a part of other rows under the first pass's hash.
@Suite("hostile inputs: a pairs file changed between a shard's passes")
struct HostileChangedInputTests {
    @Test("appending to, rewriting or replacing the input after the count makes the shard fail with exit 75", arguments: ["append", "rewrite", "replace"])
    func changed(kind: String) throws {
        let s = try MeasureShardTests.Setup()
        let plan = try MeasureCommand.PairsShardPlan(shard: Shard(index: 1, count: 2), path: s.pairs, out: s.dir.file("o.csv"), options: [])
        #expect(throws: Never.self) { try plan.checkUnchanged() }
        switch kind {
        case "append":
            let handle = try #require(FileHandle(forWritingAtPath: s.pairs))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("extra,-119.6,37.7,-119.5,37.75\n".utf8))
            try handle.close()
        case "rewrite":
            // Same size, one byte other, in place.
            var bytes = try MeasureShardTests.bytes(s.pairs)
            bytes[bytes.count - 3] ^= 1
            let handle = try #require(FileHandle(forWritingAtPath: s.pairs))
            try handle.write(contentsOf: bytes)
            try handle.close()
        default:
            try MeasureShardTests.input(seed: 13).write(toFile: s.pairs, atomically: true, encoding: .utf8)
        }
        do {
            try plan.checkUnchanged()
            Issue.record("the change went unnoticed")
        } catch {
            #expect(error.isTemporary, "\(error.message)")
            #expect(error.message.contains("changed while shard 1/2 read it"), "\(error.message)")
            let code = Commands.table.report(error, console: Console.capturing())
            #expect(code == 75)
        }
    }
}
