import TransectGeodesy
import TransectSupport

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

    let lines: LineSource
    var rowNumber = 0

    /// Opens `path` (`-` for stdin) and reads its header.
    /// - Throws: `FormatError.cannotRead` (no such file, a directory, not readable) or
    ///   `.malformed` (no header, a header without the required columns, a bad first line).
    /// `observer`, when given, sees every byte of the file in order as it is read.
    public convenience init(path: String, observingBytes observer: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(FormatError) {
        let source = path == "-" ? "stdin" : path
        try self.init(lines: try LineSource(path: path, source: source, observer: observer), source: source)
    }

    /// Reads pairs from bytes in memory (an array, `Data`, any sequence of bytes); `name` is used
    /// in messages.
    public convenience init(data: some Sequence<UInt8>, name: String) throws(FormatError) {
        try self.init(lines: LineSource(bytes: data, source: name), source: name)
    }

    init(lines: LineSource, source: String) throws(FormatError) {
        self.lines = lines
        self.source = source
        guard let headerLine = try lines.next() else { throw .malformed(path: source, reason: "empty file, expected a header") }
        header = CSVLine.split(headerLine.text).map { $0.trimmingAsciiSpaces(andByteOrderMarks: true).lowercased() }
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
            if line.text.trimmingAsciiSpaces(andByteOrderMarks: true).isEmpty { continue }
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
        layout.coordinates(fields)
    }

    /// The row's `from_z` and `to_z` (nil where absent or empty), or the first problem.
    public func heights(_ fields: [String]) -> Result<(from: Double?, to: Double?), PointError> {
        layout.heights(fields)
    }

    /// Where the header put the columns: what a batch is parsed with, on any thread.
    public var layout: Layout {
        Layout(required: required, idColumn: idColumn, fromZColumn: fromZColumn, toZColumn: toZColumn)
    }

    /// The columns of `from_lon`, `from_lat`, `to_lon`, `to_lat` (in that order), `id`,
    /// `from_z` and `to_z`.
    public struct Layout: Sendable {
        public var required: [Int]
        public var idColumn: Int?
        public var fromZColumn: Int?
        public var toZColumn: Int?

        /// See ``PairsReader/coordinates(_:)``.
        public func coordinates(_ fields: [String]) -> Result<(xs: [Double], ys: [Double]), PointError> {
            Result { () throws(PointError) -> (xs: [Double], ys: [Double]) in
                let xs = [try PairsReader.number(fields, required[0], "from_lon"), try PairsReader.number(fields, required[2], "to_lon")]
                let ys = [try PairsReader.number(fields, required[1], "from_lat"), try PairsReader.number(fields, required[3], "to_lat")]
                return (xs, ys)
            }
        }

        /// See ``PairsReader/heights(_:)``.
        public func heights(_ fields: [String]) -> Result<(from: Double?, to: Double?), PointError> {
            Result { () throws(PointError) -> (from: Double?, to: Double?) in
                func optional(_ index: Int?, _ name: String) throws(PointError) -> Double? {
                    guard let index, index < fields.count, !fields[index].trimmingAsciiSpaces.isEmpty else { return nil }
                    let z = try PairsReader.number(fields, index, name)
                    if let problem = PointArgument.checkHeight(z, name: name) { throw problem }
                    return z
                }
                return (try optional(fromZColumn, "from_z"), try optional(toZColumn, "to_z"))
            }
        }
    }

    static func number(_ fields: [String], _ index: Int, _ name: String) throws(PointError) -> Double {
        guard index < fields.count else { throw .malformed("missing \(name)") }
        let text = fields[index].trimmingAsciiSpaces
        guard let v = NumberText.double(text) else {
            let infinite = Double(text).map { !$0.isFinite } ?? false
            throw .malformed("\(name) '\(text.printable)' is not \(infinite ? "a finite number" : "a number")")
        }
        return v
    }
}
