import Testing
import TransectAnalysis
import TransectGeodesy
import TransectTestSupport

/// Segments stay segments: a track of three segments with jumps of ~12 km between them is
/// cleaned, densified and simulated, and no step ever crosses a gap.
@Suite("track segments through cleaning, densifying and simulating")
struct TrackSegmentTests {
    /// Three segments of a few hundred metres, 12 km and 30 km apart, with times.
    static let track: Track = {
        func segment(_ lon: Double, _ t0: Double, count: Int) -> [TrackPoint] {
            (0..<count).map { k in
                TrackPoint(longitude: lon + 0.001 * Double(k), latitude: 45 + 0.0007 * Double(k), elevationMetres: 300 + Double(k), time: t0 + 10 * Double(k))
            }
        }
        return Track(name: "jumps", segments: [segment(14, 0, count: 6), segment(14.15, 10_000, count: 4), segment(14.55, 20_000, count: 5)])
    }()

    static func distance(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double)) -> Double {
        Geodesic.wgs84.inverse(latitude1: a.lat, longitude1: a.lon, latitude2: b.lat, longitude2: b.lon).distanceMetres
    }

    /// The longest step between consecutive points within a segment.
    static func longestStep(_ segments: [[(lon: Double, lat: Double)]]) -> Double {
        segments.flatMap { s in zip(s, s.dropFirst()).map { distance($0, $1) } }.max() ?? 0
    }

    @Test("cleaning drops fixes, not segments; densifying keeps the count and bounds every step")
    func densify() throws {
        var dirty = Self.track
        dirty.segments[1].insert(TrackPoint(longitude: 0, latitude: 0), at: 2)
        let (cleaned, dropped) = dirty.cleaned()
        #expect(cleaned.segments == Self.track.segments)
        #expect(dropped == [.zeroZero: 1])
        let dense = try Self.track.densifiedChecked(maxSegmentMetres: 5)
        #expect(dense.segments.count == 3)
        #expect(Self.longestStep(dense.segments.map { $0.map { ($0.longitude, $0.latitude) } }) <= 5)
        // The gaps are not densified: the length is the segments' alone, unchanged.
        // Geodesic pieces re-summed: 1 µm.
        #expect(abs(dense.lengthMetres() - Self.track.lengthMetres()) < 1e-6)
        for (a, b) in zip(dense.segments, Self.track.segments) {
            #expect(a.first == b.first && a.last == b.last)
        }
    }

    @Test("simulated per vertex and at a speed: one segment of fixes per segment, the clock paused between them", arguments: [nil, 1.4])
    func simulate(speed: Double?) throws {
        let simulation = TrackSimulation(maxSegmentMetres: 20, speedMetresPerSecond: speed, startTime: 1000)
        let segments = try Self.track.simulated(simulation)
        #expect(segments.count == 3)
        #expect(Self.longestStep(segments.map { $0.map { ($0.longitude, $0.latitude) } }) <= 20)
        // Each segment starts and ends where the track's does.
        for (fixes, points) in zip(segments, Self.track.segments) {
            for (fix, point) in [(fixes.first!, points.first!), (fixes.last!, points.last!)] {
                // At a speed, ends are placed by a geodesic direct: ulps of 45°, 1e−12°.
                #expect(abs(fix.longitude - point.longitude) < 1e-12 && abs(fix.latitude - point.latitude) < 1e-12)
            }
        }
        // One fix a second throughout: the clock does not run while the gap is crossed.
        let times = segments.flatMap { $0.map(\.time) }
        #expect(times == (0..<times.count).map { 1000 + Double($0) })
        // No speed anywhere is the jump's: every fix moves at walking or densified pace.
        #expect(segments.flatMap { $0 }.allSatisfy { $0.speedMetresPerSecond <= 20 })
    }

    @Test("a speed whose second's travel is longer than --max-segment is refused")
    func speedBeyondSegment() {
        let error = TrackLimitError.stepLongerThanSegment(speedMetresPerSecond: 60, maxSegmentMetres: 50)
        #expect(throws: error) { try Self.track.simulated(TrackSimulation(speedMetresPerSecond: 60, startTime: 0)) }
        #expect(error.message == "60 m/s makes steps of 60 m, longer than the 50 m --max-segment; raise --max-segment")
    }

    @Test("statistics sum the segments: no length, time or climb across a gap")
    func statistics() {
        let s = TrackStatistics(track: Self.track, elevations: Self.track.points.map(\.elevationMetres), gainThresholdMetres: 0)
        #expect(s.segments == 3)
        // The same sums in another order: 1 nm.
        #expect(abs(s.length2DMetres - Self.track.lengthMetres()) < 1e-9)
        // Gain within segments: 5 + 3 + 4 m; the drops of 5 and 3 m at the gaps are not loss.
        #expect(s.elevationGainMetres == 12 && s.elevationLossMetres == 0)
        #expect(s.timeSteps == 5 + 3 + 4)
    }
}
