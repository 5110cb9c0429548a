import CGDAL
import Testing
import TransectTestSupport
@testable import TransectGDAL

@Suite("RasterBand: a band keeps its dataset open")
struct RasterBandTests {
    /// A 7 × 5 raster whose cell (c, r) holds 10·r + c, with no data, scale, offset and unit set.
    static func write(_ dir: TemporaryDirectory) -> String {
        let path = dir.file("band.tif")
        SyntheticDEM.write(
            path: path, width: 7, height: 5, geoTransform: [10, 0.01, 0, 45, 0, -0.01], crs: "EPSG:4326",
            type: GDT_Float32, noData: -9999, unitType: "ft", scale: 0.5, offset: 3
        ) { c, r in Double(10 * r + c) }
        return path
    }

    @Test("the band holds the dataset: with no other reference left, the dataset stays open and the band reads")
    func holdsDataset() throws {
        let dir = TemporaryDirectory()
        let path = Self.write(dir)
        var dataset: Dataset? = try Dataset(path: path)
        weak let weakDataset = dataset
        let band = try #require(dataset?.band(1))
        dataset = nil
        #expect(weakDataset != nil, "the band let its dataset go")
        var values = [Double](repeating: .nan, count: 3 * 2)
        try band.read(
            column: 2, row: 1, width: 3, height: 2, into: &values, bufferWidth: 3, bufferHeight: 2,
            type: GDT_Float64
        ) { .readFailed(path: path, reason: $0) }
        #expect(values == [12, 13, 14, 22, 23, 24])
    }

    @Test("no band 0 and none past the last")
    func bandNumbers() throws {
        let dir = TemporaryDirectory()
        let dataset = try Dataset(path: Self.write(dir))
        #expect(dataset.band(0) == nil)
        #expect(dataset.band(2) == nil)
        #expect(dataset.band(1)?.index == 1)
    }

    @Test("info: the band's no data (as Float32 stores it), scale, offset, unit and type")
    func info() throws {
        let dir = TemporaryDirectory()
        let band = try #require(try Dataset(path: Self.write(dir)).band(1))
        #expect(band.info == BandInfo(noData: -9999, scale: 0.5, offset: 3, unitType: "ft", dataType: GDT_Float32))
    }

    @Test("interleaved reads: pixel and line spacing and a byte offset place each band's byte in its slot")
    func interleaved() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("bytes.tif")
        SyntheticDEM.write(
            path: path, width: 3, height: 2, geoTransform: [0, 1, 0, 2, 0, -1], crs: "EPSG:4326",
            type: GDT_Byte
        ) { c, r in Double(1 + c + 3 * r) }
        let band = try #require(try Dataset(path: path).band(1))
        var bytes = [UInt8](repeating: 0, count: 3 * 2 * 2)
        try band.read(
            column: 0, row: 0, width: 3, height: 2, into: &bytes, byteOffset: 1, bufferWidth: 3, bufferHeight: 2,
            type: GDT_Byte, pixelSpacing: 2, lineSpacing: 6
        ) { .readFailed(path: path, reason: $0) }
        #expect(bytes == [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6])
    }

    @Test("a window outside the raster is GDAL's error, with GDAL's message, through the funnel")
    func failedRead() throws {
        let dir = TemporaryDirectory()
        let path = Self.write(dir)
        let band = try #require(try Dataset(path: path).band(1))
        var values = [Double](repeating: 0, count: 4)
        do {
            try band.read(
                column: 6, row: 4, width: 2, height: 2, into: &values, bufferWidth: 2, bufferHeight: 2,
                type: GDT_Float64
            ) { .readFailed(path: path, reason: $0) }
            Issue.record("no error")
        } catch {
            guard case .readFailed(let p, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(p == path)
            #expect(reason != GDALMessage.unknown && !reason.isEmpty, "\(reason)")
        }
    }
}
