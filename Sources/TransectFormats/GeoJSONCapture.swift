import Foundation
import TransectAnalysis
import TransectFormatsBase
import TransectGeodesy
import TransectSupport

/// Reads a GeoJSON document's `coordinates` and `coordTimes`/`times` members straight into
/// points and times while the document is parsed (``JSONInterceptor``), so a track of millions
/// of positions never becomes millions of `JSON` values: the document keeps a small stand-in
/// (``placeholder(_:)``) that ``GeoJSONTrackReader`` resolves.
///
/// It takes only what it can read whole and valid: positions `[lon, lat]` or `[lon, lat, ele]`
/// (numbers, the elevation possibly null, anything after it numbers) in range, nested as a
/// position, a line or a list of lines; times as ISO 8601 strings or null, flat or one list per
/// line. Anything else (a Polygon's rings, a string where a number should be, a latitude of
/// 91) it gives back to the parser, and the reader then reports it as it always has.
final class GeoJSONCapture: JSONInterceptor {
    /// What a captured `coordinates` value held.
    enum Coordinates {
        case position(TrackPoint)
        case line([TrackPoint])
        case lines([[TrackPoint]])
    }

    /// Where a captured times value is and its shape: one list of `count` times, or one list
    /// per line. Its times are read when they are applied (``forEachTime(_:_:)``), from the
    /// document's bytes, straight into the points: a list held beside the points it belongs to
    /// would double a long track's times.
    enum Times {
        case flat(start: Int, count: Int)
        case nested(start: Int, counts: [Int])
    }

    private(set) var coordinates: [Coordinates] = []
    private(set) var times: [Times] = []
    let pointLimit: Int
    let path: String
    private(set) var pointCount = 0
    /// The document's bytes (the parser's), valid while its reader runs.
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    /// The member name a stand-in carries: a NUL, which no parsed key can hold.
    static let coordinatesKey = "\u{0}coordinates"
    static let timesKey = "\u{0}times"

    /// Gives back the pages before an offset, as the parse's progress does (nil: nothing to give).
    let release: ((Int) -> Void)?

    init(path: String, pointLimit: Int, release: ((Int) -> Void)? = nil) {
        self.path = path
        self.pointLimit = pointLimit
        self.release = release
    }

    func wants(_ key: String) -> Bool { key == "coordinates" || key == "coordTimes" || key == "times" }

    func value(for key: String, _ parser: inout JSONParser) throws(FormatError) -> JSON? {
        bytes = parser.bytes
        if key == "coordinates" {
            guard let c = try readCoordinates(&parser) else { return nil }
            coordinates.append(c)
            return .object([(Self.coordinatesKey, .number(Double(coordinates.count - 1)))])
        }
        guard let t = try readTimes(&parser) else { return nil }
        times.append(t)
        return .object([(Self.timesKey, .number(Double(times.count - 1)))])
    }

    /// The coordinates a stand-in names, or nil for any other value. They are handed over,
    /// not copied: the capture keeps none of them (so the reader can set their times in place
    /// without a second copy of millions of points), and a stand-in resolves once.
    func coordinates(of value: JSON?) -> Coordinates? {
        guard let index = value?[Self.coordinatesKey]?.number else { return nil }
        let taken = coordinates[Int(index)]
        coordinates[Int(index)] = .line([])
        return taken
    }

    /// The times a stand-in names, or nil for any other value.
    func times(of value: JSON?) -> Times? {
        guard let index = value?[Self.timesKey]?.number else { return nil }
        return times[Int(index)]
    }

    // MARK: - Reading

    private func peek(_ parser: inout JSONParser) -> UInt8? {
        parser.skipWhitespace()
        return parser.i < parser.bytes.count ? parser.bytes[parser.i] : nil
    }

    /// Consumes `byte` if it comes next.
    private func take(_ byte: UInt8, _ parser: inout JSONParser) -> Bool {
        guard peek(&parser) == byte else { return false }
        parser.i += 1
        return true
    }

    /// Reads `[ item (, item)* ]` or `[]`; nil when the text is not that (or an item is not).
    private func list<T>(_ parser: inout JSONParser, _ item: (inout JSONParser) throws(FormatError) -> T?) throws(FormatError) -> [T]? {
        guard take(UInt8(ascii: "["), &parser) else { return nil }
        var items: [T] = []
        if take(UInt8(ascii: "]"), &parser) { return items }
        while true {
            guard let v = try item(&parser) else { return nil }
            items.append(v)
            if take(UInt8(ascii: ","), &parser) { continue }
            return take(UInt8(ascii: "]"), &parser) ? items : nil
        }
    }

    private func readCoordinates(_ parser: inout JSONParser) throws(FormatError) -> Coordinates? {
        let start = (parser.i, parser.line)
        guard take(UInt8(ascii: "["), &parser) else { return nil }
        let first = peek(&parser) ?? 0
        (parser.i, parser.line) = start
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try position(&parser).map { .position($0) }
        case UInt8(ascii: "["):
            // A line ([[…], …]) or lines ([[[…], …], …]): look one level deeper.
            let save = (parser.i, parser.line)
            parser.i += 1
            _ = take(UInt8(ascii: "["), &parser)
            let deeper = peek(&parser) == UInt8(ascii: "[")
            (parser.i, parser.line) = save
            if deeper {
                return try list(&parser) { (p: inout JSONParser) throws(FormatError) -> [TrackPoint]? in try line(&p) }.map { .lines($0) }
            }
            return try line(&parser).map { .line($0) }
        default:
            return nil
        }
    }

    /// A line's positions, counted first (a scan of its brackets) so that the points go into
    /// one array of the right size: growing one by doubling would hold the old and the new
    /// buffer at once (for two million points, 80 MB beside 40). The scan gives back the pages
    /// it passes as the parse does.
    private func line(_ parser: inout JSONParser) throws(FormatError) -> [TrackPoint]? {
        guard let count = Self.countPositions(parser) else { return nil }
        var points: [TrackPoint] = []
        points.reserveCapacity(count)
        guard take(UInt8(ascii: "["), &parser) else { return nil }
        if take(UInt8(ascii: "]"), &parser) { return points }
        while true {
            guard let p = try position(&parser) else { return nil }
            points.append(p)
            if take(UInt8(ascii: ","), &parser) { continue }
            return take(UInt8(ascii: "]"), &parser) ? points : nil
        }
    }

    /// How many arrays the array at the parser's cursor (after white space) holds directly: a
    /// line's positions; nil when it holds a string or does not close (the parse will say why).
    static func countPositions(_ parser: JSONParser) -> Int? {
        let bytes = parser.bytes
        var k = parser.i
        while k < bytes.count, bytes[k] == 0x20 || bytes[k] == 0x0A || bytes[k] == 0x0D || bytes[k] == 0x09 { k += 1 }
        guard k < bytes.count, bytes[k] == UInt8(ascii: "[") else { return nil }
        var depth = 0
        var count = 0
        var released = k
        while k < bytes.count {
            switch bytes[k] {
            case UInt8(ascii: "["):
                depth += 1
                if depth == 2 { count += 1 }
            case UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return count }
            case UInt8(ascii: "\""):
                return nil
            default: break
            }
            k += 1
            if k - released >= JSON.progressBytes {
                released = k
                parser.release(before: k)
            }
        }
        return nil
    }

    private func number(_ parser: inout JSONParser) throws(FormatError) -> Double? {
        switch peek(&parser) ?? 0 {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parser.number()
        default: return nil
        }
    }

    /// `[lon, lat]`, `[lon, lat, ele]` (ele possibly null) and numbers after, in range.
    private func position(_ parser: inout JSONParser) throws(FormatError) -> TrackPoint? {
        guard take(UInt8(ascii: "["), &parser), let lon = try number(&parser), take(UInt8(ascii: ","), &parser),
            let lat = try number(&parser)
        else { return nil }
        guard TrackFile.rangeProblem(longitude: lon, latitude: lat) == nil else { return nil }
        var elevation: Double?
        if take(UInt8(ascii: ","), &parser) {
            if peek(&parser) == UInt8(ascii: "n") {
                try parser.literal("null")
            } else {
                guard let e = try number(&parser), PointArgument.checkHeight(e, name: "elevation") == nil else { return nil }
                elevation = e
            }
            while take(UInt8(ascii: ","), &parser) { guard try number(&parser) != nil else { return nil } }
        }
        guard take(UInt8(ascii: "]"), &parser) else { return nil }
        parser.reportProgress()
        pointCount += 1
        guard pointCount <= pointLimit else { throw .malformed(path: path, reason: TrackFile.tooManyPoints(pointLimit)) }
        return TrackPoint(longitude: lon, latitude: lat, elevationMetres: elevation)
    }

    private func readTimes(_ parser: inout JSONParser) throws(FormatError) -> Times? {
        let start = (parser.i, parser.line)
        guard take(UInt8(ascii: "["), &parser) else { return nil }
        let first = peek(&parser)
        (parser.i, parser.line) = start
        let offset = parser.i
        if first == UInt8(ascii: "[") {
            return try list(&parser) { (p: inout JSONParser) throws(FormatError) -> Int? in try timeList(&p, each: nil) }
                .map { .nested(start: offset, counts: $0) }
        }
        return try timeList(&parser, each: nil).map { .flat(start: offset, count: $0) }
    }

    /// Each time of `times`, in order (seconds, `nan` for null), read again from the bytes the
    /// capture checked them in (which must still be alive: the reader runs inside the parse's
    /// scope). Throws when they no longer read as they did (a file changed under its mapping).
    /// A time that is not ISO 8601 is an error naming `context` (the reader's words).
    func forEachTime(_ times: Times, context: String, _ body: (Double) -> Void) throws(FormatError) {
        var parser = JSONParser(bytes: bytes, path: path)
        parser.progress = release
        var failure: FormatError?
        withoutActuallyEscaping(body) { body in
            do throws(FormatError) {
                var read: Int?
                switch times {
                case .flat(let start, _):
                    parser.i = start
                    read = try timeList(&parser, context: context, each: body)
                case .nested(let start, _):
                    parser.i = start
                    read = try list(&parser) { (p: inout JSONParser) throws(FormatError) -> Int? in
                        try timeList(&p, context: context, each: body)
                    }?.count
                }
                if read == nil { failure = .malformed(path: path, reason: "changed while it was read") }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// A list of times: how many. Without `each` (the capture's first look) only its JSON is
    /// read; with it each time is read as ISO 8601 and given to `each`, one that is not an
    /// error naming `context`.
    private func timeList(_ parser: inout JSONParser, context: String = "", each: ((Double) -> Void)?) throws(FormatError) -> Int? {
        guard take(UInt8(ascii: "["), &parser) else { return nil }
        var count = 0
        if take(UInt8(ascii: "]"), &parser) { return 0 }
        while true {
            let t: Double
            switch peek(&parser) {
            case UInt8(ascii: "n"):
                try parser.literal("null")
                t = .nan
            case UInt8(ascii: "\""):
                parser.reportProgress()
                let s = try parser.string()
                guard each != nil else {
                    t = .nan
                    break
                }
                // Trimmed as the reader trims, when there is anything to trim.
                let padded = s.utf8.first.map { $0 == 0x20 || $0 == 0x09 } == true || s.utf8.last.map { $0 == 0x20 || $0 == 0x09 } == true
                guard let parsed = Timestamp.parseISO8601(padded ? s.trimmingCharacters(in: .whitespaces) : s) else {
                    throw .malformed(path: path, reason: "\(context) has a time that is not an ISO 8601 string: \(s.printable)")
                }
                t = parsed
            default:
                return nil
            }
            each?(t)
            count += 1
            if take(UInt8(ascii: ","), &parser) { continue }
            return take(UInt8(ascii: "]"), &parser) ? count : nil
        }
    }
}
