import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI
@testable import TransectCLIBase

/// Numbers that enter through `--shard`, the job array variables and shard manifests: each is
/// checked against a range where it enters, so none traps on overflow or implies unbounded work.
@Suite("hostile numbers: --shard, job array variables, manifests")
struct HostileNumberTests {
    static let intMax = "9223372036854775807"
    static let intMin = "-9223372036854775808"

    @Test("--shard with counts near Int.max is a usage error, not a trap (measure and render)")
    func shardFlag() throws {
        let dir = TemporaryDirectory()
        try "id,from_lon,from_lat,to_lon,to_lat\nr,-119.6,37.7,-119.5,37.75\n".write(
            toFile: dir.file("p.csv"), atomically: true, encoding: .utf8)
        try "\n".write(toFile: dir.file("list.txt"), atomically: true, encoding: .utf8)
        for shard in ["\(Self.intMax)/\(Self.intMax)", "1/\(Self.intMax)", "1/10000001", "\(Self.intMin)/2", "99999999999999999999/1"] {
            for command in [["measure", "--pairs", dir.file("p.csv"), "-o", dir.file("out.csv")], ["render", "--scenes", dir.file("list.txt")]] {
                let r = transect(command + ["--shard", shard])
                #expect(r.code == 2, "\(command[0]) --shard \(shard): \(r.err)")
                #expect(r.err.hasPrefix("Error: option '--shard': "), "\(r.err)")
                #expect(!FileManager.default.fileExists(atPath: dir.file("out.csv")))
            }
        }
        expectUsageError(
            ["measure", "--pairs", dir.file("p.csv"), "--shard", "1/\(Self.intMax)"],
            "option '--shard': '1/\(Self.intMax)' gives \(Self.intMax) shards; at most 10,000,000 are allowed")
    }

    @Test(
        "--shard auto with job array variables at ±2⁶³ is a usage error naming the variable",
        arguments: [
            ["SLURM_ARRAY_TASK_ID": intMax, "SLURM_ARRAY_TASK_COUNT": "4"],
            ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": intMin, "SLURM_ARRAY_TASK_COUNT": "4"],
            ["SLURM_ARRAY_TASK_ID": intMin, "SLURM_ARRAY_TASK_MIN": intMax, "SLURM_ARRAY_TASK_COUNT": "4"],
            ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": intMax],
            ["JOB_COMPLETION_INDEX": intMax, "TRANSECT_SHARDS": intMax],
            ["JOB_COMPLETION_INDEX": "0", "TRANSECT_SHARDS": intMax],
            ["AWS_BATCH_JOB_ARRAY_INDEX": intMin, "TRANSECT_SHARDS": "2"],
        ])
    func shardAuto(environment: [String: String]) {
        do {
            let shard = try ShardArgument.parse("auto", environment: environment, command: "measure")
            Issue.record("\(environment) gave \(shard.text)")
        } catch {
            #expect(error.isUsageError)
            let named = environment.filter { $0.value == Self.intMax || $0.value == Self.intMin }.keys
            #expect(named.contains { error.message.contains("\($0)='") }, "\(error.message)")
            #expect(error.message.contains("is not a whole number from"), "\(error.message)")
        }
    }

    /// A finished shard 1/2 of the Yosemite pairs, whose manifest the test then rewrites.
    static func part() throws -> (MeasureShardTests.Setup, String, ShardManifest) {
        let s = try MeasureShardTests.Setup()
        #expect(s.shard(1, of: 2).code == 0)
        let part = s.part(1, 2)
        return (s, part, try #require(try ShardManifest.read(ShardManifest.path(for: part))))
    }

    static func write(_ manifest: ShardManifest, beside part: String) throws {
        try (manifest.json.serialized() + "\n").write(toFile: ShardManifest.path(for: part), atomically: true, encoding: .utf8)
    }

    @Test("a manifest whose shard count or row counts are near Int.max is refused by merge, naming the field")
    func manifestExtremes() throws {
        let (s, part, manifest) = try Self.part()
        let out = s.dir.file("m.csv")
        var forged = manifest
        forged.shard = Shard(index: 1, count: 1_000_000_000_000)
        try Self.write(forged, beside: part)
        var r = transect("merge", part, "-o", out)
        #expect(r.code == 1)
        #expect(r.err.hasPrefix("Error: shard manifest '\(ShardManifest.path(for: part))': 'shard' is '1/1000000000000', not K/N"), "\(r.err)")

        forged = manifest
        forged.shard = Shard(index: Int.max, count: Int.max)
        try Self.write(forged, beside: part)
        r = transect("merge", part, "-o", out)
        #expect(r.code == 1 && r.err.contains("'shard' is '\(Self.intMax)/\(Self.intMax)'"), "\(r.err)")

        for key in ["total_rows", "good_rows", "first_row"] {
            let text = try String(contentsOfFile: ShardManifest.path(for: part), encoding: .utf8)
            try Self.write(manifest, beside: part)
            let original = try String(contentsOfFile: ShardManifest.path(for: part), encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: "\"\(key)\" *: *[0-9]+")
            let edited = pattern.stringByReplacingMatches(
                in: original, range: NSRange(original.startIndex..., in: original), withTemplate: "\"\(key)\": 9223372036854775807")
            #expect(edited != original && edited != text)
            try edited.write(toFile: ShardManifest.path(for: part), atomically: true, encoding: .utf8)
            r = transect("merge", part, "-o", out)
            #expect(r.code == 1)
            #expect(r.err.contains("'\(key)' is not a whole number from 0 to"), "\(key): \(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("merge of one part of 10,000,000 names the missing shards as ranges, not one by one")
    func missingRanges() throws {
        let s = try MeasureShardTests.Setup()
        let part = s.part(1, 10_000_000)
        #expect(s.shard(1, of: 10_000_000).code == 0)
        let r = transect("merge", part, "-o", s.dir.file("m.csv"))
        #expect(r.code == 1)
        #expect(
            r.err
                == "Error: shards 2/10000000 to 10000000/10000000 of '\(s.pairs)' are missing (9,999,999 of 10,000,000)\n",
            "\(r.err)")
        #expect(MergeCommand.missingRanges(present: [2, 5, 6, 9], count: 10) == [1...1, 3...4, 7...8, 10...10])
        #expect(MergeCommand.missingRanges(present: [1, 2, 3], count: 3) == [])
    }
}
