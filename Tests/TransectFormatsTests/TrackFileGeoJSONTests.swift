import Foundation
import Testing
import TransectAnalysis
import TransectTestSupport
@testable import TransectFormats
@testable import TransectSupport

/// GeoJSON tracks (`TrackFile+GeoJSON.swift`).
extension TrackFileTests {
    // MARK: GeoJSON

    @Test("GeoJSON LineString with coordTimes, elevations and a null time")
    func geoJSONLineString() throws {
        let doc = """
            {"type": "Feature", "properties": {"name": "walk", "coordTimes": ["2000-01-01T00:00:00Z", null, "2000-01-01T00:00:02.5Z"]},
             "geometry": {"type": "LineString", "coordinates": [[10, 45, 100], [10.5, 45.5], [11, 46, 120.25]]}}
            """
        let track = try TrackFile.read(data: Data(doc.utf8), path: "l.geojson")
        #expect(
            track
                == Track(
                    name: "walk",
                    segments: [
                        [
                            TrackPoint(longitude: 10, latitude: 45, elevationMetres: 100, time: 946_684_800),
                            TrackPoint(longitude: 10.5, latitude: 45.5),
                            TrackPoint(longitude: 11, latitude: 46, elevationMetres: 120.25, time: 946_684_802.5),
                        ]
                    ]))
        // A bare geometry, detected from the content of a .json file.
        let bare = #"{"type": "LineString", "coordinates": [[1, 2], [3, 4]]}"#
        #expect(
            try TrackFile.read(data: Data(bare.utf8), path: "bare.json").segments
                == [[TrackPoint(longitude: 1, latitude: 2), TrackPoint(longitude: 3, latitude: 4)]])
    }

    @Test("GeoJSON MultiLineString: two segments, with per-line or flat times")
    func geoJSONMultiLineString() throws {
        let nested = """
            {"type": "Feature", "properties": {"times": [["2000-01-01T00:00:00Z", "2000-01-01T00:00:01Z"], ["2000-01-01T00:01:00Z"]]},
             "geometry": {"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[5, 6]]]}}
            """
        let a = try TrackFile.read(data: Data(nested.utf8), path: "m.geojson")
        #expect(a.segments.count == 2)
        #expect(a.segments.map(\.count) == [2, 1])
        #expect(a.points.map(\.time) == [946_684_800, 946_684_801, 946_684_860])
        #expect(a.segments[1][0].longitude == 5 && a.segments[1][0].latitude == 6)
        let flat = nested.replacingOccurrences(of: "[[\"2000", with: "[\"2000").replacingOccurrences(of: "01Z\"], [\"2000", with: "01Z\", \"2000")
            .replacingOccurrences(of: "00Z\"]]}", with: "00Z\"]}")
        let b = try TrackFile.read(data: Data(flat.utf8), path: "m.geojson")
        #expect(b == a)
        let bare = #"{"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]}"#
        #expect(try TrackFile.read(data: Data(bare.utf8), path: "b.geojson").segments.map(\.count) == [2, 2])
    }

    @Test("GeoJSON FeatureCollection: lines are segments, named Points are waypoints, unnamed Points and polygons ignored")
    func geoJSONFeatureCollection() throws {
        let doc = """
            {"type": "FeatureCollection", "name": "collection", "features": [
              {"type": "Feature", "properties": {"name": "Summit"}, "geometry": {"type": "Point", "coordinates": [7, 46, 3000]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [7.1, 46.1]}},
              {"type": "Feature", "properties": null, "geometry": {"type": "LineString", "coordinates": [[7, 46], [7.01, 46.01]]}},
              {"type": "Feature", "properties": {"name": "Lake"}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 1], [0, 0]]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "MultiLineString", "coordinates": [[[8, 47], [8.1, 47.1]]]}},
              {"type": "Feature", "properties": {}, "geometry": null}
            ]}
            """
        let track = try TrackFile.read(data: Data(doc.utf8), path: "c.geojson")
        #expect(track.name == "collection")
        #expect(track.segments.map(\.count) == [2, 2])
        #expect(track.waypoints == [Waypoint(name: "Summit", point: TrackPoint(longitude: 7, latitude: 46, elevationMetres: 3000))])
    }

    @Test(
        "malformed GeoJSON: clear errors",
        arguments: [
            (#"{"type": "LineString", "coordinates": [[1, 2], [3]]}"#, "the document LineString position 2 is not [lon, lat] or [lon, lat, ele]"),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 91]]}}]}"#,
                "feature 1 LineString position 1: lat 91 is outside [-90, 90]"
            ),
            (
                #"{"type": "Feature", "properties": {"coordTimes": ["2000-01-01T00:00:00Z"]}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}"#,
                "the document: coordTimes has 1 times for 2 positions"
            ),
            (
                #"{"type": "Feature", "properties": {"coordTimes": ["noon", "2000-01-01T00:00:00Z"]}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}"#,
                "the document coordTimes has a time that is not an ISO 8601 string: noon"
            ),
            (#"{"type": "Topology", "objects": {}}"#, "the document has unknown GeoJSON type 'Topology'"),
            (#"{"type": "Point", "coordinates": [1, 2]}"#, "has no track points"),
            (#"{"type": "LineString", "coordinates": [[1, 2]"#, "line 1: is not valid JSON (the text ends early where ',' or ']' should be)"),
            (#"{"type": "LineString", "coordinates": [[0x1p3, 2]]}"#, "line 1: is not valid JSON (unexpected 'x' where ',' or ']' should be)"),
        ])
    func malformedGeoJSON(document: String, reason: String) {
        #expect(throws: FormatError.malformed(path: "g.geojson", reason: reason)) {
            try TrackFile.read(data: Data(document.utf8), path: "g.geojson")
        }
    }

    @Test("GeoJSON nested 800 GeometryCollections deep (beyond Foundation's JSON limit) reads, in document order")
    func deepGeoJSON() throws {
        let depth = 800
        var doc = ""
        for _ in 0..<depth { doc += #"{"type": "GeometryCollection", "geometries": [{"type": "LineString", "coordinates": [[1, 2]]}, "# }
        doc += #"{"type": "LineString", "coordinates": [[3, 4]]}"#
        doc += String(repeating: "]}", count: depth)
        let track = try TrackFile.read(data: Data(doc.utf8), path: "deep.geojson")
        #expect(track.segments.count == depth + 1)
        #expect(track.points.first == TrackPoint(longitude: 2, latitude: 1) || track.points.first == TrackPoint(longitude: 1, latitude: 2))
        #expect(track.points.last == TrackPoint(longitude: 3, latitude: 4))
        // Beyond the parser's limit: refused by name, not a crash.
        let tooDeep = String(repeating: "[", count: JSON.maximumDepth + 1) + String(repeating: "]", count: JSON.maximumDepth + 1)
        #expect(throws: FormatError.malformed(path: "d.json", reason: "line 1: JSON nesting is deeper than \(JSON.maximumDepth) levels (the limit)")) {
            try TrackFile.read(data: Data(tooDeep.utf8), path: "d.json")
        }
    }
}
