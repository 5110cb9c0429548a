#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectPNG
import TransectSupport

/// Writes PNG images (through the CPNG shim's writer: rows filtered, strips deflated by zlib on
/// several threads) and the georeferencing files that go beside them, and reads PNGs with
/// libpng. Writing is plain: callers that need a result written all or nothing (the CLI) encode
/// into a temporary and rename it with the side files.
public enum PNGFile {
    /// How hard the writer compresses. Every preset filters each row with the type whose
    /// filtered bytes have the least sum of magnitudes (libpng's adaptive heuristic), deflates
    /// strips of about 256 KiB of rows on their own, and writes an opaque image whose every
    /// pixel is grey as a greyscale PNG. The bytes depend on the pixels and the preset alone.
    ///
    /// Measured on an 8000 × 8000 hillshade (grey, noisy) and on the 1600 × 1000 maps of
    /// `make demo`, against gdal_translate's PNG of the same pixels (zlib level 6, adaptive
    /// filters, `Z_FILTERED`):
    /// - `fast`: zlib level 1 with the run-length strategy (`Z_RLE`): the hillshade 3 % smaller
    ///   than gdal_translate's in 0.55 s of one core, but smooth maps up to half as large again,
    ///   as they gain from the longer matches run-length coding does not look for.
    /// - `balanced` (the default): level 4 (default strategy) or `Z_RLE`, whichever deflates the
    ///   strip's first eighth shorter: the hillshade 3 % smaller than gdal_translate's in 0.70 s
    ///   of one core, the maps within 7 % of it.
    /// - `small`: level 9 or `Z_RLE`, chosen the same way: the maps 10–20 % smaller than
    ///   `balanced`'s, in 7–30 times its time.
    public enum Preset: String, CaseIterable, Sendable {
        case fast, balanced, small

        /// The zlib level and strategy, and the alternative each strip also tries.
        var deflate: (level: Int32, strategy: Int32, alternativeLevel: Int32, alternativeStrategy: Int32) {
            switch self {
            case .fast: (1, Self.rle, -1, 0)
            case .balanced: (4, Self.defaultStrategy, 1, Self.rle)
            case .small: (9, Self.defaultStrategy, 1, Self.rle)
            }
        }
        static let defaultStrategy: Int32 = 0
        static let rle: Int32 = 3
    }

    /// How to write: the preset, the threads to deflate on (the bytes are the same for any
    /// count) and, for tests, the rows per strip (nil: about 256 KiB of rows).
    public struct Encoding: Sendable {
        public var preset: Preset
        public var threads: Int
        public var stripRows: Int?
        public init(preset: Preset = .balanced, threads: Int = Parallel.onlineProcessors, stripRows: Int? = nil) {
            self.preset = preset
            self.threads = threads
            self.stripRows = stripRows
        }
    }

    /// The largest resolution a pHYs chunk can state: 2³¹ − 1 pixels per metre, in dots per inch.
    public static let maxDPI = 2_147_483_647 * 0.0254

    /// Georeferencing written beside the PNG: a world file (`.pgw`) and a `.aux.xml` with the CRS.
    public struct Georeference {
        /// x = gt0 + col·gt1, y = gt3 + row·gt5.
        public var geoTransform: [Double]
        /// The CRS as WKT.
        public var wkt: String
        /// Which CRS axis each geotransform axis is (GDAL's `dataAxisToSRSAxisMapping`, 1-based):
        /// `[1, 2]` when the CRS lists easting (or longitude) first, `[2, 1]` for a CRS that lists
        /// northing first, such as EPSG:2193, whose frame x is still the easting.
        public var axisMapping: [Int]
        public init(geoTransform: [Double], wkt: String, axisMapping: [Int] = [1, 2]) {
            self.geoTransform = geoTransform
            self.wkt = wkt
            self.axisMapping = axisMapping
        }
    }

    /// Encodes opaque 8-bit RGB `pixels` (3 bytes per pixel, row-major) into `path` with text
    /// chunks (tEXt, or iTXt for text beyond Latin-1) in the given order and a pHYs chunk when `dpi` is given (0 < dpi ≤ ``maxDPI``).
    public static func encode(
        path: String, rgb pixels: [UInt8], width: Int, height: Int, texts: [(String, String)],
        dpi: Double? = nil, encoding: Encoding = Encoding()
    ) throws(RenderError) {
        precondition(pixels.count == width * height * 3)
        try pixels.withUnsafeBufferPointer { buffer throws(RenderError) in
            try encode(
                path: path, pixels: buffer.baseAddress, format: PNGCodec.rgb8, width: width, height: height,
                stride: width * 3, texts: texts, dpi: dpi, encoding: encoding)
        }
    }

    /// Encodes a rendered image, reading a drawn image's pixels where cairo left them (no copy).
    public static func encode(
        path: String, image: RenderedImage, texts: [(String, String)], dpi: Double? = nil, encoding: Encoding = Encoding()
    ) throws(RenderError) {
        switch image.pixels {
        case .rgb(let rgb):
            try encode(path: path, rgb: rgb, width: image.width, height: image.height, texts: texts, dpi: dpi, encoding: encoding)
        case .document:
            preconditionFailure("a vector document is not written as a PNG")
        case .canvas(let drawn):
            try drawn.canvas.withPixels { data, stride throws(RenderError) in
                try encode(
                    path: path, pixels: data, format: PNGCodec.argb32OverWhite, width: image.width,
                    height: image.height, stride: stride, texts: texts, dpi: dpi, encoding: encoding)
            }
        }
    }

    static func encode(
        path: String, pixels: UnsafePointer<UInt8>?, format: Int32, width: Int, height: Int, stride: Int,
        texts: [(String, String)], dpi: Double?, encoding: Encoding
    ) throws(RenderError) {
        precondition(dpi.map { $0 > 0 && $0 <= maxDPI } ?? true, "dpi checked by the caller")
        precondition(encoding.threads >= 1 && (encoding.stripRows ?? 1) >= 1)
        let deflate = encoding.preset.deflate
        let settings = PNGCodec.Settings(
            level: deflate.level, strategy: deflate.strategy, alternativeLevel: deflate.alternativeLevel,
            alternativeStrategy: deflate.alternativeStrategy, stripRows: Int32(encoding.stripRows ?? 0),
            threads: Int32(min(encoding.threads, 64)))
        do throws(PNGCodec.Failure) {
            try PNGCodec.encode(
                path: path, pixels: pixels, format: format, width: width, height: height, stride: stride, texts: texts, dpi: dpi,
                settings: settings)
        } catch {
            throw .cannotWrite(path: path, reason: error.systemError != 0 ? error.reason : error.reason.lowercased())
        }
    }

    /// The files that georeference a PNG at `path`, with their contents: the world file
    /// (`map.pgw`) and `map.png.aux.xml` with the CRS, so GDAL and desktop GIS read it back.
    public static func sideFiles(for path: String, georeference: Georeference) -> [(path: String, contents: String)] {
        let gt = georeference.geoTransform
        // A world file names the centre of the top-left pixel.
        let world =
            [gt[1], gt[4], gt[2], gt[5], gt[0] + gt[1] / 2 + gt[2] / 2, gt[3] + gt[4] / 2 + gt[5] / 2]
            // Shortest round-trip form, whole numbers with `.0`: exact, the same bytes everywhere.
            .map { NumberFormatting.shortest($0, pointZero: true) }.joined(separator: "\n") + "\n"
        let mapping = georeference.axisMapping.map(String.init).joined(separator: ",")
        let aux = "<PAMDataset>\n  <SRS dataAxisToSRSAxisMapping=\"\(mapping)\">\(XMLText.escaped(georeference.wkt, apostrophes: false))</SRS>\n</PAMDataset>\n"
        return [(worldFilePath(for: path), world), (path + ".aux.xml", aux)]
    }

    /// `map.png` → `map.pgw`.
    public static func worldFilePath(for path: String) -> String {
        if let dot = path.lastIndex(of: "."), !path[dot...].contains("/") {
            return String(path[..<dot]) + ".pgw"
        }
        return path + ".pgw"
    }

    /// Reads a PNG as RGBA (4 bytes per pixel), for tests and image inputs.
    public static func readRGBA(path: String) throws(RenderError) -> (pixels: [UInt8], width: Int, height: Int) {
        do throws(PNGCodec.Failure) {
            let png = try PNGCodec.read(path: path)
            return (png.pixels, png.width, png.height)
        } catch {
            throw .cannotWrite(path: path, reason: "cannot read: " + error.reason)
        }
    }

    /// Encodes 8-bit RGBA `pixels` (4 bytes per pixel, straight alpha, row-major) into `path`.
    public static func encode(
        path: String, rgba pixels: [UInt8], width: Int, height: Int, texts: [(String, String)] = [], encoding: Encoding = Encoding()
    ) throws(RenderError) {
        precondition(pixels.count == width * height * 4)
        try pixels.withUnsafeBufferPointer { buffer throws(RenderError) in
            try encode(
                path: path, pixels: buffer.baseAddress, format: PNGCodec.rgba8, width: width, height: height,
                stride: width * 4, texts: texts, dpi: nil, encoding: encoding)
        }
    }
}
