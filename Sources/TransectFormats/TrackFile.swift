import Foundation
import TransectAnalysis
import TransectSupport

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
            if lower.hasSuffix(".gpx") {
                self = .gpx
            } else if lower.hasSuffix(".geojson") {
                self = .geojson
            } else if lower.hasSuffix(".csv") {
                self = .csv
            } else {
                return nil
            }
        }
    }

    /// Reads a track file, detecting its format from the extension and, where the extension
    /// does not say, from the content (`<` → GPX; JSON with `paths` → Esri JSON; other JSON →
    /// GeoJSON; anything else → CSV).
    ///
    /// - Parameter path: the file to read; `-` reads standard input (named `stdin` in
    ///   messages, its format told by its content).
    /// - Throws: `FormatError.cannotRead` when the file cannot be read, `.malformed` when its
    ///   content is not a track in a supported format.
    public static func read(path: String) throws(FormatError) -> Track {
        let source = try FileChunks(path: path)
        let path = source.path  // `stdin` for `-`
        let format = Format(path: path)
        // GPX, named or sniffed, is streamed; the other formats are parsed whole, so are read
        // whole up to `TextInput.maximumDataFileBytes`.
        // What the content says when the name does not: .gpx, .csv, or nil for JSON.
        let sniffed = format == nil ? sniff(Data(try source.head(sniffBytes))) : format
        if sniffed == .gpx {
            let track = try GPXReader.read(source)
            guard track.pointCount > 0 else { throw .malformed(path: path, reason: "has no track points") }
            return track
        }
        // JSON from a regular file is parsed in place in a mapping that gives back the pages
        // behind the parse (a track of millions of positions costs its points, not its text).
        if source.isRegular, sniffed == .geojson || sniffed == nil {
            let mapped = try MappedFile(path: path, limit: TextInput.maximumDataFileBytes, kind: "track files")
            let track = try readJSON(mapped.bytes, path: path, format: format, pointLimit: maximumPoints) { mapped.release(before: $0 - (1 << 20)) }
            guard track.pointCount > 0 else { throw .malformed(path: path, reason: "has no track points") }
            return track
        }
        let data = try TextInput.contents(of: source, limit: TextInput.maximumDataFileBytes, kind: "track files")
        return try read(data: data, path: path, format: format)
    }

    /// A GeoJSON or Esri JSON track from its bytes (`format` nil: the content decides), the
    /// positions and times of GeoJSON read straight into points (``GeoJSONCapture``).
    static func readJSON(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, format: Format?, pointLimit: Int, progress: ((Int) -> Void)? = nil
    ) throws(FormatError) -> Track {
        let capture = format == .esriJSON ? nil : GeoJSONCapture(path: path, pointLimit: pointLimit, release: progress)
        let object = try JSON.parse(bytes, path: path, interceptor: capture, progress: progress)
        if format == .esriJSON || (format == nil && EsriTrackReader.looksLikeEsri(object)) {
            return try EsriTrackReader.read(object, path: path, pointLimit: pointLimit)
        }
        return try GeoJSONTrackReader.read(object, path: path, pointLimit: pointLimit, capture: capture)
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
        case .geojson, .esriJSON, nil:
            let json = detected ?? sniff(data)
            track = try data.withUnsafeBytes { raw in
                Result { () throws(FormatError) -> Track in
                    try readJSON(raw.bindMemory(to: UInt8.self), path: path, format: json, pointLimit: pointLimit)
                }
            }.get()
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
    static func tooManyPoints(_ limit: Int) -> String {
        "has more than \(NumberFormatting.grouped(Double(limit), decimals: 0)) points (the limit)"
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
        if latitude.magnitude > 90 { return "lat \(NumberFormatting.shortest(latitude)) is outside [-90, 90]" }
        if longitude.magnitude > 180 { return "lon \(NumberFormatting.shortest(longitude)) is outside [-180, 180]" }
        return nil
    }
}
