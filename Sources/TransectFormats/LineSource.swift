#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TransectCore

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

    init(path: String, source: String) throws(FormatError) {
        self.source = source
        buffer = [UInt8](repeating: 0, count: 64 * 1024)
        if path == "-" {
            file = stdin
            ownsFile = false
            return
        }
        var info = stat()
        do throws(SystemError) {
            try SystemError.call { stat(path, &info) }
        } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .cannotRead(path: path, reason: "is a directory") }
        do throws(SystemError) {
            file = try SystemError.call { fopen(path, "r") }
        } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
        ownsFile = true
    }

    init(data: Data, source: String) {
        self.source = source
        file = nil
        ownsFile = false
        buffer = [UInt8](data)
        end = buffer.count
        atEnd = true
    }

    deinit { if ownsFile, let file { fclose(file) } }

    /// Refills the buffer, keeping the unread bytes; false at the end of the input.
    private func fill() throws(FormatError) -> Bool {
        guard !atEnd, let file else { return false }
        if start > 0 {
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
        end += n
        return true
    }

    /// The next line without its line break (LF, CRLF), or nil at the end.
    func next() throws(FormatError) -> Line? {
        var scanned = 0  // bytes of this line already searched for a line break
        while true {
            if let nl = buffer[(start + scanned)..<end].firstIndex(of: 0x0A) {
                return try take(upTo: nl, skip: 1)
            }
            scanned = end - start
            // A line break may still follow a CR: one byte of grace before the limit bites.
            if scanned > PairsReader.maximumLineBytes + 1 { throw tooLong() }
            guard try fill() else {
                if start == end { return nil }
                return try take(upTo: end, skip: 0)
            }
        }
    }

    private func tooLong() -> FormatError {
        .malformed(path: source, reason: "line \(lineNumber + 1) is longer than \(PairsReader.maximumLineBytes) bytes")
    }

    private func take(upTo lineEnd: Int, skip: Int) throws(FormatError) -> Line {
        var last = lineEnd
        while last > start && buffer[last - 1] == 0x0D { last -= 1 }
        guard last - start <= PairsReader.maximumLineBytes else { throw tooLong() }
        lineNumber += 1
        let bytes = buffer[start..<last]
        if bytes.contains(0) { throw .malformed(path: source, reason: "line \(lineNumber) contains a NUL byte") }
        start = lineEnd + skip
        return Line(number: lineNumber, text: String(decoding: bytes, as: UTF8.self))
    }
}
