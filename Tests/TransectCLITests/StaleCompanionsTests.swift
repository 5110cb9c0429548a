import Foundation
import Glibc
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// Temporaries name their host and process; what a killed process left of an output, the next
/// run that writes that output on the same host removes, and nothing else.
@Suite("stale temporaries")
struct StaleCompanionsTests {
    /// A PID no process has: a child started and reaped. Linux hands PIDs out in increasing
    /// order, so it stays free for the few milliseconds a test needs it.
    static func deadPID() throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let pid = child.processIdentifier
        let probe = Result { () throws(SystemError) in try SystemError.call { kill(pid, 0) } }
        try #require(probe == .failure(SystemError(code: ESRCH)), "process \(pid) still exists")
        return pid
    }

    /// A host token that is not this machine's.
    static var otherHost: String { CompanionName.host == "elsewhere" ? "elsewhere-2" : "elsewhere" }

    static func files(_ dir: TemporaryDirectory) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
    }

    static func touch(_ dir: TemporaryDirectory, _ names: [String]) throws {
        for name in names { try #require(FileManager.default.createFile(atPath: dir.file(name), contents: Data("x".utf8))) }
    }

    @Test("a companion's name is .NAME.KIND-HOST-PID-N, and reads back as itself")
    func roundTrip() throws {
        let c = CompanionName(name: "out.csv", kind: .temporary, host: "node-07", pid: 4242, serial: 1)
        #expect(c.fileName == ".out.csv.tmp-node-07-4242-1")
        #expect(CompanionName(parsing: ".out.csv.tmp-node-07-4242-1", of: "out.csv") == c)
        // Names and hosts holding the marker's characters: the numbers are read from the end.
        let tricky = CompanionName(name: "a.tmp-b-1-2.csv", kind: .backup, host: "x-9-9", pid: 2_147_483_647, serial: 123_456_789)
        #expect(tricky.fileName == ".a.tmp-b-1-2.csv.old-x-9-9-2147483647-123456789")
        #expect(CompanionName(parsing: tricky.fileName, of: "a.tmp-b-1-2.csv") == tricky)

        // What a transaction stages carries this host and this process.
        let dir = TemporaryDirectory()
        let t = OutputTransaction()
        let temporary = try t.stage(dir.file("out.csv"))
        t.rollback()
        let parsed = try #require(CompanionName(parsing: String(temporary.dropFirst(dir.path.count + 1)), of: "out.csv"))
        #expect(parsed.host == CompanionName.host && parsed.pid == getpid() && parsed.kind == .temporary)
        #expect(temporary.hasPrefix(dir.file(".out.csv.tmp-")))
    }

    @Test(
        "a name that is not exactly a companion of NAME is none",
        arguments: [
            ".out.csv.tmp-4242-1",  // the form before hosts: no host
            ".out.csv.tmp--4242-1",  // an empty host
            "out.csv.tmp-h-4242-1",  // no leading dot
            ".out.csv.tmp-h-04242-1", ".out.csv.tmp-h-4242-01",  // leading zeros
            ".out.csv.tmp-h-0-1", ".out.csv.tmp-h-4242-0",  // zero
            ".out.csv.tmp-h-+4242-1", ".out.csv.tmp-h-4242-1x", ".out.csv.tmp-h-4242-1.swp", ".out.csv.tmp-h-4242",
            ".out.csv.tmp-h-2147483648-1",  // beyond pid_t
            ".out.csv.tmp-h-4242-1234567890123456789",  // a serial of 19 digits
            ".out.csv.tmp-h x-4242-1", ".out.csv.tmp-hé-4242-1",  // characters a host token never has
            ".out.csv.tmp-" + String(repeating: "h", count: 25) + "-4242-1",  // a host token too long
            ".out.csv.bak-h-4242-1", ".out.csv.tmp_h-4242-1", ".out.csv-tmp-h-4242-1",  // no kind
            ".out.csvx.tmp-h-4242-1", ".other.csv.tmp-h-4242-1", "..out.csv.tmp-h-4242-1",  // another NAME
        ])
    func malformed(fileName: String) {
        #expect(CompanionName(parsing: fileName, of: "out.csv") == nil)
    }

    @Test("host names become short tokens of file-name characters; long ones keep a hash of the whole")
    func hostTokens() {
        #expect(CompanionName.hostToken("node-07") == "node-07")
        #expect(CompanionName.hostToken("cn042.cluster.example") == "cn042.cluster.example")
        #expect(CompanionName.hostToken("a b/c:d") == "a_b_c_d")
        #expect(CompanionName.hostToken("") == nil)
        // 15 characters, `_`, FNV-1a (32 bits) of the whole name: two pods of one job stay apart.
        #expect(CompanionName.hostToken("transect-shard-job-7-x2k9q.cluster.example") == "transect-shard-_93d4dac0")
        #expect(CompanionName.hostToken("transect-shard-job-8-b7m4r.cluster.example") == "transect-shard-_80cb1568")
        #expect(CompanionName.isHostToken(CompanionName.host.utf8))
        var buffer = [CChar](repeating: 0, count: 256)
        #expect(gethostname(&buffer, 255) == 0)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(CompanionName.host == CompanionName.hostToken(name))
    }

    @Test("a sweep removes this host's companions of NAME whose process is gone, and nothing else")
    func decision() throws {
        let dir = TemporaryDirectory()
        let host = CompanionName.host
        let dead = try Self.deadPID()
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        defer {
            // SIGKILL: a child may inherit a mask that blocks SIGTERM (the command line's signal thread).
            kill(sleeper.processIdentifier, SIGKILL)
            sleeper.waitUntilExit()
        }
        func name(
            _ output: String = "out.csv", kind: CompanionName.Kind = .temporary, host: String = host, pid: Int32, serial: Int = 1
        )
            -> String
        {
            CompanionName(name: output, kind: kind, host: host, pid: pid, serial: serial).fileName
        }
        let removed = [
            name(pid: dead), name(kind: .backup, pid: dead, serial: 7),
            // This process's PID, but not a file this process holds: an earlier holder's.
            name(pid: getpid(), serial: 1_000_000_000),
        ]
        let kept = [
            "out.csv", "pairs.csv",
            name(host: Self.otherHost, pid: dead),  // another host's: its processes cannot be asked
            name(pid: getppid()), name(pid: sleeper.processIdentifier),  // live processes'
            name("other.csv", pid: dead), name("out.csv.manifest.json", pid: dead), name("out", pid: dead),  // other outputs'
            ".out.csv.tmp-\(dead)-1", ".out.csv.tmp-\(host)-0\(dead)-1", ".out.csv.tmp-\(host)-\(dead)-1.swp",  // malformed
            ".out.csv.tmp-\(host)-\(dead)-1-",
        ]
        try Self.touch(dir, removed + kept)
        StaleCompanions.sweep(beside: dir.file("out.csv"))
        #expect(Self.files(dir) == Set(kept))

        // A temporary this process holds stays, though it carries this PID; the directory
        // spelled another way is read afresh.
        let t = OutputTransaction()
        let temporary = try t.stage(dir.file("out.csv"))
        StaleCompanions.sweep(beside: dir.path + "/./out.csv")
        #expect(FileManager.default.fileExists(atPath: temporary))
        #expect(Self.files(dir).count == kept.count + 1)
        t.rollback()
        #expect(Self.files(dir) == Set(kept))
    }

    @Test("the stale test: gone (ESRCH) or this PID unheld; live, another user's or held is not")
    func staleness() throws {
        let host = CompanionName.host
        func companion(_ pid: Int32) -> CompanionName { CompanionName(name: "o", kind: .temporary, host: host, pid: pid, serial: 1) }
        #expect(StaleCompanions.isStale(companion(try Self.deadPID()), holding: false))
        #expect(!StaleCompanions.isStale(companion(getppid()), holding: false))
        #expect(StaleCompanions.isStale(companion(getpid()), holding: false))
        #expect(!StaleCompanions.isStale(companion(getpid()), holding: true))
        // PID 1 always exists; kill says EPERM when it belongs to another user, which is life too.
        if getpid() != 1 { #expect(!StaleCompanions.isStale(companion(1), holding: false)) }
    }

    @Test(
        "kill -9 of a run mid-write leaves its temporary; the next run of that output removes it",
        arguments: [[], ["--shard", "1/1", "--skip-existing"]])
    func killed(rerunOptions: [String]) throws {
        try #require(TransectExecutable.path != nil, Comment(rawValue: TransectExecutable.missing))
        let dir = TemporaryDirectory()
        try OutputSafetyTests.inputs(dir)
        let inputs: Set = ["dem.tif", "pairs.csv", "track.csv", "places.csv"]
        // A batch from stdin that is still open: the output's temporary exists while it waits.
        let run = try TransectExecutable.Run(["measure", "--dem", "dem.tif", "--pairs", "-", "-o", "out.csv"], directory: dir.path)
        run.stdin.fileHandleForWriting.write(Data("from_lon,from_lat,to_lon,to_lat\n-119.52,37.72,-119.50,37.73\n".utf8))
        func temporaries() -> [String] { Self.files(dir).filter { $0.hasPrefix(".out.csv.tmp-") }.sorted() }
        var waited = 0
        while temporaries().isEmpty && waited < 30_000 && run.process.isRunning {
            usleep(10_000)
            waited += 10
        }
        kill(run.process.processIdentifier, SIGKILL)
        let killed = run.wait()
        try? run.stdin.fileHandleForWriting.close()
        #expect(killed.code == 1000 + SIGKILL, "\(killed.err)")
        let left = try #require(temporaries().first, "no temporary was left")
        let companion = try #require(CompanionName(parsing: left, of: "out.csv"))
        #expect(companion.host == CompanionName.host && companion.pid == run.process.processIdentifier)
        #expect(Self.files(dir) == inputs.union([left]))

        // Another output's debris and another host's stay.
        let foreign = [
            CompanionName(name: "out.csv", kind: .temporary, host: Self.otherHost, pid: companion.pid, serial: 1).fileName,
            CompanionName(name: "other.csv", kind: .temporary, host: companion.host, pid: companion.pid, serial: 1).fileName,
        ]
        try Self.touch(dir, foreign)
        let rerun = try TransectExecutable.run(
            ["measure", "--dem", "dem.tif", "--pairs", "pairs.csv", "-o", "out.csv"] + rerunOptions, directory: dir.path)
        #expect(rerun.code == 0 && rerun.err.isEmpty, "\(rerun.err)")
        var expected = inputs.union(foreign).union(["out.csv"])
        if !rerunOptions.isEmpty { expected.insert("out.csv.manifest.json") }
        #expect(Self.files(dir) == expected)
        let whole = transect(["measure", "--dem", dir.file("dem.tif"), "--pairs", dir.file("pairs.csv")])
        #expect(try String(contentsOfFile: dir.file("out.csv"), encoding: .utf8) == whole.out)
    }
}
