import CGDAL
import Foundation
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectGDAL

@Suite("Warper: work bounded by the frame, not by the raster")
struct WarperTests {
    /// A 100 × 100 DEM over lon 10…10.1, lat 45…45.1 whose value is 100 + column + row, and a
    /// VRT beside it declaring the same extent as 10⁶ × 10⁶ cells (a 1 KB file).
    static func write(_ dir: TemporaryDirectory) throws {
        SyntheticDEM.write(
            path: dir.file("small.tif"), width: 100, height: 100, geoTransform: [10, 0.001, 0, 45.1, 0, -0.001],
            crs: "EPSG:4326"
        ) { c, r in Double(100 + c + r) }
        try """
        <VRTDataset rasterXSize="1000000" rasterYSize="1000000"><SRS>EPSG:4326</SRS>
          <GeoTransform>10, 0.0000001, 0, 45.1, 0, -0.0000001</GeoTransform>
          <VRTRasterBand dataType="Float64" band="1"><SimpleSource>
            <SourceFilename relativeToVRT="1">small.tif</SourceFilename><SourceBand>1</SourceBand>
            <SrcRect xOff="0" yOff="0" xSize="100" ySize="100"/><DstRect xOff="0" yOff="0" xSize="1000000" ySize="1000000"/>
          </SimpleSource></VRTRasterBand>
        </VRTDataset>
        """.write(toFile: dir.file("huge.vrt"), atomically: true, encoding: .utf8)
    }

    static var frame: FrameGrid { get throws { FrameGrid(crs: try .wgs84(), geoTransform: [10, 0.001, 0, 45.1, 0, -0.001], width: 100, height: 100) } }

    @Test("a VRT declaring 10¹² cells is decimated before warping, and warps to the heights of its source")
    func hugeDeclaredRaster() throws {
        let dir = TemporaryDirectory()
        try Self.write(dir)
        let huge = try ElevationModel([dir.file("huge.vrt")])
        #expect(try huge.decimatedForFrame(Self.frame) != nil)
        let small = try ElevationModel([dir.file("small.tif")])
        #expect(try small.decimatedForFrame(Self.frame) == nil)
        let values = try huge.warped(into: Self.frame)
        let reference = try small.warped(into: Self.frame)
        #expect(values.count == 100 * 100)
        // Each frame pixel is one source cell of the small DEM: the decimated read picks a
        // value inside that cell, so the two agree within one cell's change (2 m here).
        var worst: Float = 0
        for k in values.indices where !reference[k].isNaN { worst = max(worst, abs(values[k] - reference[k])) }
        #expect(!values.contains { $0.isNaN } && worst <= 2, "worst \(worst)")
    }

    @Test(
        "a frame with no pixels or a degenerate geotransform is an error, not an allocation",
        arguments: [(0, 10, 0.001), (10, -1, 0.001), (10, 10, 0.0), (10, 10, Double.nan)])
    func badFrames(width: Int, height: Int, cell: Double) throws {
        let dir = TemporaryDirectory()
        try Self.write(dir)
        let model = try ElevationModel([dir.file("small.tif")])
        let frame = FrameGrid(crs: try .wgs84(), geoTransform: [10, cell, 0, 45.1, 0, -0.001], width: width, height: height)
        #expect(throws: TerrainError.self) { _ = try model.warped(into: frame) }
    }

    @Test("the warped values are the same bits on 1, 2 and 3 threads (UTM frame over a geographic DEM, cubic spline)")
    func threadCount() throws {
        let dir = TemporaryDirectory()
        try Self.write(dir)
        let model = try ElevationModel([dir.file("small.tif")])
        // A frame finer than the DEM, in another CRS, so the warper transforms and interpolates.
        let frame = FrameGrid(
            crs: try SpatialReference("EPSG:32632"), geoTransform: [580_000, 5, 0, 4_995_000, 0, -5], width: 1000, height: 900)
        let one = try model.warped(into: frame, threads: 1)
        #expect(one.contains { !$0.isNaN })
        for threads in [2, 3] {
            let more = try model.warped(into: frame, threads: threads)
            #expect(more.map(\.bitPattern) == one.map(\.bitPattern), "\(threads) threads")
        }
    }
}
