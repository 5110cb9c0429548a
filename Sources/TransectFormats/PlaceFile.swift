import Foundation
import TransectGeodesy
import TransectSupport

/// A named point read from a places file.
public struct NamedPoint: Sendable, Hashable {
    public var name: String
    public var point: GeoPoint
    public init(name: String, point: GeoPoint) {
        self.name = name
        self.point = point
    }
}

/// Places files: CSV with a header naming `name`, `lon` and `lat` columns (also `longitude`,
/// `latitude`, `x`, `y`), or GeoJSON Point features (FeatureCollection, Feature, or a bare
/// Point) with a `name` property.
///
/// Coordinates are checked where they are read, as the command line checks its own: latitude
/// in [−90, 90], longitude in [−540, 540] (numbers by `NumberText`: no hex, nan or inf). A NUL
/// byte anywhere refuses the file. Errors name the file and, for CSV, the line.
public enum PlaceFile {
    /// `-` reads standard input, named `stdin` in messages.
    public static func read(path: String) throws(FormatError) -> [NamedPoint] {
        if path == "-" {
            let data = try TextInput.contents(of: try FileChunks(standardInput: "stdin"), limit: TextInput.maximumDataFileBytes, kind: "places files")
            return try read(data: data, path: "stdin")
        }
        let data = try TextInput.contents(path: path, limit: TextInput.maximumDataFileBytes, kind: "places files")
        return try read(data: data, path: path)
    }

    /// Reads places from bytes already in memory: GeoJSON when `path` ends in `.geojson` or
    /// `.json` or the content starts with `{`, CSV otherwise.
    ///
    /// - Parameters:
    ///   - data: the file's content.
    ///   - path: the name used in error messages and to choose the format.
    public static func read(data: Data, path: String) throws(FormatError) -> [NamedPoint] {
        let lower = path.lowercased()
        var content = data[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") || content.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{") {
            return try geoJSON(data, path: path)
        }
        return try csv(data, path: path)
    }

    static func csv(_ data: Data, path: String) throws(FormatError) -> [NamedPoint] {
        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }
        let lines = try TextInput.lines(data, path: path)
        guard let headerIndex = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else { throw fail("is empty") }
        let header = CSVLine.split(lines[headerIndex]).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "\u{FEFF}", with: "")
        }
        func column(_ names: [String]) -> Int? { header.firstIndex { names.contains($0) } }
        guard let n = column(["name", "label", "title"]), let x = column(["lon", "longitude", "lng", "x"]),
            let y = column(["lat", "latitude", "y"])
        else {
            throw fail("line \(headerIndex + 1): header needs name, lon and lat columns")
        }
        var places: [NamedPoint] = []
        for k in (headerIndex + 1)..<lines.count where !lines[k].allSatisfy(\.isWhitespace) {
            let lineNumber = k + 1
            let f = CSVLine.split(lines[k])
            guard f.count > max(n, x, y) else { throw fail("line \(lineNumber): has \(f.count) fields, the header has \(header.count)") }
            func coordinate(_ c: Int) throws(FormatError) -> Double {
                let text = CSVLine.trimmed(f[c])
                guard let v = NumberText.double(text) else { throw fail("line \(lineNumber): \(header[c].printable) '\(text.printable)' is not a number") }
                return v
            }
            let lon = try coordinate(x)
            let lat = try coordinate(y)
            if let problem = PointArgument.checkGeographic(longitude: lon, latitude: lat) { throw fail("line \(lineNumber): \(problem.text)") }
            places.append(NamedPoint(name: f[n], point: GeoPoint(longitude: lon, latitude: lat)))
        }
        return places
    }

    static func geoJSON(_ data: Data, path: String) throws(FormatError) -> [NamedPoint] {
        let document = try JSON.parse(data, path: path)
        var places: [NamedPoint] = []
        // A work list rather than recursion (see `JSON.maximumDepth`), children pushed in
        // reverse so places keep document order.
        var work: [(value: JSON, name: String?)] = [(document, nil)]
        while let (value, name) = work.popLast() {
            guard let type = value["type"]?.string else { continue }
            switch type {
            case "FeatureCollection":
                for f in (value["features"]?.array ?? []).reversed() { work.append((f, nil)) }
            case "Feature":
                let props = value["properties"]
                let label = (props?["name"] ?? props?["title"] ?? props?["label"]).flatMap(TrackFile.label)
                if let g = value["geometry"] { work.append((g, label)) }
            case "Point":
                guard let c = value["coordinates"]?.array, c.count >= 2, let lon = c[0].number, let lat = c[1].number else {
                    throw .malformed(path: path, reason: "a Point has invalid coordinates")
                }
                if let problem = PointArgument.checkGeographic(longitude: lon, latitude: lat) {
                    throw .malformed(path: path, reason: "Point \(name.map { "'\($0.printable)'" } ?? "without a name"): \(problem.text)")
                }
                places.append(NamedPoint(name: name ?? "", point: GeoPoint(longitude: lon, latitude: lat)))
            default:
                continue
            }
        }
        return places
    }
}
