import TransectAnalysis
import TransectFormats

/// Track files named on the command line (`track --in`, `profile --track`, `render --track`).
enum TrackInput {
    /// Reads and cleans a track file (``TrackFile/load(path:note:)``), its notes on stderr.
    static func load(_ path: String, console: Console) throws(FormatError) -> LoadedTrack {
        try TrackFile.load(path: path) { console.err($0 + "\n") }
    }

    /// `track` densified to `--max-segment` (``Track/densifiedChecked(maxSegmentMetres:interpolatingTimes:)``);
    /// a length that would densify it past ``Track/maxPoints`` is a usage error of `command`.
    static func densified(_ track: Track, maxSegment: Double, interpolatingTimes: Bool = true, command: String) throws(CLIError) -> Track {
        do { return try track.densifiedChecked(maxSegmentMetres: maxSegment, interpolatingTimes: interpolatingTimes) } catch {
            throw usage(error, command: command)
        }
    }

    /// A limit error as a usage error of the option that asked for too much: `--max-segment`
    /// for a densified track, `--speed` for simulated fixes.
    static func usage(_ error: TrackLimitError, command: String) -> CLIError {
        switch error {
        case .densifiedTooLarge: .usage("option '--max-segment': " + error.message, command: command)
        case .tooManyFixes, .stepLongerThanSegment: .usage("option '--speed': " + error.message, command: command)
        }
    }
}
