import Testing
import TransectCore
import TransectTestSupport
@testable import TransectGDAL

@Suite("ElevationModel.profile: a ProfileRequest sampled on a DEM")
struct TerrainProfilerTests {
    static let a = GeoPoint(longitude: 10.02, latitude: 45.02), b = GeoPoint(longitude: 10.18, latitude: 45.08)
    static let c = GeoPoint(longitude: 10.05, latitude: 45.09), d = GeoPoint(longitude: 10.1, latitude: 45.05)

    static func model(_ dir: TemporaryDirectory) throws -> ElevationModel {
        ElevationModelTests.writePlane(dir.file("plane.tif"))
        return try ElevationModel([dir.file("plane.tif")])
    }

    @Test("samples are the plan's positions with the plane's heights; a straight path gets a sight line")
    func straight() throws {
        let dir = TemporaryDirectory()
        let model = try Self.model(dir)
        let path = ProfilePath(vertices: [Self.a, Self.b])
        let run = try model.profile(ProfileRequest(path: path, spacing: .step(250), maxSamples: 1000, observerHeightMetres: 2))
        let plan = path.plan(spacing: .step(250))
        #expect(run.profile.distancesMetres == plan.distancesMetres && run.profile.latitudes == plan.latitudes)
        for k in 0..<run.profile.count {
            let expected = ElevationModelTests.plane(run.profile.longitudes[k], run.profile.latitudes[k])
            #expect(abs(run.profile.elevationsMetres[k] - expected) < 1e-6, "sample \(k)")
        }
        #expect(run.stepMetres == 250 && run.pathShape == .straight && run.dem == model.label)
        let sight = try #require(run.lineOfSight)
        #expect(abs(sight.observerMetres - (ElevationModelTests.plane(10.02, 45.02) + 2)) < 1e-6)
        // A count leaves the step unset.
        let counted = try model.profile(ProfileRequest(path: path, spacing: .count(50), maxSamples: 1000))
        #expect(counted.profile.count == 50 && counted.stepMetres == nil)
    }

    @Test("the native step is the DEM's finer cell size at the path's middle")
    func nativeStep() throws {
        let dir = TemporaryDirectory()
        let model = try Self.model(dir)
        let path = ProfilePath(vertices: [Self.a, Self.b])
        let run = try model.profile(ProfileRequest(path: path, maxSamples: 100_000))
        let cell = model.resolutionMetres(at: path.middle)
        #expect(run.stepMetres == min(cell.x, cell.y))
        // 0.001° of latitude is about 111 m, of longitude at 45° about 79 m: the finer is longitude's.
        #expect(try #require(run.stepMetres) > 78 && run.stepMetres! < 80)
    }

    @Test("separate segments: a gap sample between them and no sight line")
    func segments() throws {
        let dir = TemporaryDirectory()
        let model = try Self.model(dir)
        let path = ProfilePath(segments: [[Self.a, Self.d], [Self.c, Self.b]])
        let run = try model.profile(ProfileRequest(path: path, spacing: .step(500), maxSamples: 1000))
        #expect(run.profile.elevationsMetres.filter(\.isNaN).count == 1)
        #expect(run.lineOfSight == nil && run.pathShape == .segmented(count: 2))
    }

    @Test("refused before sampling: a vertex off the DEM, too many samples")
    func refusals() throws {
        let dir = TemporaryDirectory()
        let model = try Self.model(dir)
        let off = GeoPoint(longitude: 10.3, latitude: 45.05)
        #expect(throws: TerrainError.outsideCoverage(point: "10.3,45.05", dem: model.label)) {
            try model.profile(ProfileRequest(path: ProfilePath(vertices: [Self.a, off]), maxSamples: 1000))
        }
        let path = ProfilePath(vertices: [Self.a, Self.b])
        let count = path.sampleCount(spacing: .step(1))
        #expect(throws: ProfileError.tooManySamples(count: count, limit: 1000)) {
            try model.profile(ProfileRequest(path: path, spacing: .step(1), maxSamples: 1000))
        }
        #expect(
            ProfileError.tooManySamples(count: 12_000_001, limit: 10_000_000).message
                == "the profile would take 12,000,001 samples, more than 10,000,000")
    }
}
