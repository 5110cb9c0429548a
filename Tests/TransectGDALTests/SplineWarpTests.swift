import CGDAL
import Foundation
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectGDAL

/// The frames ``ElevationModel/splineWarped(into:threads:)`` takes give GDAL's warped values to
/// the bit: GDAL's warper itself (``ElevationModel/gdalWarped(_:into:method:threads:)``) is the
/// oracle.
@Suite("Spline warp: GDAL's cubicspline values without GDAL's general kernel")
struct SplineWarpTests {
    /// Compares the two paths; returns the number of pixels with a value.
    static func compare(_ model: ElevationModel, _ frame: FrameGrid, threads: Int = 2) throws -> Int {
        #expect(try model.resampling(for: frame) == .cubicSpline)
        let ours = try #require(try model.splineWarped(into: frame, threads: threads))
        let gdal = try model.gdalWarped(model.dataset, into: frame, method: .cubicSpline, threads: 2)
        var differing = 0
        var worst: Float = 0
        for k in ours.indices where ours[k].bitPattern != gdal[k].bitPattern {
            differing += 1
            if !ours[k].isNaN, !gdal[k].isNaN { worst = max(worst, abs(ours[k] - gdal[k])) }
        }
        #expect(differing == 0, "\(differing) of \(ours.count) pixels differ, by up to \(worst) m")
        return ours.filter { !$0.isNaN }.count
    }

    static func utm11(_ west: Double, _ north: Double, cell: Double, _ width: Int, _ height: Int) throws -> FrameGrid {
        FrameGrid(crs: try SpatialReference("EPSG:32611"), geoTransform: [west, cell, 0, north, 0, -cell], width: width, height: height)
    }

    @Test(
        "Yosemite (geographic NAD83) into UTM 11N frames: inside the DEM, over its west and north edges, wide and tall",
        arguments: [
            (268_000.0, 4_188_000.0, 5.0, 1200, 1000),  // inside
            (255_000.0, 4_200_000.0, 12.0, 1500, 1400),  // over the west and north edges
            (268_000.0, 4_186_000.0, 10.0, 2000, 700),  // wide
            (280_000.0, 4_190_000.0, 4.0, 500, 1900),  // tall
        ])
    func yosemite(west: Double, north: Double, cell: Double, width: Int, height: Int) throws {
        let model = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
        let frame = try Self.utm11(west, north, cell: cell, width, height)
        let valued = try Self.compare(model, frame)
        #expect(valued > width * height / 4)
    }

    @Test("the values are the same bits on 1, 2 and 3 threads")
    func threads() throws {
        let model = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
        let frame = try Self.utm11(266_000, 4_190_000, cell: 8, 900, 800)
        let one = try #require(try model.splineWarped(into: frame, threads: 1))
        for threads in [2, 3] {
            #expect(try model.splineWarped(into: frame, threads: threads)?.map(\.bitPattern) == one.map(\.bitPattern))
        }
    }

    @Test("a projected synthetic DEM, a frame in Web Mercator: GDAL's values")
    func synthetic() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("utm.tif")
        SyntheticDEM.write(
            path: path, width: 300, height: 250, geoTransform: [500_000, 30, 0, 4_200_000, 0, -30], crs: "EPSG:32611",
            type: GDT_Float32
        ) { c, r in 1000 + 40 * sin(Double(c) / 7) * cos(Double(r) / 5) + Double(c + 2 * r) }
        let model = try ElevationModel([path])
        let frame = FrameGrid(
            crs: try SpatialReference("EPSG:3857"), geoTransform: [-13_023_000, 9, 0, 4_571_000, 0, -9], width: 1000, height: 850)
        #expect(try Self.compare(model, frame) > 0)
    }

    @Test("a DEM with a no-data value (the SRTM tile, ETOPO5's kind), a frame coarser than the DEM or over its east edge stay with GDAL's warper")
    func declined() throws {
        let srtm = try ElevationModel([try SharedData.path("N44W072.hgt")])
        let fine = FrameGrid(
            crs: try SpatialReference("EPSG:32619"), geoTransform: [300_000, 10, 0, 4_950_000, 0, -10], width: 400, height: 400)
        #expect(srtm.info.noData != nil)
        #expect(try srtm.splineWarpWindow(for: fine) == nil)
        let yosemite = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
        let coarse = try Self.utm11(262_000, 4_196_000, cell: 60, 400, 400)
        #expect(try yosemite.splineWarpWindow(for: coarse) == nil)
        // Over the east edge (the warper's far-edge handling is its own).
        let east = try Self.utm11(270_000, 4_176_000, cell: 10, 2200, 700)
        #expect(try yosemite.splineWarpWindow(for: east) == nil)
    }

    @Test("the chunks predicted for the bench's 8000² frame are GDAL's two halves of whole rows")
    func chunks() throws {
        let model = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
        let frame = try Self.utm11(262_000, 4_196_000, cell: 3.25, 8000, 8000)
        let transformer = try FrameSourceTransformer(source: model.dataset, sourceCRS: nil, frame: frame, label: "test")
        let plan = try #require(
            WarpChunks(
                frameWidth: 8000, frameHeight: 8000, rasterWidth: model.width, rasterHeight: model.height, radius: 2,
                memoryLimitBytes: 128 * 1024 * 1024, transformer: transformer))
        #expect(
            plan.chunks == [
                .init(column: 0, row: 0, width: 8000, height: 4000, hasSource: true),
                .init(column: 0, row: 4000, width: 8000, height: 4000, hasSource: true),
            ])
    }
}
