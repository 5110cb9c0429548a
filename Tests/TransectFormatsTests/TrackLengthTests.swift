import CPROJ
import Testing
import TransectCore
import TransectTestSupport
@testable import TransectFormats

@Suite("real tracks measured")
struct TrackLengthTests {
    @Test("the 2D length of each real GPX track equals a sum of PROJ geodesic distances within segments, to 1e-6 m",
          arguments: RealGPX.all.map(\.file))
    func lengthAgainstPROJ(file: String) throws {
        let track = try TrackFile.read(path: try SharedData.path(file))
        let stats = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres))
        var g = geod_geodesic()
        geod_init(&g, 6_378_137, 1 / 298.257223563)
        var expected = 0.0
        for segment in track.segments {
            for (a, b) in zip(segment, segment.dropFirst()) {
                var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
                geod_inverse(&g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, &azi2)
                expected += s12
            }
        }
        // Each step agrees with PROJ to nanometres; over ≤ 1,852 steps the sum holds 1e-6 m.
        #expect(abs(stats.length2DMetres - expected) < 1e-6, "\(file): \(stats.length2DMetres) vs \(expected)")
        #expect(stats.segments == track.segments.count)
    }
}
