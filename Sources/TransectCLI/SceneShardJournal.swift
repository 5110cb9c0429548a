#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectFormats
import TransectSupport

/// The scenes a shard of `render --scenes LIST --shard K/N` has finished so far, kept beside its
/// manifest (`MANIFEST.journal`, so `LIST.shard-K-of-N.manifest.json.journal` by default) while
/// it runs, so that a rerun with `--skip-existing` of a shard that was stopped (killed, out of
/// time, a scene failed) renders only what is missing.
///
/// JSON lines. The first is the header: the manifest's facts but its scenes (format
/// `transect-scenes-journal/1`, the list and its SHA-256, the shard, its scenes and lines, the
/// total, the options). Each further line is one finished scene as the manifest records it (its
/// line, the scene file and its SHA-256, every file it wrote with its SHA-256), appended with one
/// `write` and flushed to disk (`fsync`) once the scene's files are in place. A run starts its
/// journal afresh, written beside and renamed into place, holding the header and the scenes it
/// takes as finished; the journal is removed once the manifest is written.
///
/// A reader trusts a journal only when its header is the very line this run would write, and
/// then its records up to the first line that does not end in a newline or does not read as a
/// record: a line torn by a crash is never trusted, nor anything after it.
final class SceneShardJournal {
    static let format = "transect-scenes-journal/1"

    let path: String
    /// The journal, open to append; -1 once closed.
    private var descriptor: Int32 = -1

    /// The journal of the shard whose manifest goes to `manifest`.
    static func path(manifest: String) -> String { manifest + ".journal" }

    /// The header line (without its newline) of the shard `plan` describes: its manifest's
    /// facts, in the manifest's order, but the format and the scenes.
    static func header(_ plan: SceneShardManifest) -> String {
        var members = (plan.json.members ?? []).filter { $0.0 != "scenes" }
        if let k = members.firstIndex(where: { $0.0 == "format" }) { members[k].1 = .string(format) }
        return JSON.object(members).serialized(indent: nil)
    }

    /// A finished scene's line (without its newline).
    static func record(_ scene: SceneShardManifest.Scene) -> String { scene.json.serialized(indent: nil) }

    /// What a journal holds for a shard.
    enum Contents: Equatable {
        /// The records of the shard's header, in the order written.
        case records([SceneShardManifest.Scene])
        /// Nothing in it may be trusted, for the reason given (`is not a … file`).
        case ignored(String)
    }

    /// What the journal at `path` holds for the shard `plan` describes; nil when there is none.
    static func read(_ path: String, plan: SceneShardManifest) -> Contents? {
        let bytes: [UInt8]
        do throws(CLIError) {
            guard let contents = try ShardManifest.Fields.contents(path) else { return nil }
            bytes = contents
        } catch {
            return .ignored("cannot be read")
        }
        return contents(bytes, path: path, plan: plan)
    }

    /// What the journal bytes `bytes` (the file at `path`) hold for the shard `plan` describes.
    static func contents(_ bytes: [UInt8], path: String, plan: SceneShardManifest) -> Contents {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        // What follows the last newline: nothing, or a line a crash cut short.
        lines.removeLast()
        guard let first = lines.first, first.elementsEqual(header(plan).utf8) else {
            let json = lines.first.flatMap { try? JSON.parse($0, path: path) }
            return .ignored(json?["format"]?.string == format ? "records another list, shard or options" : "is not a \(format) file")
        }
        var records: [SceneShardManifest.Scene] = []
        for line in lines.dropFirst() {
            guard let json = try? JSON.parse(line, path: path), let scene = SceneShardManifest.Scene(record: json) else { break }
            records.append(scene)
        }
        return .records(records)
    }

    /// Starts the journal at `path` afresh for the shard `plan` describes, holding the scenes
    /// `kept` (finished by an earlier run), and opens it to append the scenes this run finishes.
    init(path: String, plan: SceneShardManifest, keeping kept: [SceneShardManifest.Scene]) throws(CLIError) {
        self.path = path
        let transaction = OutputTransaction()
        try transaction.write(([Self.header(plan)] + kept.map(Self.record)).map { $0 + "\n" }.joined(), to: path)
        try transaction.commit()
        do throws(SystemError) {
            descriptor = try SystemError.call { open(path, O_WRONLY | O_APPEND | O_CLOEXEC) }
        } catch {
            throw CLIError.ioFailure(path: path, reading: false, error)
        }
    }

    deinit { stop() }

    /// Adds `scene`, finished, and flushes it to disk; nil once done, else why it failed, and
    /// the journal stops there (what it holds stays trusted).
    func append(_ scene: SceneShardManifest.Scene) -> String? {
        guard descriptor >= 0 else { return nil }
        let bytes = Array((Self.record(scene) + "\n").utf8)
        let descriptor = self.descriptor
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in
                var done = 0
                while done < buffer.count {
                    done += try SystemError.call(retryingInterrupts: true) {
                        write(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done)
                    }
                }
                try SystemError.call(retryingInterrupts: true) { fsync(descriptor) }
            }
        }
        guard case .failure(let error) = outcome else { return nil }
        stop()
        return error.text
    }

    /// Closes the journal; what it holds stays.
    func stop() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Removes the journal at `path`: the shard's manifest now says all it said.
    static func remove(_ path: String) { unlink(path) }
}

extension SceneShardManifest.Scene {
    /// The scene a journal's record (or a manifest's `scenes` item) gives; nil when `json` is
    /// not one.
    init?(record json: JSON) {
        guard let line = json["line"]?.number, line >= 1, line < 1e15, line == line.rounded(), let path = json["scene"]?.string,
            let sha256 = json["scene_sha256"]?.string, let items = json["outputs"]?.array
        else { return nil }
        var outputs: [SceneShardManifest.Output] = []
        for item in items {
            guard let path = item["path"]?.string, let sha256 = item["sha256"]?.string else { return nil }
            outputs.append(SceneShardManifest.Output(path: path, sha256: sha256))
        }
        self.init(line: Int(line), path: path, sha256: sha256, outputs: outputs)
    }
}
