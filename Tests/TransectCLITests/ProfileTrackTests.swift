import Foundation
import Testing
import TransectAnalysis
import TransectCLITestSupport
import TransectFormats
import TransectTestSupport
@testable import TransectCLI

/// `profile --track`: the recorded elevations without a DEM, breaks between segments apart from
/// gaps, and a chart subtitled with the track's own figures.
@Suite("profile of a track: recorded elevations, segment breaks")
struct ProfileTrackTests {
    @Test("without --dem: the track's points and recorded elevations, one break per segment boundary, no gap")
    func recorded() throws {
        let input = try SharedData.path("gpx/gpxpy_korita-zbevnica.gpx")
        let track = try TrackFile.load(path: input).track
        let r = transect("profile", "--track", input, "--format", "json")
        #expect(r.code == 0, "\(r.err)")
        let json = try TrackCommandTests.json(r.out)
        let stats = try #require(json["stats"] as? [String: Any])
        #expect(stats["elevation_source"] as? String == "recorded")
        #expect(stats["segment_break_count"] as? Int == track.segments.count - 1)
        #expect(stats["gap_count"] as? Int == 0)
        #expect(stats["samples"] as? Int == track.pointCount + track.segments.count - 1)
        let recorded = track.points.compactMap(\.elevationMetres)
        // Printed to 6 decimals: within 0.5 µm.
        #expect(abs(try #require(stats["min_elevation_m"] as? Double) - recorded.min()!) < 1e-6)
        #expect(abs(try #require(stats["max_elevation_m"] as? Double) - recorded.max()!) < 1e-6)  // as above
        // The length is the track's own, segments summed (printed to 6 decimals: 1 µm).
        #expect(abs(try #require(stats["horizontal_length_m"] as? Double) - track.lengthMetres()) < 1e-6)
        let text = transect("profile", "--track", input)
        #expect(text.out.contains("Breaks        2 between the track's 3 segments"))
        #expect(text.out.contains("Gaps          none"))
        #expect(text.out.contains("(the track's points, mean step "))
    }

    @Test("with --dem the DEM is sampled, and --elevations recorded keeps the track's own")
    func chooses() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let route = SharedData.packageRoot.appendingPathComponent("data/half_dome_route.geojson").path
        let onDEM = try TrackCommandTests.json(transect("profile", "--dem", dem, "--track", route, "--format", "json").out)
        #expect((onDEM["stats"] as? [String: Any])?["elevation_source"] as? String == "dem")
        let input = try SharedData.path("gpx/srtmpy_setnjica-kod-karojbe.gpx")
        let kept = transect("profile", "--dem", dem, "--track", input, "--elevations", "recorded", "--format", "json")
        #expect(kept.code == 0, "\(kept.err)")
        #expect((try TrackCommandTests.json(kept.out)["stats"] as? [String: Any])?["elevation_source"] as? String == "recorded")
    }

    @Test("a track without elevations and no --dem is an error naming it; a step for recorded points a usage error")
    func refused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("flat.csv")
        try "lon,lat\n10,45\n10.01,45.01\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = transect("profile", "--track", path)
        #expect(r.code == 1)
        #expect(r.err == "Error: '\(path)': the track records no elevations; give --dem to profile it on a DEM\n")
        expectUsageError(
            ["profile", "--track", path, "--step", "5"],
            "option '--step': recorded elevations are profiled at the track's own points; give --max-segment to densify, or --dem")
        expectUsageError(["profile", "--from", "10,45", "--to", "10.1,45", "--elevations", "dem"], "option '--elevations': chooses a --track's elevations")
    }

    @Test("the chart of a track is subtitled with its length, gain, loss and segments")
    func chartSubtitle() throws {
        let input = try SharedData.path("gpx/gpxpy_korita-zbevnica.gpx")
        let dir = TemporaryDirectory()
        let r = transect("profile", "--track", input, "--chart", dir.file("p.png"), "--chart-layout", dir.file("p.json"))
        #expect(r.code == 0, "\(r.err)")
        let layout = try String(contentsOfFile: dir.file("p.json"), encoding: .utf8)
        #expect(layout.contains("Length: 14.91 km | Gain: +901.23 m | Loss: -907.48 m | 3 segments"))
        #expect(!layout.contains("Direct:"))
    }
}
