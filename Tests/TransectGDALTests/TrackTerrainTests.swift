import Testing
import TransectAnalysis
import TransectTestSupport
@testable import TransectGDAL

@Suite("TrackTerrain: a track's elevations from a DEM or as recorded, its summary and simulation")
struct TrackTerrainTests {
    /// ElevationModelTests' plane over lon 10…10.2, lat 45…45.1; bilinear sampling gives it
    /// exactly between the cell centres.
    struct Fixture {
        let dir = TemporaryDirectory()
        let model: ElevationModel
        init() throws {
            ElevationModelTests.writePlane(dir.file("plane.tif"))
            model = try ElevationModel([dir.file("plane.tif")])
        }
    }

    /// Two fixes on the DEM (one recording an elevation the DEM overrides), one off it with a
    /// recorded elevation, one off it without.
    static let mixed = Track(segments: [
        [
            TrackPoint(longitude: 10.05, latitude: 45.05), TrackPoint(longitude: 10.1, latitude: 45.05, elevationMetres: 7),
            TrackPoint(longitude: 11, latitude: 45, elevationMetres: 5), TrackPoint(longitude: 11.1, latitude: 45),
        ]
    ])

    @Test("with a DEM: its elevations, the recorded ones where it has none, and a note for each kind of gap")
    func demElevations() throws {
        let f = try Fixture()
        let terrain = TrackTerrain(source: "walk.csv", model: f.model)
        let (elevations, notes) = try terrain.elevations(for: Self.mixed)
        let expected = [ElevationModelTests.plane(10.05, 45.05), ElevationModelTests.plane(10.1, 45.05)]
        #expect(abs(try #require(elevations.values[0]) - expected[0]) < 1e-9)  // a plane read: an ulp of 45° (7e−15°) at 3000 m per degree is 2e−11 m
        #expect(abs(try #require(elevations.values[1]) - expected[1]) < 1e-9)  // a plane read, as above
        #expect(elevations.values[2] == 5 && elevations.values[3] == nil)
        #expect(elevations.fromDEM == 2 && elevations.recorded == 1 && elevations.missing == 1)
        #expect(
            notes == [
                "note: 'walk.csv': 1 of 4 fixes lie outside the DEM '\(f.model.label)' or on its no data; their recorded elevations are used",
                "note: 'walk.csv': 1 of 4 fixes lie outside the DEM '\(f.model.label)' or on its no data and record no elevation; gain and loss skip them",
            ])
    }

    @Test("without a DEM: the recorded elevations, with a note when some or all are missing")
    func recordedElevations() throws {
        let terrain = TrackTerrain(source: "walk.csv", model: nil)
        let (some, someNotes) = try terrain.elevations(for: Self.mixed)
        // Counted, not copied: the elevations stay in the track's points.
        #expect(some.values.isEmpty && some.recorded == 2 && some.missing == 2)
        #expect(TrackElevations(recordedIn: Self.mixed).values == [nil, 7, 5, nil])
        #expect(someNotes == ["note: 'walk.csv': 2 of 4 fixes record no elevation; gain and loss skip them"])
        let bare = Track(segments: [[TrackPoint(longitude: 10, latitude: 45)]])
        let (none, noneNotes) = try terrain.elevations(for: bare)
        #expect(none.values.isEmpty && none.missing == 1)
        #expect(noneNotes == ["note: 'walk.csv': the track records no elevations; gain, loss and elevations are unknown (use --dem)"])
        #expect(try terrain.elevations(for: Track(segments: [[TrackPoint(longitude: 10, latitude: 45, elevationMetres: 1)]])).notes.isEmpty)
    }

    @Test("a DEM that gives no fix an elevation, on a track that records none, is an error naming both")
    func noElevations() throws {
        let f = try Fixture()
        let off = Track(segments: [[TrackPoint(longitude: 11, latitude: 45), TrackPoint(longitude: 11.1, latitude: 45)]])
        let terrain = TrackTerrain(source: "t.csv", model: f.model)
        #expect(throws: TrackTerrainError.noElevations(track: "t.csv", dem: f.model.label)) { try terrain.elevations(for: off) }
        #expect(throws: TrackTerrainError.noElevations(track: "t.csv", dem: f.model.label)) {
            try terrain.simulation(of: off, TrackSimulation(startTime: 0))
        }
        #expect(
            TrackTerrainError.noElevations(track: "t.csv", dem: "dem.tif").message
                == "'t.csv': no fix lies on data in the DEM 'dem.tif' and the track records no elevations")
    }

    @Test("simulated fixes take the DEM's elevation at every densified vertex")
    func simulationOnDEM() throws {
        let f = try Fixture()
        let track = Track(segments: [[TrackPoint(longitude: 10.02, latitude: 45.02), TrackPoint(longitude: 10.08, latitude: 45.07)]])
        let simulated = try TrackTerrain(source: "t.csv", model: f.model).simulation(of: track, TrackSimulation(maxSegmentMetres: 200, startTime: 0))
        #expect(simulated.notes.isEmpty)
        #expect(simulated.segments.flatMap { $0 }.count == (try track.densifiedChecked(maxSegmentMetres: 200)).pointCount)
        for fix in simulated.segments.flatMap({ $0 }) {
            // A plane read at the densified fixes: 1 µm, looser than the 1 nm above.
            #expect(abs(try #require(fix.elevationMetres) - ElevationModelTests.plane(fix.longitude, fix.latitude)) < 1e-6)
        }
    }

    @Test("a summary over the DEM: the densified route's statistics, the DEM named, a note on unusable times")
    func summary() throws {
        let f = try Fixture()
        let track = Track(segments: [
            [
                TrackPoint(longitude: 10.02, latitude: 45.02, time: 0), TrackPoint(longitude: 10.08, latitude: 45.02, time: 0),
                TrackPoint(longitude: 10.08, latitude: 45.07, time: 600),
            ]
        ])
        let terrain = TrackTerrain(source: "t.csv", model: f.model)
        let request = TrackSummaryRequest(maxSegmentMetres: 100, gainThresholdMetres: 0)
        let summary = try terrain.summary(of: track, request)
        let route = try track.densifiedChecked(maxSegmentMetres: 100, interpolatingTimes: false)
        #expect(summary.statistics.points == route.pointCount)
        #expect(summary.dem == f.model.label && summary.elevations.fromDEM == route.pointCount)
        #expect(summary.statistics.times == TimeCounts(usable: 2, repeated: 1))
        #expect(summary.notes == ["note: 't.csv': 2 of 3 fixes have usable times (1 repeats an earlier time); durations and speeds use those times only"])
        // The plane rises 2000 m per degree eastwards and falls 3000 m per degree northwards:
        // with no threshold, the gain is the first leg's rise, the loss the second leg's fall.
        #expect(abs(summary.statistics.elevationGainMetres - 120) < 1e-6)
        #expect(abs(summary.statistics.elevationLossMetres - 150) < 1e-6)  // sums of plane reads: 1 µm
    }
}
