import Foundation
import Testing
import TransectAnalysis
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
