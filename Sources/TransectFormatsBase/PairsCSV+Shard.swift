import TransectCore

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
        // A buffer of 1 MiB: the pass is a read and a memchr per line, the fewer reads the better.
        let source = path == "-" ? "stdin" : path
        let lines = try LineSource(path: path, source: source, observer: observer, bufferBytes: 1 << 20)
        return try PairsReader(lines: lines, source: source).skipRows(Int.max)
    }
}
