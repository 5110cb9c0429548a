import Foundation
import Testing
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// `render --scenes LIST --shard K/N`: each scene is recorded in the shard's journal as it is
/// finished, so `--skip-existing` after a stopped shard renders only what the journal does not
/// show intact, and the shard ends with the manifest and files of one uninterrupted run.
@Suite("render --scenes --shard: a stopped shard resumes from its journal")
struct RenderScenesResumeTests {
    static func manifestPath(_ batch: SceneBatchFixture) -> String { batch.list + ".shard-1-of-1.manifest.json" }
    static func journalPath(_ batch: SceneBatchFixture) -> String { manifestPath(batch) + ".journal" }

    /// Every output of scene `k` (PNG, world file, `.aux.xml`).
    static func files(_ batch: SceneBatchFixture, _ k: Int) -> [String] {
        let png = batch.out + "/scene-\(k).png"
        return [png, String(png.dropLast(4)) + ".pgw", png + ".aux.xml"]
    }

    /// The modification time and inode of each output of the scenes `scenes`.
    static func stamps(_ batch: SceneBatchFixture, _ scenes: [Int]) throws -> [String: [String]] {
        var stamps: [String: [String]] = [:]
        for k in scenes {
            for path in files(batch, k) {
                let (date, inode) = try RenderScenesShardTests.modified(path)
                stamps[path] = ["\(String(describing: date))", "\(String(describing: inode))"]
            }
        }
        return stamps
    }

    /// Runs shard 1/1 with scene `missing`'s file away (it fails, the others are written),
    /// then puts the file back.
    static func failedRun(_ batch: SceneBatchFixture, missing: Int, _ extra: [String] = []) throws {
        let scene = batch.scene(missing)
        try FileManager.default.moveItem(atPath: scene, toPath: scene + ".away")
        let r = batch.render(["--shard", "1/1"] + extra)
        #expect(r.code == 1 && r.err.contains("note: 1 of \(batch.count) scenes in shard 1/1 of '\(batch.list)' failed"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: manifestPath(batch)))
        try FileManager.default.moveItem(atPath: scene + ".away", toPath: scene)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The note a resumed shard 1/1 gives.
    static func note(_ batch: SceneBatchFixture, _ done: Int, of total: Int, in source: String) -> String {
        "note: shard 1/1 of '\(batch.list)': \(done) of \(total) scenes already rendered (recorded in '\(source)'), \(total - done) to render\n"
    }

    @Test("a shard stopped by a failing scene renders only that scene again; manifest and files are those of one run")
    func resume() throws {
        let batch = try SceneBatchFixture(count: 6)
        let whole = try batch.reference()
        try Self.failedRun(batch, missing: 4)
        let journal = try String(contentsOfFile: Self.journalPath(batch), encoding: .utf8)
        let lines = journal.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 7 && lines.last == "", "\(journal)")
        #expect(lines.first?.hasPrefix(#"{"format":"transect-scenes-journal/1","list":"#) == true, "\(journal)")
        let before = try Self.stamps(batch, [1, 2, 3, 5, 6])
        let r = batch.render(["--shard", "1/1", "--skip-existing"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.hasPrefix(Self.note(batch, 5, of: 6, in: Self.journalPath(batch))), "\(r.err)")
        #expect(try Self.stamps(batch, [1, 2, 3, 5, 6]) == before)
        #expect(try batch.outputs() == whole)
        #expect(!FileManager.default.fileExists(atPath: Self.journalPath(batch)))
        // The manifest is the one an uninterrupted run writes.
        let resumed = try Self.bytes(Self.manifestPath(batch))
        #expect(batch.render(["--shard", "1/1"]).code == 0)
        #expect(try Self.bytes(Self.manifestPath(batch)) == resumed)
        #expect(try batch.outputs() == whole)
    }

    @Test("without --skip-existing every scene is rendered, and the journal records them all again")
    func withoutSkip() throws {
        let batch = try SceneBatchFixture(count: 3)
        try Self.failedRun(batch, missing: 3)
        let first = try Self.stamps(batch, [1])
        try Self.failedRun(batch, missing: 2)
        let second = try Self.stamps(batch, [1])
        for (path, stamp) in first { #expect(second[path]?.last != stamp.last, "\(path) was not written again") }
        let lines = try String(contentsOfFile: Self.journalPath(batch), encoding: .utf8).split(separator: "\n")
        let recorded = lines.dropFirst().compactMap { try? JSON.parse(Array($0.utf8), path: "journal") }.compactMap {
            SceneShardManifest.Scene(record: $0)
        }
        #expect(recorded.map(\.line) == [batch.lines[0], batch.lines[2]])
        #expect(recorded.map(\.path) == [batch.scene(1), batch.scene(3)])
        #expect(recorded.first?.outputs.map(\.path) == Self.files(batch, 1))
        for output in recorded.flatMap(\.outputs) { #expect(output.sha256 == (try SHA256.hexDigest(ofFile: output.path))) }
    }

    @Test("a scene whose file or recorded output changed is rendered again; so is one the manifest lists but lost")
    func changed() throws {
        let batch = try SceneBatchFixture(count: 6)
        let whole = try batch.reference()
        try Self.failedRun(batch, missing: 4)
        let aux = batch.out + "/scene-2.png.aux.xml"
        try Data("changed".utf8).write(to: URL(fileURLWithPath: aux))
        try (String(contentsOfFile: batch.scene(5), encoding: .utf8) + "\n").write(toFile: batch.scene(5), atomically: true, encoding: .utf8)
        let before = try Self.stamps(batch, [1, 3, 6])
        var r = batch.render(["--shard", "1/1", "--skip-existing"])
        #expect(r.code == 0 && r.err.hasPrefix(Self.note(batch, 3, of: 6, in: Self.journalPath(batch))), "\(r.err)")
        #expect(try Self.stamps(batch, [1, 3, 6]) == before)
        #expect(try batch.outputs() == whole)

        // A finished shard whose manifest no longer matches as a whole: what it records intact stands.
        try FileManager.default.removeItem(atPath: batch.out + "/scene-6.pgw")
        let kept = try Self.stamps(batch, [1, 2, 3, 4, 5])
        r = batch.render(["--shard", "1/1", "--skip-existing"])
        #expect(r.code == 0 && r.err.hasPrefix(Self.note(batch, 5, of: 6, in: Self.manifestPath(batch))), "\(r.err)")
        #expect(try Self.stamps(batch, [1, 2, 3, 4, 5]) == kept)
        #expect(try batch.outputs() == whole)
    }

    @Test("a journal of other options, of another shard, or that is none, is ignored with a note; every scene is rendered")
    func untrusted() throws {
        let batch = try SceneBatchFixture(count: 3)
        let journal = Self.journalPath(batch)
        try Self.failedRun(batch, missing: 3, ["--z-factor", "2"])
        var r = batch.render(["--shard", "1/1", "--skip-existing"])
        #expect(r.code == 0 && r.err.hasPrefix("note: the journal '\(journal)' records another list, shard or options; ignored\n"), "\(r.err)")
        #expect(!r.err.contains("already rendered"), "\(r.err)")

        try Self.failedRun(batch, missing: 3)
        let other = batch.list + ".shard-1-of-2.manifest.json.journal"
        try FileManager.default.copyItem(atPath: journal, toPath: other)
        r = batch.render(["--shard", "1/2", "--skip-existing"])
        #expect(r.code == 0 && r.err.hasPrefix("note: the journal '\(other)' records another list, shard or options; ignored\n"), "\(r.err)")

        for garbage in ["", "not json\n", #"{"format": "transect-scenes-manifest/1"}"# + "\n"] {
            try? FileManager.default.removeItem(atPath: Self.manifestPath(batch))
            try garbage.write(toFile: journal, atomically: true, encoding: .utf8)
            r = batch.render(["--shard", "1/1", "--skip-existing"])
            #expect(r.code == 0 && r.err.hasPrefix("note: the journal '\(journal)' is not a transect-scenes-journal/1 file; ignored\n"), "\(r.err)")
            #expect(!r.err.contains("already rendered"), "\(r.err)")
        }
        // A directory where the journal goes is refused as one where the manifest goes is.
        try FileManager.default.removeItem(atPath: Self.manifestPath(batch))
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: false)
        r = batch.render(["--shard", "1/1", "--skip-existing"])
        #expect(
            r.code == 2 && r.err.hasPrefix("Error: option '--manifest': '") && r.err.contains("' is a directory; outputs must be regular files"), "\(r.err)")
    }

    @Test("a torn last line, and every line after a bad one, is not trusted", arguments: [false, true])
    func torn(inTheMiddle: Bool) throws {
        let batch = try SceneBatchFixture(count: 6)
        let whole = try batch.reference()
        try Self.failedRun(batch, missing: 6)
        let journal = Self.journalPath(batch)
        var lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        if inTheMiddle {
            // Record 3 cut short, with the records after it whole.
            lines[3] = String(lines[3].prefix(25))
            try (lines.joined(separator: "\n") + "\n").write(toFile: journal, atomically: true, encoding: .utf8)
        } else {
            // Record 5 whole but for its newline.
            try lines.joined(separator: "\n").write(toFile: journal, atomically: true, encoding: .utf8)
        }
        let trusted = inTheMiddle ? [1, 2] : [1, 2, 3, 4]
        let before = try Self.stamps(batch, trusted)
        let redone = try Self.stamps(batch, inTheMiddle ? [3, 4, 5] : [5])
        let r = batch.render(["--shard", "1/1", "--skip-existing"])
        #expect(r.code == 0 && r.err.hasPrefix(Self.note(batch, trusted.count, of: 6, in: journal)), "\(r.err)")
        #expect(try Self.stamps(batch, trusted) == before)
        let after = try Self.stamps(batch, inTheMiddle ? [3, 4, 5] : [5])
        for (path, stamp) in redone { #expect(after[path]?.last != stamp.last, "\(path) was not written again") }
        #expect(try batch.outputs() == whole)
    }

    @Test("a shard killed mid-run resumes from its journal: only the unrecorded scenes are rendered, as one run writes them")
    func killed() throws {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let batch = try SceneBatchFixture(count: 8)
        let whole = try batch.reference()
        let journal = Self.journalPath(batch)
        let arguments = ["render", "--scenes", batch.list, "--shard", "1/1", "--threads", "1"]
        let run = try TransectExecutable.Run(arguments, directory: batch.dir.path, executable: executable)
        try run.stdin.fileHandleForWriting.close()
        // Killed once the journal holds its header and a scene.
        func recorded() -> [SceneShardManifest.Scene] {
            let text = (try? String(contentsOfFile: journal, encoding: .utf8)) ?? ""
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast().compactMap {
                (try? JSON.parse(Array($0.utf8), path: journal)).flatMap { SceneShardManifest.Scene(record: $0) }
            }
        }
        while run.process.isRunning && recorded().isEmpty { usleep(500) }
        kill(run.process.processIdentifier, SIGKILL)
        let killed = run.wait()
        let done = recorded()
        let scenes = done.compactMap { scene in batch.lines.firstIndex(of: scene.line).map { $0 + 1 } }
        let before = try Self.stamps(batch, scenes)
        let again = try TransectExecutable.run(arguments + ["--skip-existing"], directory: batch.dir.path, executable: executable)
        #expect(again.code == 0, "\(again.err)")
        if killed.code == 1000 + SIGKILL {
            #expect(!done.isEmpty && done.count < 8)
            #expect(again.err.hasPrefix(Self.note(batch, done.count, of: 8, in: journal)), "\(again.err)")
            #expect(try Self.stamps(batch, scenes) == before)
        } else {
            // The whole shard was written before the signal landed.
            #expect(killed.code == 0, "\(killed.err)")
        }
        #expect(try batch.outputs() == whole)
        #expect(!FileManager.default.fileExists(atPath: journal))
        let resumed = try Self.bytes(Self.manifestPath(batch))
        #expect(batch.render(["--shard", "1/1"]).code == 0)
        #expect(try Self.bytes(Self.manifestPath(batch)) == resumed)
    }

    @Test("a journal that cannot be started (an immutable file is in its place) is said in a note; every scene is rendered, the manifest written")
    func journalCannotStart() throws {
        let batch = try SceneBatchFixture(count: 3)
        let whole = try batch.reference()
        let journal = Self.journalPath(batch)
        try "not a journal\n".write(toFile: journal, atomically: false, encoding: .utf8)
        // Immutable (chattr +i): not even root may replace or remove it.
        guard Self.run("/usr/bin/chattr", ["+i", journal], in: batch.dir.path) else {
            print("chattr +i needs root and a file system with attributes (ext4, XFS); skipping the journal start-failure test")
            return
        }
        defer { _ = Self.run("/usr/bin/chattr", ["-i", journal], in: batch.dir.path) }
        let r = batch.render(["--shard", "1/1"])
        #expect(r.code == 0, "\(r.err)")
        let notes = r.err.split(separator: "\n")
        #expect(
            notes.contains { $0.hasPrefix("note: cannot keep the shard's journal: ") && $0.hasSuffix("; a rerun will render again what this run renders") },
            "\(r.err)")
        #expect(try batch.outputs() == whole)
        #expect(FileManager.default.fileExists(atPath: Self.manifestPath(batch)))
    }

    @Test("an append the disk refuses stops the journal there: later ones are not tried, and it reads back as written")
    func journalFull() throws {
        let dir = TemporaryDirectory()
        let small = dir.file("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: false)
        // A file system of two pages, which the records fill.
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=8k", "tmpfs", small], in: dir.path) else {
            print("mounting a tmpfs needs root; skipping the full-disk journal test")
            return
        }
        defer { _ = Self.run("/bin/umount", [small], in: dir.path) }
        let digest = String(repeating: "5e", count: 32)
        let plan = SceneShardManifest(
            list: "scenes.txt", listSHA256: digest, shard: Shard(index: 1, count: 1), totalScenes: 1000, scenes: 1...1000, lines: 1...1000,
            options: ["size=200x150"], rendered: [])
        func scene(_ k: Int) -> SceneShardManifest.Scene {
            .init(line: k, path: "scene-\(k).json", sha256: digest, outputs: [.init(path: "out/scene-\(k).png", sha256: digest)])
        }
        let path = small + "/m.json.journal"
        let journal = try SceneShardJournal(path: path, plan: plan, keeping: [scene(1)])
        var written = [scene(1)]
        var problem: String?
        for k in 2...1000 {
            problem = journal.append(scene(k))
            if problem != nil { break }
            written.append(scene(k))
        }
        #expect(problem == "no space left on device", "\(problem ?? "every append succeeded")")
        #expect(written.count > 2 && written.count < 100, "\(written.count)")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(journal.append(scene(1001)) == nil)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
        // A line the disk cut short is not trusted; every record before it is.
        #expect(SceneShardJournal.read(path, plan: plan) == .records(written))
    }

    /// Runs the program `tool` with `arguments` in `directory`; true when it exits 0.
    static func run(_ tool: String, _ arguments: [String], in directory: String) -> Bool {
        (try? TransectExecutable.run(arguments, directory: directory, executable: tool))?.code == 0
    }
}
