import CGDAL
import Foundation
import Testing
import TransectRaster
import TransectTestSupport

@testable import TransectGDAL

@Suite("Sampling by blocks: only the blocks the taps fall in, to the same bits")
struct BlockWindowTests {
    /// A tiled copy of `source` in `blockWidth` × `blockHeight` blocks, through GDAL's
    /// `GDALTranslate` (as `gdal_translate -co TILED=YES …`).
    static func tiled(_ source: String, to path: String, blockWidth: Int, blockHeight: Int) throws {
        prepareGDAL()
        let arguments = ["-of", "GTiff", "-co", "TILED=YES", "-co", "BLOCKXSIZE=\(blockWidth)", "-co", "BLOCKYSIZE=\(blockHeight)"]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let options = try #require(GDALTranslateOptionsNew(&cArguments, nil))
        defer { GDALTranslateOptionsFree(options) }
        let input = try #require(GDALOpen(source, GA_ReadOnly))
        defer { GDALClose(input) }
        var usageError: Int32 = 0
        let output = try #require(GDALTranslate(path, input, options, &usageError))
        GDALClose(output)
    }

    /// The 600 × 300 rough DEM of ``ElevationWindowCacheTests`` in 128 × 64 blocks: 5 × 5 of
    /// them, the last column of blocks 88 cells wide and the last row 44 high.
    static func tiledRough(in dir: TemporaryDirectory) throws -> ElevationModel {
        ElevationWindowCacheTests.writeRough(dir.file("strips.tif"))
        try tiled(dir.file("strips.tif"), to: dir.file("tiled.tif"), blockWidth: 128, blockHeight: 64)
        let model = try ElevationModel([dir.file("tiled.tif")])
        #expect(model.band.blockSize == (128, 64))
        return model
    }

    @Test("blocks equal the bounding-box reference bit for bit: tiles, strips, a mosaic, a DEM that wraps")
    func blocksEqualReference() throws {
        let dir = TemporaryDirectory()
        let tiled = try Self.tiledRough(in: dir)
        try ElevationWindowCacheTests.expectCachedEqualsUncached(tiled, seed: 11, windows: .blocks)
        // GDAL's default GTiff is in strips a few rows high: windows as wide as the raster.
        let strips = try ElevationModel([dir.file("strips.tif")])
        #expect(strips.band.blockSize.width == 600)
        try ElevationWindowCacheTests.expectCachedEqualsUncached(strips, seed: 12, windows: .blocks)

        try FileManager.default.createDirectory(atPath: dir.file("tiles"), withIntermediateDirectories: true)
        ElevationWindowCacheTests.writeRough(dir.file("tiles/w.tif"), width: 300, x0: 10, seed: 1)
        ElevationWindowCacheTests.writeRough(dir.file("tiles/e.tif"), width: 300, x0: 10.3, seed: 2)
        let mosaic = try ElevationModel([dir.file("tiles")])
        try ElevationWindowCacheTests.expectCachedEqualsUncached(mosaic, seed: 13, windows: .blocks)

        var rng = SeededRandom(seed: 14)
        SyntheticDEM.write(
            path: dir.file("global-strips.tif"), width: 360, height: 180, geoTransform: [-180, 1, 0, 90, 0, -1],
            crs: "EPSG:4326", noData: -9999
        ) { c, r in (c * 7 + r) % 53 == 0 ? -9999 : rng.uniform(-500, 5000) }
        try Self.tiled(dir.file("global-strips.tif"), to: dir.file("global.tif"), blockWidth: 64, blockHeight: 32)
        let global = try ElevationModel([dir.file("global.tif")])
        #expect(global.wrapsLongitude)
        try ElevationWindowCacheTests.expectCachedEqualsUncached(global, seed: 15, windows: .blocks)
    }

    @Test("a point reads the one block its taps fall in; taps across a seam read both blocks, and nothing else")
    func onlyTheBlocksNeeded() throws {
        let dir = TemporaryDirectory()
        let model = try Self.tiledRough(in: dir)
        let cache = model.windowCache
        // The rough DEM is scaled: Float64 windows, eight bytes a cell.
        let cell = MemoryLayout<Double>.stride
        func sample(_ column: Double, _ row: Double, _ interpolation: Interpolation = .bilinear) throws -> Double {
            let value = try model.sampled(columns: [column], rows: [row], interpolation: interpolation, windows: .blocks)[0]
            let reference = try model.sampled(columns: [column], rows: [row], interpolation: interpolation, windows: .boundingBoxes)[0]
            #expect(value.bitPattern == reference.bitPattern || (value.isNaN && reference.isNaN), "\(column), \(row)")
            return value
        }
        // Taps 50…51 × 30…31: block (0, 0) alone.
        _ = try sample(50.5, 30.5)
        #expect(cache.reads == 1 && cache.heldBytes == 128 * 64 * cell)
        // Another point of the block, and cubic's taps 48…51 × 28…31 there too: no new read.
        _ = try sample(100.2, 10.9)
        _ = try sample(50.5, 30.5, .cubic)
        _ = try sample(3.7, 62.2, .nearest)
        #expect(cache.reads == 1)
        // Taps 127…128: blocks (0, 0) and (1, 0), one window of the two.
        _ = try sample(127.7, 30.5)
        #expect(cache.reads == 2 && cache.heldBytes == (128 * 64 + 256 * 64) * cell)
        // Taps 128…129 × 63…64: blocks (1, 0) and (1, 1), not (0, *).
        _ = try sample(128.6, 63.6)
        #expect(cache.reads == 3 && cache.heldBytes == (128 * 64 + 256 * 64 + 128 * 128) * cell)
        // The last block is 600 − 512 = 88 cells wide and 300 − 256 = 44 high; the point on the
        // raster's far corner reads only it.
        _ = try sample(600, 300, .nearest)
        #expect(cache.reads == 4 && cache.heldBytes == (128 * 64 + 256 * 64 + 128 * 128 + 88 * 44) * cell)
        // A batch over those places reads nothing more.
        let columns = [50.5, 127.7, 128.6, 600, 599.5]
        let rows = [30.5, 30.5, 63.6, 300, 299.5]
        let batch = try model.sampled(columns: columns, rows: rows, interpolation: .bilinear, windows: .blocks)
        #expect(cache.reads == 4)
        let reference = try model.sampled(columns: columns, rows: rows, interpolation: .bilinear, windows: .boundingBoxes)
        #expect(batch.map(\.bitPattern) == reference.map(\.bitPattern))
    }

    @Test("a DEM read over the network samples by blocks; local files by chunks")
    func choosing() throws {
        #expect(SampleWindows.choosing(files: ["/vsis3/bucket/dem.tif"], drivers: ["GTiff"]) == .blocks)
        #expect(SampleWindows.choosing(files: ["/data/dem.vrt", "/vsicurl/http://127.0.0.1/a.tif"], drivers: ["VRT"]) == .blocks)
        #expect(SampleWindows.choosing(files: ["/data/items.json"], drivers: ["STACIT"]) == .blocks)
        #expect(SampleWindows.choosing(files: ["/data/dem.tif", "/data/dem.tif.aux.xml"], drivers: ["GTiff"]) == .chunks)
        let dir = TemporaryDirectory()
        let model = try Self.tiledRough(in: dir)
        #expect(model.sampleWindows == .chunks)
    }

    @Test("taps: the cells each method reads, as the kernels anchor them")
    func taps() {
        #expect(ElevationModel.taps(10.7, .nearest) == 10...10)
        #expect(ElevationModel.taps(10.7, .bilinear) == 10...11)
        #expect(ElevationModel.taps(10.2, .bilinear) == 9...10)
        #expect(ElevationModel.taps(10.2, .cubic) == 8...11)
        #expect(ElevationModel.taps(0.25, .bilinear) == -1...0)
        #expect(ElevationModel.block(of: -1, size: 64) == -1)
        #expect(ElevationModel.block(of: -64, size: 64) == -1)
        #expect(ElevationModel.block(of: -65, size: 64) == -2)
        #expect(ElevationModel.block(of: 63, size: 64) == 0 && ElevationModel.block(of: 64, size: 64) == 1)
    }
}
