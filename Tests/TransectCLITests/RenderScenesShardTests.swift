import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// `render --scenes LIST --shard K/N`: the shards together write exactly the files of one run,
/// each leaves a manifest, and `--skip-existing` redoes only a shard that is not finished.
@Suite("render --scenes --shard: shards write one run's files, restartably")
struct RenderScenesShardTests {
    static func manifestPath(_ batch: SceneBatchFixture, _ k: Int, _ n: Int) -> String { batch.list + ".shard-\(k)-of-\(n).manifest.json" }

    static func modified(_ path: String) throws -> (Date?, Int?) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.modificationDate] as? Date, attributes[.systemFileNumber] as? Int)
    }

    @Test("shards 1/N…N/N write the files of one unsharded run, byte for byte, with a manifest each", arguments: [1, 2, 3, 7])
    func partition(n: Int) throws {
        let batch = try SceneBatchFixture()
        let whole = try batch.reference()
        var seen: [Int] = []
        for k in 1...n {
            let r = batch.render(["--shard", "\(k)/\(n)"])
            #expect(r.code == 0 && r.out.isEmpty, "\(r.err)")
            let manifest = try #require(try SceneShardManifest.read(Self.manifestPath(batch, k, n)))
            #expect(manifest.shard == Shard(index: k, count: n))
            #expect(manifest.list == batch.list)
            #expect(manifest.listSHA256 == (try SHA256.hexDigest(ofFile: batch.list)))
            #expect(manifest.totalScenes == 8)
            // Scene s of S in shard ⌊(s − 1)·N/S⌋ + 1, as the help says.
            let mine = (1...8).filter { ($0 - 1) * n / 8 + 1 == k }
            #expect(manifest.scenes == mine.first.map { $0...(mine.last ?? $0) })
            #expect(manifest.lines == mine.first.map { batch.lines[$0 - 1]...batch.lines[(mine.last ?? $0) - 1] })
            #expect(manifest.rendered.map(\.line) == mine.map { batch.lines[$0 - 1] })
            for (s, scene) in zip(mine, manifest.rendered) {
                #expect(scene.path == batch.scene(s))
                #expect(scene.sha256 == (try SHA256.hexDigest(ofFile: batch.scene(s))))
                let png = batch.out + "/scene-\(s).png"
                #expect(scene.outputs.map(\.path).prefix(3) == [png, String(png.dropLast(4)) + ".pgw", png + ".aux.xml"])
                for output in scene.outputs { #expect(output.sha256 == (try SHA256.hexDigest(ofFile: output.path))) }
            }
            seen += mine
        }
        #expect(seen == Array(1...8))
        #expect(try batch.outputs() == whole)
    }

    @Test("--skip-existing leaves a finished shard alone and redoes one whose manifest, scenes, options or outputs differ")
    func skip() throws {
        let batch = try SceneBatchFixture(count: 6)
        #expect(batch.render(["--shard", "2/3"]).code == 0)
        let manifest = Self.manifestPath(batch, 2, 3)
        let png = batch.out + "/scene-3.png"
        let before = try (Self.modified(png), Self.modified(manifest), Data(contentsOf: URL(fileURLWithPath: manifest)))
        var r = batch.render(["--shard", "2/3", "--skip-existing"])
        #expect(r.code == 0 && r.err == "note: shard 2/3 of '\(batch.list)' is already rendered (its manifest '\(manifest)' matches); skipped\n")
        #expect(try Self.modified(png) == before.0 && Self.modified(manifest) == before.1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifest)) == before.2)

        // Another option over the scenes: rendered again, and the manifest says so.
        r = batch.render(["--shard", "2/3", "--skip-existing", "--z-factor", "2"])
        #expect(r.code == 0 && !r.err.contains("skipped"), "\(r.err)")
        #expect(try #require(try SceneShardManifest.read(manifest)).options == ["z-factor=2"])
        r = batch.render(["--shard", "2/3", "--skip-existing", "--z-factor", "2", "--threads", "1"])
        #expect(r.err.contains("skipped"), "\(r.err)")
        // A scene file changed.
        try #"{"size": [200, 150], "extent": [-119.6, 37.7, -119.5, 37.8], "out": "../out/scene-3.png"}"#.write(
            toFile: batch.scene(3), atomically: true, encoding: .utf8)
        r = batch.render(["--shard", "2/3", "--skip-existing", "--z-factor", "2"])
        #expect(r.code == 0 && !r.err.contains("skipped"), "\(r.err)")
        // An output changed after the manifest was written.
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: batch.out + "/scene-4.png.aux.xml"))
        r = batch.render(["--shard", "2/3", "--skip-existing", "--z-factor", "2"])
        #expect(r.code == 0 && !r.err.contains("skipped"), "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: batch.out + "/scene-4.png.aux.xml")) != Data("not a png".utf8))
        // The list changed (a comment added): another list, rendered again.
        try ("# more\n" + String(contentsOfFile: batch.list, encoding: .utf8)).write(toFile: batch.list, atomically: true, encoding: .utf8)
        r = batch.render(["--shard", "2/3", "--skip-existing", "--z-factor", "2"])
        #expect(r.code == 0 && !r.err.contains("skipped"), "\(r.err)")
        // --manifest puts it elsewhere.
        r = batch.render(["--shard", "2/3", "--manifest", batch.dir.file("m.json")])
        #expect(r.code == 0, "\(r.err)")
        #expect(try SceneShardManifest.read(batch.dir.file("m.json")) != nil)
    }

    @Test("a failed scene leaves no manifest (an earlier one is removed), so --skip-existing renders the shard again")
    func failedShard() throws {
        let batch = try SceneBatchFixture(count: 3)
        #expect(batch.render(["--shard", "1/1"]).code == 0)
        let manifest = Self.manifestPath(batch, 1, 1)
        try FileManager.default.removeItem(atPath: batch.scene(2))
        let r = batch.render(["--shard", "1/1"])
        #expect(r.code == 1)
        #expect(r.err.contains("note: 1 of 3 scenes in shard 1/1 of '\(batch.list)' failed; no manifest written"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: manifest))
    }

    @Test("a shard killed after its first scene is finished by --skip-existing, with the bytes of one run")
    func killed() throws {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let batch = try SceneBatchFixture(count: 8)
        let whole = try batch.reference()
        let arguments = ["render", "--scenes", batch.list, "--shard", "1/1", "--threads", "1"]
        let run = try TransectExecutable.Run(arguments, directory: batch.dir.path, executable: executable)
        try run.stdin.fileHandleForWriting.close()
        let first = batch.out + "/scene-1.png"
        while run.process.isRunning && !FileManager.default.fileExists(atPath: first) { usleep(1000) }
        kill(run.process.processIdentifier, SIGKILL)
        let killed = run.wait()
        let manifest = Self.manifestPath(batch, 1, 1)
        if killed.code == 1000 + SIGKILL {
            // Killed mid-run: the shard has no manifest, whatever it wrote.
            #expect(!FileManager.default.fileExists(atPath: manifest))
            #expect(try batch.outputs().count < whole.count)
        } else {
            // The whole shard was written before the signal landed: nothing is left to redo.
            #expect(killed.code == 0, "\(killed.err)")
        }
        let again = try TransectExecutable.run(arguments + ["--skip-existing"], directory: batch.dir.path, executable: executable)
        #expect(again.code == 0, "\(again.err)")
        #expect(again.err.contains("skipped") == (killed.code == 0), "\(again.err)")
        let after = try batch.outputs()
        #expect(after == whole, "\(Set(after.keys).symmetricDifference(whole.keys).sorted()) \(whole.keys.filter { after[$0] != whole[$0] }.sorted())")
        #expect(FileManager.default.fileExists(atPath: manifest))
    }

    @Test("a scene lost after its shard finished (the output removed) is written again by --skip-existing")
    func removedOutput() throws {
        let batch = try SceneBatchFixture(count: 4)
        let whole = try batch.reference()
        for k in 1...2 { #expect(batch.render(["--shard", "\(k)/2"]).code == 0) }
        try FileManager.default.removeItem(atPath: batch.out + "/scene-4.png")
        var notes: [String] = []
        for k in 1...2 {
            let r = batch.render(["--shard", "\(k)/2", "--skip-existing"])
            #expect(r.code == 0, "\(r.err)")
            notes.append(r.err)
        }
        #expect(notes[0].contains("skipped") && !notes[1].contains("skipped"), "\(notes)")
        #expect(try batch.outputs() == whole)
    }

    @Test("--shard auto takes K and N from Slurm's and Kubernetes' array variables, and says when none is set")
    func auto() throws {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let batch = try SceneBatchFixture(count: 3)
        let arguments = ["render", "--scenes", batch.list, "--shard", "auto"]
        for (environment, k, n) in [
            (["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "3"], 3, 3),
            (["JOB_COMPLETION_INDEX": "0", "TRANSECT_SHARDS": "2"], 1, 2),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "1", "TRANSECT_SHARDS": "2"], 2, 2),
        ] {
            let r = try TransectExecutable.run(arguments, directory: batch.dir.path, executable: executable, environment: environment)
            #expect(r.code == 0, "\(environment): \(r.err)")
            let manifest = try #require(try SceneShardManifest.read(Self.manifestPath(batch, k, n)), "\(environment)")
            #expect(manifest.shard == Shard(index: k, count: n))
        }
        #expect(FileManager.default.fileExists(atPath: batch.out + "/scene-3.png"))
        let bad = try TransectExecutable.run(
            arguments, directory: batch.dir.path, executable: executable, environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(
            bad.code == 2 && bad.err.hasPrefix("Error: option '--shard': auto: JOB_COMPLETION_INDEX is set; give the number of shards in TRANSECT_SHARDS\n"))
        let environment = ProcessInfo.processInfo.environment
        if ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"].allSatisfy({ environment[$0] == nil }) {
            expectUsageError(arguments, "option '--shard': auto needs a job array")
        }
    }

    @Test("a scene failing for a reason worth retrying makes the exit code 75; the other scenes are written")
    func temporary() throws {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let batch = try SceneBatchFixture(count: 2)
        try #"{"dem": "/vsis3/bucket/dem.tif", "size": [200, 150], "out": "out/remote.png"}"#.write(
            toFile: batch.scene(2), atomically: true, encoding: .utf8)
        let port = try LocalObjectStore.freePort()
        let r = try TransectExecutable.run(
            ["render", "--scenes", batch.list, "--shard", "1/1", "--allow-network"], directory: batch.dir.path, executable: executable,
            environment: LocalObjectStore.environment(port: port))
        #expect(r.code == 75, "\(r.err)")
        let errors = r.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1, "\(r.err)")
        #expect(
            errors.first?.hasPrefix("Error: \(batch.list):\(batch.lines[1]): scene '\(batch.scene(2))': DEM '/vsis3/bucket/dem.tif': cannot open: ") == true,
            "\(r.err)")
        #expect(try batch.outputs().keys.sorted() == ["scene-1.pgw", "scene-1.png", "scene-1.png.aux.xml"])
        #expect(!FileManager.default.fileExists(atPath: Self.manifestPath(batch, 1, 1)))
    }
}
