import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI
@testable import TransectCLIBase

/// `transect merge` joins only a whole, unchanged split of one input, and says what is wrong.
@Suite("merge: every shard of one input, once, unchanged")
struct MergeCommandTests {
    @Test("a missing shard, a duplicate, another input, other options and a changed part are refused by name")
    func refusals() throws {
        let s = try MeasureShardTests.Setup()
        for k in 1...3 { #expect(s.shard(k, of: 3).code == 0) }
        func expectRefused(_ parts: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let r = transect(["merge"] + parts + ["-o", s.dir.file("m.csv")])
            #expect(r.code == 1, "\(r.err)", sourceLocation: sourceLocation)
            #expect(r.err.hasPrefix("Error: " + message), "\(r.err)", sourceLocation: sourceLocation)
            #expect(!FileManager.default.fileExists(atPath: s.dir.file("m.csv")), sourceLocation: sourceLocation)
        }
        let (p1, p2, p3) = (s.part(1, 3), s.part(2, 3), s.part(3, 3))
        expectRefused([p1, p3], "shard 2/3 of '\(s.pairs)' is missing")
        expectRefused([p3], "shards 1/3, 2/3 of '\(s.pairs)' are missing")
        expectRefused([p1, p2, p2, p3], "shard 2/3 is given twice: '\(p2)' and '\(p2)'")

        // Shard 2 of another input (one row more).
        try (MeasureShardTests.input(seed: 13) + "extra,-119.6,37.7,-119.5,37.75\n").write(
            toFile: s.dir.file("other.csv"), atomically: true, encoding: .utf8)
        let other = s.dir.file("other-2.csv")
        #expect(transect("measure", "--dem", s.dem, "--pairs", s.dir.file("other.csv"), "--shard", "2/3", "-o", other).code == 0)
        expectRefused([p1, other, p3], "'\(other)' is a shard of another input")

        // Shard 2 of the same input made with other options.
        let nearest = s.dir.file("nearest-2.csv")
        #expect(transect("measure", "--dem", s.dem, "--pairs", s.pairs, "--shard", "2/3", "-r", "nearest", "-o", nearest).code == 0)
        expectRefused([p1, nearest, p3], "'\(nearest)' and '\(p1)' were made with different options")

        // A part of another split.
        #expect(s.shard(2, of: 4).code == 0)
        expectRefused([p1, s.part(2, 4), p3], "'\(s.part(2, 4))' is shard 2/4, '\(p1)' is shard 1/3")

        // A part changed after its manifest was written (one byte).
        var bytes = try MeasureShardTests.bytes(p2)
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: URL(fileURLWithPath: p2))
        expectRefused([p1, p2, p3], "'\(p2)' is not the output its manifest records")

        // A part without a manifest.
        try FileManager.default.removeItem(atPath: ShardManifest.path(for: p2))
        expectRefused([p1, p2, p3], "'\(p2)' has no manifest beside it")
    }

    @Test("merge removes the temporaries killed shards left beside the parts, of any host, and nothing else")
    func removesDebris() throws {
        let s = try MeasureShardTests.Setup()
        for k in 1...2 { #expect(s.shard(k, of: 2).code == 0) }
        let host = CompanionName.host
        try #require(!host.isEmpty, "this machine has a host name")
        // A PID above any pid_max (2^22) belongs to no process.
        let gone = [
            ".part-1-of-2.csv.tmp-node-03-4242-1", ".part-2-of-2.csv.manifest.json.tmp-node-07-17-2",
            ".part-2-of-2.csv.old-node-07-18-1", ".part-1-of-2.csv.tmp-\(host)-2147483647-3",
        ]
        // PID 1 is alive: this host's live process keeps its file; so do other outputs' and
        // names that are no companion.
        let kept = [
            ".part-1-of-2.csv.tmp-\(host)-1-1", ".other.csv.tmp-node-03-4242-1", "part-1-of-2.csv.tmp-node-03-4242-1",
            ".part-1-of-2.csv.tmp-node-03-4242-01",
        ]
        for name in gone + kept { try "debris".write(toFile: s.dir.file(name), atomically: false, encoding: .utf8) }
        let r = transect("merge", s.part(1, 2), s.part(2, 2), "-o", s.dir.file("m.csv"))
        #expect(r.code == 0, "\(r.err)")
        #expect(try MeasureShardTests.bytes(s.dir.file("m.csv")) == s.whole)
        let hosts = Set(["node-03", "node-07", host]).sorted().joined(separator: ", ")
        #expect(r.err == "note: removed 4 temporary files beside the parts, left by shards that did not finish (written on \(hosts))\n")
        for name in gone { #expect(!FileManager.default.fileExists(atPath: s.dir.file(name)), "\(name)") }
        for name in kept { #expect(FileManager.default.fileExists(atPath: s.dir.file(name)), "\(name)") }
        // Nothing is left to remove the second time, and nothing is said.
        let again = transect("merge", s.part(1, 2), s.part(2, 2), "-o", s.dir.file("m.csv"))
        #expect(again.code == 0 && again.err.isEmpty, "\(again.err)")
    }

    @Test("merge -o onto a name shaped like a part's temporary keeps its own output")
    func outputShapedLikeDebris() throws {
        let s = try MeasureShardTests.Setup()
        for k in 1...2 { #expect(s.shard(k, of: 2).code == 0) }
        // The shape of a temporary a killed shard on node-03 left beside part 1.
        let out = s.dir.file(".part-1-of-2.csv.tmp-node-03-4242-1")
        let r = transect("merge", s.part(1, 2), s.part(2, 2), "-o", out)
        #expect(r.code == 0 && r.err.isEmpty, "\(r.err)")
        #expect(try MeasureShardTests.bytes(out) == s.whole)
    }

    @Test("merge writes to stdout without -o, and takes the manifests' paths as well")
    func stdout() throws {
        let s = try MeasureShardTests.Setup()
        for k in 1...2 { #expect(s.shard(k, of: 2).code == 0) }
        let r = transect("merge", ShardManifest.path(for: s.part(2, 2)), s.part(1, 2))
        #expect(r.code == 0, "\(r.err)")
        #expect(Data(r.out.utf8) == s.whole)
        expectUsageError(["merge"], "give the shards' outputs to merge")
    }

    @Test("--shard auto reads Slurm, Kubernetes and AWS Batch array variables")
    func auto() throws {
        func parse(_ environment: [String: String]) throws(CLIError) -> Shard {
            try ShardArgument.parse("auto", environment: environment, command: "measure")
        }
        #expect(try parse(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"]) == Shard(index: 3, count: 4))
        #expect(try parse(["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"]) == Shard(index: 1, count: 4))
        #expect(try parse(["JOB_COMPLETION_INDEX": "6", "TRANSECT_SHARDS": "7"]) == Shard(index: 7, count: 7))
        #expect(try parse(["AWS_BATCH_JOB_ARRAY_INDEX": "0", "TRANSECT_SHARDS": "2"]) == Shard(index: 1, count: 2))
        #expect(throws: CLIError.self) { try parse(["JOB_COMPLETION_INDEX": "7", "TRANSECT_SHARDS": "7"]) }
        #expect(throws: CLIError.self) { try parse(["JOB_COMPLETION_INDEX": "1"]) }
        #expect(throws: CLIError.self) { try parse(["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"]) }
        #expect(throws: CLIError.self) { try parse(["SLURM_ARRAY_TASK_ID": "2"]) }
        do {
            _ = try parse([:])
            Issue.record("no variables, no shard")
        } catch {
            #expect(error.message.contains("auto needs a job array"))
            #expect(error.isUsageError)
        }
    }

    @Test("--shard auto through the executable, with each engine's variables, and its error without them")
    func autoExecutable() throws {
        let s = try MeasureShardTests.Setup()
        for k in 1...2 { #expect(s.shard(k, of: 2).code == 0) }
        let engines: [[String: String]] = [
            ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "2"],
            ["JOB_COMPLETION_INDEX": "1", "TRANSECT_SHARDS": "2"],
            ["AWS_BATCH_JOB_ARRAY_INDEX": "1", "TRANSECT_SHARDS": "2"],
        ]
        for (n, environment) in engines.enumerated() {
            let out = s.dir.file("auto-\(n).csv")
            let r = try TransectExecutable.run(
                ["measure", "--dem", s.dem, "--pairs", s.pairs, "--shard", "auto", "-o", out], directory: s.dir.path, environment: environment)
            #expect(r.code == 0, "\(environment): \(r.err)")
            #expect(try MeasureShardTests.bytes(out) == MeasureShardTests.bytes(s.part(2, 2)), "\(environment)")
        }
        let unset = [
            "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX",
            "TRANSECT_SHARDS",
        ]
        let r = try TransectExecutable.run(
            unset.flatMap { ["-u", $0] } + [try #require(TransectExecutable.path), "measure", "--pairs", s.pairs, "--shard", "auto"],
            directory: s.dir.path, executable: "/usr/bin/env")
        #expect(r.code == 2)
        #expect(r.err.hasPrefix("Error: option '--shard': auto needs a job array"), "\(r.err)")
    }

    @Test("failures worth retrying exit 75; writes that fail otherwise keep exit 1")
    func retryable() {
        #expect(CLIError.ioFailure(path: "x", reading: true, SystemError(code: EIO)).isTemporary)
        #expect(CLIError.ioFailure(path: "x", reading: false, SystemError(code: ENOSPC)).isTemporary)
        #expect(CLIError.cannotWrite(path: "x", reason: SystemError(code: ENOSPC).text).isTemporary)
        #expect(!CLIError.cannotWrite(path: "x", reason: SystemError(code: EACCES).text).isTemporary)
        #expect(!CLIError.ioFailure(path: "x", reading: true, SystemError(code: ENOENT)).isTemporary)
        #expect(Commands.table.report(CLIError.retryable("cannot read 'x': input/output error"), console: .capturing()) == 75)
        #expect(Commands.table.report(CLIError.badInput("bad"), console: .capturing()) == 1)
    }
}
