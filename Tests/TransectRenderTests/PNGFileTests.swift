import CGDAL
import Foundation
import Testing
import TransectSupport
import TransectGDAL
import TransectTestSupport
@testable import TransectRender
import TransectPNG

/// A PNG written by `PNGFile` (pixels from a canvas, text chunks, world file and `.aux.xml`) read
/// back by GDAL, which shares no code with the writer: every pixel, every text and the
/// georeference must come back exactly as written.
@Suite("PNG files read back by GDAL")
struct PNGFileTests {
    /// What GDAL reads from a PNG and the files beside it.
    struct Reading {
        var width = 0, height = 0, bands = 0
        /// RGB, interleaved, row-major.
        var rgb: [UInt8] = []
        /// The default metadata domain, in GDAL's order, as "KEY=value".
        var metadata: [String] = []
        var geoTransform: [Double]?
        /// The CRS as WKT2 (2019) and its data-axis-to-CRS-axis mapping, when GDAL found one.
        var wkt: String?
        var axisMapping: [Int32] = []
    }

    static func read(_ path: String) throws -> Reading {
        prepareGDAL()
        let ds = try #require(GDALOpen(path, GA_ReadOnly), "GDAL cannot open \(path)")
        defer { GDALClose(ds) }
        var r = Reading()
        r.width = Int(GDALGetRasterXSize(ds))
        r.height = Int(GDALGetRasterYSize(ds))
        r.bands = Int(GDALGetRasterCount(ds))
        let driver = String(cString: GDALGetDriverShortName(GDALGetDatasetDriver(ds)))
        #expect(driver == "PNG")
        if r.bands == 3 {
            r.rgb = [UInt8](repeating: 0, count: r.width * r.height * 3)
            var bandList: [Int32] = [1, 2, 3]
            let err = r.rgb.withUnsafeMutableBytes {
                GDALDatasetRasterIO(
                    ds, GF_Read, 0, 0, Int32(r.width), Int32(r.height), $0.baseAddress, Int32(r.width), Int32(r.height),
                    GDT_Byte, 3, &bandList, 3, 3 * Int32(r.width), 1)
            }
            #expect(err == CE_None)
        }
        if let list = GDALGetMetadata(ds, nil) {
            var k = 0
            while let item = list[k] {
                r.metadata.append(String(cString: item))
                k += 1
            }
        }
        var gt = [Double](repeating: 0, count: 6)
        if GDALGetGeoTransform(ds, &gt) == CE_None { r.geoTransform = gt }
        if let srs = GDALGetSpatialRef(ds) {
            r.wkt = try Self.wkt2(srs)
            var count: Int32 = 0
            if let mapping = OSRGetDataAxisToSRSAxisMapping(srs, &count) { r.axisMapping = (0..<Int(count)).map { mapping[$0] } }
        }
        return r
    }

    /// A CRS as WKT2 (2019), exported by OSR.
    static func wkt2(_ srs: OGRSpatialReferenceH) throws -> String {
        var text: UnsafeMutablePointer<CChar>?
        let options: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("FORMAT=WKT2_2019")), nil]
        defer { free(UnsafeMutableRawPointer(mutating: options[0])) }
        let err = options.withUnsafeBufferPointer { OSRExportToWktEx(srs, &text, $0.baseAddress) }
        defer { VSIFree(text) }
        try #require(err == OGRERR_NONE)
        return String(cString: try #require(text))
    }

    /// The WKT of an EPSG code, made by OSR here rather than by TransectGDAL.
    static func wkt(epsg: Int32) throws -> String {
        let srs = try #require(OSRNewSpatialReference(nil))
        defer { OSRDestroySpatialReference(srs) }
        try #require(OSRImportFromEPSG(srs, epsg) == OGRERR_NONE)
        return try wkt2(srs)
    }

    /// A straight-alpha colour composited over white and rounded to the nearest level: what
    /// a reader shows for (c, a) on a white page. c·a/255 is never a half (c·a is an integer and
    /// 255 is odd), so there is no tie to round.
    static func overWhite(_ c: UInt8, _ a: UInt8) -> UInt8 {
        UInt8((Double(c) * Double(a) / 255 + Double(255 - Int(a))).rounded())
    }

    /// 256 columns, one per alpha from 0 (transparent) to 255 (opaque); rows of colours at the
    /// ends of the range and beside its middle, where premultiplying rounds, then random ones.
    static func straightRGBA() -> (rgba: [UInt8], width: Int, height: Int) {
        let fixed: [UInt8] = [0, 1, 2, 127, 128, 129, 253, 254, 255]
        var g = SeededRandom(seed: 0x504E47)
        let rows: [(UInt8, UInt8, UInt8)] =
            fixed.map { ($0, 255 - $0, $0 &+ 85) }
            + (0..<7).map { _ in (UInt8.random(in: 0...255, using: &g), UInt8.random(in: 0...255, using: &g), UInt8.random(in: 0...255, using: &g)) }
        var rgba: [UInt8] = []
        for (r, gr, b) in rows {
            for a in 0...255 { rgba += [r, gr, b, UInt8(a)] }
        }
        return (rgba, 256, rows.count)
    }

    /// The chunks of a PNG file, walked by hand: signature, then length, type, data and CRC-32
    /// (ISO 3309, over type and data) for each; a bad signature, length or CRC fails the test.
    static func chunks(_ bytes: Data) throws -> [(type: String, data: Data)] {
        let b = [UInt8](bytes)
        try #require(b.count >= 8 && Array(b[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG signature")
        func u32(_ k: Int) -> UInt32 { b[k..<k + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        var out: [(type: String, data: Data)] = []
        var k = 8
        while k < b.count {
            try #require(k + 12 <= b.count, "truncated chunk header at byte \(k)")
            let length = Int(u32(k))
            try #require(length <= b.count - k - 12, "chunk at byte \(k) runs past the end")
            let typeAndData = b[(k + 4)..<(k + 8 + length)]
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typeAndData {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            #expect(crc ^ 0xFFFF_FFFF == u32(k + 8 + length), "CRC of the chunk at byte \(k)")
            out.append((String(decoding: b[(k + 4)..<(k + 8)], as: UTF8.self), Data(b[(k + 8)..<(k + 8 + length)])))
            k += 12 + length
        }
        return out
    }

    @Test("pixels drawn with every alpha, texts in order, world file and CRS: GDAL reads back exactly what was written")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("round trip.png")
        let (rgba, width, height) = Self.straightRGBA()
        let canvas = try Canvas(width: width, height: height)
        canvas.drawRGBA(rgba)
        let rgb = canvas.rgbBytes()
        let texts = [
            ("Software", "transect test"), ("Title", "Round trip: a < b & \"c\" = d"), ("CRS", "EPSG:32611"),
            ("Comment", "two\nlines"),
        ]
        try PNGFile.encode(path: path, rgb: rgb, width: width, height: height, texts: texts, dpi: 144)
        // Halves and quarters, so the world file's centre of the top-left pixel and GDAL's
        // corner back from it are exact in binary; a rotation term, and one integral value.
        let gt = [500_000.25, 15.5, 0, 4_200_000.75, -0.25, -15.5]
        let wkt = try Self.wkt(epsg: 32611)
        for side in PNGFile.sideFiles(for: path, georeference: PNGFile.Georeference(geoTransform: gt, wkt: wkt)) {
            try side.contents.write(toFile: side.path, atomically: false, encoding: .utf8)
        }

        let reading = try Self.read(path)
        #expect(reading.width == width && reading.height == height && reading.bands == 3)
        var expected: [UInt8] = []
        for k in 0..<(width * height) {
            let a = rgba[4 * k + 3]
            expected += (0..<3).map { Self.overWhite(rgba[4 * k + $0], a) }
        }
        #expect(reading.rgb.count == expected.count)
        let wrong = zip(reading.rgb, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            wrong.count == 0, "\(wrong.count) bytes differ, the first at pixel \((wrong.first?.offset ?? 0) / 3): \(String(describing: wrong.first?.element))")
        // Transparent is white whatever the colour; opaque is the colour itself.
        for y in 0..<height {
            #expect(reading.rgb[3 * (y * width)..<3 * (y * width) + 3] == [255, 255, 255])
            #expect(Array(reading.rgb[3 * (y * width + 255)..<3 * (y * width + 255) + 3]) == Array(rgba[4 * (y * width + 255)..<4 * (y * width + 255) + 3]))
        }
        // Every text and nothing else, as GDAL lists them (in its own order).
        #expect(reading.metadata.sorted() == texts.map { "\($0.0)=\($0.1)" }.sorted())
        // The chunks themselves: texts in the order given, before the image data; pHYs at
        // 144 dpi is round(144 / 0.0254) = 5669 pixels per metre (unit 1); no tIME.
        let chunks = try Self.chunks(Data(contentsOf: URL(fileURLWithPath: path)))
        let types = chunks.map(\.type)
        #expect(types.first == "IHDR" && types.last == "IEND" && !types.contains("tIME"))
        let textChunks = chunks.filter { $0.type == "tEXt" }.map { Array($0.data) }
        #expect(textChunks == texts.map { Array($0.0.utf8) + [0] + Array($0.1.utf8) })
        let firstData = try #require(types.firstIndex(of: "IDAT"))
        #expect(types.lastIndex(of: "tEXt").map { $0 < firstData } == true)
        #expect(chunks.filter { $0.type == "pHYs" }.map { Array($0.data) } == [[0, 0, 0x16, 0x25, 0, 0, 0x16, 0x25, 1]])

        // The world file: A, D, B, E, then the centre of the top-left pixel,
        // x = 500000.25 + 15.5/2 + 0/2 and y = 4200000.75 − 0.25/2 − 15.5/2.
        let world = try String(contentsOfFile: dir.file("round trip.pgw"), encoding: .utf8)
        #expect(world == "15.5\n-0.25\n0.0\n-15.5\n500008.0\n4199992.875\n")
        #expect(reading.geoTransform == gt)
        // The .aux.xml's CRS, as GDAL reads it: the same WKT, x easting and y northing.
        #expect(reading.wkt == wkt)
        #expect(reading.axisMapping == [1, 2])

        // Our own reader agrees with GDAL, and says every pixel is opaque.
        let own = try PNGFile.readRGBA(path: path)
        #expect(own.width == width && own.height == height)
        #expect((0..<(width * height)).allSatisfy { own.pixels[4 * $0 + 3] == 255 })
        #expect((0..<(width * height)).flatMap { own.pixels[4 * $0..<4 * $0 + 3] } == reading.rgb)
    }

    /// The data-axis mapping GDAL gives an SRS in the order maps use (x easting or longitude).
    static func traditionalMapping(epsg: Int32) throws -> [Int32] {
        let srs = try #require(OSRNewSpatialReference(nil))
        defer { OSRDestroySpatialReference(srs) }
        try #require(OSRImportFromEPSG(srs, epsg) == OGRERR_NONE)
        OSRSetAxisMappingStrategy(srs, OAMS_TRADITIONAL_GIS_ORDER)
        var count: Int32 = 0
        let mapping = try #require(OSRGetDataAxisToSRSAxisMapping(srs, &count))
        return (0..<Int(count)).map { mapping[$0] }
    }

    @Test("the .aux.xml keeps x on easting for a CRS whose definition lists northing first (EPSG:2193)")
    func northingFirst() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("nz.png")
        try PNGFile.encode(path: path, rgb: [UInt8](repeating: 200, count: 4 * 4 * 3), width: 4, height: 4, texts: [])
        let gt = [1_741_000.0, 75, 0, 5_432_000, 0, -75]
        let wkt = try Self.wkt(epsg: 2193)
        // The frame's CRS states its own mapping, as a map's does (AnnotatedMap).
        let mapping = try SpatialReference("EPSG:2193").dataAxisMapping
        for side in PNGFile.sideFiles(for: path, georeference: PNGFile.Georeference(geoTransform: gt, wkt: wkt, axisMapping: mapping)) {
            try side.contents.write(toFile: side.path, atomically: false, encoding: .utf8)
        }
        let reading = try Self.read(path)
        #expect(reading.wkt == wkt && reading.geoTransform == gt)
        // GDAL maps NZTM's x to its second axis (easting); a side file stating "1,2" would put
        // this frame's x on northing (GDAL then places it near 120°W, 54°S).
        let expected = try Self.traditionalMapping(epsg: 2193)
        #expect(expected == [2, 1])
        #expect(reading.axisMapping == expected)
    }

    @Test("without texts, dpi or side files GDAL finds no metadata and no georeference")
    func bare() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("bare.png")
        let rgb = (0..<(5 * 3 * 3)).map { UInt8(($0 * 37) % 256) }
        try PNGFile.encode(path: path, rgb: rgb, width: 5, height: 3, texts: [])
        let reading = try Self.read(path)
        #expect(reading.width == 5 && reading.height == 3 && reading.rgb == rgb)
        #expect(reading.metadata.isEmpty && reading.geoTransform == nil && reading.wkt == nil)
    }

    @Test("a PNG written into a missing directory fails with the system's reason, worded as every errno is")
    func missingDirectory() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("missing/map.png")
        #expect(throws: RenderError.cannotWrite(path: path, reason: SystemError.text(ENOENT))) {
            try PNGFile.encode(path: path, rgb: [0, 0, 0], width: 1, height: 1, texts: [])
        }
        #expect(throws: RenderError.cannotWrite(path: path, reason: "cannot read: " + SystemError.text(ENOENT))) {
            try PNGFile.readRGBA(path: path)
        }
    }

    @Test("a file that is not a PNG fails with the reader's own message")
    func notAPNG() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("text.png")
        try "not an image, just text".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RenderError.cannotWrite(path: path, reason: "cannot read: not a PNG file")) {
            try PNGFile.readRGBA(path: path)
        }
    }

    @Test("encode(rgba:) writes straight RGBA that libpng reads back as written, colour type RGBA")
    func rgbaRoundTrip() throws {
        let dir = TemporaryDirectory()
        let rgba = dir.file("rgba.png")
        let pixels: [UInt8] = [255, 0, 0, 128, 0, 255, 0, 255, 0, 0, 255, 0, 9, 9, 9, 255]
        try PNGFile.encode(path: rgba, rgba: pixels, width: 2, height: 2)
        let a = try PNGCodec.read(path: rgba)
        #expect(a.isRGBA && a.width == 2 && a.height == 2 && a.pixels == pixels)
        #expect(try PNGFile.readRGBA(path: rgba).pixels == pixels)
    }
}
