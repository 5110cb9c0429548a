import Foundation
import Testing
import TransectAnalysis
import TransectTestSupport
@testable import TransectFormats

@Suite("TrackFile.load: read, clean, say what was dropped")
struct TrackLoadingTests {
    static func write(_ text: String, _ name: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("invalid fixes are dropped and counted by reason in one note; the rest is the cleaned track")
    func dropsAndNotes() throws {
        let dir = TemporaryDirectory()
        let path = try Self.write("lon,lat,accuracy\n10,45,5\n0,0,\n10.1,45.05,-1\n10.2,45.1,\n0,0,\n", "walk.csv", in: dir)
        let loaded = try TrackFile.load(path: path)
        #expect(loaded.track.segments == [[TrackPoint(longitude: 10, latitude: 45, accuracyMetres: 5), TrackPoint(longitude: 10.2, latitude: 45.1)]])
        #expect(loaded.dropped == [.zeroZero: 2, .negativeAccuracy: 1])
        #expect(loaded.notes == ["note: '\(path)': dropped 3 invalid fixes (2 zero zero, 1 negative accuracy)"])
        // One dropped fix takes the singular.
        let one = try TrackFile.load(path: try Self.write("lon,lat\n10,45\n0,0\n", "one.csv", in: dir))
        #expect(one.notes == ["note: '\(dir.file("one.csv"))': dropped 1 invalid fix (1 zero zero)"])
    }

    @Test("a clean track has no notes and is the file's track")
    func clean() throws {
        let dir = TemporaryDirectory()
        let path = try Self.write("lon,lat\n10,45\n10.2,45.1\n", "clean.csv", in: dir)
        let loaded = try TrackFile.load(path: path)
        #expect(loaded.notes.isEmpty && loaded.dropped.isEmpty)
        #expect(loaded.track == (try TrackFile.read(path: path)))
    }

    @Test("a track left with no valid fix is malformed, naming the file")
    func noValidFixes() throws {
        let dir = TemporaryDirectory()
        let path = try Self.write("lon,lat\n0,0\n0,0\n", "zero.csv", in: dir)
        #expect(throws: FormatError.malformed(path: path, reason: "no valid fixes in the track")) { try TrackFile.load(path: path) }
        #expect(FormatError.malformed(path: "a.csv", reason: "no valid fixes in the track").message == "'a.csv': no valid fixes in the track")
        // The reader's own errors pass through.
        #expect(throws: FormatError.self) { try TrackFile.load(path: dir.file("missing.gpx")) }
    }
}
