import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// `measure --pairs FILE --shard K/N`: the shards' outputs, in shard order, are the bytes of
/// one run, whether joined by `transect merge` or by `cat`; `--skip-existing` redoes only what
/// is missing or changed.
@Suite("measure --pairs --shard: shards join into one run's bytes")
struct MeasureShardTests {
    /// 1,990 rows over Yosemite Valley with an id column, 20 bad rows, and blank lines in place
    /// of 10 more.
    static func input(seed: UInt64) -> String {
        var random = SeededRandom(seed: seed)
        var text = "id,from_lon,from_lat,to_lon,to_lat\n"
        for k in 0..<2000 {
            let a = (random.uniform(-119.66, -119.46), random.uniform(37.69, 37.85))
            let b = (random.uniform(-119.66, -119.46), random.uniform(37.69, 37.85))
            switch k % 211 {
            case 13: text += "bad\(k),abc,37.7,-119.5,37.7\n"
            case 19: text += "off\(k),\(a.0),\(a.1),10,45\n"
            case 23: text += "\n  \n"
            default: text += "r\(k),\(a.0),\(a.1),\(b.0),\(b.1)\n"
            }
        }
        return text
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    struct Setup {
        let dir = TemporaryDirectory()
        let dem: String
        let pairs: String
        let whole: Data

        init() throws {
            dem = try SharedData.path("yosemite_valley_ned1as.tif")
            pairs = dir.file("pairs.csv")
            try MeasureShardTests.input(seed: 13).write(toFile: pairs, atomically: true, encoding: .utf8)
            let r = transect("measure", "--dem", dem, "--pairs", pairs, "-o", dir.file("whole.csv"))
            #expect(r.code == 0, "\(r.err)")
            whole = try MeasureShardTests.bytes(dir.file("whole.csv"))
        }

        func shard(_ k: Int, of n: Int, _ extra: [String] = []) -> (code: Int32, out: String, err: String) {
            transect(["measure", "--dem", dem, "--pairs", pairs, "--shard", "\(k)/\(n)", "-o", part(k, n)] + extra)
        }

        func part(_ k: Int, _ n: Int) -> String { dir.file("part-\(k)-of-\(n).csv") }
    }

    @Test("shards 1/N…N/N join into one run's bytes, by merge and by concatenation", arguments: [1, 2, 3, 7])
    func joins(n: Int) throws {
        let s = try Setup()
        for k in 1...n {
            let r = s.shard(k, of: n, k == 2 ? ["--threads", "2"] : ["--threads", "1"])
            #expect(r.code == 0 && r.out.isEmpty, "\(r.err)")
        }
        var concatenated = Data()
        for k in 1...n { concatenated += try Self.bytes(s.part(k, n)) }
        #expect(concatenated == s.whole)
        // Parts given in any order: merge puts them in shard order.
        let merged = transect(["merge"] + (1...n).reversed().map { s.part($0, n) } + ["-o", s.dir.file("merged.csv")])
        #expect(merged.code == 0, "\(merged.err)")
        #expect(try Self.bytes(s.dir.file("merged.csv")) == s.whole)
        // Row counts in the manifests add up to the file's, good and bad.
        var good = 0
        var bad = 0
        for k in 1...n {
            let manifest = try #require(try ShardManifest.read(ShardManifest.path(for: s.part(k, n))))
            #expect(manifest.shard == Shard(index: k, count: n))
            #expect(manifest.rows == Shard(index: k, count: n).rows(of: 1990))
            #expect(manifest.inputSHA256 == (try SHA256.hexDigest(ofFile: s.pairs)))
            #expect(manifest.outputSHA256 == (try SHA256.hexDigest(ofFile: s.part(k, n))))
            good += manifest.goodRows
            bad += manifest.badRows
        }
        #expect(good + bad == 1990)
        #expect(bad == 20)
    }

    @Test("a shard killed mid-run is redone by --skip-existing; finished shards are left as they are")
    func restart() throws {
        let s = try Setup()
        for k in 1...3 { #expect(s.shard(k, of: 3).code == 0) }
        // Shard 2 "killed": a staged temporary left behind, a truncated output, no manifest.
        let full = try Self.bytes(s.part(2, 3))
        try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: s.part(2, 3)))
        try Data("partial".utf8).write(to: URL(fileURLWithPath: s.dir.file(".part-2-of-3.csv.tmp-99999-1")))
        try FileManager.default.removeItem(atPath: ShardManifest.path(for: s.part(2, 3)))
        // Shard 3's output cut short after its manifest was written: its hash no longer matches.
        let third = try Self.bytes(s.part(3, 3))
        try third.prefix(10).write(to: URL(fileURLWithPath: s.part(3, 3)))
        let merge = transect("merge", s.part(1, 3), s.part(2, 3), s.part(3, 3), "-o", s.dir.file("m.csv"))
        #expect(merge.code == 1 && merge.err.contains("has no manifest"), "\(merge.err)")

        let manifest1 = try Self.bytes(ShardManifest.path(for: s.part(1, 3)))
        let modified1 = try FileManager.default.attributesOfItem(atPath: s.part(1, 3))[.modificationDate] as? Date
        let inode1 = try FileManager.default.attributesOfItem(atPath: s.part(1, 3))[.systemFileNumber] as? Int
        for k in 1...3 {
            let r = s.shard(k, of: 3, ["--skip-existing"])
            #expect(r.code == 0, "\(r.err)")
            #expect(r.err.contains("skipped") == (k == 1), "shard \(k): \(r.err)")
        }
        #expect(try Self.bytes(ShardManifest.path(for: s.part(1, 3))) == manifest1)
        #expect(try FileManager.default.attributesOfItem(atPath: s.part(1, 3))[.modificationDate] as? Date == modified1)
        #expect(try FileManager.default.attributesOfItem(atPath: s.part(1, 3))[.systemFileNumber] as? Int == inode1)
        let again = transect("merge", s.part(1, 3), s.part(2, 3), s.part(3, 3), "-o", s.dir.file("m.csv"))
        #expect(again.code == 0, "\(again.err)")
        #expect(try Self.bytes(s.dir.file("m.csv")) == s.whole)
    }

    @Test("--skip-existing redoes a shard made with other options")
    func optionsMatter() throws {
        let s = try Setup()
        #expect(s.shard(1, of: 2).code == 0)
        let r = s.shard(1, of: 2, ["--skip-existing", "-r", "nearest"])
        #expect(r.code == 0 && !r.err.contains("skipped"), "\(r.err)")
        let manifest = try #require(try ShardManifest.read(ShardManifest.path(for: s.part(1, 2))))
        #expect(manifest.options.contains("interpolation=nearest"))
    }

    @Test("row numbers in a shard's errors are those of the whole file")
    func rowNumbers() throws {
        let s = try Setup()
        // Without the id column, a bad row is named by its number: "bad1068" is row 1,064 of
        // the file (the 5 blank lines before it are not rows), the first bad one in shard 2 of 2.
        let noIDs = Self.input(seed: 13).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.firstIndex(of: ",").map { String(line[line.index(after: $0)...]) } ?? String(line) }
            .joined(separator: "\n")
        try noIDs.write(toFile: s.dir.file("noids.csv"), atomically: true, encoding: .utf8)
        let r = transect("measure", "--dem", s.dem, "--pairs", s.dir.file("noids.csv"), "--shard", "2/2", "--strict", "-o", s.dir.file("x.csv"))
        #expect(r.code == 1)
        #expect(r.err.hasPrefix("Error: pairs '\(s.dir.file("noids.csv"))' row 1064:"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: s.dir.file("x.csv")))
        #expect(!FileManager.default.fileExists(atPath: ShardManifest.path(for: s.dir.file("x.csv"))))
    }

    @Test("--shard is refused on stdin, out of range, malformed, and without --pairs")
    func usage() {
        expectUsageError(["measure", "--pairs", "-", "--shard", "1/2"], "option '--shard': needs --pairs FILE")
        expectUsageError(["measure", "--pairs", "p.csv", "--shard", "3/2"], "option '--shard': '3/2' gives shard 3/2")
        expectUsageError(["measure", "--pairs", "p.csv", "--shard", "0/2"], "option '--shard': '0/2' gives shard 0/2")
        expectUsageError(["measure", "--pairs", "p.csv", "--shard", "two"], "option '--shard': 'two' is not K/N")
        expectUsageError(["measure", "--from", "1,2", "--to", "3,4", "--shard", "1/2"], "option '--shard': splits a --pairs batch")
        expectUsageError(["measure", "--pairs", "p.csv", "--skip-existing"], "option '--skip-existing': skips a finished shard")
        expectUsageError(["measure", "--pairs", "p.csv", "--shard", "1/2", "--skip-existing"], "option '--skip-existing': needs -o FILE")
    }
}
