import Foundation
import Glibc
import Testing
import TransectCore
import TransectTestSupport

@testable import TransectCLI

/// Temporaries name their host and process.
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
}
