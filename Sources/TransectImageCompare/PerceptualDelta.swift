/// pixelmatch's perceptual test of one pixel (mapbox/pixelmatch 5.x, `index.js`), in the same
/// `Double` operations in the same order, so a pixel is counted exactly when pixelmatch counts it.
///
/// ## The maths
/// A colour with alpha a < 255 is first blended over white, c' = 255 + (c − 255)·a/255. Its YIQ
/// coordinates (NTSC, the coefficients of Kotsarenko and Ramos, 2010) are
/// ```
///   Y = 0.29889531 r + 0.58662247 g + 0.11448223 b
///   I = 0.59597799 r − 0.27417610 g − 0.32180189 b
///   Q = 0.21147017 r − 0.52261711 g + 0.31114694 b
/// ```
/// and the squared distance between two colours is δ = 0.5053 ΔY² + 0.299 ΔI² + 0.1957 ΔQ²,
/// whose largest value (black against white) is 35215. A pixel differs when |δ| exceeds
/// 35215·t² for the threshold t (default 0.1), unless it is anti-aliasing in either image.
///
/// ## Anti-aliasing
/// After Vysniauskas (2009), "Anti-aliased pixel and intensity slope detector": a pixel is
/// anti-aliased when among its 8 neighbours at most 2 equal it (a pixel on the image's edge
/// counts one more), some are darker and some brighter (by Y alone), and the darkest or the
/// brightest of them has 3 or more equal neighbours of its own in both images (it lies in a flat
/// region, so the pixel between is a blend of edges). Neighbours are visited column by column
/// (x outer, y inner) and the first darkest and brightest kept, as pixelmatch visits them.
@usableFromInline
enum PerceptualDelta {
    /// 35215: δ between black and white, the largest there is.
    @usableFromInline static let maximum = 35215.0

    /// δ between pixel `k` of `first` and pixel `m` of `second` (byte offsets of their red
    /// bytes), signed as pixelmatch signs it: −δ when the first pixel is the brighter (its Y is
    /// above the second's). With `brightnessOnly`, Y₁ − Y₂ alone.
    @inlinable
    static func delta(_ first: UnsafePointer<UInt8>, _ k: Int, _ second: UnsafePointer<UInt8>, _ m: Int, brightnessOnly: Bool = false) -> Double {
        let a1 = first[k + 3]
        let a2 = second[m + 3]
        if a1 == a2 && first[k] == second[m] && first[k + 1] == second[m + 1] && first[k + 2] == second[m + 2] { return 0 }
        var r1 = Double(first[k])
        var g1 = Double(first[k + 1])
        var b1 = Double(first[k + 2])
        var r2 = Double(second[m])
        var g2 = Double(second[m + 1])
        var b2 = Double(second[m + 2])
        if a1 < 255 {
            let a = Double(a1) / 255
            r1 = blend(r1, a)
            g1 = blend(g1, a)
            b1 = blend(b1, a)
        }
        if a2 < 255 {
            let a = Double(a2) / 255
            r2 = blend(r2, a)
            g2 = blend(g2, a)
            b2 = blend(b2, a)
        }
        let y1 = brightness(r1, g1, b1)
        let y2 = brightness(r2, g2, b2)
        let y = y1 - y2
        if brightnessOnly { return y }
        let i = inPhase(r1, g1, b1) - inPhase(r2, g2, b2)
        let q = quadrature(r1, g1, b1) - quadrature(r2, g2, b2)
        let d = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y1 > y2 ? -d : d
    }

    /// A colour channel over white at opacity `a` (0…1).
    @inlinable static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }
    @inlinable static func brightness(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }
    @inlinable static func inPhase(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.59597799 - g * 0.27417610 - b * 0.32180189 }
    @inlinable static func quadrature(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.21147017 - g * 0.52261711 + b * 0.31114694 }

    /// True when pixel (`x1`, `y1`) of `image` looks like anti-aliasing (see the type's notes);
    /// `other` is the other image, whose flat regions count too.
    @usableFromInline
    static func antialiased(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, width: Int, height: Int, other: UnsafePointer<UInt8>) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var darkest = 0.0
        var brightest = 0.0
        var darkestAt = (0, 0)
        var brightestAt = (0, 0)
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let d = delta(image, pos, image, (y * width + x) * 4, brightnessOnly: true)
                if d == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if d < darkest {
                    darkest = d
                    darkestAt = (x, y)
                } else if d > brightest {
                    brightest = d
                    brightestAt = (x, y)
                }
            }
        }
        if darkest == 0 || brightest == 0 { return false }
        return
            (hasManySiblings(image, darkestAt.0, darkestAt.1, width: width, height: height)
            && hasManySiblings(other, darkestAt.0, darkestAt.1, width: width, height: height))
            || (hasManySiblings(image, brightestAt.0, brightestAt.1, width: width, height: height)
                && hasManySiblings(other, brightestAt.0, brightestAt.1, width: width, height: height))
    }

    /// True when pixel (`x1`, `y1`) has 3 or more neighbours of exactly its RGBA (a pixel on the
    /// edge counting one more).
    @usableFromInline
    static func hasManySiblings(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, width: Int, height: Int) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let other = (y * width + x) * 4
                if image[pos] == image[other] && image[pos + 1] == image[other + 1] && image[pos + 2] == image[other + 2]
                    && image[pos + 3] == image[other + 3]
                {
                    zeroes += 1
                }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}
