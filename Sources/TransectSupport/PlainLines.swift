/// Counting the lines of a CSV in bulk, 32 bytes at a step: the fast path under a pairs file's
/// row count and under a shard's skip to its first row.
///
/// A *plain* line ends with a line feed, holds no NUL byte, is at most `maxLineBytes` bytes
/// before its line feed, and begins with a byte that cannot start a blank line: not LF, CR,
/// space or tab, and below 0x80 (so neither a byte order mark nor a Unicode space). Such a line
/// is certainly a data row, with no error to report. Every other line is left to the caller's
/// line-by-line reading, which knows what it is.
public enum PlainLines {
    /// The plain lines at the start of `bytes`, at most `maxLines` of them: how many, and the
    /// number of bytes they take (up to and including the last one's line feed). Stops before
    /// the first line that is not plain or does not end within the last whole 32 bytes, so
    /// `bytes` is assumed to start at the beginning of a line.
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, maxLines: Int, maxLineBytes: Int) -> (lines: Int, bytes: Int) {
        guard let base = bytes.baseAddress, maxLines > 0 else { return (0, 0) }
        var lines = 0
        var lineStart = 0  // where the line after the last counted one begins
        var startsNext: UInt32 = 1  // bit 0: the next block's first byte begins a line
        var i = 0
        while i + 32 <= bytes.count {
            // A line still open at the block's end may run past the limit: left to the caller.
            if i + 32 - lineStart > maxLineBytes { break }
            let c = KernelHints.classify32(base + i)
            let starts = (c.lineFeeds << 1) | startsNext
            let bad = (starts & c.blankStarts) | c.nuls
            // Line feeds before the first bad byte end plain lines.
            var ends = bad == 0 ? c.lineFeeds : c.lineFeeds & ((UInt32(1) << UInt32(bad.trailingZeroBitCount)) &- 1)
            let room = maxLines - lines
            var limited = false
            if ends.nonzeroBitCount > room {
                // Keep the first `room` line feeds only.
                var kept: UInt32 = 0
                for _ in 0..<room {
                    kept |= ends & (0 &- ends)
                    ends &= ends &- 1
                }
                ends = kept
                limited = true
            }
            if ends != 0 {
                lines += ends.nonzeroBitCount
                lineStart = i + (31 - ends.leadingZeroBitCount) + 1
            }
            if bad != 0 || limited || lines == maxLines { break }
            startsNext = c.lineFeeds >> 31
            i += 32
        }
        return (lines, lineStart)
    }
}
