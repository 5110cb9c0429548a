/// An 8-bit image as the comparison reads it: `width` × `height` pixels of red, green, blue and
/// alpha bytes, row after row, and whether its alpha channel takes part in the RMS.
///
/// The rule for alpha is matplotlib's (`matplotlib.testing.compare._load_image`): an image keeps
/// its alpha channel only when it has one of its own (a PNG of colour type RGBA, a raster whose
/// fourth band is alpha) and some pixel of it is not opaque; otherwise the alpha channel is
/// dropped, so an opaque RGBA image compares equal to its RGB twin. Grey and palette images are
/// read as RGB (a palette's transparency dropped, as Pillow's `convert("RGB")` drops it).
public struct RGBAImage: Sendable {
    public let width: Int
    public let height: Int
    /// 4 × `width` × `height` bytes: R, G, B, A of each pixel, rows top to bottom.
    public let pixels: [UInt8]
    /// True when the alpha channel counts: the source has an alpha channel and it is not all 255.
    public let keepsAlpha: Bool

    /// An image of `pixels` (4 bytes a pixel). `hasAlphaChannel` says whether the source has an
    /// alpha channel of its own; it is kept only when some alpha byte is below 255.
    ///
    /// - Precondition: `pixels.count == 4 * width * height`.
    public init(width: Int, height: Int, pixels: [UInt8], hasAlphaChannel: Bool) {
        precondition(width >= 0 && height >= 0 && pixels.count == 4 * width * height, "RGBAImage: \(pixels.count) bytes for \(width) × \(height) pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
        keepsAlpha = hasAlphaChannel && Self.hasTransparency(pixels)
    }

    /// The number of channels matplotlib's array has: 4 when alpha is kept, else 3.
    public var channels: Int { keepsAlpha ? 4 : 3 }

    /// True when some alpha byte (every fourth, from the fourth) is below 255.
    static func hasTransparency(_ pixels: [UInt8]) -> Bool {
        pixels.withUnsafeBufferPointer { p in
            let count = p.count / 4
            var k = 0
            // Sixteen pixels at a time: the AND of their alpha bytes is 255 only when all are.
            while k + 16 <= count {
                var all: UInt8 = 255
                for j in 0..<16 { all &= p[4 * (k + j) + 3] }
                if all != 255 { return true }
                k += 16
            }
            while k < count {
                if p[4 * k + 3] != 255 { return true }
                k += 1
            }
            return false
        }
    }
}
