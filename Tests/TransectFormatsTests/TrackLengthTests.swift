import Testing
import TransectAnalysis
import TransectTestSupport
@testable import TransectFormats

@Suite("real tracks measured")
struct TrackLengthTests {
    @Test(
        "the 2D length of each real GPX track equals a sum of PROJ geodesic distances within segments, to 1e-6 m",
        arguments: RealGPX.all.map(\.file))
    func lengthAgainstPROJ(file: String) throws {
        let track = try TrackFile.read(path: try SharedData.path(file))
        let stats = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        let expected = Self.projLength(track)
        // Each step agrees with PROJ to nanometres; over ≤ 1,852 steps the sum holds 1e-6 m.
        #expect(abs(stats.length2DMetres - expected) < 1e-6, "\(file): \(stats.length2DMetres) vs \(expected)")
        #expect(stats.segments == track.segments.count)
    }

    /// 1e-9 m per leg: the difference of two round-off-accurate inverses on one leg.
    static func legTolerance(_ track: Track) -> Double {
        1e-9 * Double(track.segments.reduce(0) { $0 + Swift.max(0, $1.count - 1) })
    }

    /// PROJ's geodesic length of every leg within segments, summed in order.
    static func projLength(_ track: Track) -> Double {
        let proj = ProjGeodesic.wgs84
        var total = 0.0
        for segment in track.segments {
            for (a, b) in zip(segment, segment.dropFirst()) {
                total += proj.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12
            }
        }
        return total
    }

    @Test(
        "cleaning keeps every fix of the real GPX tracks, times or not; their length is PROJ's over all fixes, to 5 nm",
        arguments: RealGPX.all)
    func cleanedRealTracks(gpx: RealGPX) throws {
        var track = try TrackFile.read(path: try SharedData.path(gpx.file))
        let dropped = track.clean()
        #expect(dropped.isEmpty)
        #expect(track.segments.map(\.count) == gpx.segmentSizes)
        let s = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        #expect(s.points == gpx.segmentSizes.reduce(0, +))
        // Legs of a few metres: our inverse (its own sin, cos, atan2) and PROJ's (libm) differ by
        // the rounding of the end points' sines and cosines, up to ~1e-9 m a leg (the polar
        // radius × 2⁻⁵²), so the sums agree to 1e-9 m per leg.
        #expect(abs(s.length2DMetres - Self.projLength(track)) < Self.legTolerance(track), "\(s.length2DMetres) vs \(Self.projLength(track))")
        #expect(s.times.usable + s.times.repeated + s.times.backwards == gpx.timedPoints)
        #expect(s.times.missing == s.points - gpx.timedPoints)
        #expect(s.elapsedSeconds == gpx.lastTime - gpx.firstTime)
        // The recorded time is each segment's, first time to last: these files' times never go
        // back but for Mojstrovka's second fix, which is neither its first nor its last.
        let recorded = track.segments.compactMap { segment -> Double? in
            let times = segment.compactMap(\.time)
            return times.isEmpty ? nil : times[times.count - 1] - times[0]
        }
        #expect(s.durationSeconds == (recorded.isEmpty ? nil : recorded.reduce(0, +)))
    }

    @Test("Mojstrovka: a 1901 timestamp (one of them 0.34 ms earlier) is one usable time, no time steps, and the full 2.7 km")
    func mojstrovka() throws {
        var track = try TrackFile.read(path: try SharedData.path("gpx/gpxpy_Mojstrovka.gpx"))
        _ = track.clean()
        let s = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        // The first fix says .2073437 s, the second .207 s (back 0.34 ms: the step that once made
        // 107,435 km/h), the other 182 repeat the first.
        #expect(s.times == TimeCounts(usable: 1, repeated: 182, backwards: 1) && s.timeSteps == 0)
        #expect(s.maxSpeedMetresPerSecond == nil && s.maxSpeedRawMetresPerSecond == nil && s.movingTimeSeconds == nil)
        #expect(s.length2DMetres > 2_600 && s.length2DMetres < 2_800)
    }

    @Test("Karojba with times rounded down to the minute: all 1,852 fixes and their length, one usable time per minute")
    func karojbaCoarse() throws {
        let exact = try TrackFile.read(path: try SharedData.path("gpx/srtmpy_setnjica-kod-karojbe.gpx"))
        var coarse = exact
        for s in coarse.segments.indices {
            for i in coarse.segments[s].indices { coarse.segments[s][i].time = (coarse.segments[s][i].time! / 60).rounded(.down) * 60 }
        }
        _ = coarse.clean()
        let s = TrackStatistics(track: coarse, elevations: coarse.points.map(\.elevationMetres))
        let reference = TrackStatistics(track: exact, elevations: exact.points.map(\.elevationMetres))
        #expect(s.points == 1_852)
        #expect(abs(s.length2DMetres - Self.projLength(exact)) < Self.legTolerance(exact))
        #expect(s.length2DMetres == reference.length2DMetres)
        // The file's times never go back, so each distinct minute starts one run.
        let minutes = Set(coarse.points.map { $0.time! })
        #expect(s.times == TimeCounts(usable: minutes.count, repeated: 1_852 - minutes.count) && s.timeSteps == minutes.count - 1)
        #expect(s.durationSeconds == minutes.max()! - minutes.min()!)
        // Whole minutes, and no more moving time than there is time.
        #expect(s.movingTimeSeconds!.truncatingRemainder(dividingBy: 60) == 0 && s.movingTimeSeconds! <= s.durationSeconds!)
    }
}
