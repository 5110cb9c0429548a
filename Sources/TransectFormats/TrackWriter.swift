import TransectAnalysis
import TransectSupport

/// Fixes out, as GPX 1.1, GeoJSON or CSV text. The caller writes the string atomically.
///
/// Output is deterministic: the same fixes give the same bytes (fixed key order, fixed decimals,
/// no locale, no exponent, no current time). Numbers are plain decimals rounded to fixed places:
/// longitude and latitude 9 (0.1 mm), elevation 3 (1 mm), course and speed 6 (a course that
/// rounds to 360 is written as 0); times are ISO 8601
/// UTC with milliseconds when the time has a fractional millisecond part (`Timestamp.iso8601`).
/// `TrackFile` reads GPX and GeoJSON written here back to the same positions and times (to
/// those decimals).
///
/// - **GPX 1.1**: one `trk` (with the name, if given) holding one `trkseg` of `trkpt` with `ele`
///   (when known) and `time`. Course and speed go in Garmin's TrackPointExtension v2
///   (`<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>…</gpxtpx:speed>
///   <gpxtpx:course>…</gpxtpx:course>`, metres per second and degrees), the usual GPX 1.1 home
///   for them: 1.1 has no `course`/`speed` elements of its own, and readers that do not know the
///   extension skip it.
/// - **GeoJSON**: a FeatureCollection holding first one LineString feature of all fixes
///   (properties `name` when given, and `coordTimes`, one ISO time per position, as togeojson
///   writes them) and then one Point feature per fix (properties `time`, `course_deg`,
///   `speed_mps`). Positions are `[lon, lat]` or `[lon, lat, ele]`.
/// - **CSV**: the header `time,lon,lat,elevation_m,course_deg,speed_mps` and one row per fix;
///   the elevation field is empty when unknown.
///
/// ```swift
/// let text = TrackWriter.write(fixes, name: "Mist Trail", format: .csv)
/// ```
public enum TrackWriter {
    /// An output format.
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

    /// The CSV header, exactly.
    public static let csvHeader = "time,lon,lat,elevation_m,course_deg,speed_mps"

    /// Fixes in a format.
    ///
    /// - Parameters:
    ///   - fixes: the fixes in order; all finite (longitude and latitude in degrees, time in
    ///     seconds since 1970, course in degrees, speed in metres per second).
    ///   - name: a track name for GPX and GeoJSON (CSV has no place for one).
    ///   - format: the output format.
    /// - Returns: the whole file's text, ending in a newline.
    /// - Complexity: O(n) in the number of fixes.
    public static func write(_ fixes: [Fix], name: String? = nil, format: Format) -> String {
        switch format {
        case .gpx: gpx(fixes, name: name)
        case .geojson: geoJSON(fixes, name: name)
        case .csv: csv(fixes)
        }
    }

    /// CSV: `time,lon,lat,elevation_m,course_deg,speed_mps`, one row per fix.
    public static func csv(_ fixes: [Fix]) -> String {
        var out = csvHeader + "\n"
        for f in fixes {
            out +=
                Timestamp.iso8601(f.time) + "," + fixed(f.longitude, 9) + "," + fixed(f.latitude, 9) + ","
                + (f.elevationMetres.map { fixed($0, 3) } ?? "") + "," + course(f.courseDegrees) + ","
                + fixed(f.speedMetresPerSecond, 6) + "\n"
        }
        return out
    }

    /// GPX 1.1 with one track segment; course and speed in TrackPointExtension v2.
    public static func gpx(_ fixes: [Fix], name: String? = nil) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Transect" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v2 http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">
              <trk>

            """
        if let name { out += "    <name>\(XMLText.escaped(name))</name>\n" }
        out += "    <trkseg>\n"
        for f in fixes {
            out += "      <trkpt lat=\"\(fixed(f.latitude, 9))\" lon=\"\(fixed(f.longitude, 9))\">"
            if let e = f.elevationMetres { out += "<ele>\(fixed(e, 3))</ele>" }
            out += "<time>\(Timestamp.iso8601(f.time))</time>"
            out += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>\(fixed(f.speedMetresPerSecond, 6))</gpxtpx:speed>"
            out += "<gpxtpx:course>\(course(f.courseDegrees))</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>"
            out += "</trkpt>\n"
        }
        out += "    </trkseg>\n  </trk>\n</gpx>\n"
        return out
    }

    /// GeoJSON: a FeatureCollection with one LineString feature (with `coordTimes`) and one
    /// Point feature per fix (with `time`, `course_deg`, `speed_mps`).
    public static func geoJSON(_ fixes: [Fix], name: String? = nil) -> String {
        func position(_ f: Fix) -> String {
            "[" + fixed(f.longitude, 9) + "," + fixed(f.latitude, 9) + (f.elevationMetres.map { "," + fixed($0, 3) } ?? "") + "]"
        }
        var out = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        out += "{\"type\":\"Feature\",\"properties\":{"
        if let name { out += "\"name\":\(jsonString(name))," }
        out += "\"coordTimes\":[" + fixes.map { "\"" + Timestamp.iso8601($0.time) + "\"" }.joined(separator: ",") + "]},"
        out += "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[" + fixes.map(position).joined(separator: ",") + "]}}"
        for f in fixes {
            out += ",\n{\"type\":\"Feature\",\"properties\":{\"time\":\"\(Timestamp.iso8601(f.time))\","
            out += "\"course_deg\":\(course(f.courseDegrees)),\"speed_mps\":\(fixed(f.speedMetresPerSecond, 6))},"
            out += "\"geometry\":{\"type\":\"Point\",\"coordinates\":\(position(f))}}"
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
