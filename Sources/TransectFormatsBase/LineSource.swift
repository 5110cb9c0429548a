#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// Lines of a file, stdin or bytes, each at most `PairsReader.maximumLineBytes` long and free of
/// NUL bytes, read through a fixed buffer.
final class LineSource {
    struct Line {
        var number: Int
        var text: String
    }

    private let file: UnsafeMutablePointer<FILE>?
    private let ownsFile: Bool
    private let source: String
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var lineNumber = 0
    /// Where `buffer[0]` lies in the file: what ``seek(to:)`` returns to.
    private var bufferOffset = 0
    /// True for a regular file opened here, the only input ``seek(to:)`` can move in.
    private var seekable = false
    /// Sees every byte read from the file, in order, as it arrives (a hash of the input taken
    /// in the same pass as its lines).
    private let observer: ((UnsafeRawBufferPointer) -> Void)?

    /// Reads `path` (`-` for stdin) through a buffer of `bufferBytes` (more when a line needs it).
    init(
        path: String, source: String, observer: ((UnsafeRawBufferPointer) -> Void)? = nil, bufferBytes: Int = 64 * 1024
    ) throws(FormatError) {
        self.source = source
        self.observer = observer
        buffer = [UInt8](repeating: 0, count: max(bufferBytes, 1024))
        if path == "-" {
            file = stdin
            ownsFile = false
            return
        }
        // A regular file only (a FIFO would stall the open or give its rows once; a device
        // never ends): stdin is `-`.
        do throws(SystemError) {
            let fd = try RegularFile.openForReading(path)
            do throws(SystemError) { file = try SystemError.call { fdopen(fd, "r") } } catch {
                close(fd)
                throw error
            }
        } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
        ownsFile = true
        seekable = true
    }

    init(bytes: some Sequence<UInt8>, source: String) {
        self.source = source
        observer = nil
        file = nil
        ownsFile = false
        buffer = Array(bytes)
        end = buffer.count
        atEnd = true
    }

    deinit { if ownsFile, let file { fclose(file) } }

    /// Refills the buffer, keeping the unread bytes; false at the end of the input.
    private func fill() throws(FormatError) -> Bool {
        guard !atEnd, let file else { return false }
        if start > 0 {
            bufferOffset += start
            buffer.withUnsafeMutableBufferPointer { b in
                for k in 0..<(end - start) { b[k] = b[start + k] }
            }
            end -= start
            start = 0
        }
        if end == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
        // read(2), not fread: a pipe gives what has arrived, so rows trickling in from a
        // producer are measured as they come rather than after 64 KiB.
        let n: Int
        do throws(SystemError) {
            n = try SystemError.call(retryingInterrupts: true) {
                buffer.withUnsafeMutableBufferPointer { b in read(fileno(file), b.baseAddress! + end, b.count - end) }
            }
        } catch {
            throw .cannotRead(path: source, reason: error.text)
        }
        if n == 0 {
            atEnd = true
            return false
        }
        if let observer { buffer.withUnsafeBytes { observer(UnsafeRawBufferPointer(rebasing: $0[end..<(end + n)])) } }
        end += n
        return true
    }

    /// The next line without its line break (LF, CRLF), or nil at the end.
    func next() throws(FormatError) -> Line? {
        try nextLine { number, bytes in Line(number: number, text: String(decoding: bytes, as: UTF8.self)) }
    }

    /// Calls `body` with the next line's number and bytes (without its line break, LF or CRLF,
    /// and never holding a NUL), valid only during the call; nil at the end.
    func nextLine<R>(_ body: (Int, UnsafeBufferPointer<UInt8>) -> R) throws(FormatError) -> R? {
        var scanned = 0  // bytes of this line already searched for a line break
        while true {
            if let nl = find(0x0A, from: start + scanned, to: end) {
                return try take(upTo: nl, skip: 1, body)
            }
            scanned = end - start
            // A line break may still follow a CR: one byte of grace before the limit bites.
            if scanned > PairsReader.maximumLineBytes + 1 { throw tooLong() }
            guard try fill() else {
                if start == end { return nil }
                return try take(upTo: end, skip: 0, body)
            }
        }
    }

    /// Reads past lines until `rows` of them are not `isBlank` (or the input ends), and returns
    /// how many of those there were: the lines ``nextLine(_:)`` would give, with the same errors
    /// at the same lines, taken out of the buffer a whole buffer at a time. A line breaks at LF
    /// only (a CSV field in quotes cannot hold one: each line is a row), so counting rows is
    /// finding LFs: runs of plain lines 32 bytes at a step (``PlainLines``), and each other line
    /// by `memchr`, its first byte deciding that it is not blank unless it is a space, tab, CR or
    /// not ASCII. A line holding a NUL byte or too long is left to ``nextLine(_:)``, which throws
    /// its error.
    func skipLines(counting rows: Int, isBlank: (UnsafeBufferPointer<UInt8>) -> Bool) throws(FormatError) -> Int {
        var counted = 0
        while counted < rows {
            var position = start
            buffer.withUnsafeBufferPointer { b in
                let base = b.baseAddress!
                while counted < rows {
                    let plain = PlainLines.scan(
                        UnsafeBufferPointer(rebasing: b[position..<end]), maxLines: rows - counted,
                        maxLineBytes: PairsReader.maximumLineBytes)
                    counted += plain.lines
                    lineNumber += plain.lines
                    position += plain.bytes
                    guard counted < rows, let found = memchr(base + position, 0x0A, end - position) else { break }
                    // One line the careful way.
                    let nl = UnsafeRawPointer(base).distance(to: found)
                    var last = nl
                    while last > position && b[last - 1] == 0x0D { last -= 1 }
                    if last - position > PairsReader.maximumLineBytes || memchr(base + position, 0, nl - position) != nil {
                        break
                    }
                    lineNumber += 1
                    let first = b[position]
                    let row =
                        last > position
                        && (first < 0x80 && first != 0x20 && first != 0x09 && first != 0x0D
                            || !isBlank(UnsafeBufferPointer(rebasing: b[position..<last])))
                    if row { counted += 1 }
                    position = nl + 1
                }
            }
            start = position
            guard counted < rows else { break }
            // No whole clean line left in the buffer: the next line, with a read, its error or
            // the last line without a break, is ``nextLine(_:)``'s.
            guard let taken = try nextLine({ _, line in !isBlank(line) }) else { break }
            if taken { counted += 1 }
        }
        return counted
    }

    /// Where the next line begins: its byte offset in the file and the number of lines before
    /// it. Only for a source that has not been read past a line it did not give out.
    var position: (offset: Int, lines: Int) { (bufferOffset + start, lineNumber) }

    /// Moves to a line's beginning recorded by ``position`` on the same file, so the next line
    /// read is that line, with its number, and returns true. Only a regular file read without an
    /// observer (which would miss the bytes passed over) moves: anything else stays where it is,
    /// and the call returns false.
    func seek(to position: (offset: Int, lines: Int)) throws(FormatError) -> Bool {
        guard seekable && observer == nil, let file else { return false }
        do throws(SystemError) {
            _ = try SystemError.call { lseek(fileno(file), off_t(position.offset), SEEK_SET) }
        } catch {
            throw .cannotRead(path: source, reason: error.text)
        }
        bufferOffset = position.offset
        start = 0
        end = 0
        atEnd = false
        lineNumber = position.lines
        return true
    }

    /// The index of the first `byte` in `buffer[from..<to]`, by `memchr`.
    private func find(_ byte: UInt8, from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return buffer.withUnsafeBufferPointer { b in
            memchr(b.baseAddress! + from, Int32(byte), to - from).map { UnsafeRawPointer(b.baseAddress!).distance(to: $0) }
        }
    }

    private func tooLong() -> FormatError {
        .malformed(path: source, reason: "line \(lineNumber + 1) is longer than \(PairsReader.maximumLineBytes) bytes")
    }

    private func take<R>(upTo lineEnd: Int, skip: Int, _ body: (Int, UnsafeBufferPointer<UInt8>) -> R) throws(FormatError) -> R {
        var last = lineEnd
        while last > start && buffer[last - 1] == 0x0D { last -= 1 }
        guard last - start <= PairsReader.maximumLineBytes else { throw tooLong() }
        lineNumber += 1
        if find(0, from: start, to: last) != nil { throw .malformed(path: source, reason: "line \(lineNumber) contains a NUL byte") }
        let first = start
        start = lineEnd + skip
        return buffer.withUnsafeBufferPointer { b in body(lineNumber, UnsafeBufferPointer(rebasing: b[first..<last])) }
    }
}
