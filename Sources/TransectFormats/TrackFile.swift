import Foundation
import TransectCore

/// Track files (location histories) in: GPX 1.0 and 1.1, GeoJSON, Esri JSON polylines and CSV,
/// read into a `Track` of WGS84 longitude, latitude (degrees), elevation (metres) and time
/// (seconds since 1970 UTC).
///
/// ```swift
/// let track = try TrackFile.read(path: "walk.gpx")
/// print(track.pointCount, track.segments.count, track.name ?? "")
/// ```
///
/// What each format gives:
/// - **GPX** (`.gpx`): every `trkseg` and every `rte` is one segment, in document order
///   (`trkpt`/`rtept` with `ele` and `time`); `wpt` become `waypoints`. The name is the first
///   `trk/name`, else the first `rte/name`, else `metadata/name` (1.1) or `gpx/name` (1.0).
///   Elements inside `<extensions>` are skipped. The document is decoded (UTF-8, UTF-16 with a
///   byte order mark, US-ASCII, ISO-8859-1; any other encoding refused by name) and screened
///   by `XMLScreen` before the XML parser sees a byte: a `DOCTYPE`, an entity declaration or a
///   NUL byte anywhere refuses it (GPX needs none; entities are how an "entity bomb" expands
///   without bound and how an external entity reads local files). The XML parser runs with
///   external entities off and aborts on any entity declaration it meets, as a second line of
///   defence. Files are streamed in chunks, so memory stays bounded whatever their size.
/// - **GeoJSON** (`.geojson`): `LineString` (one segment), `MultiLineString` (one segment per
///   line), `Feature`, `FeatureCollection`, `GeometryCollection`; positions `[lon, lat, ele?]`.
///   Times come from a feature's `properties.coordTimes` or `properties.times` (ISO 8601
///   strings or null; a flat list, or one list per line of a MultiLineString). `Point`
///   features with a `name` property become waypoints; other geometries are ignored. The name
///   is the first line feature's `name` property, else the collection's `name` member.
/// - **Esri JSON** (`.json` with `paths`): a polyline `{"paths": …, "spatialReference": …}` or
///   a FeatureSet whose features have `geometry.paths`; each path is one segment. The
///   spatial reference (`latestWkid`, else `wkid`, of the geometry or else of the FeatureSet)
///   must be 4326 (used as is) or Web Mercator 3857/102100/102113 (converted with
///   `WebMercator.geographic`). With `hasZ` the third value of a vertex is the elevation.
/// - **CSV** (`.csv`, or anything else that is not XML or JSON): a header naming `lon`/
///   `longitude`/`lng` and `lat`/`latitude`, optionally `ele`/`elevation`/`elevation_m`/
///   `alt`/`altitude`, `time`/`timestamp` (ISO 8601), `accuracy`/`accuracy_m`, and `segment`
///   (a new segment starts wherever its value changes). Other columns are ignored; empty
///   optional fields are absent values.
///
/// In every format: segments without points are dropped (a `<trkseg/>` draws nothing), a file
/// without any track point is an error, latitudes must lie in [−90, 90] and longitudes in
/// [−180, 180] (after Web Mercator conversion, always), and every error is a `FormatError` whose
/// one-line message names the file and the problem (with the line for GPX and CSV).
public enum TrackFile {
    /// A track file format, as chosen by the caller or detected.
    public enum Format: String, Sendable, CaseIterable {
        case gpx
        case geojson
        case esriJSON = "esri-json"
        case csv

        /// The format a file name's extension names: `.gpx`, `.geojson`, `.csv`; `nil` for
        /// `.json` (GeoJSON or Esri JSON: the content decides) and anything else.
        public init?(path: String) {
            let lower = path.lowercased()
            if lower.hasSuffix(".gpx") { self = .gpx }
            else if lower.hasSuffix(".geojson") { self = .geojson }
            else if lower.hasSuffix(".csv") { self = .csv }
            else { return nil }
        }
    }

    /// Reads a track file, detecting its format from the extension and, where the extension
    /// does not say, from the content (`<` → GPX; JSON with `paths` → Esri JSON; other JSON →
    /// GeoJSON; anything else → CSV).
    ///
    /// - Parameter path: the file to read.
    /// - Throws: `FormatError.cannotRead` when the file cannot be read, `.malformed` when its
    ///   content is not a track in a supported format.
    public static func read(path: String) throws(FormatError) -> Track {
        let source = try FileChunks(path: path)
        let format = Format(path: path)
        // GPX, named or sniffed, is streamed; the other formats are parsed whole, so are read
        // whole up to `TextInput.maximumDataFileBytes`.
        var streamed = format == .gpx
        if format == nil { streamed = sniff(Data(try source.head(sniffBytes))) == .gpx }
        if streamed {
            let track = try GPXReader.read(source)
            guard track.pointCount > 0 else { throw .malformed(path: path, reason: "has no track points") }
            return track
        }
        let data = try TextInput.contents(of: source, limit: TextInput.maximumDataFileBytes, kind: "track files")
        return try read(data: data, path: path, format: format)
    }

    /// Reads a track from bytes already in memory.
    ///
    /// - Parameters:
    ///   - data: the file's content.
    ///   - path: the name used in error messages and, when `format` is nil, for the extension.
    ///   - format: the format, or nil to detect it as `read(path:)` does.
    public static func read(data: Data, path: String, format: Format? = nil) throws(FormatError) -> Track {
        try read(data: data, path: path, format: format, pointLimit: maximumPoints)
    }

    /// `read(data:path:format:)` refusing more than `pointLimit` points (a test's small limit).
    static func read(data: Data, path: String, format: Format?, pointLimit: Int) throws(FormatError) -> Track {
        let track: Track
        let detected = format ?? Format(path: path)
        switch detected ?? sniff(data) {
        case .gpx: track = try GPXReader.read(data, path: path, pointLimit: pointLimit)
        case .csv: track = try CSVTrackReader.read(data, path: path, pointLimit: pointLimit)
        case .geojson: track = try GeoJSONTrackReader.read(try json(data, path: path), path: path, pointLimit: pointLimit)
        case .esriJSON: track = try EsriTrackReader.read(try json(data, path: path), path: path, pointLimit: pointLimit)
        case nil:
            let object = try json(data, path: path)
            track = EsriTrackReader.looksLikeEsri(object)
                ? try EsriTrackReader.read(object, path: path, pointLimit: pointLimit)
                : try GeoJSONTrackReader.read(object, path: path, pointLimit: pointLimit)
        }
        guard track.pointCount > 0 else { throw .malformed(path: path, reason: "has no track points") }
        return track
    }

    /// The most points (track points and waypoints together) a track file may hold:
    /// ``Track/maxPoints``, 10 million, the bound every later step (densifying, simulating)
    /// works within. A file with more is refused as it is read, so memory stays bounded and a
    /// later step never blames its own options for the file's size.
    static let maximumPoints = Int(Track.maxPoints)

    /// The reason given for a file with more than `limit` (``maximumPoints``) points.
    static func tooManyPoints(_ limit: Int) -> String { "has more than \(grouped(limit)) points (the limit)" }

    /// A count with thousands separators: `10000000` → `10,000,000`.
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n.magnitude)), out = ""
        while digits.count > 3 { out = "," + String(digits.suffix(3)) + out; digits.removeLast(3) }
        return (n < 0 ? "-" : "") + String(digits) + out
    }

    /// The largest horizontal accuracy accepted, in metres (a negative one marks an invalid
    /// fix and is dropped by `Track.clean`; its magnitude is bounded the same way). Far past
    /// any fix: a bound so that no sum or mean of accuracies overflows.
    static let accuracyLimitMetres = 1e8

    /// How many leading bytes `sniff` looks at.
    static let sniffBytes = 4096

    /// `.gpx` for XML, `nil` for JSON (GeoJSON or Esri: decided after parsing), `.csv` otherwise.
    static func sniff(_ data: Data) -> Format? {
        var bytes = data.prefix(sniffBytes)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        switch bytes.first(where: { !$0.isWhitespace }) {
        case UInt8(ascii: "<"): return .gpx
        case UInt8(ascii: "{"), UInt8(ascii: "["): return nil
        default:
            // UTF-16/32 XML starts with a byte-order mark or a zero byte: let the GPX reader
            // refuse it by name rather than read it as CSV.
            if let first = data.first, first == 0 || first == 0xFE || first == 0xFF { return .gpx }
            return .csv
        }
    }

    static func json(_ data: Data, path: String) throws(FormatError) -> JSON {
        try JSON.parse(data, path: path)
    }

    /// A number from text with surrounding white space, by the one grammar of `NumberText`
    /// (so no `nan`, `inf`, hexadecimal floats or overflow), or nil.
    static func number(_ text: some StringProtocol) -> Double? {
        NumberText.double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What a JSON value is, for messages (never the value itself, which may be huge or deep).
    static func kind(_ value: JSON) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let v): JSON.format(v)
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A JSON value as a name: a string as is, a number or boolean as written; nil for null,
    /// arrays and objects.
    static func label(_ value: JSON) -> String? {
        switch value {
        case .string(let s): s
        case .number(let v): JSON.format(v)
        case .bool(let b): b ? "true" : "false"
        default: nil
        }
    }

    /// Checks a geographic position; returns a reason when it is out of range.
    static func rangeProblem(longitude: Double, latitude: Double) -> String? {
        if latitude.magnitude > 90 { return "lat \(plain(latitude)) is outside [-90, 90]" }
        if longitude.magnitude > 180 { return "lon \(plain(longitude)) is outside [-180, 180]" }
        return nil
    }

    /// A number as written in messages: integers without ".0".
    static func plain(_ v: Double) -> String {
        v == v.rounded() && v.magnitude < 1e15 ? String(Int64(v)) : String(v)
    }
}

// MARK: - GeoJSON

enum GeoJSONTrackReader {
    static func read(_ document: JSON, path: String, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        var segments: [[TrackPoint]] = []
        var waypoints: [Waypoint] = []
        var lineName: String?
        var collectionName: String?
        var pointCount = 0

        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }

        func position(_ value: JSON, _ where_: String) throws(FormatError) -> TrackPoint {
            guard let c = value.array, c.count >= 2, let lon = c[0].number, let lat = c[1].number else {
                throw fail("\(where_) is not [lon, lat] or [lon, lat, ele]")
            }
            if let problem = TrackFile.rangeProblem(longitude: lon, latitude: lat) { throw fail("\(where_): \(problem)") }
            var elevation: Double?
            if c.count >= 3, !c[2].isNull {
                guard let e = c[2].number else { throw fail("\(where_) has an elevation that is not a number") }
                if let problem = PointArgument.checkHeight(e, name: "elevation") { throw fail("\(where_): \(problem.text)") }
                elevation = e
            }
            pointCount += 1
            guard pointCount <= pointLimit else { throw fail(TrackFile.tooManyPoints(pointLimit)) }
            return TrackPoint(longitude: lon, latitude: lat, elevationMetres: elevation)
        }

        func line(_ value: JSON?, _ where_: String) throws(FormatError) -> [TrackPoint] {
            guard let list = value?.array else { throw fail("\(where_) has no coordinates array") }
            var points: [TrackPoint] = []
            points.reserveCapacity(list.count)
            for (k, p) in list.enumerated() { points.append(try position(p, "\(where_) position \(k + 1)")) }
            return points
        }

        func time(_ value: JSON, _ where_: String) throws(FormatError) -> Double? {
            if value.isNull { return nil }
            guard let s = value.string, let t = Timestamp.parseISO8601(s.trimmingCharacters(in: .whitespaces)) else {
                throw fail("\(where_) has a time that is not an ISO 8601 string: \(value.string?.printable ?? TrackFile.kind(value))")
            }
            return t
        }

        /// Applies `coordTimes`/`times` to the lines of one geometry.
        func applyTimes(_ properties: JSON?, to lines: inout [[TrackPoint]], _ where_: String) throws(FormatError) {
            guard let properties else { return }
            let key = properties["coordTimes"] != nil ? "coordTimes" : "times"
            guard let raw = properties[key], !raw.isNull else { return }
            guard let list = raw.array else { throw fail("\(where_): \(key) is not an array") }
            let total = lines.reduce(0) { $0 + $1.count }
            if lines.count > 1 || list.first?.array != nil {
                // One list per line (togeojson's MultiLineString form), or a flat list over all.
                let nested = list.compactMap(\.array)
                if nested.count == list.count, nested.count == lines.count {
                    for i in lines.indices {
                        guard nested[i].count == lines[i].count else {
                            throw fail("\(where_): \(key) line \(i + 1) has \(nested[i].count) times for \(lines[i].count) positions")
                        }
                        for j in lines[i].indices { lines[i][j].time = try time(nested[i][j], "\(where_) \(key)") }
                    }
                    return
                }
                if list.first?.array != nil { throw fail("\(where_): \(key) has \(list.count) lists for \(lines.count) lines") }
            }
            guard list.count == total else { throw fail("\(where_): \(key) has \(list.count) times for \(total) positions") }
            var k = 0
            for i in lines.indices {
                for j in lines[i].indices { lines[i][j].time = try time(list[k], "\(where_) \(key)"); k += 1 }
            }
        }

        // A work list rather than recursion: nested GeometryCollections cost heap, not stack.
        // Items are taken from the end, so children are pushed in reverse to keep document order.
        var work: [(value: JSON, where_: String, properties: JSON?)] = [(document, "the document", nil)]
        while let (value, where_, properties) = work.popLast() {
            guard value.isObject else { throw fail("\(where_) is not a JSON object") }
            guard let type = value["type"]?.string else { throw fail("\(where_) has no GeoJSON \"type\"") }
            switch type {
            case "FeatureCollection":
                guard let features = value["features"]?.array else { throw fail("FeatureCollection has no features array") }
                for (k, f) in features.enumerated().reversed() { work.append((f, "feature \(k + 1)", nil)) }
                if collectionName == nil, let n = value["name"]?.string, !n.isEmpty { collectionName = n }
            case "Feature":
                let props = value["properties"].flatMap { $0.isObject ? $0 : nil }
                guard let geometry = value["geometry"], !geometry.isNull else { continue }
                work.append((geometry, where_, props ?? .object([])))
            case "GeometryCollection":
                guard let geometries = value["geometries"]?.array else { throw fail("\(where_): GeometryCollection has no geometries array") }
                for (k, g) in geometries.enumerated().reversed() { work.append((g, "\(where_) geometry \(k + 1)", nil)) }
            case "LineString", "MultiLineString":
                var lines: [[TrackPoint]]
                if type == "LineString" {
                    lines = [try line(value["coordinates"], "\(where_) LineString")]
                } else {
                    guard let list = value["coordinates"]?.array else { throw fail("\(where_) MultiLineString has no coordinates array") }
                    lines = []
                    for (k, l) in list.enumerated() { lines.append(try line(l, "\(where_) MultiLineString line \(k + 1)")) }
                }
                try applyTimes(properties, to: &lines, where_)
                segments += lines.filter { !$0.isEmpty }
                if lineName == nil, let n = properties?["name"]?.string, !n.isEmpty { lineName = n }
            case "Point":
                guard let label = properties?["name"].flatMap(TrackFile.label), !label.isEmpty else { continue }
                var p = try position(value["coordinates"] ?? .null, "\(where_) Point")
                if let t = properties?["time"] { p.time = try time(t, "\(where_) Point") }
                waypoints.append(Waypoint(name: label, point: p))
            case "MultiPoint", "Polygon", "MultiPolygon":
                continue
            default:
                throw fail("\(where_) has unknown GeoJSON type '\(type.printable)'")
            }
        }
        return Track(name: lineName ?? collectionName, segments: segments, waypoints: waypoints)
    }
}

// MARK: - Esri JSON

enum EsriTrackReader {
    /// Web Mercator wkids (102113 is the older code for the same projection).
    static let webMercatorWkids: Set<Int> = [3857, 102100, 102113, 900913]

    /// True for an Esri polyline or a FeatureSet of them (decided on `paths`, `spatialReference`
    /// or `geometryType`, which GeoJSON does not have).
    static func looksLikeEsri(_ object: JSON) -> Bool {
        guard object.isObject else { return false }
        if object["paths"] != nil || object["spatialReference"] != nil || object["geometryType"] != nil { return true }
        if let first = object["features"]?.array?.first, let geometry = first["geometry"], geometry.isObject {
            return geometry["paths"] != nil || geometry["x"] != nil || geometry["rings"] != nil
        }
        return false
    }

    enum Reference { case geographic, webMercator }

    /// The spatial reference a wkid names, or nil. The wkid is compared as a double before any
    /// conversion to an integer: `1e300` or `-1e19` are simply not supported, never a trap.
    static func reference(wkid: Double) -> Reference? {
        if wkid == 4326 { return .geographic }
        guard wkid == wkid.rounded(), wkid.magnitude < 1e9 else { return nil }
        return webMercatorWkids.contains(Int(wkid)) ? .webMercator : nil
    }

    static func read(_ top: JSON, path: String, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }
        guard top.isObject else { throw fail("is not an Esri JSON object") }
        var pointCount = 0

        func reference(_ value: JSON?) throws(FormatError) -> Reference {
            guard let sr = value, sr.isObject else {
                throw fail("has no spatialReference (wkid 4326, 3857 or 102100 expected)")
            }
            let ids = [sr["latestWkid"], sr["wkid"]].compactMap { $0?.number }
            for id in ids {
                if let r = EsriTrackReader.reference(wkid: id) { return r }
            }
            guard let id = ids.last else {
                throw fail("spatialReference has no wkid (4326, 3857 or 102100 expected)")
            }
            throw fail("spatialReference wkid \(TrackFile.plain(id)) is not supported (only 4326, 3857 and 102100 are)")
        }

        func polyline(_ geometry: JSON, inherited: JSON?, hasZ inheritedZ: Bool, _ where_: String) throws(FormatError) -> [[TrackPoint]] {
            guard let paths = geometry["paths"]?.array else { throw fail("\(where_) has no paths array") }
            let ref = try reference(geometry["spatialReference"] ?? inherited)
            let hasZ = geometry["hasZ"]?.bool ?? inheritedZ
            var lines: [[TrackPoint]] = []
            for (i, p) in paths.enumerated() {
                guard let vertices = p.array else { throw fail("\(where_) path \(i + 1) is not an array of vertices") }
                var line: [TrackPoint] = []
                line.reserveCapacity(vertices.count)
                for (j, v) in vertices.enumerated() {
                    let at = "\(where_) path \(i + 1) vertex \(j + 1)"
                    guard let c = v.array, c.count >= 2, let x = c[0].number, let y = c[1].number else {
                        throw fail("\(at) is not [x, y]")
                    }
                    var point: TrackPoint
                    switch ref {
                    case .geographic:
                        if let problem = TrackFile.rangeProblem(longitude: x, latitude: y) { throw fail("\(at): \(problem)") }
                        point = TrackPoint(longitude: x, latitude: y)
                    case .webMercator:
                        // x within ±540° of longitude (as coordinates elsewhere); any finite y
                        // is a latitude short of the pole.
                        let g = WebMercator.geographic(x: x, y: y)
                        guard x.magnitude <= 3 * Double.pi * WebMercator.radiusMetres, g.longitude.isFinite, g.latitude.isFinite else {
                            throw fail("\(at): x \(TrackFile.plain(x)), y \(TrackFile.plain(y)) is outside the Web Mercator plane")
                        }
                        point = TrackPoint(longitude: g.longitude, latitude: g.latitude)
                    }
                    if hasZ, c.count >= 3 {
                        guard let z = c[2].number else { throw fail("\(at) has a z that is not a number") }
                        if let problem = PointArgument.checkHeight(z, name: "z") { throw fail("\(at): \(problem.text)") }
                        point.elevationMetres = z
                    }
                    pointCount += 1
                    guard pointCount <= pointLimit else { throw fail(TrackFile.tooManyPoints(pointLimit)) }
                    line.append(point)
                }
                if !line.isEmpty { lines.append(line) }
            }
            return lines
        }

        let topZ = top["hasZ"]?.bool ?? false
        if let features = top["features"]?.array, top["paths"] == nil {
            var segments: [[TrackPoint]] = []
            var sawPolyline = false
            for (k, feature) in features.enumerated() {
                guard feature.isObject else { throw fail("feature \(k + 1) is not a JSON object") }
                guard let geometry = feature["geometry"], geometry.isObject, geometry["paths"] != nil else { continue }
                sawPolyline = true
                segments += try polyline(geometry, inherited: top["spatialReference"], hasZ: topZ, "feature \(k + 1)")
            }
            guard sawPolyline else { throw fail("has no polyline features (geometry.paths)") }
            return Track(segments: segments)
        }
        guard top["paths"] != nil else { throw fail("is neither an Esri polyline (paths) nor a FeatureSet of polylines") }
        return Track(segments: try polyline(top, inherited: nil, hasZ: topZ, "the polyline"))
    }
}

// MARK: - CSV

enum CSVTrackReader {
    static func read(_ data: Data, path: String, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }
        let lines = try TextInput.lines(data, path: path)
        guard let headerIndex = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else { throw fail("is empty") }
        let header = CSV.split(String(lines[headerIndex])).map {
            $0.replacingOccurrences(of: "\u{FEFF}", with: "").trimmingCharacters(in: .whitespaces).lowercased()
        }
        func column(_ names: [String]) -> Int? { header.firstIndex { names.contains($0) } }
        guard let lonColumn = column(["lon", "longitude", "lng"]), let latColumn = column(["lat", "latitude"]) else {
            throw fail("line \(headerIndex + 1): header needs lon and lat columns (found \(header.joined(separator: ",").printable))")
        }
        let eleColumn = column(["ele", "elevation", "elevation_m", "alt", "altitude"])
        let timeColumn = column(["time", "timestamp"])
        let accuracyColumn = column(["accuracy", "accuracy_m"])
        let segmentColumn = column(["segment"])

        var segments: [[TrackPoint]] = []
        var current: [TrackPoint] = []
        var currentSegment: String?
        var pointCount = 0
        for k in (headerIndex + 1)..<lines.count {
            let raw = lines[k]
            if raw.allSatisfy(\.isWhitespace) { continue }
            let lineNumber = k + 1
            let fields = CSV.split(String(raw))
            // Trailing optional fields may be left off; lon and lat must be there.
            guard fields.count > max(lonColumn, latColumn) else {
                throw fail("line \(lineNumber): has \(fields.count) fields, the header has \(header.count)")
            }
            func field(_ c: Int?) -> String? {
                guard let c, c < fields.count else { return nil }
                let f = fields[c].trimmingCharacters(in: .whitespaces)
                return f.isEmpty ? nil : f
            }
            func required(_ c: Int, _ label: String) throws(FormatError) -> Double {
                guard let f = field(c) else { throw fail("line \(lineNumber): \(label) is empty") }
                guard let v = TrackFile.number(f) else { throw fail("line \(lineNumber): \(label.printable) '\(f.printable)' is not a number") }
                return v
            }
            func optional(_ c: Int?, _ label: String) throws(FormatError) -> Double? {
                guard let f = field(c) else { return nil }
                guard let v = TrackFile.number(f) else { throw fail("line \(lineNumber): \(label.printable) '\(f.printable)' is not a number") }
                return v
            }
            let lon = try required(lonColumn, header[lonColumn])
            let lat = try required(latColumn, header[latColumn])
            if let problem = TrackFile.rangeProblem(longitude: lon, latitude: lat) { throw fail("line \(lineNumber): \(problem)") }
            var point = TrackPoint(longitude: lon, latitude: lat)
            point.elevationMetres = try optional(eleColumn, eleColumn.map { header[$0] } ?? "")
            if let e = point.elevationMetres, let problem = PointArgument.checkHeight(e, name: header[eleColumn!].printable) {
                throw fail("line \(lineNumber): \(problem.text)")
            }
            point.accuracyMetres = try optional(accuracyColumn, accuracyColumn.map { header[$0] } ?? "")
            if let a = point.accuracyMetres, a.magnitude > TrackFile.accuracyLimitMetres {
                throw fail("line \(lineNumber): \(header[accuracyColumn!].printable) \(JSON.format(a)) m is beyond \(GeoPoint.heightLimitText)")
            }
            if let t = field(timeColumn) {
                guard let seconds = Timestamp.parseISO8601(t) else { throw fail("line \(lineNumber): time '\(t.printable)' is not an ISO 8601 time") }
                point.time = seconds
            }
            if segmentColumn != nil {
                let s = field(segmentColumn) ?? ""
                if let currentSegment, s != currentSegment, !current.isEmpty { segments.append(current); current = [] }
                currentSegment = s
            }
            pointCount += 1
            guard pointCount <= pointLimit else { throw fail(TrackFile.tooManyPoints(pointLimit)) }
            current.append(point)
        }
        if !current.isEmpty { segments.append(current) }
        return Track(segments: segments)
    }
}
