import Foundation
import Testing
import TransectAnalysis
import TransectTestSupport
@testable import TransectFormats

/// CSV tracks (`TrackFile+CSV.swift`).
extension TrackFileTests {
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
}
