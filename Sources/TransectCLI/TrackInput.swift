import TransectCore
import TransectFormats

/// Track files named on the command line (`track --in`, `profile --track`, `render --track`).
enum TrackInput {
    /// Reads and cleans a track file (``TrackFile/load(path:note:)``), its notes on stderr.
    static func load(_ path: String, console: Console) throws(FormatError) -> LoadedTrack {
        try TrackFile.load(path: path) { console.err($0 + "\n") }
    }

    /// Refuses a `--max-segment` that would densify `track` past ``Track/maxPoints``, as a
    /// usage error of `command`.
    static func checkDensifiedCount(_ track: Track, maxSegment: Double, command: String) throws(CLIError) {
        do { try track.checkDensifiedCount(maxSegmentMetres: maxSegment) } catch {
            throw .usage("option '--max-segment': " + error.message, command: command)
        }
    }
}
