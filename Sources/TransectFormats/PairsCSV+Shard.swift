import TransectCore

extension PairsReader {
    /// Reads past up to `rows` non-blank rows without keeping them, so the next row read keeps
    /// its number in the whole file; returns how many there were (fewer at the end). A line
    /// error (too long, a NUL byte) throws as it would when read.
    @discardableResult
    public func skipRows(_ rows: Int) throws(FormatError) -> Int {
        var skipped = 0
        while skipped < rows {
            guard let taken = try lines.nextLine({ _, line in !Self.isBlank(line) }) else { break }
            if taken {
                rowNumber += 1
                skipped += 1
            }
        }
        return skipped
    }

    /// The number of data rows (non-blank lines after the header) in the file at `path`: the
    /// cheap first pass that places shards' row ranges. `observer`, when given, sees every
    /// byte of the file in order (the pass reads to the end), so a hash of the input costs no
    /// second read.
    public static func countRows(path: String, observingBytes observer: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(FormatError) -> Int {
        try PairsReader(path: path, observingBytes: observer).skipRows(Int.max)
    }
}
