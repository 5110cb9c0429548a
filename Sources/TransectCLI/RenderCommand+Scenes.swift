#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectFormats
import TransectSupport

/// A `render --scenes LIST` run: the list, the shard of it this run renders, and (with
/// `--shard`) where its manifest goes; every usage error found before anything is read.
struct SceneBatch {
    let list: SceneList
    /// `--shard`; nil renders the whole list and writes no manifest.
    let shard: Shard?
    let manifestPath: String?
    /// Where the shard records each scene as it is finished (``SceneShardJournal``); nil
    /// without `--shard`.
    var journalPath: String? { manifestPath.map(SceneShardJournal.path(manifest:)) }
    let skipExisting: Bool
    /// The options given over every scene that shape the bytes (see ``SceneShardManifest/options``).
    let options: [String]
    /// The batch's own files (the list, the manifest, the journal), checked once; every
    /// scene's files are checked against them too.
    let files: RunFiles
    /// The SHA-256s `--skip-existing` reads, each file once: it asks whether the whole shard is
    /// done, then which of its scenes are, of the same scene files and outputs.
    let digests = FileDigests()
    /// The batch's command line, over which each scene's settings apply.
    let args: ParsedArguments

    /// What the command line of a batch may not give (the option's name, as messages name it,
    /// and why).
    static let refused: [(name: String, label: String, why: String)] = [
        (RenderOptions.out.name, "-o", "each scene of a --scenes list is written where its own out says; give out in the scene files"),
        (RenderOptions.scene.name, "--scene", "--scenes names the scene files; give one of --scene and --scenes"),
        (RenderOptions.layout.name, "--layout", "would write every scene's layout to one file; give layout in the scene files"),
        (RenderOptions.layers.name, "--layers", "would write every scene's layers to one file"),
        (RenderOptions.frames.name, "--frames", "would write every scene's frames to one directory; give frames in the scene files"),
    ]

    init(_ args: ParsedArguments) throws {
        self.args = args
        for (name, label, why) in Self.refused where args.has(name) {
            throw CLIError.usage("option '\(label)': \(why)", command: "render")
        }
        let listPath = try args.value(RenderOptions.scenes) ?? ""
        guard listPath != "-" else {
            throw CLIError.usage("option '--scenes': give a LIST file, as relative scene paths resolve against its directory", command: "render")
        }
        if args.all(RenderOptions.places.name).contains("-") || args.all(RenderOptions.track.name).contains("-") {
            throw CLIError.usage(
                "option '--\(args.all(RenderOptions.places.name).contains("-") ? "places" : "track")': '-' (stdin) can be read once, not by every scene of a list; give a FILE",
                command: "render")
        }
        skipExisting = try args.value(RenderOptions.skipExisting)
        if let text = try args.value(RenderOptions.shard) {
            let shard = try ShardArgument.parse(text, environment: ShardArgument.processEnvironment, command: "render")
            self.shard = shard
            manifestPath = try args.value(RenderOptions.manifest) ?? SceneShardManifest.defaultPath(list: listPath, shard: shard)
        } else {
            for option in [RenderOptions.skipExisting.spec, RenderOptions.manifest.spec] where args.has(option.name) {
                throw CLIError.usage(
                    "option '--\(option.name)': \(option.takesValue ? "says where a shard's manifest goes" : "skips a finished shard"); give --shard (1/1 for the whole list)",
                    command: "render")
            }
            shard = nil
            manifestPath = nil
        }
        if manifestPath == "-" { throw CLIError.usage("option '--manifest': give a FILE; '-' (stdout) is not one", command: "render") }
        options = Self.options(args)
        var files = RunFiles()
        files.input("--scenes", listPath)
        files.output("--manifest", manifestPath)
        files.output("--manifest", manifestPath.map(SceneShardJournal.path(manifest:)))
        try files.check(command: "render")
        list = try SceneList(path: listPath)
        // Every scene's own files are inputs of the whole run: no scene may write over a scene
        // file of the list, or over what a scene later in it reads (its DEM, places, track).
        // A scene that does not read is left to fail in its turn.
        for (k, entry) in list.entries.enumerated() {
            guard let scene = entry.scene else { continue }
            // Each file once: a list of 100,000 scenes over one DEM holds 100,001 inputs, not 200,000.
            if k % 4096 == 4095 { files.settle() }
            files.input("--scenes", scene)
            guard let sceneArgs = try? RenderOptions.applying(scene: scene, to: args) else { continue }
            for name in ["dem", "places", "track", "basemap", "geoid"] {
                for value in sceneArgs.all(name) { files.input("--" + name, value) }
            }
        }
        files.settle()
        self.files = files
    }

    /// The options given on the command line that shape the bytes of every scene: all but the
    /// batch's own, the thread count (the bytes are the same for any), help, network access,
    /// its time-out and --confine.
    static func options(_ args: ParsedArguments) -> [String] {
        let ignored = Set(
            (RenderOptions.batchOptions + [
                CommonOptions.threads.spec, CommonOptions.help.spec, CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec, CommonOptions.confine.spec,
            ])
            .map(\.name))
        var options: [String] = []
        for spec in RenderOptions.all where !ignored.contains(spec.name) {
            if spec.takesValue {
                options += args.all(spec.name).map { spec.name + "=" + $0 }
            } else if args.has(spec.name) {
                options.append(spec.name)
            }
        }
        return options
    }

    /// The manifest this shard writes once every scene is written, before any is.
    func plan(_ entries: ArraySlice<SceneList.Entry>, ordinals: ClosedRange<Int>?) -> SceneShardManifest {
        SceneShardManifest(
            list: list.path, listSHA256: list.sha256, shard: shard ?? Shard(index: 1, count: 1), totalScenes: list.entries.count,
            scenes: ordinals, lines: entries.first.map { first in first.line...(entries.last?.line ?? first.line) }, options: options,
            rendered: [])
    }

    /// True when `--skip-existing` finds the manifest of this very shard done: see
    /// ``SceneShardManifest/isDone(by:digest:)``.
    func isDone(_ plan: SceneShardManifest, _ entries: ArraySlice<SceneList.Entry>, existing: SceneShardManifest?) throws(CLIError) -> Bool {
        guard skipExisting, let existing else { return false }
        var expected = plan
        for entry in entries {
            guard let scene = entry.scene, let digest = try digests.of(scene) else { return false }
            expected.rendered.append(SceneShardManifest.Scene(line: entry.line, path: scene, sha256: digest, outputs: []))
        }
        guard existing.rendered.allSatisfy({ trusted($0) }) else { return false }
        return try expected.isDone(by: existing, digest: digests.of)
    }

    /// True when every output `record` lists is where its scene writes: a regular file (not a
    /// link, a FIFO or a device) in the directory of the scene's `out` (or under its `frames`
    /// directory), with the scene's `out` among them. A forged journal or manifest cannot make
    /// `--skip-existing` take a scene as done through files it never wrote (`/etc/hostname`,
    /// whose SHA-256 anyone can record).
    func trusted(_ record: SceneShardManifest.Scene) -> Bool {
        guard let sceneArgs = try? RenderOptions.applying(scene: record.path, to: args) else { return false }
        let out = (try? sceneArgs.value(RenderOptions.out)) ?? nil
        let frames = (try? sceneArgs.value(RenderOptions.frames)) ?? nil
        var places: [String] = []
        if let out, let directory = FileKey.realDirectory(of: out) { places.append(directory) }
        if let frames, let real = realPath(frames) { places.append(real) }
        guard !places.isEmpty else { return false }
        if let out, !record.outputs.contains(where: { FileKey($0.path) == FileKey(out) }) { return false }
        return record.outputs.allSatisfy { output in
            var info = stat()
            guard lstat(output.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                let directory = FileKey.realDirectory(of: output.path)
            else { return false }
            return places.contains { directory == $0 || directory.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The manifest already at ``manifestPath`` when `--skip-existing` may use it, read once.
    func existingManifest() throws(CLIError) -> SceneShardManifest? {
        guard skipExisting, let manifestPath else { return nil }
        return try SceneShardManifest.read(manifestPath)
    }

    /// With `--skip-existing`, the scenes of the shard an earlier run finished, by line: those
    /// its journal (or its manifest, when it is this shard's but no longer matches as a whole)
    /// records with this scene file's SHA-256 and with every output still holding its SHA-256,
    /// no output claimed twice. Says on stderr how many there are, and why a journal is ignored.
    func finished(
        _ plan: SceneShardManifest, _ entries: ArraySlice<SceneList.Entry>, existing: SceneShardManifest?, console: Console
    ) -> [Int: SceneShardManifest.Scene] {
        guard skipExisting, let manifestPath, let journalPath else { return [:] }
        var records: [Int: (scene: SceneShardManifest.Scene, source: String)] = [:]
        if let existing, SceneShardJournal.header(existing) == SceneShardJournal.header(plan) {
            for scene in existing.rendered { records[scene.line] = (scene, manifestPath) }
        }
        switch SceneShardJournal.read(journalPath, plan: plan) {
        case .records(let scenes)?: for scene in scenes { records[scene.line] = (scene, journalPath) }
        case .ignored(let why)?: console.err("note: the journal '\(journalPath)' \(why); ignored\n")
        case nil: break
        }
        var finished: [Int: SceneShardManifest.Scene] = [:]
        var sources: [String] = []
        var claimed: Set<FileKey> = []
        for entry in entries {
            guard let (record, source) = records[entry.line], let scene = entry.scene, record.path == scene,
                (try? digests.of(scene)) == record.sha256
            else { continue }
            let keys = record.outputs.map { FileKey($0.path) }
            guard Set(keys).count == keys.count, claimed.isDisjoint(with: keys),
                trusted(record), record.outputs.allSatisfy({ (try? digests.of($0.path)) == $0.sha256 })
            else { continue }
            claimed.formUnion(keys)
            finished[entry.line] = record
            if !sources.contains(source) { sources.append(source) }
        }
        if !finished.isEmpty {
            let shardText = shard.map { "shard \($0.text) of " } ?? ""
            console.err(
                "note: \(shardText)'\(list.path)': \(NumberFormatting.grouped(Double(finished.count), decimals: 0)) of \(NumberFormatting.count(entries.count, "scene")) already rendered (recorded in '\(sources.joined(separator: "' and '"))'), \(NumberFormatting.grouped(Double(entries.count - finished.count), decimals: 0)) to render\n"
            )
        }
        return finished
    }
}

extension RenderCommand {
    /// `render --scenes LIST [--shard K/N|auto]`: renders each scene of the shard as `render
    /// --scene FILE` with the same options would, each written atomically on its own; a scene
    /// that fails is said in one line naming its line of the list and the others are still
    /// rendered. With `--shard`, the shard's manifest is written last, and only when every
    /// scene succeeded. Exit 0, else 75 when a failure was temporary, else 1.
    static func runScenes(_ args: ParsedArguments, console: Console) throws -> Int32 {
        let batch = try SceneBatch(args)
        let (ordinals, entries) = batch.list.entries(of: batch.shard ?? Shard(index: 1, count: 1))
        var manifest = batch.plan(entries, ordinals: ordinals)
        let shardText = batch.shard.map { "shard \($0.text) of " } ?? ""
        let existing = try batch.existingManifest()
        if try batch.isDone(manifest, entries, existing: existing), let manifestPath = batch.manifestPath {
            console.err("note: \(shardText)'\(batch.list.path)' is already rendered (its manifest '\(manifestPath)' matches); skipped\n")
            return 0
        }
        let finished = batch.finished(manifest, entries, existing: existing, console: console)
        let journal = startJournal(batch, manifest, kept: entries.compactMap { finished[$0.line] }, console: console)
        // A manifest says its shard is finished: an earlier run's goes before any output is replaced.
        if let manifestPath = batch.manifestPath { try removeManifest(manifestPath) }
        var written: [FileKey: Int] = [:]
        var failed = 0
        var temporary = false
        for entry in entries {
            // A scene an earlier run finished stands, unless a scene rendered before it in this
            // run wrote one of its files (then it is rendered, and refused, as in one run).
            if let record = finished[entry.line], record.outputs.allSatisfy({ written[FileKey($0.path)] == nil }) {
                for output in record.outputs { written[FileKey(output.path)] = entry.line }
                manifest.rendered.append(record)
                continue
            }
            do {
                let scene = try onThreadOfItsOwn {
                    try renderScene(entry, args, list: batch.list, files: batch.files, written: &written, console: console)
                }
                manifest.rendered.append(scene)
                if let journal, let problem = journal.append(scene) {
                    console.err(
                        "note: cannot add to the journal '\(journal.path)': \(problem); a rerun will render the scenes finished from here on again\n")
                }
            } catch {
                let message = (error as? any UserFacingError)?.message ?? String(describing: error)
                let scene = entry.scene.map { "scene '\($0)': " } ?? ""
                console.err("Error: \(batch.list.path):\(entry.line): \(scene)\(message)".printable(limit: 4000) + "\n")
                failed += 1
                temporary = temporary || (error as? any UserFacingError)?.isTemporary == true
            }
        }
        guard failed == 0 else {
            let unwritten = batch.manifestPath == nil ? "" : "; no manifest written, so the shard is not finished"
            console.err("note: \(failed) of \(NumberFormatting.count(entries.count, "scene")) in \(shardText)'\(batch.list.path)' failed\(unwritten)\n")
            return temporary ? CLIError.temporaryFailureExitCode : 1
        }
        if let manifestPath = batch.manifestPath {
            let transaction = OutputTransaction()
            try transaction.write(manifest.json.serialized() + "\n", to: manifestPath)
            try transaction.commit()
            journal?.stop()
            if let journalPath = batch.journalPath { SceneShardJournal.remove(journalPath) }
            console.err("note: \(shardText)'\(batch.list.path)': \(NumberFormatting.count(entries.count, "scene")) rendered; manifest '\(manifestPath)'\n")
        }
        return 0
    }

    /// The journal of `batch`'s shard, started afresh with the scenes `kept`; nil without
    /// `--shard`, or (said on stderr) when it cannot be written: the scenes are still rendered.
    static func startJournal(
        _ batch: SceneBatch, _ plan: SceneShardManifest, kept: [SceneShardManifest.Scene], console: Console
    ) -> SceneShardJournal? {
        guard let path = batch.journalPath else { return nil }
        do { return try SceneShardJournal(path: path, plan: plan, keeping: kept) } catch {
            console.err("note: cannot keep the shard's journal: \(error.message); a rerun will render again what this run renders\n")
            return nil
        }
    }

    /// Renders one scene of the list with the command line's options over it, and records what
    /// it wrote. Refuses a scene without an output and one writing a file an earlier scene of
    /// this run wrote.
    static func renderScene(
        _ entry: SceneList.Entry, _ args: ParsedArguments, list: SceneList, files: RunFiles, written: inout [FileKey: Int], console: Console
    ) throws -> SceneShardManifest.Scene {
        guard let scene = entry.scene else { throw CLIError.badInput("the line \(entry.problem ?? "names no scene file")") }
        let sceneArgs = try RenderOptions.applying(scene: scene, to: args)
        guard sceneArgs.has(RenderOptions.out) || sceneArgs.has(RenderOptions.frames) else {
            throw CLIError.badInput("has no \"out\"; each scene of a --scenes list says where its map goes")
        }
        let sceneDigest = try ShardManifest.digest(ofFile: scene)
        let prefix = "\(list.path):\(entry.line): "
        let sceneConsole = Console(out: { console.out($0) }, err: { console.err(Self.prefixingLines($0, with: prefix)) })
        let outputs = try render(sceneArgs, console: sceneConsole, files: files) { paths in
            for path in paths {
                if let line = written[FileKey(path)] {
                    throw CLIError.badInput("writes '\(path)', which the scene on line \(line) of '\(list.path)' wrote in this run")
                }
            }
        }
        var recorded: [SceneShardManifest.Output] = []
        for path in outputs {
            guard let digest = try ShardManifest.digest(ofFile: path) else { throw CLIError.retryable("'\(path)' is gone right after it was written") }
            recorded.append(SceneShardManifest.Output(path: path, sha256: digest))
            written[FileKey(path)] = entry.line
        }
        guard let sceneDigest else { throw CLIError.retryable("cannot read '\(scene)' again after rendering it") }
        return SceneShardManifest.Scene(line: entry.line, path: scene, sha256: sceneDigest, outputs: recorded)
    }

    /// Runs `body` on a new thread and waits for it: GDAL keeps a cache of CRSs by EPSG code for
    /// each thread, filled by whichever definition of a code a thread met first (a GeoTIFF's
    /// keys or PROJ's database, whose WKT differ), so a scene drawn after another could write
    /// other bytes than it does alone. On a thread of its own, each scene starts as a process does.
    static func onThreadOfItsOwn<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: Result<T, any Error>?
            var failure: Int32 = 0
            // The main thread's stack size: deep enough for whatever a render recurses into.
            guard let thread = OwnThread(stackBytes: 8 << 20, failure: &failure, { result = Result { try body() } }) else {
                throw CLIError.retryable("cannot start a thread for the scene: \(SystemError.text(failure))")
            }
            thread.join()
            guard let result else { preconditionFailure("a scene's thread ended without a result") }
            return try result.get()
        }
    }

    /// `text` with `prefix` at the start of each of its lines.
    static func prefixingLines(_ text: String, with prefix: String) -> String {
        guard !text.isEmpty else { return text }
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return prefix + body.replacingAll("\n", with: "\n" + prefix) + (text.hasSuffix("\n") ? "\n" : "")
    }

    /// Removes the manifest at `path`, if any.
    static func removeManifest(_ path: String) throws(CLIError) {
        do throws(SystemError) { _ = try SystemError.call { unlink(path) } } catch {
            if error.code != ENOENT { throw CLIError.ioFailure(path: path, reading: false, error) }
        }
    }
}

/// Files' SHA-256s (nil: no such file), each read once however often it is asked for; a read
/// that fails is not kept, so asking again reads again.
final class FileDigests {
    private var known: [String: String?] = [:]

    func of(_ path: String) throws(CLIError) -> String? {
        if let digest = known[path] { return digest }
        let digest = try ShardManifest.digest(ofFile: path)
        known[path] = digest
        return digest
    }
}
