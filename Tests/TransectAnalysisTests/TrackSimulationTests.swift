import Testing
import TransectGeodesy
import TransectAnalysis
import TransectTestSupport

@Suite("track simulation and summary requests: routes, limits, time counts")
struct TrackSimulationTests {
    /// 11.1 km along the meridian 10° E; its length from PROJ.
    static let track = Track(segments: [[TrackPoint(longitude: 10, latitude: 45), TrackPoint(longitude: 10, latitude: 45.1)]])
    // Our inverse (the fix count comes from it); it agrees with PROJ's to 1e-8 m (GeodesicLanesTests).
    static let length = Geodesic.wgs84.inverse(latitude1: 45, longitude1: 10, latitude2: 45.1, longitude2: 10).distanceMetres

    @Test("per vertex: the route is the track densified to 50 m, one fix a second from the start time")
    func perVertex() throws {
        let simulation = TrackSimulation(startTime: 1000)
        #expect(simulation.maxSegmentMetres == 50)
        let route = try simulation.route(along: Self.track)
        #expect(route.pointCount == 1 + Int((Self.length / 50).rounded(.up)))
        let fixes = try Self.track.simulated(simulation).flatMap { $0 }
        #expect(fixes.count == route.pointCount)
        #expect(fixes.map(\.time) == (0..<fixes.count).map { 1000 + Double($0) })
        #expect(zip(fixes, route.points).allSatisfy { $0.longitude == $1.longitude && $0.latitude == $1.latitude })
    }

    @Test("at a speed: ⌈length / speed⌉ + 1 fixes, each at that speed")
    func atSpeed() throws {
        let fixes = try Self.track.simulated(TrackSimulation(maxSegmentMetres: 500, speedMetresPerSecond: 7, startTime: 0)).flatMap { $0 }
        #expect(fixes.count == Int((Self.length / 7).rounded(.up)) + 1)
        #expect(fixes.allSatisfy { $0.speedMetresPerSecond == 7 })
    }

    @Test("fixes past Track.maxPoints are refused with length / speed + segments; the densified count is checked first")
    func limits() {
        let fixes = Self.length / 0.001 + 1
        #expect(fixes > Track.maxPoints)
        let error = TrackLimitError.tooManyFixes(speedMetresPerSecond: 0.001, fixes: fixes)
        #expect(throws: error) { try Self.track.simulated(TrackSimulation(speedMetresPerSecond: 0.001, startTime: 0)) }
        #expect(
            error.message == "0.001 m/s would make \(TrackLimitsTests.commas(Int(fixes.rounded(.up)))) fixes, more than 10,000,000; use a higher speed")
        #expect(error.isUsageError)
        #expect(
            TrackLimitError.tooManyFixes(speedMetresPerSecond: 1e-16, fixes: 1e20).message
                == "1e-16 m/s would make 1e+20 fixes, more than 10,000,000; use a higher speed")
        let points = 1 + (Self.length / 0.0001).rounded(.up)
        #expect(throws: TrackLimitError.densifiedTooLarge(maxSegmentMetres: 0.0001, points: points)) {
            try Self.track.simulated(TrackSimulation(maxSegmentMetres: 0.0001, speedMetresPerSecond: 0.001, startTime: 0))
        }
    }

    @Test("a summary densified for elevations counts the times of the recorded fixes only")
    func summaryTimes() throws {
        let timed = Track(segments: [
            [
                TrackPoint(longitude: 10, latitude: 45, time: 0), TrackPoint(longitude: 10, latitude: 45.05, time: 60),
                TrackPoint(longitude: 10, latitude: 45.1, time: 60), TrackPoint(longitude: 10, latitude: 45.15),
            ]
        ])
        let plain = TrackStatistics(track: timed, elevations: [nil, nil, nil, nil])
        #expect(plain.times == TimeCounts(usable: 2, repeated: 1, missing: 1))
        let request = TrackSummaryRequest(maxSegmentMetres: 1000, gainThresholdMetres: 3)
        let route = try request.route(along: timed)
        #expect(route.pointCount > 10)
        let dense = request.statistics(of: route, recordedFixes: timed.pointCount, elevations: Array(repeating: nil, count: route.pointCount))
        #expect(dense.times == plain.times)
        #expect(dense.points == route.pointCount)
        #expect(dense.durationSeconds == 60)
        #expect(try TrackSummaryRequest().route(along: timed) == timed)
    }

    @Test("time counts as text: counts grouped, nouns and verbs agreeing")
    func timesText() {
        #expect(TimeCounts(usable: 97, repeated: 1755).text == "97 of 1,852 fixes have usable times (1,755 repeat an earlier time)")
        #expect(TimeCounts(usable: 1).text == "1 of 1 fix has a usable time")
        #expect(
            TimeCounts(usable: 2, repeated: 1, backwards: 1, missing: 1).text
                == "2 of 5 fixes have usable times (1 repeats an earlier time, 1 goes back in time, 1 has none)")
        #expect(TimeCounts(backwards: 2, missing: 3).text == "0 of 5 fixes have usable times (2 go back in time, 3 have none)")
    }
}
