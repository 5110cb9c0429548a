import TransectAnalysis
import TransectSupport

/// A point ``TrackWriter`` writes: a recorded or densified ``TrackPoint`` (time and elevation
/// when known) or a simulated ``Fix`` (always a time, and a course and speed).
public protocol WritableTrackPoint {
    var longitude: Double { get }
    var latitude: Double { get }
    var elevationMetres: Double? { get }
    /// Seconds since 1970, if known.
    var writtenTime: Double? { get }
    /// Course in degrees and speed in metres per second, for a simulated fix; nil otherwise.
    var motion: (courseDegrees: Double, speedMetresPerSecond: Double)? { get }
}

extension TrackPoint: WritableTrackPoint {
    public var writtenTime: Double? { time }
    public var motion: (courseDegrees: Double, speedMetresPerSecond: Double)? { nil }
}

extension Fix: WritableTrackPoint {
    public var writtenTime: Double? { time }
    public var motion: (courseDegrees: Double, speedMetresPerSecond: Double)? { (courseDegrees, speedMetresPerSecond) }
}

/// Tracks and fixes out, as GPX 1.1, GeoJSON or CSV text; segments stay segments in every
/// format. The caller writes the string atomically.
///
/// Output is deterministic: the same points give the same bytes (fixed key order, fixed decimals,
/// no locale, no exponent, no current time). Numbers are plain decimals rounded to fixed places:
/// longitude and latitude 9 (0.1 mm), elevation 3 (1 mm), course and speed 6 (a course that
/// rounds to 360 is written as 0); times are ISO 8601
/// UTC with milliseconds when the time has a fractional millisecond part (`Timestamp.iso8601`).
/// `TrackFile` reads all three back to the same positions, segments and times (to those
/// decimals).
///
/// - **GPX 1.1**: one `trk` (with the name, if given) holding one `trkseg` per segment of
///   `trkpt` with `ele` and `time` when known, after the waypoints as `wpt`. A simulated fix's
///   course and speed go in Garmin's TrackPointExtension v2
///   (`<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>…</gpxtpx:speed>
///   <gpxtpx:course>…</gpxtpx:course>`, metres per second and degrees), the usual GPX 1.1 home
///   for them: 1.1 has no `course`/`speed` elements of its own, and readers that do not know the
///   extension skip it.
/// - **GeoJSON**: a FeatureCollection holding first one MultiLineString feature, one line per
///   segment (properties `name` when given, and `coordTimes`, one list of ISO times per line,
///   as togeojson writes them; null where a point has no time; left out when no point has
///   one), then, for simulated fixes, one Point feature per fix (properties `segment`, `time`,
///   `course_deg`, `speed_mps`), then one Point feature per waypoint (property `name`).
///   Positions are `[lon, lat, ele]`, or `[lon, lat]` where the elevation is unknown.
/// - **CSV**: the header (``csvHeader`` for fixes, ``csvTrackHeader`` for tracks) and one row
///   per point; `segment` counts from 1; empty fields are unknown values. CSV has no place for a
///   name or waypoints.
///
/// ```swift
/// let text = TrackWriter.write(track, format: .gpx)
/// let fixes = TrackWriter.write(simulated, name: "Mist Trail", format: .csv)
/// ```
public enum TrackWriter {
    /// A text output format.
    public enum Format: String, Sendable, CaseIterable {
        case gpx, geojson, csv

        /// The format a file name's extension names (`.gpx`, `.geojson` or `.json`, `.csv`), else nil.
        public init?(path: String) {
            let lower = path.lowercased()
            if lower.hasSuffix(".gpx") {
                self = .gpx
            } else if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") {
                self = .geojson
            } else if lower.hasSuffix(".csv") {
                self = .csv
            } else {
                return nil
            }
        }
    }

    /// The CSV header of simulated fixes, exactly.
    public static let csvHeader = "time,lon,lat,elevation_m,course_deg,speed_mps,segment"
    /// The CSV header of a track, exactly.
    public static let csvTrackHeader = "time,lon,lat,elevation_m,segment"

    /// A track (its segments, name and waypoints) in a format.
    ///
    /// - Complexity: O(n) in the number of points.
    public static func write(_ track: Track, format: Format) -> String {
        write(track.segments, name: track.name, waypoints: track.waypoints, format: format)
    }

    /// Segments of points in a format.
    ///
    /// - Parameters:
    ///   - segments: the segments in order, each of points in order; all finite (longitude and
    ///     latitude in degrees, time in seconds since 1970, course in degrees, speed in metres
    ///     per second). Empty segments are skipped.
    ///   - name: a track name for GPX and GeoJSON (CSV has no place for one).
    ///   - waypoints: named points for GPX and GeoJSON.
    ///   - format: the output format.
    /// - Returns: the whole file's text, ending in a newline.
    /// - Complexity: O(n) in the number of points.
    public static func write<P: WritableTrackPoint>(
        _ segments: [[P]], name: String? = nil, waypoints: [Waypoint] = [], format: Format
    ) -> String {
        let segments = segments.filter { !$0.isEmpty }
        switch format {
        case .gpx: return gpx(segments, name: name, waypoints: waypoints)
        case .geojson: return geoJSON(segments, name: name, waypoints: waypoints)
        case .csv: return csv(segments)
        }
    }

    /// CSV: ``csvHeader`` or ``csvTrackHeader``, one row per point.
    static func csv<P: WritableTrackPoint>(_ segments: [[P]]) -> String {
        let fixes = P.self == Fix.self
        var out = (fixes ? csvHeader : csvTrackHeader) + "\n"
        for (s, segment) in segments.enumerated() {
            let label = String(s + 1)
            for p in segment {
                out += (p.writtenTime.map(Timestamp.iso8601) ?? "") + "," + fixed(p.longitude, 9) + "," + fixed(p.latitude, 9) + ","
                out += p.elevationMetres.map { fixed($0, 3) } ?? ""
                if fixes {
                    let m = p.motion ?? (0, 0)
                    out += "," + course(m.courseDegrees) + "," + fixed(m.speedMetresPerSecond, 6)
                }
                out += "," + label + "\n"
            }
        }
        return out
    }

    /// GPX 1.1 with one track segment per segment; course and speed in TrackPointExtension v2.
    static func gpx<P: WritableTrackPoint>(_ segments: [[P]], name: String?, waypoints: [Waypoint]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Transect" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v2 http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">

            """
        func point(_ element: String, _ p: some WritableTrackPoint, indent: String) -> String {
            var line = "\(indent)<\(element) lat=\"\(fixed(p.latitude, 9))\" lon=\"\(fixed(p.longitude, 9))\">"
            if let e = p.elevationMetres { line += "<ele>\(fixed(e, 3))</ele>" }
            if let t = p.writtenTime { line += "<time>\(Timestamp.iso8601(t))</time>" }
            return line
        }
        for w in waypoints {
            out += point("wpt", w.point, indent: "  ") + "<name>\(XMLText.escaped(w.name))</name></wpt>\n"
        }
        out += "  <trk>\n"
        if let name { out += "    <name>\(XMLText.escaped(name))</name>\n" }
        for segment in segments {
            out += "    <trkseg>\n"
            for p in segment {
                out += point("trkpt", p, indent: "      ")
                if let m = p.motion {
                    out += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>\(fixed(m.speedMetresPerSecond, 6))</gpxtpx:speed>"
                    out += "<gpxtpx:course>\(course(m.courseDegrees))</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>"
                }
                out += "</trkpt>\n"
            }
            out += "    </trkseg>\n"
        }
        out += "  </trk>\n</gpx>\n"
        return out
    }

    /// GeoJSON: a FeatureCollection with one MultiLineString feature (with `coordTimes`), then
    /// a Point feature per simulated fix (with `segment`, `time`, `course_deg`, `speed_mps`),
    /// then one per waypoint (with `name`).
    static func geoJSON<P: WritableTrackPoint>(_ segments: [[P]], name: String?, waypoints: [Waypoint]) -> String {
        func position(_ p: some WritableTrackPoint) -> String {
            "[" + fixed(p.longitude, 9) + "," + fixed(p.latitude, 9) + (p.elevationMetres.map { "," + fixed($0, 3) } ?? "") + "]"
        }
        func time(_ p: some WritableTrackPoint) -> String { p.writtenTime.map { "\"" + Timestamp.iso8601($0) + "\"" } ?? "null" }
        var out = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        out += "{\"type\":\"Feature\",\"properties\":{"
        var properties: [String] = []
        if let name { properties.append("\"name\":\(jsonString(name))") }
        if segments.contains(where: { $0.contains { $0.writtenTime != nil } }) {
            properties.append("\"coordTimes\":[" + segments.map { "[" + $0.map(time).joined(separator: ",") + "]" }.joined(separator: ",") + "]")
        }
        out += properties.joined(separator: ",") + "},"
        out += "\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":["
        out += segments.map { "[" + $0.map(position).joined(separator: ",") + "]" }.joined(separator: ",") + "]}}"
        for (s, segment) in segments.enumerated() {
            for p in segment {
                guard let m = p.motion else { break }
                out += ",\n{\"type\":\"Feature\",\"properties\":{\"segment\":\(s + 1),\"time\":\(time(p)),"
                out += "\"course_deg\":\(course(m.courseDegrees)),\"speed_mps\":\(fixed(m.speedMetresPerSecond, 6))},"
                out += "\"geometry\":{\"type\":\"Point\",\"coordinates\":\(position(p))}}"
            }
        }
        for w in waypoints {
            out += ",\n{\"type\":\"Feature\",\"properties\":{\"name\":\(jsonString(w.name))"
            if let t = w.point.time { out += ",\"time\":\"\(Timestamp.iso8601(t))\"" }
            out += "},\"geometry\":{\"type\":\"Point\",\"coordinates\":\(position(w.point))}}"
        }
        out += "\n]}\n"
        return out
    }

    // MARK: - Formatting

    /// `value` at `places` decimals (``NumberFormatting/fixed(_:decimals:)``: the exact binary
    /// value rounded half to even, as C's `%.*f` rounds, and no negative zero, so that
    /// `-0.0000000001` at 9 places is `0.000000000`). Finite values only.
    static func fixed(_ value: Double, _ places: Int) -> String {
        precondition(value.isFinite, "TrackWriter writes finite numbers only")
        return NumberFormatting.fixed(value, decimals: places)
    }

    /// A course in [0, 360) at 6 decimals: a course just below 360 that rounds up to
    /// `360.000000` is written `0.000000`, so the written value stays in range.
    static func course(_ degrees: Double) -> String {
        let s = fixed(degrees, 6)
        return s == "360.000000" ? "0.000000" : s
    }

    static func jsonString(_ text: String) -> String {
        var out = ""
        JSON.writeString(text, to: &out)
        return out
    }
}
