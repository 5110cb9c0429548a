import TransectAnalysis
import TransectSupport

/// A track file read and cleaned: the track, what was dropped (invalid positions only; a fix
/// with a bad time keeps its place, see ``TimeCounts``) and notes for the user.
public struct LoadedTrack: Sendable {
    public var track: Track
    public var dropped: [DropReason: Int]
    /// Whole lines for stderr, without the newline (`note: 'walk.gpx': dropped 2 invalid fixes
    /// (2 zero zero)`).
    public var notes: [String]

    public init(track: Track, dropped: [DropReason: Int], notes: [String]) {
        self.track = track
        self.dropped = dropped
        self.notes = notes
    }
}

extension TrackFile {
    /// Reads a track file of any supported format (see ``read(path:)``), drops its invalid
    /// fixes (``Track/clean()``) and says how many went.
    ///
    /// - Parameter note: hears each note as it is made, so a note made before a failure (the
    ///   fixes dropped from a track that then has none) still reaches the user.
    /// - Throws: the reader's ``FormatError``, or ``FormatError/malformed(path:reason:)``
    ///   (`'PATH': no valid fixes in the track`) when cleaning leaves no fix.
    public static func load(path: String, note: (String) -> Void = { _ in }) throws(FormatError) -> LoadedTrack {
        var track = try read(path: path)
        let path = path == "-" ? "stdin" : path
        let dropped = track.clean()
        var notes: [String] = []
        if !dropped.isEmpty {
            let reasons = DropReason.allCases.compactMap { reason in
                dropped[reason].map { "\($0) \(reason.rawValue.split(separator: "_", omittingEmptySubsequences: false).joined(separator: " "))" }
            }
            let count = NumberFormatting.count(dropped.values.reduce(0, +), "invalid fix", plural: "invalid fixes")
            notes.append("note: '\(path)': dropped \(count) (\(reasons.joined(separator: ", ")))")
            note(notes[notes.count - 1])
        }
        guard track.pointCount > 0 else { throw .malformed(path: path, reason: "no valid fixes in the track") }
        return LoadedTrack(track: track, dropped: dropped, notes: notes)
    }
}
