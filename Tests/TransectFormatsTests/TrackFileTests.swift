import Foundation
import Testing
import TransectCore
import TransectTestSupport
@testable import TransectFormats

/// What the four real GPX files hold, established independently of our reader with Python's
/// xml.etree (counting `trkseg`/`trkpt`/`wpt` elements; first and last `trkpt` attributes and
/// `ele`; first and last `time` among the points converted with
/// `calendar.timegm(time.strptime(...))` plus the decimal fraction; the first `trk/name`).
/// Segment counts leave out empty `<trkseg>` elements (cerknicko-jezero and korita-zbevnica
/// each have one), which TrackFile drops by design.
struct RealGPX: Sendable, CustomTestStringConvertible {
    let file: String
    let segmentSizes: [Int]
    let waypoints: Int
    let name: String?
    let first: (lon: Double, lat: Double, ele: Double)
    let last: (lon: Double, lat: Double, ele: Double)
    let timedPoints: Int
    let firstTime: Double
    let lastTime: Double
    var testDescription: String { file }

    static let all: [RealGPX] = [
        // 184 <trkpt in one <trkseg; every point has the same 1901 time with 7 decimals.
        RealGPX(
            file: "gpx/gpxpy_Mojstrovka.gpx", segmentSizes: [184], waypoints: 0, name: nil,
            first: (13.748273, 46.434981, 1614.678), last: (13.748253, 46.435231, 1643.51208),
            timedPoints: 184, firstTime: -2_147_483_647.792_656_2, lastTime: -2_147_483_647.792_656_2),
        // 8 <trkseg (sizes 0, 173, 52, 2, 44, 2, 2, 21: 296 <trkpt), 7 <wpt.
        RealGPX(
            file: "gpx/gpxpy_cerknicko-jezero.gpx", segmentSizes: [173, 52, 2, 44, 2, 2, 21], waypoints: 7,
            name: "ACTIVE LOG", first: (14.357659249, 45.772175035, 542.320923),
            last: (14.304442042, 45.790873384, 562.508545),
            timedPoints: 296, firstTime: 1_281_018_239, lastTime: 1_281_025_429),  // 2010-08-05T14:23:59Z … 16:23:49Z
        // 4 <trkseg (sizes 0, 358, 176, 337: 871 <trkpt), 2 <wpt; the first 358 points have no time.
        RealGPX(
            file: "gpx/gpxpy_korita-zbevnica.gpx", segmentSizes: [358, 176, 337], waypoints: 2,
            name: "03-OCT-10", first: (14.144491442, 45.380600095, 733.623291),
            last: (14.018215053, 45.452453708, 770.634033),
            timedPoints: 513, firstTime: 1_286_098_590, lastTime: 1_286_111_971),  // 2010-10-03T09:36:30Z … 13:19:31Z
        // 1852 <trkpt in one <trkseg.
        RealGPX(
            file: "gpx/srtmpy_setnjica-kod-karojbe.gpx", segmentSizes: [1852], waypoints: 0,
            name: "6/30/2013 17:42", first: (13.963486, 45.285539, 297.3), last: (13.963072, 45.287221, 184.4),
            timedPoints: 1852, firstTime: 1_372_606_978, lastTime: 1_372_613_695),  // 2013-06-30T15:42:58Z … 17:34:55Z
    ]
}

@Suite("track files")
struct TrackFileTests {
    // MARK: Real data

    @Test(
        "the four real GPX files: points, segments, waypoints, names, first and last points and times",
        arguments: RealGPX.all)
    func realGPX(expected: RealGPX) throws {
        let track = try TrackFile.read(path: try SharedData.path(expected.file))
        #expect(track.segments.map(\.count) == expected.segmentSizes)
        #expect(track.pointCount == expected.segmentSizes.reduce(0, +))
        #expect(track.waypoints.count == expected.waypoints)
        #expect(track.name == expected.name)
        let points = track.points
        let first = try #require(points.first)
        let last = try #require(points.last)
        #expect(first.longitude == expected.first.lon && first.latitude == expected.first.lat)
        #expect(first.elevationMetres == expected.first.ele)
        #expect(last.longitude == expected.last.lon && last.latitude == expected.last.lat)
        #expect(last.elevationMetres == expected.last.ele)
        let times = points.compactMap(\.time)
        #expect(times.count == expected.timedPoints)
        #expect(times.first == expected.firstTime)
        #expect(times.last == expected.lastTime)
    }

    @Test("GPX waypoints keep their names, positions, elevations and times")
    func gpxWaypoints() throws {
        let track = try TrackFile.read(path: try SharedData.path("gpx/gpxpy_cerknicko-jezero.gpx"))
        // <wpt lat="45.772163216" lon="14.357652292"><name>001</name>…<time>2010-08-05T14:23:59Z</time>
        #expect(
            track.waypoints.first
                == Waypoint(
                    name: "001",
                    point: TrackPoint(
                        longitude: 14.357652292, latitude: 45.772163216, time: 1_281_018_239)))
        #expect(track.waypoints.map(\.name) == ["001", "BACK T TH", "BIRDS NEST", "FAGGIO", "RAKOV12", "RAKV SKCJN", "VANSHNG LK"])
        #expect(track.waypoints[1].point.elevationMetres == -0.11438)
    }

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
            #expect((p.latitude - lat).magnitude < 1e-12)
        }
        // 1e-9° is 0.1 mm; both sides are a few ulps of ~100° (1.4e-14°) from the true value.
        #expect(worst < 1e-9, "worst difference from PROJ: \(worst)°")
        // Los Angeles.
        #expect(track.points.allSatisfy { (-118.5)...(-118.3) ~= $0.longitude && (34.0...34.2) ~= $0.latitude })
        #expect(track.points.allSatisfy { $0.elevationMetres == nil && $0.time == nil })
    }

    // MARK: XML safety

    /// The classic "billion laughs": ten levels of ten references, 10⁹ copies of "lol" (3 GB)
    /// if a parser were to expand it.
    static let entityBomb: String = {
        var doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n <!ENTITY lol \"lol\">\n"
        var previous = "lol"
        for level in 1...9 {
            doc += " <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
            previous = "lol\(level)"
        }
        doc += "]>\n<gpx version=\"1.1\" creator=\"x\"><trk><name>&lol9;</name><trkseg>"
        doc += "<trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>\n"
        return doc
    }()

    static let externalEntity = """
        <?xml version="1.0"?>
        <!DOCTYPE gpx [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>
        <gpx version="1.1" creator="x"><trk><name>&x;</name><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>
        """

    static let refusedEntities = "entity declarations are refused (GPX needs none; entities can expand without bound or read local files)"

    @Test(
        "an entity bomb and an external entity are refused before parsing, quickly, with a clear error",
        arguments: [("bomb.gpx", entityBomb, 3), ("xxe.gpx", externalEntity, 2)])
    func entitiesRefused(name: String, document: String, line: Int) throws {
        let dir = TemporaryDirectory()
        try document.write(toFile: dir.file(name), atomically: true, encoding: .utf8)
        // The byte scan's own error: the document was refused before any parser saw it, so
        // nothing was expanded and no file was read (which is what makes the refusal quick;
        // speed itself is not asserted in tests).
        #expect(throws: FormatError.malformed(path: dir.file(name), reason: "line \(line): \(Self.refusedEntities)")) {
            try TrackFile.read(path: dir.file(name))
        }
    }

    @Test("without the byte scan, the parser as configured neither expands the bomb nor reads the external file")
    func parserLayer() throws {
        // GPXReader.parse is the XMLParser stage alone, skipping refuseUnsafeXML.
        #expect(throws: FormatError.self) { try GPXReader.parse(Data(Self.entityBomb.utf8), path: "bomb.gpx") }
        let track = try GPXReader.parse(Data(Self.externalEntity.utf8), path: "xxe.gpx")
        #expect(track.name == nil)  // not the content of /etc/passwd
        #expect(track.points == [TrackPoint(longitude: 2, latitude: 1)])
    }

    @Test("a DOCTYPE without entities is refused; UTF-16 is decoded and then screened; EBCDIC is refused")
    func otherUnsafeXML() {
        let doctype = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx SYSTEM \"http://example.com/gpx.dtd\">\n<gpx/>"
        #expect(throws: FormatError.malformed(path: "a.gpx", reason: "line 2: DOCTYPE declarations are refused (GPX needs none)")) {
            try TrackFile.read(data: Data(doctype.utf8), path: "a.gpx")
        }
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(Self.externalEntity.data(using: .utf16LittleEndian)!)
        #expect(throws: FormatError.malformed(path: "b.gpx", reason: "line 2: \(Self.refusedEntities)")) {
            try TrackFile.read(data: utf16, path: "b.gpx")
        }
        // "<?xml" in EBCDIC (libxml2 would detect it from these four bytes).
        #expect(throws: FormatError.malformed(path: "e.gpx", reason: "is not XML (it does not start with '<')")) {
            try TrackFile.read(data: Data([0x4C, 0x6F, 0xA7, 0x94, 0x40]), path: "e.gpx")
        }
        let ebcdic = "<?xml version=\"1.0\" encoding=\"EBCDIC-US\"?><gpx/>"
        #expect(
            throws: FormatError.malformed(
                path: "c.gpx", reason: "line 1: declares encoding 'EBCDIC-US'; GPX is read as UTF-8, UTF-16 (with a byte order mark), US-ASCII or ISO-8859-1")
        ) {
            try TrackFile.read(data: Data(ebcdic.utf8), path: "c.gpx")
        }
    }

    // MARK: GPX details

    @Test("GPX 1.1: routes are segments, metadata name, extensions skipped, ISO offsets")
    func gpx11() throws {
        let doc = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><name>Day out</name></metadata>
              <wpt lat="10.5" lon="20.25"><ele>5</ele><name>Hut</name></wpt>
              <rte>
                <rtept lat="1" lon="2"><ele>100.5</ele><time>2020-05-01T10:00:00+02:00</time></rtept>
                <rtept lat="1.5" lon="2.5"/>
              </rte>
              <trk><trkseg>
                <trkpt lat="-3" lon="-4"><ele> 7 </ele><time>2020-05-01T08:00:01.5Z</time>
                  <extensions><ele>999</ele><trkpt lat="9" lon="9"/></extensions></trkpt>
              </trkseg></trk>
            </gpx>
            """
        let track = try TrackFile.read(data: Data(doc.utf8), path: "r.gpx")
        let t0 = try #require(Timestamp.parseISO8601("2020-05-01T08:00:00Z"))
        #expect(
            track
                == Track(
                    name: "Day out",
                    segments: [
                        [TrackPoint(longitude: 2, latitude: 1, elevationMetres: 100.5, time: t0), TrackPoint(longitude: 2.5, latitude: 1.5)],
                        [TrackPoint(longitude: -4, latitude: -3, elevationMetres: 7, time: t0 + 1.5)],
                    ], waypoints: [Waypoint(name: "Hut", point: TrackPoint(longitude: 20.25, latitude: 10.5, elevationMetres: 5))]))
    }

    @Test(
        "malformed GPX: the file, the line and the problem",
        arguments: [
            ("<gpx>\n<trk><trkseg>\n<trkpt lon=\"1\"/></trkseg></trk></gpx>", "line 3: trkpt has no lat"),
            ("<gpx><trk><trkseg><trkpt lat=\"1\"/></trkseg></trk></gpx>", "line 1: trkpt has no lon"),
            ("<gpx><trk><trkseg>\n\n<trkpt lat=\"95\" lon=\"1\"/></trkseg></trk></gpx>", "line 3: trkpt lat 95 is outside [-90, 90]"),
            ("<gpx><trk><trkseg><trkpt lat=\"nan\" lon=\"1\"/></trkseg></trk></gpx>", "line 1: trkpt lat 'nan' is not a number"),
            ("<gpx><trk><trkseg><trkpt lat=\"0x1p3\" lon=\"1\"/></trkseg></trk></gpx>", "line 1: trkpt lat '0x1p3' is not a number"),
            ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n<ele>0x10</ele></trkpt></trkseg></trk></gpx>", "line 2: ele '0x10' is not a number"),
            ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n<ele>high</ele></trkpt></trkseg></trk></gpx>", "line 2: ele 'high' is not a number"),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2001-02-29T00:00:00Z</time></trkpt></trkseg></trk></gpx>",
                "line 1: time '2001-02-29T00:00:00Z' is not an ISO 8601 time"
            ),
            ("<kml><Placemark/></kml>", "line 1: is not GPX (the root element is <kml>)"),
            ("<gpx><trk><trkseg></trkseg></trk><wpt lat=\"1\" lon=\"2\"/></gpx>", "has no track points"),
        ])
    func malformedGPX(document: String, reason: String) {
        #expect(throws: FormatError.malformed(path: "m.gpx", reason: reason)) {
            try TrackFile.read(data: Data(document.utf8), path: "m.gpx")
        }
    }

    @Test("XML that is not well-formed names its line")
    func notWellFormed() throws {
        do {
            _ = try TrackFile.read(data: Data("<gpx>\n<trk>\n<trkseg></trk></gpx>".utf8), path: "w.gpx")
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "'w.gpx': line 3: is not well-formed XML (mismatched tag)")
        }
    }

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

    // MARK: Esri JSON

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

    // MARK: CSV

    @Test("CSV with and without elevation and time; aliases, accuracy, segments, quoted fields, blank lines")
    func csv() throws {
        let plain = try TrackFile.read(data: Data("lon,lat\n1,2\n3,4\n".utf8), path: "a.csv")
        #expect(plain == Track(segments: [[TrackPoint(longitude: 1, latitude: 2), TrackPoint(longitude: 3, latitude: 4)]]))

        let full = """
            \u{FEFF}Latitude, Longitude ,elevation_m,timestamp,accuracy_m,segment,note
            45,7,1000.5,2000-01-01T00:00:00Z,5,a,"x, y"

            45.1,7.1,,2000-01-01T00:00:10+00:00,-1,a,
            45.2,7.2,1002,,,b
            """
        let track = try TrackFile.read(data: Data(full.replacingOccurrences(of: "\n", with: "\r\n").utf8), path: "b.csv")
        #expect(
            track.segments == [
                [
                    TrackPoint(longitude: 7, latitude: 45, elevationMetres: 1000.5, time: 946_684_800, accuracyMetres: 5),
                    TrackPoint(longitude: 7.1, latitude: 45.1, time: 946_684_810, accuracyMetres: -1),
                ],
                [TrackPoint(longitude: 7.2, latitude: 45.2, elevationMetres: 1002)],
            ])
        let eleOnly = try TrackFile.read(data: Data("ele,lat,lon\n12,1,2\n".utf8), path: "c.csv")
        #expect(eleOnly.points == [TrackPoint(longitude: 2, latitude: 1, elevationMetres: 12)])
        // Detected as CSV from the content when the extension says nothing.
        #expect(
            try TrackFile.read(data: Data("lon,lat,time\n1,2,2000-01-01T00:00:00Z\n".utf8), path: "d.txt").points
                == [TrackPoint(longitude: 1, latitude: 2, time: 946_684_800)])
    }

    @Test(
        "malformed CSV: the file, the line and the problem",
        arguments: [
            ("x,y\n1,2\n", "line 1: header needs lon and lat columns (found x,y)"),
            ("lon,lat\n1,2\n3,abc\n", "line 3: lat 'abc' is not a number"),
            ("lon,lat\n1,2\n\n200,2\n", "line 4: lon 200 is outside [-180, 180]"),
            ("lon,lat,ele\n1,2,high\n", "line 2: ele 'high' is not a number"),
            ("lon,lat,time\n1,2,31/12/2000\n", "line 2: time '31/12/2000' is not an ISO 8601 time"),
            ("lat,lon\n1\n", "line 2: has 1 fields, the header has 2"),
            ("lon,lat\n1,\n", "line 2: lat is empty"),
            ("lon,lat\n", "has no track points"),
            ("\n\n", "is empty"),
            ("lon,lat\n0x1p3,2\n", "line 2: lon '0x1p3' is not a number"),
            ("lon,lat,ele\n1,2,1e400\n", "line 2: ele '1e400' is not a number"),
            ("lon,lat\n1,2\n37.7\u{0} 5,2\n", "line 3: contains a NUL byte"),
        ])
    func malformedCSV(document: String, reason: String) {
        #expect(throws: FormatError.malformed(path: "x.csv", reason: reason)) {
            try TrackFile.read(data: Data(document.utf8), path: "x.csv")
        }
    }

    @Test("a missing file cannot be read; formats from extensions")
    func missingFileAndFormats() {
        #expect(throws: FormatError.cannotRead(path: "/nonexistent/t.gpx", reason: "no such file")) {
            try TrackFile.read(path: "/nonexistent/t.gpx")
        }
        #expect(TrackFile.Format(path: "A.GPX") == .gpx)
        #expect(TrackFile.Format(path: "a.geojson") == .geojson)
        #expect(TrackFile.Format(path: "a.csv") == .csv)
        #expect(TrackFile.Format(path: "a.json") == nil)
        #expect(TrackWriter.Format(path: "a.json") == .geojson)
        #expect(TrackWriter.Format(path: "out.CSV") == .csv)
        #expect(TrackWriter.Format(path: "out.png") == nil)
    }

    // MARK: Writing

    static let fixes = [
        Fix(time: 1_372_606_978, longitude: 13.963486, latitude: 45.285539, elevationMetres: 297.3, courseDegrees: 0, speedMetresPerSecond: 0),
        Fix(
            time: 1_372_606_979.25, longitude: -0.000000000001, latitude: -45.123456789, elevationMetres: nil,
            courseDegrees: 359.9999999, speedMetresPerSecond: 1.5),
        Fix(
            time: -2_147_483_648, longitude: 179.999999999, latitude: 0.5, elevationMetres: -12.0004,
            courseDegrees: 12.3456784, speedMetresPerSecond: 1e-9),
    ]

    @Test("CSV: exactly the header and columns, fixed decimals, no exponent, no negative zero, course 360 → 0")
    func writeCSV() {
        let text = TrackWriter.write(Self.fixes, name: "ignored", format: .csv)
        #expect(
            text == """
                time,lon,lat,elevation_m,course_deg,speed_mps
                2013-06-30T15:42:58Z,13.963486000,45.285539000,297.300,0.000000,0.000000
                2013-06-30T15:42:59.250Z,0.000000000,-45.123456789,,0.000000,1.500000
                1901-12-13T20:45:52Z,179.999999999,0.500000000,-12.000,12.345678,0.000000

                """)
        #expect(TrackWriter.write(Self.fixes, format: .csv) == text)  // deterministic
        #expect(TrackWriter.write([], format: .csv) == TrackWriter.csvHeader + "\n")
    }

    @Test("GPX and GeoJSON written from fixes read back with the same points and times", arguments: [TrackWriter.Format.gpx, .geojson])
    func writeAndReadBack(format: TrackWriter.Format) throws {
        // Fixes with at most 9 decimals in lon/lat, 3 in elevation and whole milliseconds in
        // time: what the writer keeps, so reading back must give them exactly.
        var random = SeededRandom(seed: 42)
        var fixes: [Fix] = []
        for k in 0..<200 {
            let lon = Double(Int64.random(in: -180_000_000_000...180_000_000_000, using: &random)) / 1e9
            let lat = Double(Int64.random(in: -90_000_000_000...90_000_000_000, using: &random)) / 1e9
            let ele: Double? = k % 7 == 3 ? nil : Double(Int.random(in: -400_000...8_848_000, using: &random)) / 1000
            let time = 1_600_000_000 + Double(k * 1000 + Int.random(in: 0..<1000, using: &random)) / 1000
            fixes.append(
                Fix(
                    time: time, longitude: lon, latitude: lat, elevationMetres: ele,
                    courseDegrees: Double.random(in: 0..<360, using: &random), speedMetresPerSecond: Double.random(in: 0..<30, using: &random)))
        }
        let text = TrackWriter.write(fixes, name: "Mist & \"Trail\" <1>", format: format)
        #expect(TrackWriter.write(fixes, name: "Mist & \"Trail\" <1>", format: format) == text)  // deterministic
        let dir = TemporaryDirectory()
        let path = dir.file("out." + format.rawValue)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let track = try TrackFile.read(path: path)
        #expect(track.name == "Mist & \"Trail\" <1>")
        #expect(track.segments.count == 1)
        #expect(track.waypoints.isEmpty)
        try #require(track.pointCount == fixes.count)
        for (p, f) in zip(track.points, fixes) {
            #expect(p.longitude == f.longitude && p.latitude == f.latitude)
            #expect(p.elevationMetres == f.elevationMetres)
            // The reader adds whole seconds and the correctly rounded fraction: within one ulp.
            #expect((try #require(p.time) - f.time).magnitude <= f.time.ulp)
        }
    }

    @Test("GPX keeps course and speed in TrackPointExtension; GeoJSON in Point properties")
    func writeExtensions() throws {
        let fix = [Self.fixes[1]]
        let gpx = TrackWriter.write(fix, format: .gpx)
        #expect(
            gpx.contains(
                "<trkpt lat=\"-45.123456789\" lon=\"0.000000000\"><time>2013-06-30T15:42:59.250Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.500000</gpxtpx:speed><gpxtpx:course>0.000000</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>"
            ))
        #expect(gpx.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""))
        let json = TrackWriter.write(fix, format: .geojson)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let point = try #require(features[1]["properties"] as? [String: Any])
        #expect(point["time"] as? String == "2013-06-30T15:42:59.250Z")
        #expect((point["course_deg"] as? NSNumber)?.doubleValue == 0)
        #expect((point["speed_mps"] as? NSNumber)?.doubleValue == 1.5)
    }
}
