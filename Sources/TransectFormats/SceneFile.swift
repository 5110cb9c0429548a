import Foundation

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
    /// Keys whose values are paths, resolved against the scene file's directory.
    static let pathKeys: Set<String> = ["dem", "places", "out", "track", "chart"]

    public static func arguments(path: String, knownOptions: Set<String>, flags: Set<String>) throws(FormatError) -> [String] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .cannotRead(path: path, reason: "no such file or not readable")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .malformed(path: path, reason: "is not a JSON object")
        }
        let base = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        func resolve(_ value: String) -> String {
            if value.hasPrefix("/") || value == "-" { return value }
            return normalised(base + "/" + value)
        }
        var args: [String] = []
        for key in object.keys.sorted() {
            let name = key.replacingOccurrences(of: "_", with: "-")
            guard knownOptions.contains(name) else { throw .malformed(path: path, reason: "unknown setting '\(key)'") }
            let value = object[key]!
            if flags.contains(name) {
                guard let on = value as? Bool else { throw .malformed(path: path, reason: "'\(key)' must be true or false") }
                if on { args.append("--" + name) }
                continue
            }
            var values: [String] = []
            switch value {
            case let list as [Any] where name == "size" || name == "extent" || name == "extent-crs":
                values = [list.map { "\($0)" }.joined(separator: name == "size" ? "x" : ",")]
            case let list as [Any]:
                for item in list { values.append(try scalar(item, key: key, path: path)) }
            default:
                values = [try scalar(value, key: key, path: path)]
            }
            for v in values {
                let resolved = pathKeys.contains(name) || (name == "basemap" && (v.contains("/") || v.contains(".")) && !v.hasPrefix("light")) ? resolve(v) : v
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
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    static func scalar(_ value: Any, key: String, path: String) throws(FormatError) -> String {
        switch value {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        case let m as [String: Any] where key == "measure":
            guard let from = m["from"] as? [Any], let to = m["to"] as? [Any] else {
                throw .malformed(path: path, reason: "a measure needs \"from\" and \"to\" as [lon, lat]")
            }
            return from.map { "\($0)" }.joined(separator: ",") + ":" + to.map { "\($0)" }.joined(separator: ",")
        default:
            throw .malformed(path: path, reason: "'\(key)' has a value of the wrong kind")
        }
    }
}
