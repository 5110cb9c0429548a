import Foundation
import Testing
import TransectGeodesy
@testable import TransectFormats

/// Messages that quote file text stay one printable line: a file cannot write escape
/// sequences (ESC, the C1 CSI U+009B) or line breaks to the terminal through an error.
@Suite("messages quoting file text")
struct FormatErrorTests {
    /// True when `message` is one line with no C0 control (below 0x20), DEL or C1 control.
    static func isPrintableLine(_ message: String) -> Bool {
        !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Hostile text: ESC (a colour sequence), CR, LF, BEL and the C1 CSI.
    static let hostile = "\u{1B}[31mred\r\nnext\u{7}\u{9B}2J"
    /// The same as JSON string content (escapes, since JSON strings cannot hold raw controls).
    static let hostileJSON = #"\u001B[31mred\r\nnext\u0007\u009B2J"#
    /// Without CR and LF, for one CSV line; raw bytes.
    static let hostileLine = "\u{1B}[31mred\u{7}\u{9B}2J"

    static let knownOptions: Set<String> = ["dem", "title", "size", "geoid", "frames"]

    /// Each reader with inputs whose errors quote file text.
    static let cases: [(reader: String, input: String)] = [
        ("gpx", #"<gpx version="1.1"><trk><trkseg><trkpt lat="1&#13;&#10;\#(hostileLine)" lon="2"/></trkseg></trk></gpx>"#),
        ("gpx", #"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="\#(hostileLine)"/></trkseg></trk></gpx>"#),
        ("gpx", #"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><ele>1&#13;&#10;\#(hostileLine)</ele></trkpt></trkseg></trk></gpx>"#),
        ("gpx", #"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><time>&#13;x&#10;y\#(hostileLine)</time></trkpt></trkseg></trk></gpx>"#),
        ("gpx", #"<?xml version="1.0" encoding="\#(hostileLine)"?><gpx version="1.1"/>"#),
        ("gpx", #"<gpx\#u{9B} version="1.1"/>"#),
        ("gpx", "<gpx version=\"1.1\">\u{1B}</gpx>"),
        ("geojson", #"{"type": "\#(hostileJSON)"}"#),
        ("geojson", #"{"type": "Feature", "properties": {"times": ["\#(hostileJSON)"]}, "geometry": {"type": "LineString", "coordinates": [[1, 2]]}}"#),
        ("geojson", "{\"type\": \"\u{1B}\"}"),
        ("esri", #"{"paths": [[["\#(hostileJSON)", 1]]], "spatialReference": {"wkid": 4326}}"#),
        ("csvtrack", "lon,\"\(hostileLine)\"\n1,2\n"),
        ("csvtrack", "lon,lat\n\"\(hostileLine)\",2\n"),
        ("csvtrack", "lon,lat,time\n1,2,\"\(hostileLine)\"\n"),
        ("csvtrack", "lon,lat,ele\n1,2,\"x\(hostileLine)\"\n"),
        ("csvtrack", "lon,lat\n1,\"2\r3\"\n"),
        ("places", "name,lon,lat\na,\"\(hostileLine)\",2\n"),
        ("places", #"{"type": "Feature", "properties": {"name": "\#(hostileJSON)"}, "geometry": {"type": "Point", "coordinates": [1, 95]}}"#),
        ("scene", #"{"\#(hostileJSON)": 1}"#),
        ("scene", #"{"title": true, "x\#(hostileJSON)": 1}"#),
        ("scene", #"{"size": {"\#(hostileJSON)": 1}}"#),
        ("pairs", "from_lon,from_lat,to_lon,to_lat\n\"\(hostileLine)\",1,2,3\n"),
        ("pairs", "from_lon,from_lat,to_lon\n1,2,3\n"),
        ("coordinates", hostile),
        ("coordinates", "1,\(hostile)"),
    ]

    @Test("every message thrown for hostile text is one line without control characters", arguments: cases.indices)
    func hostileText(index: Int) throws {
        let (reader, input) = Self.cases[index]
        let data = Data(input.utf8)
        let message: String
        do {
            switch reader {
            case "gpx": _ = try TrackFile.read(data: data, path: "h.gpx", format: .gpx)
            case "geojson": _ = try TrackFile.read(data: data, path: "h.geojson", format: .geojson)
            case "esri": _ = try TrackFile.read(data: data, path: "h.json", format: .esriJSON)
            case "csvtrack": _ = try TrackFile.read(data: data, path: "h.csv", format: .csv)
            case "places": _ = try PlaceFile.read(data: data, path: input.hasPrefix("{") ? "h.geojson" : "h.csv")
            case "scene": _ = try SceneFile.arguments(data: data, path: "h.json", knownOptions: Self.knownOptions, flags: [])
            case "pairs":
                let pairs = try PairsReader(data: data, name: "h.csv")
                while let row = try pairs.next() { _ = try pairs.coordinates(row.fields).get() }
            default: _ = try PointArgument.parse(input).get()
            }
            Issue.record("\(reader) case \(index) was read")
            return
        } catch let error as FormatError {
            message = error.message
        } catch let error as PointError {
            message = error.text
        }
        #expect(Self.isPrintableLine(message), "\(reader) case \(index): \(message.debugDescription)")
    }

    @Test("quoted file text is escaped where it is quoted, not only by the net in FormatError.message")
    func escapedAtSource() throws {
        // The reason itself (what a caller printing `reason` would see) is already printable.
        let error = try #require(throws: FormatError.self) {
            try TrackFile.read(data: Data("lon,lat\n\"\(Self.hostileLine)\",2\n".utf8), path: "h.csv", format: .csv)
        }
        guard case .malformed(_, let reason) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(reason == #"line 2: lon '\u{1B}[31mred\u{7}\u{9B}2J' is not a number"#)
    }

    @Test("a path with control characters (as a scene file can give) is escaped in the message")
    func pathEscaped() {
        let error = FormatError.cannotRead(path: "a\u{1B}]0;title\u{7}\nb", reason: "no such file")
        #expect(error.message == #"cannot read 'a\u{1B}]0;title\u{7}\nb': no such file"#)
        // An ordinary long path is kept whole.
        let long = "/" + String(repeating: "d/", count: 200) + "f.csv"
        #expect(FormatError.malformed(path: long, reason: "is empty").message == "'\(long)': is empty")
    }
}
