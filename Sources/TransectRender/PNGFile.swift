#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CPNG
import TransectCore

/// Writes PNG images with libpng (through the CPNG shim) and the georeferencing files that go
/// beside them. Writing is plain: callers that need a result written all or nothing (the CLI)
/// encode into a temporary and rename it with the side files.
public enum PNGFile {
    /// zlib level 3 with the Up filter: on a 4000 × 4000 hillshade map the file is the size that
    /// level 6 with adaptive filters gives (6.97 MB against 6.87 MB) in under half the time.
    public static let compressionLevel: Int32 = 3

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

    /// Encodes opaque 8-bit RGB `pixels` (3 bytes per pixel, row-major) into `path` with tEXt
    /// chunks in the given order and a pHYs chunk when `dpi` is given (0 < dpi ≤ ``maxDPI``).
    public static func encode(
        path: String, rgb pixels: [UInt8], width: Int, height: Int, texts: [(String, String)],
        dpi: Double? = nil
    ) throws(RenderError) {
        precondition(pixels.count == width * height * 3)
        precondition(dpi.map { $0 > 0 && $0 <= maxDPI } ?? true, "dpi checked by the caller")
        var code: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let status: Int32 = withCTexts(texts) { list, count in
            pixels.withUnsafeBufferPointer { buffer in
                transect_png_write(
                    path, buffer.baseAddress, Int32(width), Int32(height), 3, width * 3, list, count,
                    dpi ?? 0, compressionLevel, &code, &error, error.count)
            }
        }
        guard status == 0 else {
            throw .cannotWrite(path: path, reason: code != 0 ? SystemError.text(code) : message(error).lowercased())
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
        var buffer: UnsafeMutablePointer<UInt8>?
        var w: Int32 = 0
        var h: Int32 = 0
        var code: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        guard transect_png_read_rgba(path, &buffer, &w, &h, &code, &error, error.count) == 0, let buffer else {
            throw .cannotWrite(path: path, reason: "cannot read: " + (code != 0 ? SystemError.text(code) : message(error)))
        }
        defer { free(buffer) }
        return (Array(UnsafeBufferPointer(start: buffer, count: Int(w) * Int(h) * 4)), Int(w), Int(h))
    }

    /// The NUL-terminated message the C shim wrote into `buffer` (libpng's or its own; a
    /// system call's failure comes back as an errno, worded by ``SystemError``).
    static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Calls `body` with a C array of text chunks that lives for the call.
    static func withCTexts<R>(_ texts: [(String, String)], _ body: (UnsafePointer<transect_png_text>?, Int32) -> R) -> R {
        let keys = texts.map { strdup($0.0) }
        let values = texts.map { strdup($0.1) }
        defer { for p in keys + values { free(p) } }
        let chunks = (0..<texts.count).map { transect_png_text(key: keys[$0], text: values[$0]) }
        return chunks.withUnsafeBufferPointer { body($0.baseAddress, Int32(texts.count)) }
    }
}
