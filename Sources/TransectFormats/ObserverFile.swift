import Foundation
import TransectFormatsBase
import TransectGeodesy
import TransectSupport

/// An observer read from an observers file: where it stands and, when the file says, its eye
/// height (absolute, or above the ground) and the target height of its sight lines.
public struct ObserverPoint: Sendable, Hashable {
    /// The name, or `FILE line N` / `FILE point N` when the file gives none.
    public var name: String
    public var point: GeoPoint
    /// The eye's height above the DEM's datum, metres (a `z` column, a Point's third coordinate).
    public var absoluteMetres: Double?
    /// The eye's height above the ground, metres (a `height` column or property).
    public var aboveGroundMetres: Double?
    /// The target height above the ground for this observer's sight lines, metres.
    public var targetHeightMetres: Double?
}

/// Observers files for `viewshed --observers`: CSV with a header naming `lon` and `lat` columns
/// (also `longitude`, `latitude`, `x`, `y`) and optionally `name`, `z` (the eye's absolute
/// height), `height` (the eye above the ground) and `target_height`; or GeoJSON Point features
/// (FeatureCollection, Feature or a bare Point, a third coordinate being the eye's absolute
/// height) with the same names as properties. Numbers by `NumberText`, heights within
/// ±``GeoPoint/heightLimitMetres``, coordinates checked as the command line checks its own;
/// errors name the file and, for CSV, the line.
public enum ObserverFile {
    /// The most observers a file may hold: a viewshed each.
    public static let maximumObservers = 100_000

    /// `-` reads standard input, named `stdin` in messages.
    public static func read(path: String) throws(FormatError) -> [ObserverPoint] {
        let name = path == "-" ? "stdin" : path
        let data =
            path == "-"
            ? try TextInput.contents(of: try FileChunks(standardInput: "stdin"), limit: TextInput.maximumDataFileBytes, kind: "observers files")
            : try TextInput.contents(path: path, limit: TextInput.maximumDataFileBytes, kind: "observers files")
        return try read(data: data, path: name)
    }

    /// Reads observers from bytes in memory: GeoJSON when `path` ends in `.geojson` or `.json`
    /// or the content starts with `{`, CSV otherwise.
    public static func read(data: Data, path: String) throws(FormatError) -> [ObserverPoint] {
        var content = data[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        let lower = path.lowercased()
        let observers =
            lower.hasSuffix(".geojson") || lower.hasSuffix(".json") || content.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{")
            ? try geoJSON(Data(content), path: path) : try csv(Data(content), path: path)
        guard !observers.isEmpty else { throw .malformed(path: path, reason: "holds no observer") }
        guard observers.count <= maximumObservers else {
            throw .malformed(
                path: path,
                reason:
                    "holds \(NumberFormatting.grouped(Double(observers.count), decimals: 0)) observers, more than \(NumberFormatting.grouped(Double(maximumObservers), decimals: 0))"
            )
        }
        return observers
    }

    /// A height within the limit, or the problem with it.
    static func height(_ v: Double, _ what: String) -> String? {
        abs(v) <= GeoPoint.heightLimitMetres ? nil : "\(what) \(JSON.format(v)) m is beyond ±\(JSON.format(GeoPoint.heightLimitMetres)) m"
    }

    static func csv(_ data: Data, path: String) throws(FormatError) -> [ObserverPoint] {
        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }
        let lines = try TextInput.lines(data, path: path)
        guard let headerIndex = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else { throw fail("is empty") }
        let header = CSVLine.split(lines[headerIndex]).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ names: [String]) -> Int? { header.firstIndex { names.contains($0) } }
        guard let x = column(["lon", "longitude", "lng", "x"]), let y = column(["lat", "latitude", "y"]) else {
            throw fail("line \(headerIndex + 1): header needs lon and lat columns")
        }
        let n = column(["name", "label", "title"])
        let z = column(["z", "elevation", "ele"])
        let h = column(["height", "observer_height"])
        let t = column(["target_height"])
        var observers: [ObserverPoint] = []
        for k in (headerIndex + 1)..<lines.count where !lines[k].allSatisfy(\.isWhitespace) {
            let lineNumber = k + 1
            let f = CSVLine.split(lines[k])
            guard f.count > [x, y, n ?? 0, z ?? 0, h ?? 0, t ?? 0].max()! else {
                throw fail("line \(lineNumber): has \(f.count) fields, the header has \(header.count)")
            }
            func number(_ c: Int?) throws(FormatError) -> Double? {
                guard let c else { return nil }
                let text = CSVLine.trimmed(f[c])
                if text.isEmpty && c != x && c != y { return nil }
                guard let v = NumberText.double(text) else { throw fail("line \(lineNumber): \(header[c].printable) '\(text.printable)' is not a number") }
                return v
            }
            let lon = try number(x)!
            let lat = try number(y)!
            if let problem = PointArgument.checkGeographic(longitude: lon, latitude: lat) { throw fail("line \(lineNumber): \(problem.text)") }
            let observer = ObserverPoint(
                name: n.map { CSVLine.trimmed(f[$0]) }.flatMap { $0.isEmpty ? nil : $0 } ?? "\(path) line \(lineNumber)",
                point: GeoPoint(longitude: lon, latitude: lat), absoluteMetres: try number(z), aboveGroundMetres: try number(h),
                targetHeightMetres: try number(t))
            for (v, what) in [(observer.absoluteMetres, "z"), (observer.aboveGroundMetres, "height"), (observer.targetHeightMetres, "target_height")] {
                if let v, let problem = height(v, what) { throw fail("line \(lineNumber): \(problem)") }
            }
            if observer.absoluteMetres != nil && observer.aboveGroundMetres != nil {
                throw fail("line \(lineNumber): gives both z (the eye's height above the datum) and height (above the ground)")
            }
            observers.append(observer)
            if observers.count > maximumObservers { break }
        }
        return observers
    }

    static func geoJSON(_ data: Data, path: String) throws(FormatError) -> [ObserverPoint] {
        let document = try JSON.parse(data, path: path)
        var observers: [ObserverPoint] = []
        var work: [(value: JSON, properties: JSON?)] = [(document, nil)]
        while let (value, properties) = work.popLast() {
            guard let type = value["type"]?.string else { continue }
            switch type {
            case "FeatureCollection":
                for f in (value["features"]?.array ?? []).reversed() { work.append((f, nil)) }
            case "Feature":
                if let g = value["geometry"] { work.append((g, value["properties"])) }
            case "Point":
                let ordinal = observers.count + 1
                let name = (properties?["name"] ?? properties?["title"] ?? properties?["label"]).flatMap(TrackFile.label) ?? "\(path) point \(ordinal)"
                guard let c = value["coordinates"]?.array, c.count >= 2, let lon = c[0].number, let lat = c[1].number else {
                    throw .malformed(path: path, reason: "Point '\(name.printable)' has invalid coordinates")
                }
                if let problem = PointArgument.checkGeographic(longitude: lon, latitude: lat) {
                    throw .malformed(path: path, reason: "Point '\(name.printable)': \(problem.text)")
                }
                func property(_ key: String) throws(FormatError) -> Double? {
                    guard let p = properties?[key], !p.isNull else { return nil }
                    guard let v = p.number else { throw .malformed(path: path, reason: "Point '\(name.printable)': \(key) is not a number") }
                    if let problem = height(v, key) { throw .malformed(path: path, reason: "Point '\(name.printable)': \(problem)") }
                    return v
                }
                var z: Double? = nil
                if c.count >= 3 {
                    guard let v = c[2].number else { throw .malformed(path: path, reason: "Point '\(name.printable)' has invalid coordinates") }
                    if let problem = height(v, "z") { throw .malformed(path: path, reason: "Point '\(name.printable)': \(problem)") }
                    z = v
                }
                let above = try property("height")
                if z != nil && above != nil {
                    throw .malformed(
                        path: path, reason: "Point '\(name.printable)' gives both a third coordinate (the eye's height above the datum) and height")
                }
                observers.append(
                    ObserverPoint(
                        name: name, point: GeoPoint(longitude: lon, latitude: lat), absoluteMetres: z, aboveGroundMetres: above,
                        targetHeightMetres: try property("target_height")))
                if observers.count > maximumObservers { return observers }
            default:
                continue
            }
        }
        return observers
    }
}
