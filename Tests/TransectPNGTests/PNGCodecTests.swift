#if canImport(Glibc)
import Glibc
#endif
import Testing
import TransectSupport
import TransectTestSupport

@testable import TransectPNG

@Suite("PNGCodec: the CPNG shim's one Swift caller")
struct PNGCodecTests {
    @Test("RGBA and RGB round-trip with their colour types; grey pixels in RGB are written as grey")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let settings = PNGCodec.Settings(level: 1, strategy: 3, alternativeLevel: -1, alternativeStrategy: 0, stripRows: 0, threads: 1)
        let rgba: [UInt8] = [255, 0, 0, 128, 0, 255, 0, 255, 0, 0, 255, 0, 9, 9, 9, 255]
        try rgba.withUnsafeBufferPointer { p in
            try PNGCodec.encode(
                path: dir.file("a.png"), pixels: p.baseAddress, format: PNGCodec.rgba8, width: 2, height: 2, stride: 8, texts: [("Software", "test")],
                dpi: nil, settings: settings)
        }
        let a = try PNGCodec.read(path: dir.file("a.png"))
        #expect(a.pixels == rgba && a.isRGBA && a.width == 2 && a.height == 2)
        let grey: [UInt8] = [7, 7, 7, 200, 200, 200]
        try grey.withUnsafeBufferPointer { p in
            try PNGCodec.encode(
                path: dir.file("g.png"), pixels: p.baseAddress, format: PNGCodec.rgb8, width: 2, height: 1, stride: 6, texts: [], dpi: 96,
                settings: settings)
        }
        let g = try PNGCodec.read(path: dir.file("g.png"))
        #expect(g.colourType == 0 && g.pixels == [7, 7, 7, 255, 200, 200, 200, 255])
        #expect(throws: PNGCodec.Failure(reason: "2 x 1 pixels, over the limit of 1", systemError: 0)) {
            try PNGCodec.read(path: dir.file("g.png"), maxPixels: 1)
        }
        #expect(throws: PNGCodec.Failure(reason: SystemError.text(ENOENT), systemError: ENOENT)) {
            try PNGCodec.read(path: dir.file("none.png"))
        }
    }
}
