import Foundation
import Testing
import TransectAnalysis
import TransectFormatsBase
import TransectSupport
import TransectTestSupport
@testable import TransectFormats

/// Tracks written by `TrackWriter` and read back.
extension TrackFileTests {
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
        let text = TrackWriter.write([Self.fixes], name: "ignored", format: .csv)
        #expect(
            text == """
                time,lon,lat,elevation_m,course_deg,speed_mps,segment
                2013-06-30T15:42:58Z,13.963486000,45.285539000,297.300,0.000000,0.000000,1
                2013-06-30T15:42:59.250Z,0.000000000,-45.123456789,,0.000000,1.500000,1
                1901-12-13T20:45:52Z,179.999999999,0.500000000,-12.000,12.345678,0.000000,1

                """)
        #expect(TrackWriter.write([Self.fixes], format: .csv) == text)  // deterministic
        #expect(TrackWriter.write([[Fix]](), format: .csv) == TrackWriter.csvHeader + "\n")
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
        let text = TrackWriter.write([fixes], name: "Mist & \"Trail\" <1>", format: format)
        #expect(TrackWriter.write([fixes], name: "Mist & \"Trail\" <1>", format: format) == text)  // deterministic
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
        let gpx = TrackWriter.write([fix], format: .gpx)
        #expect(
            gpx.contains(
                "<trkpt lat=\"-45.123456789\" lon=\"0.000000000\"><time>2013-06-30T15:42:59.250Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.500000</gpxtpx:speed><gpxtpx:course>0.000000</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>"
            ))
        #expect(gpx.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""))
        let json = TrackWriter.write([fix], format: .geojson)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let point = try #require(features[1]["properties"] as? [String: Any])
        #expect(point["time"] as? String == "2013-06-30T15:42:59.250Z")
        #expect((point["course_deg"] as? NSNumber)?.doubleValue == 0)
        #expect((point["speed_mps"] as? NSNumber)?.doubleValue == 1.5)
    }
}

/// Tracks (not fixes) written in every text format and read back: segments, points, times and
/// waypoints as they were.
extension TrackFileTests {
    /// Three segments far apart, a point without a time, one without an elevation, a waypoint.
    static let segmented = Track(
        name: "Korita – Zbevnica",
        segments: [
            [
                TrackPoint(longitude: 14.1, latitude: 45.5, elevationMetres: 512.25, time: 1_286_100_000),
                TrackPoint(longitude: 14.100123456, latitude: 45.500987654, elevationMetres: 515, time: 1_286_100_010.5),
            ],
            [
                TrackPoint(longitude: 14.25, latitude: 45.55, elevationMetres: 700, time: nil),
                TrackPoint(longitude: 14.2501, latitude: 45.5502, elevationMetres: nil, time: 1_286_200_000),
                TrackPoint(longitude: 14.2503, latitude: 45.5504, elevationMetres: 702.125, time: 1_286_200_030),
            ],
            [TrackPoint(longitude: 14.4, latitude: 45.6, elevationMetres: 1000, time: 1_286_300_000)],
        ],
        waypoints: [Waypoint(name: "Zbevnica", point: TrackPoint(longitude: 14.05, latitude: 45.45, elevationMetres: 1014))])

    @Test("a track written as GPX, GeoJSON and CSV reads back with its segments, points and times", arguments: TrackWriter.Format.allCases)
    func trackReadBack(format: TrackWriter.Format) throws {
        let text = TrackWriter.write(Self.segmented, format: format)
        #expect(TrackWriter.write(Self.segmented, format: format) == text)  // deterministic
        let dir = TemporaryDirectory()
        let path = dir.file("out." + format.rawValue)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let back = try TrackFile.read(path: path)
        #expect(back.segments == Self.segmented.segments)
        if format != .csv {
            #expect(back.name == Self.segmented.name)
            #expect(back.waypoints.map(\.name) == ["Zbevnica"])
            #expect(back.waypoints.first?.point.elevationMetres == 1014)
        }
    }

    @Test("the track's CSV: its own header, empty fields for unknown values, segments counted from 1")
    func trackCSV() {
        #expect(
            TrackWriter.write(Self.segmented, format: .csv) == """
                time,lon,lat,elevation_m,segment
                2010-10-03T10:00:00Z,14.100000000,45.500000000,512.250,1
                2010-10-03T10:00:10.500Z,14.100123456,45.500987654,515.000,1
                ,14.250000000,45.550000000,700.000,2
                2010-10-04T13:46:40Z,14.250100000,45.550200000,,2
                2010-10-04T13:47:10Z,14.250300000,45.550400000,702.125,2
                2010-10-05T17:33:20Z,14.400000000,45.600000000,1000.000,3

                """)
    }

    @Test("simulated fixes of several segments: one trkseg, one GeoJSON line and one CSV segment each")
    func fixesSegments() throws {
        let segments = [Array(Self.fixes[0...1]), [Self.fixes[2]]]
        let gpx = TrackWriter.write(segments, format: .gpx)
        #expect(gpx.components(separatedBy: "<trkseg>").count == 3)
        let json = try JSON.parse(Array(TrackWriter.write(segments, format: .geojson).utf8), path: "f.geojson")
        let line = try #require(json["features"]?.array?.first)
        #expect(line["geometry"]?["type"]?.string == "MultiLineString")
        #expect(line["geometry"]?["coordinates"]?.array?.map { $0.array?.count } == [2, 1])
        #expect(line["properties"]?["coordTimes"]?.array?.map { $0.array?.count } == [2, 1])
        let points = try #require(json["features"]?.array?.dropFirst())
        #expect(points.map { $0["properties"]?["segment"]?.number } == [1, 1, 2])
        #expect(TrackWriter.write(segments, format: .csv).split(separator: "\n").dropFirst().map { $0.split(separator: ",").last } == ["1", "1", "2"])
    }
}
