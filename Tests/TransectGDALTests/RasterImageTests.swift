import CGDAL
import Foundation
import Testing
import TransectTestSupport
@testable import TransectGDAL

@Suite("RasterImage: 8-bit rasters read as RGBA for comparison")
struct RasterImageTests {
    /// Writes a `bands`-band Byte GeoTIFF of 3 × 2 pixels, band b of pixel k holding 10·b + k,
    /// with `options` (`ALPHA=YES` marks the last band alpha).
    static func write(_ path: String, bands: Int, type: GDALDataType = GDT_Byte, options: [String] = []) {
        prepareGDAL()
        let driver = GDALGetDriverByName("GTiff")
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for option in options { list = CSLAddString(list, option) }
        defer { CSLDestroy(list) }
        let ds = GDALCreate(driver, path, 3, 2, Int32(bands), type, list)
        for b in 1...bands {
            var values = (0..<6).map { UInt8(10 * b + $0) }
            _ = values.withUnsafeMutableBytes { GDALRasterIO(GDALGetRasterBand(ds, Int32(b)), GF_Write, 0, 0, 3, 2, $0.baseAddress, 3, 2, GDT_Byte, 0, 0) }
        }
        GDALClose(ds)
    }

    @Test("RGBA with an alpha band, RGB, grey and grey with alpha map to RGBA as the comparison reads them")
    func layouts() throws {
        let dir = TemporaryDirectory()
        let rgba = dir.file("rgba.tif")
        Self.write(rgba, bands: 4, options: ["PHOTOMETRIC=RGB", "ALPHA=YES"])
        let a = try RasterImage.readRGBA(path: rgba, maxPixels: 100)
        #expect(a.width == 3 && a.height == 2 && a.hasAlphaBand)
        #expect(Array(a.pixels[0..<8]) == [10, 20, 30, 40, 11, 21, 31, 41])
        let rgb = dir.file("rgb.tif")
        Self.write(rgb, bands: 3, options: ["PHOTOMETRIC=RGB"])
        let b = try RasterImage.readRGBA(path: rgb, maxPixels: 100)
        #expect(!b.hasAlphaBand && Array(b.pixels[0..<4]) == [10, 20, 30, 255])
        let grey = dir.file("grey.tif")
        Self.write(grey, bands: 1)
        let c = try RasterImage.readRGBA(path: grey, maxPixels: 100)
        #expect(!c.hasAlphaBand && Array(c.pixels[4..<8]) == [11, 11, 11, 255])
        let greyAlpha = dir.file("grey-alpha.tif")
        Self.write(greyAlpha, bands: 2, options: ["ALPHA=YES"])
        let d = try RasterImage.readRGBA(path: greyAlpha, maxPixels: 100)
        #expect(d.hasAlphaBand && Array(d.pixels[0..<4]) == [10, 10, 10, 20])
    }

    @Test("a raster that is not 8-bit, one over the pixel limit and a file that is no raster are refused, naming the file")
    func refusals() throws {
        let dir = TemporaryDirectory()
        let wide = dir.file("int16.tif")
        Self.write(wide, bands: 1, type: GDT_Int16)
        #expect(throws: TerrainError.unusableImage(path: wide, reason: "band 1 is Int16, not 8-bit (Byte)")) {
            try RasterImage.readRGBA(path: wide, maxPixels: 100)
        }
        let rgb = dir.file("rgb.tif")
        Self.write(rgb, bands: 3)
        #expect(throws: TerrainError.unusableImage(path: rgb, reason: "3 × 2 pixels, over the limit of 5")) {
            try RasterImage.readRGBA(path: rgb, maxPixels: 5)
        }
        let text = dir.file("notes.tif")
        try "not a raster".write(toFile: text, atomically: true, encoding: .utf8)
        do {
            _ = try RasterImage.readRGBA(path: text, maxPixels: 100)
            Issue.record("a text file was read as a raster")
        } catch {
            #expect(error.message.hasPrefix("image '\(text)': cannot open: "), "\(error.message)")
        }
    }
}
