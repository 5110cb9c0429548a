import Foundation
import Testing
import TransectAnalysis
@testable import TransectFormats

/// What a track file may hold: elevations within ±`PointArgument.heightLimitMetres`,
/// accuracies within ±1e8 m, at most `TrackFile.maximumPoints` points, element text within
/// 64 KiB. Each limit is met where the value is read, with the file and the position.
@Suite("track file limits")
struct TrackFileLimitsTests {
    static func gpx(_ points: String) -> Data {
        Data(#"<?xml version="1.0"?><gpx version="1.1"><trk><name>t</name><trkseg>\#(points)</trkseg></trk></gpx>"#.utf8)
    }

    static func read(_ data: Data, _ format: TrackFile.Format, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        try TrackFile.read(data: data, path: "t", format: format, pointLimit: pointLimit)
    }

    /// The same two-point track in each format, with elevations `a` and `b` written as given.
    static func withElevations(_ a: String, _ b: String) -> [(TrackFile.Format, Data)] {
        [
            (.gpx, gpx(#"<trkpt lat="1" lon="2"><ele>\#(a)</ele></trkpt><trkpt lat="1.1" lon="2"><ele>\#(b)</ele></trkpt>"#)),
            (.geojson, Data(#"{"type": "LineString", "coordinates": [[2, 1, \#(a)], [2, 1.1, \#(b)]]}"#.utf8)),
            (.esriJSON, Data(#"{"hasZ": true, "paths": [[[2, 1, \#(a)], [2, 1.1, \#(b)]]], "spatialReference": {"wkid": 4326}}"#.utf8)),
            (.csv, Data("lon,lat,ele\n2,1,\(a)\n2,1.1,\(b)\n".utf8)),
        ]
    }

    @Test("elevations beyond ±1e8 m are refused in every format, with the position (1e308 then -1e308 once gave inf)")
    func elevations() throws {
        for (format, data) in Self.withElevations("1e308", "-1e308") {
            let error = try #require(throws: FormatError.self, "\(format)") { try Self.read(data, format) }
            #expect(error.message.contains("1e+308 m is beyond ±100,000 km"), "\(format): \(error.message)")
        }
        let expected: [TrackFile.Format: String] = [
            .gpx: "'t': line 1: ele -100000000.5 m is beyond ±100,000 km",
            .geojson: "'t': the document LineString position 2: elevation -100000000.5 m is beyond ±100,000 km",
            .esriJSON: "'t': the polyline path 1 vertex 2: z -100000000.5 m is beyond ±100,000 km",
            .csv: "'t': line 3: ele -100000000.5 m is beyond ±100,000 km",
        ]
        for (format, data) in Self.withElevations("1e8", "-100000000.5") {
            do {
                _ = try Self.read(data, format)
                Issue.record("\(format) read")
            } catch {
                #expect(error.message == expected[format], "\(format)")
            }
        }
        for (format, data) in Self.withElevations("1e8", "-1e8") {
            let track = try Self.read(data, format)
            #expect(track.points.map(\.elevationMetres) == [1e8, -1e8], "\(format)")
        }
    }

    @Test("CSV accuracies beyond ±1e8 m are refused; a negative one (an invalid fix) is kept for clean() to drop")
    func accuracies() throws {
        #expect(throws: FormatError.malformed(path: "t", reason: "line 3: accuracy 1000000000 m is beyond ±100,000 km")) {
            try Self.read(Data("lon,lat,accuracy\n2,1,5\n2,1.1,1e9\n".utf8), .csv)
        }
        #expect(throws: FormatError.self) { try Self.read(Data("lon,lat,accuracy\n2,1,-1e300\n".utf8), .csv) }
        #expect(throws: FormatError.self) { try Self.read(Data("lon,lat,accuracy\n2,1,inf\n".utf8), .csv) }
        var track = try Self.read(Data("lon,lat,accuracy\n2,1,-1\n2,1.1,1e8\n".utf8), .csv)
        #expect(track.points.map(\.accuracyMetres) == [-1, 1e8])
        #expect(track.clean() == [.negativeAccuracy: 1])
    }

    @Test("more points than the limit are refused as they are read, in every format (10,000,000 in use)")
    func points() throws {
        #expect(TrackFile.maximumPoints == 10_000_000)
        #expect(TrackFile.tooManyPoints(TrackFile.maximumPoints) == "has more than 10,000,000 points (the limit)")
        #expect(TrackFile.tooManyPoints(999) == "has more than 999 points (the limit)")
        #expect(TrackFile.tooManyPoints(1000) == "has more than 1,000 points (the limit)")
        let three: [(TrackFile.Format, Data)] = [
            (.gpx, Self.gpx(#"<trkpt lat="1" lon="2"/><trkpt lat="1" lon="3"/><trkpt lat="1" lon="4"/>"#)),
            (.geojson, Data(#"{"type": "LineString", "coordinates": [[2, 1], [3, 1], [4, 1]]}"#.utf8)),
            (.esriJSON, Data(#"{"paths": [[[2, 1], [3, 1]], [[4, 1]]], "spatialReference": {"wkid": 4326}}"#.utf8)),
            (.csv, Data("lon,lat\n2,1\n3,1\n4,1\n".utf8)),
        ]
        for (format, data) in three {
            #expect(try Self.read(data, format, pointLimit: 3).pointCount == 3, "\(format)")
            let error = try #require(throws: FormatError.self, "\(format)") { try Self.read(data, format, pointLimit: 2) }
            #expect(error.message.hasSuffix("has more than 2 points (the limit)"), "\(format): \(error.message)")
        }
        // GPX waypoints count too: they are held in memory like track points.
        let waypoints = Data(#"<gpx version="1.1"><wpt lat="1" lon="2"/><wpt lat="1" lon="3"/><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#.utf8)
        #expect(throws: FormatError.malformed(path: "t", reason: "line 1: has more than 2 points (the limit)")) {
            try Self.read(waypoints, .gpx, pointLimit: 2)
        }
    }

    @Test("a GPX name over 64 KiB is refused, one of 64 KiB is read")
    func elementText() throws {
        let limit = GPXReader.maximumElementTextBytes
        #expect(limit == 64 * 1024)
        func document(nameBytes: Int) -> Data {
            Data(
                #"<gpx version="1.1"><trk><name>\#(String(repeating: "n", count: nameBytes))</name><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#.utf8)
        }
        #expect(try Self.read(document(nameBytes: limit), .gpx).name?.utf8.count == limit)
        #expect(throws: FormatError.malformed(path: "t", reason: "line 1: <name> has more than 64 KiB of text (the limit)")) {
            try Self.read(document(nameBytes: limit + 1), .gpx)
        }
        // CDATA counts as text too.
        let cdata = Data(
            #"<gpx version="1.1"><trk><name><![CDATA[\#(String(repeating: "c", count: limit + 1))]]></name><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#
                .utf8)
        #expect(throws: FormatError.self) { try Self.read(cdata, .gpx) }
        // Text in elements not kept (a long desc) is not limited by this.
        let desc = Data(
            #"<gpx version="1.1"><metadata><desc>\#(String(repeating: "d", count: 4 * limit))</desc></metadata><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#
                .utf8)
        #expect(try Self.read(desc, .gpx).pointCount == 1)
    }
}
