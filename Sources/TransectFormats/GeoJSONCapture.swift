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

    /// What a captured times value held: seconds, `nan` for null.
    enum Times {
        case flat([Double])
        case nested([[Double]])
    }

    private(set) var coordinates: [Coordinates] = []
    private(set) var times: [Times] = []
    let pointLimit: Int
    let path: String
    private(set) var pointCount = 0

    /// The member name a stand-in carries: a NUL, which no parsed key can hold.
    static let coordinatesKey = "\u{0}coordinates"
    static let timesKey = "\u{0}times"

    init(path: String, pointLimit: Int) {
        self.path = path
        self.pointLimit = pointLimit
    }

    func wants(_ key: String) -> Bool { key == "coordinates" || key == "coordTimes" || key == "times" }

    func value(for key: String, _ parser: inout JSONParser) throws(FormatError) -> JSON? {
        if key == "coordinates" {
            guard let c = try readCoordinates(&parser) else { return nil }
            coordinates.append(c)
            return .object([(Self.coordinatesKey, .number(Double(coordinates.count - 1)))])
        }
        guard let t = try readTimes(&parser) else { return nil }
        times.append(t)
        return .object([(Self.timesKey, .number(Double(times.count - 1)))])
    }

    /// The coordinates a stand-in names, or nil for any other value.
    func coordinates(of value: JSON?) -> Coordinates? {
        guard let index = value?[Self.coordinatesKey]?.number else { return nil }
        return coordinates[Int(index)]
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

    private func line(_ parser: inout JSONParser) throws(FormatError) -> [TrackPoint]? {
        try list(&parser) { (p: inout JSONParser) throws(FormatError) -> TrackPoint? in try position(&p) }
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
        pointCount += 1
        guard pointCount <= pointLimit else { throw .malformed(path: path, reason: TrackFile.tooManyPoints(pointLimit)) }
        return TrackPoint(longitude: lon, latitude: lat, elevationMetres: elevation)
    }

    private func readTimes(_ parser: inout JSONParser) throws(FormatError) -> Times? {
        let start = (parser.i, parser.line)
        guard take(UInt8(ascii: "["), &parser) else { return nil }
        let first = peek(&parser)
        (parser.i, parser.line) = start
        if first == UInt8(ascii: "[") {
            return try list(&parser) { (p: inout JSONParser) throws(FormatError) -> [Double]? in try timeList(&p) }.map { .nested($0) }
        }
        return try timeList(&parser).map { .flat($0) }
    }

    private func timeList(_ parser: inout JSONParser) throws(FormatError) -> [Double]? {
        try list(&parser) { (p: inout JSONParser) throws(FormatError) -> Double? in
            switch peek(&p) {
            case UInt8(ascii: "n"):
                try p.literal("null")
                return .nan
            case UInt8(ascii: "\""):
                let s = try p.string()
                return Timestamp.parseISO8601(s.trimmingCharacters(in: .whitespaces))
            default:
                return nil
            }
        }
    }
}
