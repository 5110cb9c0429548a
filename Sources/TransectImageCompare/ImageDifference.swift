/// What comparing two images of one size found: matplotlib's RMS and pixelmatch's count.
public struct ImageDifference: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The channels the RMS ran over: 3 (RGB), or 4 when either image keeps its alpha.
    public let channels: Int
    /// Σ (expected − actual)² over every channel value compared: exact, as an integer.
    public let squaredErrorSum: UInt64
    /// Pixels whose RGBA bytes are not all equal.
    public let differingPixels: Int
    /// Pixels pixelmatch counts: beyond the threshold and not anti-aliasing in either image.
    public let perceptualPixels: Int
    /// Pixels beyond the threshold that are anti-aliasing, so not counted.
    public let antialiasedPixels: Int
    /// The YIQ threshold the count used (0…1).
    public let threshold: Double

    public init(
        width: Int, height: Int, channels: Int, squaredErrorSum: UInt64, differingPixels: Int, perceptualPixels: Int,
        antialiasedPixels: Int, threshold: Double
    ) {
        self.width = width
        self.height = height
        self.channels = channels
        self.squaredErrorSum = squaredErrorSum
        self.differingPixels = differingPixels
        self.perceptualPixels = perceptualPixels
        self.antialiasedPixels = antialiasedPixels
        self.threshold = threshold
    }

    /// The pixels compared.
    public var pixelCount: Int { width * height }

    /// √(mean of the squared differences) over 0…255, as matplotlib's `calculate_rms` computes it
    /// on `int16` arrays: `np.sqrt(((expected - actual).astype(float) ** 2).mean())`. The sum is
    /// exact here and exact in numpy too (integers below 2⁵³ add exactly in any order), so the
    /// quotient and the square root, each correctly rounded, are bit for bit numpy's.
    public var rms: Double {
        let values = pixelCount * channels
        guard values > 0 else { return 0 }
        return (Double(squaredErrorSum) / Double(values)).squareRoot()
    }

    /// The counted pixels' share of all pixels, 0…1.
    public var perceptualShare: Double { pixelCount > 0 ? Double(perceptualPixels) / Double(pixelCount) : 0 }

    /// True when every byte of the two images is equal.
    public var identical: Bool { differingPixels == 0 }
}
