/// How far two images may differ and still pass: a bound on the RMS, on the pixels pixelmatch
/// counts (a number, or a share of all pixels), or both. A metric without a bound is reported
/// but not judged. The default, ``identical``, is RMS 0: a pair passes only when its compared
/// channels are equal, so tolerance is something a user opts into.
public struct ComparisonTolerance: Sendable, Equatable {
    /// A bound on the counted pixels.
    public enum PixelLimit: Sendable, Equatable {
        /// At most this many pixels.
        case count(Int)
        /// At most this share of all pixels, 0…1 (`0.001` for 0.1 %).
        case share(Double)
    }

    /// The largest RMS (0…255) that passes, or nil when the RMS is not judged.
    public var rms: Double?
    /// The most counted pixels that pass, or nil when the count is not judged.
    public var pixels: PixelLimit?

    public init(rms: Double? = nil, pixels: PixelLimit? = nil) {
        self.rms = rms
        self.pixels = pixels
    }

    /// RMS 0 and nothing else.
    public static let identical = ComparisonTolerance(rms: 0)

    /// True when `difference`'s RMS is within the bound (or not judged).
    public func rmsPasses(_ difference: ImageDifference) -> Bool {
        guard let rms else { return true }
        return difference.rms <= rms
    }

    /// True when `difference`'s counted pixels are within the bound (or not judged).
    public func pixelsPass(_ difference: ImageDifference) -> Bool {
        switch pixels {
        case nil: true
        case .count(let n): difference.perceptualPixels <= n
        // Against share × pixels, so no division rounds the count.
        case .share(let s): Double(difference.perceptualPixels) <= s * Double(difference.pixelCount)
        }
    }

    /// True when every judged metric is within its bound.
    public func passes(_ difference: ImageDifference) -> Bool { rmsPasses(difference) && pixelsPass(difference) }
}
