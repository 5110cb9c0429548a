import TransectFormats
import TransectSupport

/// The record a shard of `render --scenes LIST --shard K/N` leaves once every scene of it is
/// written (`LIST.shard-K-of-N.manifest.json` by default): the list (path, SHA-256), the shard
/// and its scenes (ordinals among the list's scenes, and lines of the list), the options given
/// over the scenes, and for each scene its line, its file's path and SHA-256 and every file it
/// wrote with that file's SHA-256. `--skip-existing` trusts a shard's outputs only through it.
struct SceneShardManifest: Equatable {
    static let format = "transect-scenes-manifest/1"

    /// One scene of the shard and what it wrote.
    struct Scene: Equatable {
        var line: Int
        var path: String
        var sha256: String
        var outputs: [Output]

        /// The scene as the manifest's `scenes` (and the journal's records) hold it.
        var json: JSON {
            .object([
                ("line", .number(Double(line))), ("scene", .string(path)), ("scene_sha256", .string(sha256)),
                ("outputs", .array(outputs.map { .object([("path", .string($0.path)), ("sha256", .string($0.sha256))]) })),
            ])
        }
    }

    /// A written file and the SHA-256 of its bytes.
    struct Output: Equatable {
        var path: String
        var sha256: String
    }

    var list: String
    var listSHA256: String
    var shard: Shard
    /// How many scenes the whole list holds.
    var totalScenes: Int
    /// The shard's scenes among the list's (from 1); nil when it holds none.
    var scenes: ClosedRange<Int>?
    /// The lines of the list (from 1) from the shard's first scene to its last; nil when it
    /// holds none.
    var lines: ClosedRange<Int>?
    /// The options given over every scene that shape the bytes, as `name=value` (or `name` for
    /// a flag) texts, in the help's order.
    var options: [String]
    var rendered: [Scene]

    /// Where shard `shard` of the list at `list` leaves its manifest unless `--manifest` says:
    /// beside the list, so every task of a job array finds it whatever its working directory.
    static func defaultPath(list: String, shard: Shard) -> String { list + ".shard-\(shard.index)-of-\(shard.count).manifest.json" }

    var json: JSON {
        func range(_ r: ClosedRange<Int>?, _ first: String, _ last: String) -> [(String, JSON)] {
            [(first, r.map { .number(Double($0.lowerBound)) } ?? .null), (last, r.map { .number(Double($0.upperBound)) } ?? .null)]
        }
        let scenes: [JSON] = rendered.map(\.json)
        return .object(
            [("format", .string(Self.format)), ("list", .string(list)), ("list_sha256", .string(listSHA256)), ("shard", .string(shard.text))]
                + range(self.scenes, "first_scene", "last_scene") + range(lines, "first_line", "last_line") + [
                    ("total_scenes", .number(Double(totalScenes))), ("options", .array(options.map { .string($0) })),
                    ("scenes", .array(scenes)),
                ])
    }

    /// Reads the manifest at `path`; nil when there is none. A manifest that is there but does
    /// not read as one throws.
    static func read(_ path: String) throws(CLIError) -> SceneShardManifest? {
        guard let bytes = try ShardManifest.Fields.contents(path) else { return nil }
        return try parse(bytes, path: path)
    }

    /// The manifest in `bytes` (the file at `path`, which messages name).
    static func parse(_ bytes: [UInt8], path: String) throws(CLIError) -> SceneShardManifest {
        let fields = try ShardManifest.Fields(bytes: bytes, path: path, format: format)
        guard let options = fields.json["options"]?.array?.compactMap(\.string) else { throw fields.bad("lacks 'options'") }
        guard let sceneObjects = fields.json["scenes"]?.array else { throw fields.bad("lacks 'scenes'") }
        var rendered: [Scene] = []
        for object in sceneObjects {
            guard let outputObjects = object["outputs"]?.array else { throw fields.bad("a scene lacks 'outputs'") }
            var outputs: [Output] = []
            for output in outputObjects {
                outputs.append(Output(path: try fields.text("path", in: output), sha256: try fields.text("sha256", in: output)))
            }
            rendered.append(
                Scene(
                    line: try fields.count("line", in: object), path: try fields.text("scene", in: object),
                    sha256: try fields.text("scene_sha256", in: object), outputs: outputs))
        }
        return SceneShardManifest(
            list: try fields.text("list"), listSHA256: try fields.text("list_sha256"), shard: try fields.shard(),
            totalScenes: try fields.count("total_scenes"), scenes: try fields.range("first_scene", "last_scene", of: "scene"),
            lines: try fields.range("first_line", "last_line", of: "line"), options: options, rendered: rendered)
    }

    /// True when `existing` records this shard of this list, over these scene files (each with
    /// the SHA-256 this manifest gives it) and with these options, and every file it lists
    /// still has the SHA-256 it records (`digest`: a file's SHA-256, nil when there is none).
    func isDone(by existing: SceneShardManifest, digest: (String) throws(CLIError) -> String?) throws(CLIError) -> Bool {
        guard
            existing.listSHA256 == listSHA256 && existing.shard == shard && existing.totalScenes == totalScenes
                && existing.scenes == scenes && existing.lines == lines && existing.options == options
                && existing.rendered.map({ [String($0.line), $0.path, $0.sha256] }) == rendered.map({ [String($0.line), $0.path, $0.sha256] })
        else { return false }
        for scene in existing.rendered {
            for output in scene.outputs where try digest(output.path) != output.sha256 { return false }
        }
        return true
    }
}
