#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CPNG
import TransectSupport

/// The one Swift caller of the CPNG shim: PNG bytes to pixels with libpng, pixels to PNG bytes
/// with the shim's writer. It links libpng and zlib and nothing else of ours but Support, so
/// the command-line library that compares PNGs loads neither cairo nor GDAL; the render layer
/// reaches it through `PNGFile`, which adds presets, georeferencing and cairo's surfaces.
public enum PNGCodec {
    /// A PNG read as 8-bit RGBA, with the file's own colour type.
    public struct Decoded: Sendable {
        public var pixels: [UInt8]
        public var width: Int
        public var height: Int
        /// The PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
        public var colourType: Int
        /// True for colour type 6 (RGBA): the one whose alpha matplotlib's loader keeps.
        public var isRGBA: Bool { colourType == 6 }
    }

    /// Why a read or a write failed: the reason, and the failed system call's errno (0 when the
    /// file was read but not understood, or the failure was libpng's or zlib's).
    public struct Failure: Error, Equatable, Sendable {
        public var reason: String
        public var systemError: Int32
    }

    /// How the writer compresses (``encode(path:pixels:format:width:height:stride:texts:dpi:settings:)``).
    public struct Settings: Sendable {
        public var level: Int32
        public var strategy: Int32
        public var alternativeLevel: Int32
        public var alternativeStrategy: Int32
        /// Rows per strip; 0 for about 256 KiB of rows.
        public var stripRows: Int32
        public var threads: Int32

        public init(level: Int32, strategy: Int32, alternativeLevel: Int32, alternativeStrategy: Int32, stripRows: Int32, threads: Int32) {
            self.level = level
            self.strategy = strategy
            self.alternativeLevel = alternativeLevel
            self.alternativeStrategy = alternativeStrategy
            self.stripRows = stripRows
            self.threads = threads
        }
    }

    /// Reads the PNG at `path` as RGBA (4 bytes per pixel: palettes, grey and low bit depths
    /// expanded, 16-bit samples cut to their high byte, alpha 255 where the file has none),
    /// refusing one of more than `maxPixels` pixels (0: any up to 100,000 a side) before decoding.
    /// The corresponding C function is `transect_png_read_rgba_limited` (libpng).
    public static func read(path: String, maxPixels: Int = 0) throws(Failure) -> Decoded {
        var w: Int32 = 0
        var h: Int32 = 0
        var colourType: Int32 = 0
        var code: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        var unused: UnsafeMutablePointer<UInt8>?
        // The size from IHDR, which the PNG format puts first: libpng decodes straight into the
        // array, with no copy. A size the header cannot give (a file too short, a size out of
        // range or over the limit) leaves the reader to say what is wrong.
        if let size = headerSize(path), maxPixels <= 0 || size.width * size.height <= maxPixels {
            let count = size.width * size.height * 4
            var status: Int32 = 1
            w = Int32(size.width)
            h = Int32(size.height)
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                status = transect_png_read_rgba_limited(
                    path, max(maxPixels, 0), out.baseAddress, &unused, &w, &h, &colourType, &code, &error, error.count)
                initialized = status == 0 ? count : 0
            }
            guard status == 0 else { throw Failure(reason: code != 0 ? SystemError.text(code) : message(error), systemError: code) }
            return Decoded(pixels: pixels, width: Int(w), height: Int(h), colourType: Int(colourType))
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        let status = transect_png_read_rgba_limited(path, max(maxPixels, 0), nil, &buffer, &w, &h, &colourType, &code, &error, error.count)
        guard status == 0, let buffer else {
            throw Failure(reason: code != 0 ? SystemError.text(code) : message(error), systemError: code)
        }
        defer { free(buffer) }
        let count = Int(w) * Int(h) * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            out.baseAddress!.initialize(from: buffer, count: count)
            initialized = count
        }
        return Decoded(pixels: pixels, width: Int(w), height: Int(h), colourType: Int(colourType))
    }

    /// The width and height IHDR gives (bytes 16–23 of a PNG), when the file begins with the PNG
    /// signature and IHDR and both are from 1 to 100,000; nil otherwise.
    static func headerSize(_ path: String) -> (width: Int, height: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 24)
        let count = header.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 24) }
        guard count == 24, header[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], header[12..<16] == [0x49, 0x48, 0x44, 0x52] else {
            return nil
        }
        func be32(_ k: Int) -> Int { header[k..<(k + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (be32(16), be32(20))
        guard (1...100_000).contains(width), (1...100_000).contains(height) else { return nil }
        return (width, height)
    }

    /// Writes `pixels` (in the shim's `format`, rows `stride` bytes apart) as a PNG at `path`,
    /// with text chunks in order (tEXt, or iTXt for text beyond Latin-1) and a pHYs chunk when
    /// `dpi` is given.
    /// The corresponding C function is `transect_png_encode`.
    public static func encode(
        path: String, pixels: UnsafePointer<UInt8>?, format: Int32, width: Int, height: Int, stride: Int,
        texts: [(String, String)], dpi: Double?, settings: Settings
    ) throws(Failure) {
        var c = transect_png_settings(
            level: settings.level, strategy: settings.strategy, alternative_level: settings.alternativeLevel,
            alternative_strategy: settings.alternativeStrategy, filter: -1, strip_rows: settings.stripRows, threads: settings.threads)
        var code: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let status: Int32 = withCTexts(texts) { list, count in
            transect_png_encode(path, pixels, format, Int32(width), Int32(height), stride, list, count, dpi ?? 0, &c, &code, &error, error.count)
        }
        guard status == 0 else { throw Failure(reason: code != 0 ? SystemError.text(code) : message(error), systemError: code) }
    }

    /// The shim's pixel formats.
    public static let grey8 = Int32(TRANSECT_PNG_GREY8)
    public static let rgb8 = Int32(TRANSECT_PNG_RGB8)
    public static let rgba8 = Int32(TRANSECT_PNG_RGBA8)
    public static let argb32OverWhite = Int32(TRANSECT_PNG_ARGB32_OVER_WHITE)

    /// The NUL-terminated message the C shim wrote into `buffer` (libpng's or its own; a
    /// system call's failure comes back as an errno, worded by ``SystemError``).
    static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Calls `body` with a C array of text chunks that lives for the call: a text that is all
    /// Latin-1 (U+0001 to U+00FF) goes in a tEXt chunk in Latin-1, as the PNG specification
    /// defines tEXt; any other in an iTXt chunk in UTF-8.
    static func withCTexts<R>(_ texts: [(String, String)], _ body: (UnsafePointer<transect_png_text>?, Int32) -> R) -> R {
        let encoded = texts.map { text -> (key: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>, utf8: Bool) in
            let latin1 = latin1Bytes(text.1)
            return (cString(latin1Bytes(text.0) ?? Array(text.0.utf8)), cString(latin1 ?? Array(text.1.utf8)), latin1 == nil)
        }
        defer {
            for e in encoded {
                free(e.key)
                free(e.value)
            }
        }
        let chunks = encoded.map { transect_png_text(key: $0.key, text: $0.value, utf8: $0.utf8 ? 1 : 0) }
        return chunks.withUnsafeBufferPointer { body($0.baseAddress, Int32(texts.count)) }
    }

    /// `text` in Latin-1, one byte a character, when every character is U+0001 to U+00FF.
    static func latin1Bytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value >= 1 && scalar.value <= 0xFF else { return nil }
            out.append(UInt8(scalar.value))
        }
        return out
    }

    /// A malloc'd NUL-terminated copy of `bytes` (which hold no NUL: a NUL ends the text).
    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let kept = bytes.prefix { $0 != 0 }
        let p = malloc(kept.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (i, b) in kept.enumerated() { p[i] = CChar(bitPattern: b) }
        p[kept.count] = 0
        return p
    }
}
