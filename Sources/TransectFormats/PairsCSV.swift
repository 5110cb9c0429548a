#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TransectCore

/// A CSV of point pairs to measure (`transect measure --pairs`), read line by line from a file,
/// stdin (`-`) or bytes in memory: memory stays bounded however long the input.
///
/// ```
/// id,from_lon,from_lat,to_lon,to_lat[,from_z][,to_z]
/// a,-119.53,37.74,-119.57,37.73
/// ```
///
/// The header (the first line; a byte order mark, spaces and case ignored) must name
/// `from_lon`, `from_lat`, `to_lon` and `to_lat`; `id`, `from_z` and `to_z` are optional; other
/// columns are ignored. Blank lines are skipped. A line longer than `maximumLineBytes` or
/// holding a NUL byte stops the read with an error naming the line (so `/dev/zero` fails at
/// once, and `37.7\0 5` is never read as 37.7); a row whose values are bad is handed on with
/// its problem, for the caller to report and go on.
///
/// ```swift
/// let pairs = try PairsReader(path: "pairs.csv")
/// while let row = try pairs.next() {
///     switch pairs.coordinates(row.fields) { … }
/// }
/// ```
public final class PairsReader {
    /// The longest line accepted, in bytes (without its line break).
    public static let maximumLineBytes = 64 * 1024

    /// The name used in messages: the path, or `stdin` for `-`.
    public let source: String
    /// The header's column names, trimmed and lower-cased.
    public private(set) var header: [String] = []
    /// Columns of `from_lon`, `from_lat`, `to_lon`, `to_lat`, in that order.
    public private(set) var required: [Int] = []
    public private(set) var idColumn: Int?
    public private(set) var fromZColumn: Int?
    public private(set) var toZColumn: Int?

    private var lines: LineSource
    private var rowNumber = 0

    /// Opens `path` (`-` for stdin) and reads its header.
    /// - Throws: `FormatError.cannotRead` (no such file, a directory, not readable) or
    ///   `.malformed` (no header, a header without the required columns, a bad first line).
    public convenience init(path: String) throws(FormatError) {
        let source = path == "-" ? "stdin" : path
        try self.init(lines: try LineSource(path: path, source: source), source: source)
    }

    /// Reads pairs from bytes in memory; `name` is used in messages.
    public convenience init(data: Data, name: String) throws(FormatError) {
        try self.init(lines: LineSource(data: data, source: name), source: name)
    }

    private init(lines: LineSource, source: String) throws(FormatError) {
        self.lines = lines
        self.source = source
        guard let headerLine = try lines.next() else { throw .malformed(path: source, reason: "empty file, expected a header") }
        header = CSVLine.split(headerLine.text).map { $0.trimmingSpacesAndBOM.lowercased() }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        for name in ["from_lon", "from_lat", "to_lon", "to_lat"] {
            guard let c = column(name) else {
                throw .malformed(path: source, reason: "header lacks '\(name)' (needs from_lon,from_lat,to_lon,to_lat)")
            }
            required.append(c)
        }
        idColumn = column("id")
        fromZColumn = column("from_z")
        toZColumn = column("to_z")
    }

    /// One data row: its line in the input, its number among the rows (from 1), its id (the
    /// `id` field, else the row number) and its fields.
    public struct Row: Sendable, Equatable {
        public var line: Int
        public var number: Int
        public var id: String
        public var fields: [String]
    }

    /// The next non-blank row, or nil at the end.
    public func next() throws(FormatError) -> Row? {
        while let line = try lines.next() {
            if line.text.trimmingSpacesAndBOM.isEmpty { continue }
            rowNumber += 1
            let fields = CSVLine.split(line.text)
            let id = idColumn.flatMap { $0 < fields.count ? fields[$0] : nil } ?? String(rowNumber)
            return Row(line: line.number, number: rowNumber, id: id, fields: fields)
        }
        return nil
    }

    /// The row's `from_lon`, `to_lon` (xs) and `from_lat`, `to_lat` (ys) as written (in the
    /// input CRS), or the first problem.
    public func coordinates(_ fields: [String]) -> Result<(xs: [Double], ys: [Double]), PointError> {
        Result { () throws(PointError) -> (xs: [Double], ys: [Double]) in
            let xs = [try Self.number(fields, required[0], "from_lon"), try Self.number(fields, required[2], "to_lon")]
            let ys = [try Self.number(fields, required[1], "from_lat"), try Self.number(fields, required[3], "to_lat")]
            return (xs, ys)
        }
    }

    /// The row's `from_z` and `to_z` (nil where absent or empty), or the first problem.
    public func heights(_ fields: [String]) -> Result<(from: Double?, to: Double?), PointError> {
        Result { () throws(PointError) -> (from: Double?, to: Double?) in
            func optional(_ index: Int?, _ name: String) throws(PointError) -> Double? {
                guard let index, index < fields.count, !Substring(fields[index]).trimmingSpaces.isEmpty else { return nil }
                let z = try Self.number(fields, index, name)
                if let problem = PointArgument.checkHeight(z, name: name) { throw problem }
                return z
            }
            return (try optional(fromZColumn, "from_z"), try optional(toZColumn, "to_z"))
        }
    }

    static func number(_ fields: [String], _ index: Int, _ name: String) throws(PointError) -> Double {
        guard index < fields.count else { throw .malformed("missing \(name)") }
        let text = Substring(fields[index]).trimmingSpaces
        guard let v = NumberText.double(text) else {
            let infinite = Double(text).map { !$0.isFinite } ?? false
            throw .malformed("\(name) '\(text.printable)' is not \(infinite ? "a finite number" : "a number")")
        }
        return v
    }
}

/// Lines of a file, stdin or bytes, each at most `PairsReader.maximumLineBytes` long and free of
/// NUL bytes, read through a fixed buffer.
final class LineSource {
    struct Line { var number: Int; var text: String }

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
        guard stat(path, &info) == 0 else {
            throw .cannotRead(path: path, reason: SystemError.text())
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .cannotRead(path: path, reason: "is a directory") }
        guard let f = fopen(path, "r") else {
            throw .cannotRead(path: path, reason: SystemError.text())
        }
        file = f
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
        var n = 0
        repeat {
            n = buffer.withUnsafeMutableBufferPointer { b in read(fileno(file), b.baseAddress! + end, b.count - end) }
        } while n < 0 && errno == EINTR
        if n < 0 { throw .cannotRead(path: source, reason: SystemError.text()) }
        if n == 0 {
            atEnd = true
            return false
        }
        end += n
        return true
    }

    /// The next line without its line break (LF, CRLF), or nil at the end.
    func next() throws(FormatError) -> Line? {
        var scanned = 0   // bytes of this line already searched for a line break
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

/// One CSV line into fields, and fields into a CSV line (RFC 4180 quoting, on one line).
public enum CSVLine {
    /// Splits one line into fields.
    public static func split(_ line: String) -> [String] {
        // Most lines hold no quotes: split their bytes directly.
        if !line.utf8.contains(34) {
            return line.utf8.split(separator: 44, omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        var fields: [String] = []
        var field = ""
        var quoted = false
        var iterator = line.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let n = iterator.next() {
                        if n == "\"" { field.append("\"") } else { quoted = false; pending = n }
                    } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }

    /// A field, quoted when it holds a comma, quote or line break.
    public static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return text }
        var out = "\""
        for c in text { if c == "\"" { out += "\"\"" } else { out.append(c) } }
        return out + "\""
    }
}

extension String {
    /// Without surrounding spaces, tabs, carriage returns or a byte-order mark.
    var trimmingSpacesAndBOM: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\u{FEFF}" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
