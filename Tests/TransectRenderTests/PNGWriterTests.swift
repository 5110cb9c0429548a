import CGDAL
import CPNG
import Foundation
import Testing
import TransectTestSupport
@testable import TransectRender

/// The PNG writer's strips, filters and zlib stream, checked against oracles that share no code
/// with it: libpng decodes the pixels, GDAL's zlib inflates the stream, and the CRCs, the
/// Adler-32 and the filter choice are recomputed here from the PNG specification.
@Suite("PNG writer: strips deflated in parallel, one zlib stream")
struct PNGWriterTests {
    /// A PNG's chunks in file order.
    struct Chunk {
        var type: String
        var data: [UInt8]
        var crc: UInt32
    }

    static func chunks(_ bytes: [UInt8]) throws -> [Chunk] {
        try #require(bytes.count >= 8 && Array(bytes[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10])
        var out: [Chunk] = []
        var k = 8
        while k < bytes.count {
            try #require(k + 12 <= bytes.count)
            let length = Int(be32(bytes, k))
            try #require(k + 12 + length <= bytes.count)
            let type = String(decoding: bytes[(k + 4)..<(k + 8)], as: UTF8.self)
            out.append(Chunk(type: type, data: Array(bytes[(k + 8)..<(k + 8 + length)]), crc: be32(bytes, k + 8 + length)))
            k += 12 + length
        }
        return out
    }

    static func be32(_ b: [UInt8], _ k: Int) -> UInt32 {
        UInt32(b[k]) << 24 | UInt32(b[k + 1]) << 16 | UInt32(b[k + 2]) << 8 | UInt32(b[k + 3])
    }

    /// CRC-32 as the PNG specification defines it (polynomial 0xEDB88320, bit by bit).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xffff_ffff
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xffff_ffff
    }

    /// Adler-32 as RFC 1950 defines it.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for x in bytes {
            a = (a + UInt32(x)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    /// The zlib stream (the IDAT chunks joined) inflated by GDAL's zlib; nil when it refuses it.
    static func inflate(_ stream: [UInt8], expected: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: expected + 16)
        var produced = 0
        let result = stream.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { CPLZLibInflate(input.baseAddress, input.count, $0.baseAddress, $0.count, &produced) }
        }
        return result == nil ? nil : Array(out[0..<produced])
    }

    /// Pixels with smooth areas, noise, flat runs and grey, so every filter type wins somewhere.
    static func pixels(width: Int, height: Int, seed: UInt64 = 7) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let k = 3 * (y * width + x)
                switch (y / 3 + x / 50) % 4 {
                case 0: (rgb[k], rgb[k + 1], rgb[k + 2]) = (UInt8(x & 255), UInt8(y & 255), UInt8((x + y) & 255))
                case 1: for c in 0..<3 { rgb[k + c] = UInt8.random(in: 0...255, using: &random) }
                case 2: (rgb[k], rgb[k + 1], rgb[k + 2]) = (200, 180, 40)
                default: (rgb[k], rgb[k + 1], rgb[k + 2]) = (UInt8((x * 7) & 255), UInt8((x * 7) & 255), UInt8((x * 7) & 255))
                }
            }
        }
        return rgb
    }

    static func write(
        _ rgb: [UInt8], width: Int, height: Int, preset: PNGFile.Preset = .balanced, threads: Int, stripRows: Int? = nil,
        in dir: TemporaryDirectory, texts: [(String, String)] = [], dpi: Double? = nil
    ) throws -> [UInt8] {
        let path = dir.file("w\(width)h\(height)\(preset)t\(threads)s\(stripRows ?? 0).png")
        try PNGFile.encode(
            path: path, rgb: rgb, width: width, height: height, texts: texts, dpi: dpi,
            encoding: PNGFile.Encoding(preset: preset, threads: threads, stripRows: stripRows))
        let decoded = try PNGFile.readRGBA(path: path)
        #expect(decoded.width == width && decoded.height == height)
        let back = (0..<(width * height)).flatMap { decoded.pixels[4 * $0..<4 * $0 + 3] }
        #expect(back == rgb, "libpng decodes other pixels than were written (\(width) × \(height), \(preset))")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Sizes around the strip boundaries (strips of 4 rows) and the image's edges.
    static let sizes: [(width: Int, height: Int, stripRows: Int?)] = [
        (1, 1, nil), (1, 9, 4), (5, 1, nil), (37, 3, 4), (37, 4, 4), (37, 5, 4), (37, 8, 4), (37, 9, 4), (64, 33, nil),
        (8000, 9, 4), (8000, 2, nil),
    ]

    @Test("every size and preset: libpng decodes the pixels written, the same bytes on 1, 2 and 3 threads")
    func identicalForAnyThreadCount() throws {
        let dir = TemporaryDirectory()
        for (w, h, strip) in Self.sizes {
            let rgb = Self.pixels(width: w, height: h)
            for preset in PNGFile.Preset.allCases {
                let one = try Self.write(rgb, width: w, height: h, preset: preset, threads: 1, stripRows: strip, in: dir)
                for threads in [2, 3] {
                    let more = try Self.write(rgb, width: w, height: h, preset: preset, threads: threads, stripRows: strip, in: dir)
                    #expect(more == one, "\(w) × \(h), \(preset): \(threads) threads wrote other bytes than one")
                }
            }
        }
    }

    @Test("chunks: CRCs as the specification computes them, one zlib stream that inflates to the filtered rows")
    func chunksAndStream() throws {
        let dir = TemporaryDirectory()
        for (w, h, strip) in Self.sizes {
            let rgb = Self.pixels(width: w, height: h)
            let texts = [("Software", "transect test"), ("Title", "a → b")]
            let file = try Self.write(rgb, width: w, height: h, threads: 2, stripRows: strip, in: dir, texts: texts, dpi: 300)
            let chunks = try Self.chunks(file)
            for c in chunks { #expect(c.crc == Self.crc32(Array(c.type.utf8) + c.data), "\(c.type) CRC") }
            #expect(chunks.map(\.type).first == "IHDR" && chunks.map(\.type).last == "IEND")
            // Latin-1 text in tEXt; the arrow is not Latin-1, so its text goes in iTXt, as UTF-8
            // after the keyword, no compression and an empty language and translated keyword.
            #expect(chunks.map(\.type).filter { $0 != "IDAT" } == ["IHDR", "pHYs", "tEXt", "iTXt", "IEND"])
            #expect(chunks.filter { $0.type == "tEXt" }.map(\.data) == [Array("Software".utf8) + [0] + Array("transect test".utf8)])
            #expect(chunks.filter { $0.type == "iTXt" }.map(\.data) == [Array("Title".utf8) + [0, 0, 0, 0, 0] + Array("a → b".utf8)])
            // IDAT chunks are contiguous and at most 256 KiB.
            let idat = chunks.enumerated().filter { $0.element.type == "IDAT" }
            #expect(idat.map(\.offset) == Array((idat.first?.offset ?? 0)...(idat.last?.offset ?? -1)))
            #expect(idat.allSatisfy { $0.element.data.count <= 1 << 18 })
            // Greyscale when every pixel is grey (the 1 × 1 image is black).
            let grey = (0..<(w * h)).allSatisfy { (k: Int) -> Bool in rgb[3 * k] == rgb[3 * k + 1] && rgb[3 * k] == rgb[3 * k + 2] }
            let channels = grey ? 1 : 3
            let ihdr = try #require(chunks.first).data
            let size: [UInt8] = [0, 0, UInt8(w >> 8), UInt8(w & 255), 0, 0, 0, UInt8(h)]
            #expect(Array(ihdr[0..<8]) == size)
            #expect(Array(ihdr[8..<13]) == [8, grey ? 0 : 2, 0, 0, 0])
            let stream = idat.flatMap(\.element.data)
            // RFC 1950: deflate with a 32 KiB window, header check, no preset dictionary.
            #expect(stream[0] == 0x78 && (UInt32(stream[0]) * 256 + UInt32(stream[1])) % 31 == 0 && stream[1] & 0x20 == 0)
            let rowBytes = channels * w + 1
            let raw = try #require(Self.inflate(stream, expected: rowBytes * h), "zlib refuses the stream (\(w) × \(h))")
            #expect(raw.count == rowBytes * h)
            #expect(Self.be32(stream, stream.count - 4) == Self.adler32(raw))
            // Each row's filter is the type with the least sum of magnitudes, ties to the lower.
            let samples = grey ? stride(from: 0, to: rgb.count, by: 3).map { rgb[$0] } : rgb
            for y in 0..<h {
                let row = Array(samples[(channels * w * y)..<(channels * w * (y + 1))])
                let up = y > 0 ? Array(samples[(channels * w * (y - 1))..<(channels * w * y)]) : nil
                #expect(raw[rowBytes * y] == Self.bestFilter(row, up: up, bpp: channels), "row \(y) of \(w) × \(h)")
            }
        }
    }

    /// The filter type libpng's heuristic picks, from the PNG specification's filter definitions.
    static func bestFilter(_ row: [UInt8], up: [UInt8]?, bpp: Int) -> UInt8 {
        var best = (sum: Int.max, type: 0)
        for type in 0...(up == nil ? 1 : 4) {
            var sum = 0
            for i in row.indices {
                let a = i >= bpp ? Int(row[i - bpp]) : 0
                let b = up.map { Int($0[i]) } ?? 0
                let c = i >= bpp ? (up.map { Int($0[i - bpp]) } ?? 0) : 0
                let p = a + b - c
                let predictor: Int
                switch type {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                default: predictor = abs(p - a) <= abs(p - b) && abs(p - a) <= abs(p - c) ? a : abs(p - b) <= abs(p - c) ? b : c
                }
                sum += abs(Int(Int8(truncatingIfNeeded: Int(row[i]) - predictor)))
            }
            if sum < best.sum { best = (sum, type) }
        }
        return UInt8(best.type)
    }

    @Test("an image whose every pixel is grey is written as greyscale, and decodes to the same RGB")
    func greyReduction() throws {
        let dir = TemporaryDirectory()
        let (w, h) = (300, 21)
        var rgb = (0..<(w * h)).flatMap { k -> [UInt8] in
            let v = UInt8((k * 31 + k / w) & 255)
            return [v, v, v]
        }
        let grey = try Self.chunks(try Self.write(rgb, width: w, height: h, threads: 2, stripRows: 4, in: dir))
        #expect(grey.first?.data[9] == 0, "colour type")
        let stream = grey.filter { $0.type == "IDAT" }.flatMap(\.data)
        #expect(Self.inflate(stream, expected: (w + 1) * h)?.count == (w + 1) * h)
        // One pixel of colour in the last row makes it RGB again.
        rgb[3 * (w * h - 1) + 2] ^= 1
        let colour = try Self.chunks(try Self.write(rgb, width: w, height: h, threads: 2, stripRows: 4, in: dir))
        #expect(colour.first?.data[9] == 2, "colour type")
    }

    @Test("a drawn image is written from the canvas in place: the same bytes as from its RGB copy")
    func canvasInPlace() throws {
        let dir = TemporaryDirectory()
        let (rgba, width, height) = PNGFileTests.straightRGBA()
        let canvas = try Canvas(width: width, height: height)
        canvas.drawRGBA(rgba)
        canvas.circle(40, 30, radius: 20, fill: Color(hex: 0xC8102E))
        let image = RenderedImage(pixels: .canvas(.init(canvas)), width: width, height: height, notes: [])
        let copy = RenderedImage(rgb: canvas.rgbBytes(), width: width, height: height, notes: [])
        for preset in PNGFile.Preset.allCases {
            let encoding = PNGFile.Encoding(preset: preset, threads: 2, stripRows: 3)
            try PNGFile.encode(path: dir.file("canvas.png"), image: image, texts: [], encoding: encoding)
            try PNGFile.encode(path: dir.file("copy.png"), image: copy, texts: [], encoding: encoding)
            let a = try Data(contentsOf: URL(fileURLWithPath: dir.file("canvas.png")))
            let b = try Data(contentsOf: URL(fileURLWithPath: dir.file("copy.png")))
            #expect(a == b, "\(preset)")
        }
    }

    @Test("the default strips hold about 256 KiB of rows, at least 4 and at most 4096, whatever the thread count")
    func defaultStrips() {
        #expect(transect_png_default_strip_rows(8000, 3) == (1 << 18) / 24_001)
        #expect(transect_png_default_strip_rows(8000, 1) == (1 << 18) / 8_001)
        #expect(transect_png_default_strip_rows(1, 3) == 4096)
        #expect(transect_png_default_strip_rows(1_000_000, 3) == 4)
    }
}
