import Foundation
import Testing
import TransectAnalysis
import TransectFormatsBase
import TransectSupport
import TransectTestSupport
@testable import TransectFormats

/// The capture that reads GeoJSON coordinates and times straight into points must give the
/// same track, and the same error, as the document parsed whole and read by the reader.
@Suite("GeoJSON capture: the same tracks and errors as the whole document")
struct GeoJSONCaptureTests {
    static let documents: [String] = [
        #"{"type":"LineString","coordinates":[[10,45,100],[10.1,45.1,null],[10.2,45.2]]}"#,
        #"{"type":"Feature","properties":{"name":"a","coordTimes":["2020-01-01T00:00:00Z",null," 2020-01-01T00:00:02Z"]},"geometry":{"type":"LineString","coordinates":[[10,45],[10.1,45.1],[10.2,45.2]]}}"#,
        #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[10,45],[10.1,45]],[[11,46]]]},"properties":{"coordTimes":[["2020-01-01T00:00:00Z","2020-01-01T00:00:01Z"],[null]]}}"#,
        #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Top"},"geometry":{"type":"Point","coordinates":[10.5,45.5,2000]}},{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[10,45],[10,46]]}}]}"#,
        #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#,
        #"{"type":"LineString","coordinates":[[10,45,1,2,3],[10,46, 5e2 ]]}"#,
        // Errors: each must read as without the capture.
        #"{"type":"LineString","coordinates":[[10,91],[10,45]]}"#,
        #"{"type":"LineString","coordinates":[[10,45],["10",45]]}"#,
        #"{"type":"LineString","coordinates":[10,45]}"#,
        #"{"type":"LineString","coordinates":[[[10,45]]]}"#,
        #"{"type":"MultiLineString","coordinates":[[10,45],[11,46]]}"#,
        #"{"type":"MultiLineString","coordinates":[10,45]}"#,
        #"{"type":"Point","coordinates":[[10,45]]}"#,
        #"{"type":"LineString","coordinates":[[10,45,1e9],[10,46]]}"#,
        #"{"type":"LineString","coordinates":[[10,45],[10,46,"x"]]}"#,
        #"{"type":"LineString","coordinates":[[10,45],[10,46]}"#,
        #"{"type":"LineString","coordinates":[[10,45],[10,046]]}"#,
        #"{"type":"Feature","properties":{"coordTimes":["2020-01-01T00:00:00Z"]},"geometry":{"type":"LineString","coordinates":[[10,45],[10,46]]}}"#,
        #"{"type":"Feature","properties":{"coordTimes":["yesterday","2020-01-01T00:00:00Z"]},"geometry":{"type":"LineString","coordinates":[[10,45],[10,46]]}}"#,
        #"{"type":"Feature","properties":{"coordTimes":[["2020-01-01T00:00:00Z"]]},"geometry":{"type":"LineString","coordinates":[[10,45],[10,46]]}}"#,
        #"{"type":"Feature","properties":{"times":[["2020-01-01T00:00:00Z","2020-01-01T00:00:01Z"],[]]},"geometry":{"type":"MultiLineString","coordinates":[[[10,45],[10,46]],[[11,45]]]}}"#,
        #"{"type":"LineString","coordinates":[]}"#,
    ]

    static func outcome(_ read: () throws(FormatError) -> Track) -> String {
        do throws(FormatError) {
            let t = try read()
            return "\(t.name ?? "-") \(t.segments) \(t.waypoints)"
        } catch {
            return "error: " + error.message
        }
    }

    @Test("each document: the same track or the same error, from a file (mapped) and from bytes", arguments: documents)
    func same(document: String) throws {
        let whole = Self.outcome { () throws(FormatError) -> Track in
            let track = try GeoJSONTrackReader.read(try JSON.parse(Array(document.utf8), path: "t.geojson"), path: "t.geojson")
            guard track.pointCount > 0 else { throw .malformed(path: "t.geojson", reason: "has no track points") }
            return track
        }
        let fromBytes = Self.outcome { () throws(FormatError) -> Track in try TrackFile.read(data: Data(document.utf8), path: "t.geojson") }
        #expect(fromBytes == whole)
        let dir = TemporaryDirectory()
        let path = dir.file("t.geojson")
        try document.write(toFile: path, atomically: true, encoding: .utf8)
        let mapped = Self.outcome { () throws(FormatError) -> Track in try TrackFile.read(path: path) }
        #expect(mapped == whole.replacingOccurrences(of: "t.geojson", with: path))
    }

    @Test("a long line is read by the capture: no JSON value per position, the same points")
    func longLine() throws {
        var text = #"{"type":"LineString","coordinates":["#
        var expected: [TrackPoint] = []
        for k in 0..<10_000 {
            let lon = -119.6 + Double(k) * 1e-6
            text += (k > 0 ? "," : "") + "[\(lon),37.72,\(1500 + k % 7)]"
            expected.append(TrackPoint(longitude: lon, latitude: 37.72, elevationMetres: Double(1500 + k % 7)))
        }
        text += "]}"
        let capture = GeoJSONCapture(path: "t.geojson", pointLimit: 1_000_000)
        let document = try Array(text.utf8).withUnsafeBufferPointer { (b) throws(FormatError) -> JSON in
            try JSON.parse(b, path: "t.geojson", interceptor: capture)
        }
        #expect(capture.pointCount == 10_000)
        #expect(document["coordinates"]?.array == nil)  // a stand-in, not 10,000 arrays
        let track = try GeoJSONTrackReader.read(document, path: "t.geojson", capture: capture)
        #expect(track.segments == [expected])
    }
}
