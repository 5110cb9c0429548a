import Foundation
import Testing
import TransectAnalysis
import TransectTestSupport
@testable import TransectFormats
@testable import TransectSupport

/// Esri JSON tracks (`TrackFile+EsriJSON.swift`).
extension TrackFileTests {
    // MARK: Esri JSON

    @Test("the location-history sample (Esri JSON, wkid 102100) is one segment of 91 vertices matching PROJ within 1e-9°")
    func locationHistorySample() throws {
        let path = try SharedData.path("location_history_sample.json")
        let track = try TrackFile.read(path: path)
        #expect(track.segments.count == 1)
        #expect(track.pointCount == 91)
        // The raw vertices, read independently of TrackFile, through PROJ.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let paths = try #require(object?["paths"] as? [[[Double]]])
        let vertices = try #require(paths.first)
        try #require(vertices.count == track.pointCount)
        // PROJ's EPSG:3857 → EPSG:4326, longitude first.
        let proj = try ProjTransformation(from: "EPSG:3857", to: "EPSG:4326")
        var worst = 0.0
        for (v, p) in zip(vertices, track.points) {
            let oracle = proj.forward(v[0], v[1])
            try #require(oracle.x.isFinite && oracle.y.isFinite, "PROJ failed for \(v)")
            worst = max(worst, (p.longitude - oracle.x).magnitude, (p.latitude - oracle.y).magnitude)
            // Also the formula as the brief states it, in degrees.
            let lat = 90 - 2 * atan(exp(-v[1] / 6_378_137)) * 180 / .pi
            #expect((p.latitude - lat).magnitude < 1e-12)  // another order of the same roundings: 1e−12° ≈ 70 ulp of 85° (1.4e−14°)
        }
        // 1e-9° is 0.1 mm; both sides are a few ulps of ~100° (1.4e-14°) from the true value.
        #expect(worst < 1e-9, "worst difference from PROJ: \(worst)°")
        // Los Angeles.
        #expect(track.points.allSatisfy { (-118.5)...(-118.3) ~= $0.longitude && (34.0...34.2) ~= $0.latitude })
        #expect(track.points.allSatisfy { $0.elevationMetres == nil && $0.time == nil })
    }

    @Test("Esri JSON: a wkid 4326 polyline, a FeatureSet with hasZ, Web Mercator by latestWkid")
    func esriJSON() throws {
        let polyline = #"{"paths": [[[-118.5, 34.0], [-118.4, 34.1]], [[-118.3, 34.2]]], "spatialReference": {"wkid": 4326}}"#
        let a = try TrackFile.read(data: Data(polyline.utf8), path: "p.json")
        #expect(
            a.segments == [
                [TrackPoint(longitude: -118.5, latitude: 34), TrackPoint(longitude: -118.4, latitude: 34.1)],
                [TrackPoint(longitude: -118.3, latitude: 34.2)],
            ])
        let featureSet = """
            {"geometryType": "esriGeometryPolyline", "hasZ": true, "spatialReference": {"wkid": 4326},
             "features": [{"attributes": {"id": 1}, "geometry": {"paths": [[[1, 2, 30], [3, 4, 40]]]}},
                          {"attributes": {"id": 2}, "geometry": {"paths": [[[5, 6, 50]]]}}]}
            """
        let b = try TrackFile.read(data: Data(featureSet.utf8), path: "fs.json")
        #expect(b.segments.map { $0.map(\.elevationMetres) } == [[30, 40], [50]])
        // An unknown wkid beside a known latestWkid: the latestWkid decides.
        let mercator = #"{"paths": [[[0, 0], [20037508.342789244, 0]]], "spatialReference": {"wkid": 99999, "latestWkid": 3857}}"#
        let c = try TrackFile.read(data: Data(mercator.utf8), path: "m.json")
        // π·R is not exact in binary: the antimeridian comes back within round-off of ±180°.
        #expect(c.points[0].longitude == 0 && (c.points[1].longitude.magnitude - 180).magnitude < 1e-12)
        #expect(c.points.map(\.latitude) == [0, 0])
        // An explicit format overrides detection.
        #expect(try TrackFile.read(data: Data(polyline.utf8), path: "p.txt", format: .esriJSON) == a)
    }

    @Test(
        "Esri JSON errors: unsupported wkid named, missing spatial reference, bad vertex",
        arguments: [
            (#"{"paths": [[[1, 2]]], "spatialReference": {"wkid": 2229}}"#, "spatialReference wkid 2229 is not supported (only 4326, 3857 and 102100 are)"),
            (
                #"{"paths": [[[1, 2]]], "spatialReference": {"wkid": 102643, "latestWkid": 2227}}"#,
                "spatialReference wkid 102643 is not supported (only 4326, 3857 and 102100 are)"
            ),
            (#"{"paths": [[[1, 2]]]}"#, "has no spatialReference (wkid 4326, 3857 or 102100 expected)"),
            (#"{"paths": [[[1, 2]]], "spatialReference": {"wkt": "PROJCS[...]"}}"#, "spatialReference has no wkid (4326, 3857 or 102100 expected)"),
            (#"{"paths": [[[1, 2], [3, "x"]]], "spatialReference": {"wkid": 4326}}"#, "the polyline path 1 vertex 2 is not [x, y]"),
            (#"{"paths": [[[1, -92]]], "spatialReference": {"wkid": 4326}}"#, "the polyline path 1 vertex 1: lat -92 is outside [-90, 90]"),
            (#"{"features": [{"geometry": {"x": 1, "y": 2}}], "spatialReference": {"wkid": 4326}}"#, "has no polyline features (geometry.paths)"),
            // Wkids beyond any integer are compared as numbers, never converted (which would trap).
            (#"{"paths": [[[1, 2]]], "spatialReference": {"wkid": 1e300}}"#, "spatialReference wkid 1e+300 is not supported (only 4326, 3857 and 102100 are)"),
            (#"{"paths": [[[1, 2]]], "spatialReference": {"wkid": -1e19}}"#, "spatialReference wkid -1e+19 is not supported (only 4326, 3857 and 102100 are)"),
            (
                #"{"paths": [[[1, 2]]], "spatialReference": {"wkid": 9.3e18, "latestWkid": 3857.5}}"#,
                "spatialReference wkid 9.3e+18 is not supported (only 4326, 3857 and 102100 are)"
            ),
            (
                #"{"paths": [[[1e300, 2]]], "spatialReference": {"wkid": 3857}}"#,
                "the polyline path 1 vertex 1: x 1e+300, y 2 is outside the Web Mercator plane"
            ),
        ])
    func esriErrors(document: String, reason: String) {
        #expect(throws: FormatError.malformed(path: "e.json", reason: reason)) {
            try TrackFile.read(data: Data(document.utf8), path: "e.json")
        }
    }

    @Test("Esri JSON: every supported wkid is accepted, as latestWkid or wkid", arguments: [4326, 3857, 102100, 102113, 900913])
    func esriWkids(wkid: Int) throws {
        for key in ["wkid", "latestWkid"] {
            let doc = #"{"paths": [[[0, 0]]], "spatialReference": {"\#(key)": \#(wkid)}}"#
            #expect(try TrackFile.read(data: Data(doc.utf8), path: "w.json").points == [TrackPoint(longitude: 0, latitude: 0)])
        }
    }
}
