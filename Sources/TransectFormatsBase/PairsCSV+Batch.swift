import TransectAnalysis
import TransectGeodesy
import TransectSupport

extension PairsReader {
    /// Up to a batch of data lines, copied out of the read buffer as bytes: what
    /// ``nextLines(rows:)`` reads on the reading thread and ``Layout/parse(_:)`` turns into a
    /// ``PairsBatch`` on any other.
    public struct Lines: Sendable {
        /// The number of the first row among all the rows (from 1).
        public let firstNumber: Int
        var bytes: [UInt8] = []
        var ends: [Int] = []

        /// The number of lines (rows).
        public var count: Int { ends.count }

        /// Appends `next`, the lines read right after these (its first row follows their last).
        public mutating func append(_ next: Lines) {
            precondition(next.firstNumber == firstNumber + count, "lines are joined in the order they were read")
            let base = bytes.count
            bytes.append(contentsOf: next.bytes)
            ends.append(contentsOf: next.ends.map { $0 + base })
        }
    }

    /// The next `rows` non-blank lines (fewer at the end of the input), or nil when none is
    /// left: ``next()``'s rows, by bytes. A line error (too long, a NUL byte) throws, and the
    /// lines read before it in this call are dropped with it.
    public func nextLines(rows: Int) throws(FormatError) -> Lines? {
        var batch = Lines(firstNumber: rowNumber + 1)
        batch.bytes.reserveCapacity(rows * 48)
        batch.ends.reserveCapacity(rows)
        while batch.count < rows {
            let taken = try lines.nextLine { _, line -> Bool in
                guard !Self.isBlank(line) else { return false }
                batch.bytes.append(contentsOf: line)
                batch.ends.append(batch.bytes.count)
                return true
            }
            guard let taken else { break }
            if taken { rowNumber += 1 }
        }
        return batch.count == 0 ? nil : batch
    }

    /// True for a line ``next()`` skips: nothing but ASCII spaces, tabs and carriage returns,
    /// or (beyond ASCII) what trims to nothing, byte order marks included.
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for byte in line {
            if byte >= 0x80 {
                ascii = false
                break
            }
            if byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        }
        if ascii { return true }
        return String(decoding: line, as: UTF8.self).trimmingAsciiSpaces(andByteOrderMarks: true).isEmpty
    }
}

extension PairsReader.Layout {
    /// The lines' rows as columns, each row's values as ``PairsReader/coordinates(_:)`` and
    /// ``PairsReader/heights(_:)`` read them, bit for bit, with the same problems.
    ///
    /// An ASCII line is split and read where its bytes lie (``NumberText/double(bytes:)``);
    /// a line with other bytes, or one with a problem, goes through the `String` reading so that
    /// its fields and messages are exactly those of ``PairsReader/next()``.
    public func parse(_ lines: PairsReader.Lines) -> PairsBatch {
        var batch = PairsBatch(firstNumber: lines.firstNumber)
        let n = lines.count
        batch.xs.reserveCapacity(2 * n)
        batch.ys.reserveCapacity(2 * n)
        batch.heights.reserveCapacity(2 * n)
        if idColumn != nil { batch.idEnds.reserveCapacity(n) }
        var fields: [(start: Int, end: Int)] = []
        lines.bytes.withUnsafeBufferPointer { all in
            var start = 0
            for k in 0..<n {
                let line = UnsafeBufferPointer(rebasing: all[start..<lines.ends[k]])
                start = lines.ends[k]
                if !parseASCII(line, number: lines.firstNumber + k, fields: &fields, into: &batch) {
                    parseText(String(decoding: line, as: UTF8.self), number: lines.firstNumber + k, into: &batch)
                }
            }
        }
        return batch
    }

    /// Reads an ASCII line without quotes whose values are all good; false (with nothing
    /// appended) for any other line.
    private func parseASCII(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, fields: inout [(start: Int, end: Int)], into batch: inout PairsBatch
    ) -> Bool {
        fields.removeAll(keepingCapacity: true)
        var fieldStart = 0
        for (i, byte) in line.enumerated() {
            if byte >= 0x80 || byte == UInt8(ascii: "\"") { return false }
            if byte == UInt8(ascii: ",") {
                fields.append((fieldStart, i))
                fieldStart = i + 1
            }
        }
        fields.append((fieldStart, line.count))
        func value(_ column: Int) -> Double? {
            guard column < fields.count else { return nil }
            return NumberText.double(bytes: Self.trimmed(line, fields[column]))
        }
        guard let x0 = value(required[0]), let y0 = value(required[1]), let x1 = value(required[2]), let y1 = value(required[3])
        else { return false }
        func height(_ column: Int?) -> Double?? {
            guard let column, column < fields.count else { return .some(nil) }
            let text = Self.trimmed(line, fields[column])
            if text.isEmpty { return .some(nil) }
            guard let z = NumberText.double(bytes: text), abs(z) <= PointArgument.heightLimitMetres else { return nil }
            return .some(z)
        }
        guard let z0 = height(fromZColumn), let z1 = height(toZColumn) else { return false }
        batch.xs.append(x0)
        batch.xs.append(x1)
        batch.ys.append(y0)
        batch.ys.append(y1)
        batch.heights.append(z0 ?? .nan)
        batch.heights.append(z1 ?? .nan)
        if let idColumn {
            if idColumn < fields.count {
                batch.idBytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[fields[idColumn].start..<fields[idColumn].end]))
            } else {
                batch.idBytes.append(contentsOf: String(number).utf8)
            }
            batch.idEnds.append(batch.idBytes.count)
        }
        return true
    }

    /// A field without leading spaces and tabs and without trailing spaces, tabs and carriage
    /// returns: `trimmingAsciiSpaces` on ASCII.
    private static func trimmed(_ line: UnsafeBufferPointer<UInt8>, _ field: (start: Int, end: Int)) -> UnsafeBufferPointer<UInt8> {
        var start = field.start
        var end = field.end
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 || line[end - 1] == 0x0D { end -= 1 }
        return UnsafeBufferPointer(rebasing: line[start..<end])
    }

    /// Reads a line as ``PairsReader/next()`` does: split as text, values and problems by
    /// ``coordinates(_:)`` and ``heights(_:)``.
    private func parseText(_ text: String, number: Int, into batch: inout PairsBatch) {
        let fields = CSVLine.split(text)
        let k = batch.count
        var from = (x: Double.nan, y: Double.nan)
        var to = from
        switch coordinates(fields) {
        case .success(let c):
            from = (c.xs[0], c.ys[0])
            to = (c.xs[1], c.ys[1])
        case .failure(let problem): batch.coordinateProblems[k] = problem.text
        }
        var given: (from: Double?, to: Double?) = (nil, nil)
        switch heights(fields) {
        case .success(let z): given = z
        case .failure(let problem): batch.heightProblems[k] = problem.text
        }
        let id = idColumn.map { $0 < fields.count ? fields[$0] : String(number) }
        batch.append(from: from, to: to, heights: given, id: id)
    }
}
