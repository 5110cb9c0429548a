#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CGDAL
import Testing
import TransectGeodesy
import TransectRaster
import TransectAnalysis
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
            #expect(abs(run.profile.elevationsMetres[k] - expected) < 1e-6, "sample \(k)")  // a plane read: 1 µm, loose (ulps move it 2e−11 m)
        }
        #expect(run.stepMetres == 250 && run.pathShape == .straight && run.dem == model.label)
        let sight = try #require(run.lineOfSight)
        #expect(abs(sight.observerMetres - (ElevationModelTests.plane(10.02, 45.02) + 2)) < 1e-6)  // a plane read plus 2 m: 1 µm
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
    @Test("samples along a path are elevations(at:) bit for bit: chunks entered twice, gaps, points off the DEM, 1 and 2 threads")
    func alongPathEqualsElevations() throws {
        // Yosemite's NED DEM is NAD83 (a transformer) and 1027 × 875 cells (4 × 4 chunks). The
        // path crosses chunks, turns back into one, has a segment break (a nan sample) and
        // leaves the DEM (west of −119.67125).
        let model = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
        func path(west: Double) -> ProfilePath {
            ProfilePath(segments: [
                [
                    GeoPoint(longitude: -119.66, latitude: 37.63), GeoPoint(longitude: -119.40, latitude: 37.85),
                    GeoPoint(longitude: -119.55, latitude: 37.70), GeoPoint(longitude: west, latitude: 37.75),
                ],
                [GeoPoint(longitude: -119.5, latitude: 37.8), GeoPoint(longitude: -119.45, latitude: 37.7)],
            ])
        }
        var plan = path(west: -119.68).plan(spacing: .step(7))
        let offPoints = (0..<plan.distancesMetres.count).map { GeoPoint(longitude: plan.longitudes[$0], latitude: plan.latitudes[$0]) }
        for interpolation in [Interpolation.bilinear, .nearest, .cubic] {
            // A model of its own, so the path's first visits take windows of their own samples
            // and its later ones the chunks' windows (the cache holds none yet).
            let fresh = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
            let along = try fresh.elevationsAlongPath(longitudes: plan.longitudes, latitudes: plan.latitudes, interpolation: interpolation)
            #expect(fresh.windowCache.reads > 0, "the path comes back to a chunk")
            let expected = try model.elevations(at: offPoints, interpolation: interpolation)
            #expect(along.map(\.bitPattern) == expected.map(\.bitPattern), "\(interpolation)")
            #expect(expected.contains { $0.isNaN } && expected.contains { !$0.isNaN })
            // Again, every chunk now wanted before: the chunks' windows.
            let again = try fresh.elevationsAlongPath(longitudes: plan.longitudes, latitudes: plan.latitudes, interpolation: interpolation)
            #expect(again.map(\.bitPattern) == expected.map(\.bitPattern), "\(interpolation)")
        }
        // A profile's vertices are on the DEM.
        plan = path(west: -119.67).plan(spacing: .step(7))
        let points = (0..<plan.distancesMetres.count).map { GeoPoint(longitude: plan.longitudes[$0], latitude: plan.latitudes[$0]) }
        for threads in [1, 2] {
            let run = try model.profile(ProfileRequest(path: path(west: -119.67), spacing: .step(7), maxSamples: 1_000_000, threads: threads))
            let expected = try model.elevations(at: points, interpolation: .bilinear)
            #expect(run.profile.elevationsMetres.map(\.bitPattern) == expected.map(\.bitPattern))
            #expect(run.profile.latitudes.map(\.bitPattern) == plan.latitudes.map(\.bitPattern))
        }
    }

    @Test("a profile decodes the blocks its path crosses, not the blocks around them")
    func blocksCrossed() async {
        await #expect(processExitsWith: .success) {
            // 1024² cells in 256² blocks; a path along row 384, in the second row of blocks,
            // crosses four blocks. A chunk's window with its margin would take the rows of
            // blocks above and below as well: twelve.
            let path = "/tmp/transect-profile-blocks-\(getpid()).tif"
            SyntheticDEM.write(
                path: path, width: 1024, height: 1024, geoTransform: [10, 0.001, 0, 46, 0, -0.001], crs: "EPSG:4326", type: GDT_Float32,
                options: ["TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256"]
            ) { c, r in Double(c + 2 * r) }
            defer { unlink(path) }
            let before = GDALGetCacheUsed64()
            guard let model = try? ElevationModel([path]) else { exit(2) }
            let line = ProfilePath(vertices: [GeoPoint(longitude: 10.0105, latitude: 45.6155), GeoPoint(longitude: 11.0235, latitude: 45.6155)])
            guard (try? model.profile(ProfileRequest(path: line, spacing: .count(5000), maxSamples: 10_000))) != nil else { exit(3) }
            let blocks = (GDALGetCacheUsed64() - before) / Int64(256 * 256 * MemoryLayout<Float>.size)
            exit(blocks == 4 ? 0 : 10 + Int32(blocks))
        }
    }
}
