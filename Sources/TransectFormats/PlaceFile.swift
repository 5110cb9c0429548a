import Foundation
import TransectCore

/// A named point read from a places file.
public struct NamedPoint: Sendable, Hashable {
    public var name: String
    public var point: GeoPoint
    public init(name: String, point: GeoPoint) { self.name = name; self.point = point }
}

/// Places files: CSV with a header naming `name`, `lon` and `lat` columns (also `longitude`,
/// `latitude`, `x`, `y`), or GeoJSON Point features (FeatureCollection, Feature, or a bare
/// Point) with a `name` property.
public enum PlaceFile {
    public static func read(path: String) throws(FormatError) -> [NamedPoint] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .cannotRead(path: path, reason: (error as NSError).localizedFailureReason ?? "no such file or not readable")
        }
        let lower = path.lowercased()
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") || data.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{") {
            return try geoJSON(data, path: path)
        }
        return try csv(data, path: path)
    }

    static func csv(_ data: Data, path: String) throws(FormatError) -> [NamedPoint] {
        guard let text = String(data: data, encoding: .utf8) else { throw .malformed(path: path, reason: "is not UTF-8 text") }
        var lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        guard !lines.isEmpty else { throw .malformed(path: path, reason: "is empty") }
        let header = CSV.split(lines.removeFirst()).map { $0.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "\u{FEFF}", with: "") }
        func column(_ names: [String]) -> Int? { header.firstIndex { names.contains($0) } }
        guard let n = column(["name", "label", "title"]), let x = column(["lon", "longitude", "lng", "x"]),
              let y = column(["lat", "latitude", "y"]) else {
            throw .malformed(path: path, reason: "header needs name, lon and lat columns")
        }
        var places: [NamedPoint] = []
        for (k, line) in lines.enumerated() {
            let f = CSV.split(line)
            guard f.count > max(n, x, y), let lon = Double(f[x].trimmingCharacters(in: .whitespaces)),
                  let lat = Double(f[y].trimmingCharacters(in: .whitespaces)), lon.isFinite, lat.isFinite, abs(lat) <= 90 else {
                throw .malformed(path: path, reason: "row \(k + 2) has no valid lon, lat")
            }
            places.append(NamedPoint(name: f[n], point: GeoPoint(longitude: lon, latitude: lat)))
        }
        return places
    }

    static func geoJSON(_ data: Data, path: String) throws(FormatError) -> [NamedPoint] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw .malformed(path: path, reason: "is not valid JSON")
        }
        var places: [NamedPoint] = []
        func visit(_ value: Any, name: String?) throws(FormatError) {
            guard let dict = value as? [String: Any], let type = dict["type"] as? String else { return }
            switch type {
            case "FeatureCollection":
                for f in dict["features"] as? [Any] ?? [] { try visit(f, name: nil) }
            case "Feature":
                let props = dict["properties"] as? [String: Any]
                let label = (props?["name"] ?? props?["title"] ?? props?["label"]).map { "\($0)" }
                if let g = dict["geometry"] { try visit(g, name: label) }
            case "Point":
                guard let c = dict["coordinates"] as? [Any], c.count >= 2,
                      let lon = (c[0] as? NSNumber)?.doubleValue, let lat = (c[1] as? NSNumber)?.doubleValue,
                      abs(lat) <= 90 else { throw .malformed(path: path, reason: "a Point has invalid coordinates") }
                places.append(NamedPoint(name: name ?? "", point: GeoPoint(longitude: lon, latitude: lat)))
            default:
                return
            }
        }
        try visit(object, name: nil)
        return places
    }
}

/// One CSV line into fields (RFC 4180 quoting).
enum CSV {
    static func split(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var chars = Array(line)
        if chars.last == "\r" { chars.removeLast() }
        var k = 0
        while k < chars.count {
            let c = chars[k]
            if quoted {
                if c == "\"" {
                    if k + 1 < chars.count && chars[k + 1] == "\"" { field.append("\""); k += 1 } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                fields.append(field); field = ""
            } else {
                field.append(c)
            }
            k += 1
        }
        fields.append(field)
        return fields
    }
}

extension UInt8 {
    var isWhitespace: Bool { self == 32 || self == 9 || self == 10 || self == 13 }
}
