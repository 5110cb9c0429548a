import Foundation
import TransectSupport

/// Scene files: a JSON object whose keys are `transect render`'s option names (dashes or
/// underscores) and whose values are what the flags would take. Paths are relative to the scene
/// file. The scene becomes the argument list the flags would have made, so a scene can say
/// nothing the command line cannot.
///
/// ```json
/// {"dem": ["../../shared/data/yosemite_valley_ned1as.tif"], "size": "1600x1000",
///  "basemap": "hillshade", "measure": ["-119.533,37.746:-119.573,37.731"],
///  "places": ["yosemite_places.csv"], "title": "Yosemite Valley", "out": "../renders/map.png"}
/// ```
public enum SceneFile {
    /// Keys whose values are paths, resolved against the scene file's directory (`frames` is
    /// a directory; `geoid` is a path unless it is the keyword in ``pathKeywords``).
    static let pathKeys: Set<String> = ["dem", "places", "out", "track", "chart", "frames", "geoid", "anchors", "layout", "viewshed"]

    /// Settings that are one point, written as `[lon, lat(, z)]` (the view's camera and its
    /// measurement's ends).
    static let pointKeys: Set<String> = ["from", "to", "camera", "look-at", "observer"]

    /// Values of a path key that are keywords the option takes, kept as written.
    static let pathKeywords: [String: Set<String>] = ["geoid": ["egm96"]]

    public static func arguments(path: String, knownOptions: Set<String>, flags: Set<String>) throws(FormatError) -> [String] {
        let data = try TextInput.contents(path: path, limit: TextInput.maximumSceneFileBytes, kind: "scene files", regularOnly: true)
        return try arguments(data: data, path: path, knownOptions: knownOptions, flags: flags)
    }

    /// The argument list a scene's bytes make; `path` names the file in messages and is the
    /// base of relative paths.
    ///
    /// - Parameters:
    ///   - data: the scene file's content (JSON, read by `JSON.parse`).
    ///   - path: the scene file's path.
    ///   - knownOptions: option names (dashes) a scene may set.
    ///   - flags: those of them that take no value (`true` adds the flag, `false` leaves it out).
    public static func arguments(data: Data, path: String, knownOptions: Set<String>, flags: Set<String>) throws(FormatError) -> [String] {
        let document = try JSON.parse(data, path: path)
        guard let members = document.members else {
            throw .malformed(path: path, reason: "is not a JSON object")
        }
        let base = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        func resolve(_ value: String) -> String {
            if value.hasPrefix("/") || value == "-" { return value }
            return normalised(base + "/" + value)
        }
        var args: [String] = []
        for key in Set(members.map(\.0)).sorted() {
            let name = key.replacingOccurrences(of: "_", with: "-")
            guard knownOptions.contains(name) else {
                let hint =
                    NearestName.suggestion(for: name, among: knownOptions.sorted()).map { "; did you mean '\($0.replacingOccurrences(of: "-", with: "_"))'?" }
                    ?? ""
                throw .malformed(path: path, reason: "unknown setting '\(key.printable)'" + hint)
            }
            let value = document[key]!
            if flags.contains(name) {
                guard let on = value.bool else { throw .malformed(path: path, reason: "'\(key.printable)' must be true or false") }
                if on { args.append("--" + name) }
                continue
            }
            var values: [String] = []
            switch value {
            case .array(let list) where pointKeys.contains(name):
                guard let point = numbers(list) else { throw .malformed(path: path, reason: "'\(key.printable)' must be [lon, lat] or [lon, lat, z]") }
                values = [point]
            case .array(let list) where name == "size" || name == "extent" || name == "extent-crs":
                var parts: [String] = []
                for item in list { parts.append(try scalar(item, key: key, path: path)) }
                values = [parts.joined(separator: name == "size" ? "x" : ",")]
            case .array(let list):
                for item in list { values.append(try scalar(item, key: key, path: path)) }
            default:
                values = [try scalar(value, key: key, path: path)]
            }
            for v in values {
                let isPath = pathKeys.contains(name) && !(pathKeywords[name]?.contains(v) ?? false)
                let resolved = isPath || (name == "basemap" && (v.contains("/") || v.contains(".")) && !v.hasPrefix("light")) ? resolve(v) : v
                args += ["--" + name, resolved]
            }
        }
        return args
    }

    /// `data/../../shared/x` → `../shared/x`: `..` and `.` folded lexically, a relative path kept
    /// relative (so outputs name inputs the same way on every machine).
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// One value as flag text: a string as is, a number as `JSON.format` writes it (a form
    /// `NumberText` reads back), a measure object as `LON,LAT:LON,LAT`.
    static func scalar(_ value: JSON, key: String, path: String) throws(FormatError) -> String {
        switch value {
        case .string(let s): return s
        case .number(let n): return JSON.format(n)
        case .object where key == "measure":
            guard let from = value["from"]?.array, let to = value["to"]?.array,
                let a = numbers(from), let b = numbers(to)
            else {
                throw .malformed(path: path, reason: "a measure needs \"from\" and \"to\" as [lon, lat]")
            }
            return a + ":" + b
        default:
            throw .malformed(path: path, reason: "'\(key.printable)' has a value of the wrong kind")
        }
    }

    /// `[lon, lat(, z)]` as `lon,lat(,z)`, or nil when an item is not a number.
    static func numbers(_ list: [JSON]) -> String? {
        var parts: [String] = []
        for item in list {
            guard let n = item.number else { return nil }
            parts.append(JSON.format(n))
        }
        return parts.joined(separator: ",")
    }
}
