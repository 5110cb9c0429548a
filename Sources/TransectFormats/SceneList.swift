import Foundation
import TransectSupport

/// A list of scene files for `render --scenes LIST`: one scene file per line, relative paths
/// resolved against the list's directory; blank lines and lines starting with `#` are no scene
/// but keep their line numbers, so messages name the line as an editor shows it.
///
/// ```text
/// # Yosemite report figures
/// valley.scene.json
/// ../shared/half-dome.scene.json
/// ```
///
/// The scenes are numbered 1…S in list order; a shard of the list is a contiguous run of them
/// (`Shard.rows(of: S)`), so a scene's shard depends only on its place among the scenes.
public struct SceneList: Sendable {
    /// One scene line.
    public struct Entry: Sendable, Equatable {
        /// The line of the list (from 1), counting blank and comment lines.
        public let line: Int
        /// The scene file, resolved against the list's directory; nil for a line that names no
        /// file (see ``problem``).
        public let scene: String?
        /// Why the line names no scene file (not UTF-8, control characters); nil when it does.
        public let problem: String?
    }

    /// The list's path, as given.
    public let path: String
    /// The SHA-256 of the list's bytes, in hexadecimal.
    public let sha256: String
    /// The scenes, in list order.
    public let entries: [Entry]

    /// The most bytes of a list read: 64 MiB, about a million scene paths.
    public static let maximumBytes = 64 * 1024 * 1024

    /// Reads the list at `path`.
    /// - Throws: `FormatError` for a list that cannot be read, is over ``maximumBytes`` or holds
    ///   a NUL byte (a binary file, not a list).
    public init(path: String) throws(FormatError) {
        let data = try TextInput.contents(path: path, limit: Self.maximumBytes, kind: "scene lists", regularOnly: true)
        try self.init(data: data, path: path)
    }

    /// The list in `data`; `path` names it in messages and is the base of relative paths.
    public init(data: Data, path: String) throws(FormatError) {
        if let nul = data.firstIndex(of: 0) {
            throw .malformed(path: path, reason: "line \(TextInput.lineNumber(data, at: nul)): contains a NUL byte; not a list of scene files")
        }
        self.path = path
        var hash = SHA256()
        data.withUnsafeBytes { hash.update($0) }
        sha256 = hash.hexDigest
        let base = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
        var entries: [Entry] = []
        var number = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var bytes = rawLine[...]
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            guard let text = String(bytes: bytes, encoding: .utf8) else {
                entries.append(Entry(line: number, scene: nil, problem: "is not UTF-8 text"))
                continue
            }
            let trimmed = text.trimmingAsciiSpaces(andByteOrderMarks: number == 1)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                entries.append(Entry(line: number, scene: nil, problem: "holds control characters, so it names no scene file"))
                continue
            }
            let scene = trimmed.hasPrefix("/") ? trimmed : SceneFile.normalised(base + "/" + trimmed)
            entries.append(Entry(line: number, scene: scene, problem: nil))
        }
        self.entries = entries
    }

    /// The scenes shard `shard` holds, with their ordinals (from 1) among all the list's scenes.
    public func entries(of shard: Shard) -> (ordinals: ClosedRange<Int>?, entries: ArraySlice<Entry>) {
        guard let ordinals = shard.rows(of: entries.count) else { return (nil, []) }
        return (ordinals, entries[(ordinals.lowerBound - 1)...(ordinals.upperBound - 1)])
    }
}
