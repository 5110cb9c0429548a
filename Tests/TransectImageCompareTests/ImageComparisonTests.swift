import Dispatch
import Testing
import TransectSupport
import TransectTestSupport

@testable import TransectImageCompare

@Suite("image comparison: matplotlib's RMS, pixelmatch's count, the SIMD pass against its scalar twin")
struct ImageComparisonTests {
    /// A flat image of one colour.
    static func flat(_ width: Int, _ height: Int, _ rgba: (UInt8, UInt8, UInt8, UInt8), alphaChannel: Bool = false) -> RGBAImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(4 * width * height)
        for _ in 0..<(width * height) { pixels += [rgba.0, rgba.1, rgba.2, rgba.3] }
        return RGBAImage(width: width, height: height, pixels: pixels, hasAlphaChannel: alphaChannel)
    }

    /// `image` with pixel (`x`, `y`) set to `rgba`.
    static func setting(_ image: RGBAImage, _ x: Int, _ y: Int, _ rgba: [UInt8], alphaChannel: Bool? = nil) -> RGBAImage {
        var pixels = image.pixels
        for c in 0..<4 { pixels[4 * (y * image.width + x) + c] = rgba[c] }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels, hasAlphaChannel: alphaChannel ?? image.keepsAlpha)
    }

    /// A loop over Dispatch's threads, as the command line lends one.
    static let threads: ParallelLoop = { n, body in DispatchQueue.concurrentPerform(iterations: n) { body($0) } }

    @Test("identical images: RMS 0, nothing differs, and the diff is the faded baseline")
    func identical() {
        let a = Self.flat(7, 5, (10, 200, 30, 255))
        let (d, diff) = ImageComparison.compare(a, a, drawsDiff: true)
        #expect(d.rms == 0 && d.identical && d.perceptualPixels == 0 && d.antialiasedPixels == 0)
        #expect(d.channels == 3)
        // Y of (10, 200, 30) is 123.65…; 255 + (Y − 255)·0.1 = 241.87 → 242.
        #expect(diff?[0] == 242 && diff?[3] == 255)
    }

    @Test("the RMS of one changed channel: √(d² / (pixels × 3)) on RGB, × 4 when alpha is kept")
    func rmsClosedForm() {
        let a = Self.flat(2, 2, (100, 100, 100, 255))
        let b = Self.setting(a, 1, 1, [110, 100, 100, 255])
        #expect(ImageComparison.compare(a, b).difference.rms == (100.0 / 12).squareRoot())
        let translucent = Self.flat(2, 2, (100, 100, 100, 128), alphaChannel: true)
        #expect(translucent.keepsAlpha)
        let c = Self.setting(translucent, 0, 0, [100, 100, 100, 138])
        let d = ImageComparison.compare(translucent, c).difference
        #expect(d.channels == 4 && d.rms == (100.0 / 16).squareRoot())
    }

    @Test("an opaque alpha channel is dropped, so an opaque RGBA image equals its RGB twin")
    func opaqueAlphaDropped() {
        #expect(!Self.flat(3, 3, (1, 2, 3, 255), alphaChannel: true).keepsAlpha)
        #expect(Self.flat(3, 3, (1, 2, 3, 254), alphaChannel: true).keepsAlpha)
        #expect(!Self.flat(3, 3, (1, 2, 3, 0), alphaChannel: false).keepsAlpha)
        // One transparent pixel among 40, past the 16-pixel blocks of the scan.
        let late = Self.setting(Self.flat(8, 5, (1, 2, 3, 255), alphaChannel: true), 7, 4, [1, 2, 3, 0], alphaChannel: true)
        #expect(late.keepsAlpha)
    }

    @Test("pixelmatch's YIQ distance: black against white is 0.5053·Y², signed by which is brighter")
    func blackAgainstWhite() {
        let y = 255 * 0.29889531 + 255 * 0.58662247 + 255 * 0.11448223
        let i = 255 * 0.59597799 - 255 * 0.27417610 - 255 * 0.32180189
        let q = 255 * 0.21147017 - 255 * 0.52261711 + 255 * 0.31114694
        let expected = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        let pixels: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 255]
        pixels.withUnsafeBufferPointer { p in
            #expect(PerceptualDelta.delta(p.baseAddress!, 0, p.baseAddress!, 4) == expected)
            #expect(PerceptualDelta.delta(p.baseAddress!, 4, p.baseAddress!, 0) == -expected)
            #expect(PerceptualDelta.delta(p.baseAddress!, 0, p.baseAddress!, 0) == 0)
        }
        #expect(expected <= PerceptualDelta.maximum)
    }

    @Test("a lone black pixel on white counts; one under the threshold does not")
    func loneDifference() {
        let a = Self.flat(9, 9, (255, 255, 255, 255))
        let b = Self.setting(a, 4, 4, [0, 0, 0, 255])
        let (d, diff) = ImageComparison.compare(a, b, drawsDiff: true)
        #expect(d.perceptualPixels == 1 && d.differingPixels == 1 && d.antialiasedPixels == 0)
        #expect(d.perceptualShare == 1.0 / 81)
        let centre = 4 * (4 * 9 + 4)
        #expect(diff.map { Array($0[centre..<(centre + 4)]) } == [255, 0, 0, 255])
        let faint = Self.setting(a, 4, 4, [250, 250, 250, 255])
        let f = ImageComparison.compare(a, faint).difference
        #expect(f.perceptualPixels == 0 && f.differingPixels == 1 && f.rms > 0)
        // A higher threshold lets through what a lower one counts.
        #expect(ImageComparison.compare(a, b, threshold: 1).difference.perceptualPixels == 0)
    }

    @Test("the grey step between a black and a white region is anti-aliasing; a pixel inside a region is not")
    func antialiasingDetected() {
        // Columns 0, 0, 128, 255, 255: the middle column blends its flat neighbours.
        let columns: [UInt8] = [0, 0, 128, 255, 255]
        var pixels: [UInt8] = []
        for _ in 0..<5 { for c in columns { pixels += [c, c, c, 255] } }
        pixels.withUnsafeBufferPointer { p in
            let base = p.baseAddress!
            #expect(PerceptualDelta.antialiased(base, 2, 2, width: 5, height: 5, other: base))
            #expect(!PerceptualDelta.antialiased(base, 1, 2, width: 5, height: 5, other: base))
            #expect(PerceptualDelta.hasManySiblings(base, 0, 2, width: 5, height: 5))
        }
        // A step between wider flat regions, and the same step one column to the right: every
        // pixel that changed is anti-aliasing. (On the 5 × 5 image above, a corner pixel of a
        // region two columns wide has only two equal neighbours, so pixelmatch counts a pixel
        // next to the top edge.)
        func step(_ columns: [UInt8]) -> RGBAImage {
            var pixels: [UInt8] = []
            for _ in 0..<9 { for c in columns { pixels += [c, c, c, 255] } }
            return RGBAImage(width: columns.count, height: 9, pixels: pixels, hasAlphaChannel: false)
        }
        let a = step([0, 0, 0, 0, 128, 255, 255, 255, 255])
        let b = step([0, 0, 0, 0, 0, 128, 255, 255, 255])
        let d = ImageComparison.compare(a, b).difference
        #expect(d.differingPixels == 18 && d.perceptualPixels == 0 && d.antialiasedPixels == 18)
        #expect(d.rms > 0)
    }

    /// Random images over a few colours (so flat runs, equal neighbours and anti-aliasing all
    /// occur), the candidate a copy with some pixels changed.
    static func randomPair(_ rng: inout SeededRandom, width: Int, height: Int, alpha: Bool) -> (RGBAImage, RGBAImage) {
        let palette: [[UInt8]] = [[255, 255, 255, 255], [0, 0, 0, 255], [128, 128, 128, 255], [200, 30, 40, 255], [20, 90, 250, alpha ? 100 : 255]]
        var a: [UInt8] = []
        for _ in 0..<(width * height) { a += palette[rng.below(rng.unit() < 0.7 ? 1 : palette.count)] }
        var b = a
        for k in 0..<(width * height) where rng.unit() < 0.08 {
            let c = rng.below(4)
            b[4 * k + c] = UInt8(rng.below(256))
        }
        return (
            RGBAImage(width: width, height: height, pixels: a, hasAlphaChannel: alpha),
            RGBAImage(width: width, height: height, pixels: b, hasAlphaChannel: alpha)
        )
    }

    @Test(
        "the SIMD pass equals the scalar reference bit for bit, figures and diff, on one thread and many",
        arguments: [(1, 1), (3, 2), (4, 4), (17, 5), (64, 70), (131, 33)])
    func simdMatchesScalar(size: (Int, Int)) {
        var rng = SeededRandom(seed: UInt64(size.0 * 1000 + size.1))
        for alpha in [false, true] {
            let (a, b) = Self.randomPair(&rng, width: size.0, height: size.1, alpha: alpha)
            for threshold in [0.0, 0.05, 0.1, 0.5] {
                let reference = ImageComparison.compareScalar(a, b, threshold: threshold, drawsDiff: true)
                let single = ImageComparison.compare(a, b, threshold: threshold, drawsDiff: true)
                let many = ImageComparison.compare(a, b, threshold: threshold, drawsDiff: true, parallel: Self.threads)
                #expect(single.difference == reference.difference, "\(size) alpha \(alpha) threshold \(threshold)")
                #expect(many.difference == reference.difference)
                #expect(single.diff == reference.diff && many.diff == reference.diff)
                #expect(single.difference.rms.bitPattern == reference.difference.rms.bitPattern)
            }
        }
    }
}
