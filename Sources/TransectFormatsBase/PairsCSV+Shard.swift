import TransectSupport

extension PairsReader {
    /// Reads past up to `rows` non-blank rows without keeping them, so the next row read keeps
    /// its number in the whole file; returns how many there were (fewer at the end). A line
    /// error (too long, a NUL byte) throws as it would when read.
    @discardableResult
    public func skipRows(_ rows: Int) throws(FormatError) -> Int {
        let skipped = try lines.skipLines(counting: rows, isBlank: Self.isBlank)
        rowNumber += skipped
        return skipped
    }

    /// The number of data rows (non-blank lines after the header) in the file at `path`: the
    /// cheap first pass that places shards' row ranges. `observer`, when given, sees every
    /// byte of the file in order (the pass reads to the end), so a hash of the input costs no
    /// second read.
    public static func countRows(path: String, observingBytes observer: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(FormatError) -> Int {
        try survey(path: path, observingBytes: observer).rows
    }

    /// What the first pass over a pairs file learns: how many data rows it holds, and where
    /// every ``Survey/checkpointRows``-th row ends, so that a shard starting deep in the file
    /// moves there with a seek instead of reading every line before it.
    public struct Survey: Sendable, Equatable {
        /// Rows between two checkpoints, unless the survey asks for others.
        public static let checkpointRows = 1 << 16
        /// The file's data rows.
        public var rows: Int
        /// After `rows` data rows (1×, 2×… ``checkpointRows``), the next line begins at byte
        /// `offset` of the file, with `lines` lines (header and blank ones included) before it.
        public var checkpoints: [(rows: Int, offset: Int, lines: Int)]

        public static func == (a: Survey, b: Survey) -> Bool {
            a.rows == b.rows && a.checkpoints.elementsEqual(b.checkpoints, by: { $0 == $1 })
        }
    }

    /// Reads the whole file at `path` once, as ``countRows(path:observingBytes:)`` does, and
    /// records a checkpoint every `checkpointRows` rows on the way.
    public static func survey(
        path: String, observingBytes observer: ((UnsafeRawBufferPointer) -> Void)? = nil, checkpointRows: Int = Survey.checkpointRows
    ) throws(FormatError) -> Survey {
        // A buffer of 1 MiB: the pass is a read and a scan, the fewer reads the better.
        let source = path == "-" ? "stdin" : path
        let lines = try LineSource(path: path, source: source, observer: observer, bufferBytes: 1 << 20)
        let reader = try PairsReader(lines: lines, source: source)
        var survey = Survey(rows: 0, checkpoints: [])
        while true {
            let skipped = try reader.skipRows(checkpointRows)
            survey.rows += skipped
            guard skipped == checkpointRows else { break }
            let position = lines.position
            survey.checkpoints.append((survey.rows, position.offset, position.lines))
        }
        return survey
    }

    /// Moves past the first `rows` data rows, with a seek to the last of `survey`'s checkpoints
    /// on the way (the survey must be of this file, and this reader must not have read past
    /// them; an input that cannot seek is read from where it is), then reading the rows
    /// after it. The next row read is row `rows + 1`.
    public func skip(toRow rows: Int, survey: Survey) throws(FormatError) {
        if let checkpoint = survey.checkpoints.last(where: { $0.rows <= rows }), checkpoint.rows > rowNumber,
            try lines.seek(to: (checkpoint.offset, checkpoint.lines))
        {
            rowNumber = checkpoint.rows
        }
        try skipRows(rows - rowNumber)
    }
}
