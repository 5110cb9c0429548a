import Foundation
import Testing
import TransectAnalysis
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
        // 8 <trkseg (sizes 0, 173, 52, 2, 44, 2, 2, 21: 296 <trkpt), 7 <wpt; named by its second
        // <trk>, the first with points (the first, "ACTIVE LOG", is empty).
        RealGPX(
            file: "gpx/gpxpy_cerknicko-jezero.gpx", segmentSizes: [173, 52, 2, 44, 2, 2, 21], waypoints: 7,
            name: "ACTIVE LOG #2", first: (14.357659249, 45.772175035, 542.320923),
            last: (14.304442042, 45.790873384, 562.508545),
            timedPoints: 296, firstTime: 1_281_018_239, lastTime: 1_281_025_429),  // 2010-08-05T14:23:59Z … 16:23:49Z
        // 4 <trkseg (sizes 0, 358, 176, 337: 871 <trkpt), 2 <wpt; the first 358 points have no time;
        // named by the first <trk> with points, not the empty "03-OCT-10".
        RealGPX(
            file: "gpx/gpxpy_korita-zbevnica.gpx", segmentSizes: [358, 176, 337], waypoints: 2,
            name: "03-OCT-10 #2", first: (14.144491442, 45.380600095, 733.623291),
            last: (14.018215053, 45.452453708, 770.634033),
            timedPoints: 513, firstTime: 1_286_098_590, lastTime: 1_286_111_971),  // 2010-10-03T09:36:30Z … 13:19:31Z
        // 1852 <trkpt in one <trkseg.
        RealGPX(
            file: "gpx/srtmpy_setnjica-kod-karojbe.gpx", segmentSizes: [1852], waypoints: 0,
            name: "6/30/2013 17:42", first: (13.963486, 45.285539, 297.3), last: (13.963072, 45.287221, 184.4),
            timedPoints: 1852, firstTime: 1_372_606_978, lastTime: 1_372_613_695),  // 2013-06-30T15:42:58Z … 17:34:55Z
    ]
}

/// GPX: the real files, XML safety and the details of the format (`TrackFile+GPX.swift`).
extension TrackFileTests {
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

    @Test(
        "a GPX track is named by its first named track (or else route) that has points, else the file's name",
        arguments: [
            ("<trk><name>empty</name><trkseg/></trk><trk><trkseg>P</trkseg></trk><trk><name>walk</name><trkseg>P</trkseg></trk>", "walk"),
            ("<trk><trkseg>P</trkseg><name>late</name></trk>", "late"),  // a name after the points still names its track
            ("<trk><name>empty</name></trk><rte><name>route</name><rtept lat=\"1\" lon=\"2\"/></rte>", "route"),
            ("<metadata><name>file</name></metadata><trk><name>empty</name><trkseg/></trk><trk><trkseg>P</trkseg></trk>", "file"),
            ("<trk><name>empty</name><trkseg/></trk><trk><trkseg>P</trkseg></trk>", nil),
        ] as [(String, String?)])
    func gpxName(body: String, name: String?) throws {
        let text = "<gpx version=\"1.1\" creator=\"t\">" + body.replacingOccurrences(of: "P", with: "<trkpt lat=\"1\" lon=\"2\"/>") + "</gpx>"
        let track = try GPXReader.read(Data(text.utf8), path: "t.gpx")
        #expect(track.name == name)
    }

    @Test("GPX times keep their microseconds exactly: Mojstrovka's .2073437 s and .207 s are 343 µs apart, as gpxpy reads them")
    func gpxMicroseconds() throws {
        let track = try TrackFile.read(path: try SharedData.path("gpx/gpxpy_Mojstrovka.gpx"))
        let p = track.segments[0]
        // The file: 1901-12-13T20:45:52.2073437Z, then 20:45:52.207Z.
        #expect(p[0].timeMicroseconds == -2_147_483_647_792_657 && p[1].timeMicroseconds == -2_147_483_647_793_000)
        #expect(p[0].exactMicroseconds! - p[1].exactMicroseconds! == 343)
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
}
