import CGDAL

/// An 8-bit raster image GDAL reads (a GeoTIFF render, for one), as RGBA for comparison.
public enum RasterImage {
    /// The pixels (4 bytes each, rows top to bottom) and whether the raster has a band of its own
    /// that GDAL calls alpha.
    public struct Decoded: Sendable {
        public var pixels: [UInt8]
        public var width: Int
        public var height: Int
        public var hasAlphaBand: Bool
    }

    /// Reads the raster at `path` as RGBA: one band is grey (copied to red, green and blue), two
    /// are grey and alpha, three or more are red, green and blue, and a band whose colour
    /// interpretation is alpha (a GeoTIFF's `ExtraSamples` alpha) is the alpha; without one the
    /// alpha is 255. Every band read must be 8-bit (`Byte`), and a palette is refused; so is a
    /// raster of more than `maxPixels` pixels, before any is read.
    public static func readRGBA(path: String, maxPixels: Int) throws(TerrainError) -> Decoded {
        let dataset: Dataset
        do { dataset = try Dataset(path: path) } catch {
            if case .cannotOpen(_, let reason) = error { throw .unusableImage(path: path, reason: "cannot open: " + reason) }
            throw error
        }
        let width = dataset.width
        let height = dataset.height
        let count = dataset.bandCount
        guard count >= 1 else { throw .unusableImage(path: path, reason: "has no raster band") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .unusableImage(path: path, reason: "\(width) × \(height) pixels, over the limit of \(maxPixels)")
        }
        var bands: [RasterBand] = []
        for k in 1...count {
            guard let band = dataset.band(k) else { throw .unusableImage(path: path, reason: "cannot read band \(k)") }
            bands.append(band)
        }
        guard bands[0].colourInterpretation != GCI_PaletteIndex else {
            throw .unusableImage(path: path, reason: "is a palette image; only grey, grey and alpha, RGB and RGBA images are compared")
        }
        let alpha = bands.lastIndex { $0.colourInterpretation == GCI_AlphaBand } ?? (count == 2 ? 1 : nil)
        let colour = count >= 3 ? [0, 1, 2] : [0, 0, 0]
        var rgba = [UInt8](repeating: 255, count: pixels * 4)
        for (channel, index) in (colour + (alpha.map { [$0] } ?? [])).enumerated() {
            let band = bands[index]
            guard band.info.dataType == GDT_Byte else {
                let name = GDALGetDataTypeName(band.info.dataType).map { String(cString: $0) } ?? "not Byte"
                throw .unusableImage(path: path, reason: "band \(index + 1) is \(name), not 8-bit (Byte)")
            }
            try band.read(
                column: 0, row: 0, width: width, height: height, into: &rgba, byteOffset: channel, bufferWidth: width,
                bufferHeight: height, type: GDT_Byte, pixelSpacing: 4, lineSpacing: width * 4
            ) { .unusableImage(path: path, reason: "read failed: " + $0) }
        }
        return Decoded(pixels: rgba, width: width, height: height, hasAlphaBand: alpha != nil)
    }
}
