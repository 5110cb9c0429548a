import Foundation
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectFormats

/// The track-file readers and writer, one file of tests per format beside this one:
/// `TrackFileGPXTests`, `TrackFileGeoJSONTests`, `TrackFileEsriJSONTests`, `TrackFileCSVTests` and
/// `TrackFileWritingTests` extend this suite.
@Suite("track files")
struct TrackFileTests {
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
}
