import TransectSupport

/// Two images of one size compared in one pass: matplotlib's RMS, pixelmatch's perceptual count
/// and, on request, the diff image.
///
/// ```swift
/// let d = ImageComparison.compare(baseline, candidate, threshold: 0.1)
/// d.rms                 // 0 for identical images
/// d.perceptualPixels    // pixels a person would see differ
/// ```
///
/// The pass runs over fixed bands of ``bandRows`` rows, spread over the loop's workers; each
/// band adds integers of its own, so the result is the same on any threads. Within a row, four
/// pixels (16 bytes, as two 64-bit words) are compared at once; equal ones cost that comparison and nothing else
/// (and the grey of the diff when one is drawn). Differing pixels add their squared differences
/// to 16 lanes of 32-bit sums, flushed into 64 bits each row, and go through pixelmatch's
/// test one by one (``PerceptualDelta``). ``compareScalar(_:_:threshold:drawsDiff:)`` is the
/// plain reference the tests hold this to, bit for bit.
///
/// Complexity: O(width × height), plus O(1) more per differing pixel.
public enum ImageComparison {
    /// Rows in one band of the parallel pass.
    public static let bandRows = 32

    /// The diff image's colours: a counted difference, anti-aliasing, and a difference under the
    /// threshold; everything else is the baseline in grey, faded to 10 % over white.
    public static let differenceColour: (UInt8, UInt8, UInt8) = (255, 0, 0)
    public static let antialiasedColour: (UInt8, UInt8, UInt8) = (255, 255, 0)
    public static let slightColour: (UInt8, UInt8, UInt8) = (255, 170, 170)
    /// pixelmatch's `alpha` for the faded baseline.
    public static let fade = 0.1

    /// Compares `baseline` with `candidate` (the same size) with the YIQ `threshold` (0…1).
    /// With `drawsDiff`, also returns the diff image (RGBA, the same size).
    ///
    /// - Precondition: both images are `width` × `height`; `threshold` is in 0…1.
    public static func compare(
        _ baseline: RGBAImage, _ candidate: RGBAImage, threshold: Double = 0.1, drawsDiff: Bool = false,
        parallel: ParallelLoop = { n, body in for k in 0..<n { body(k) } }
    ) -> (difference: ImageDifference, diff: [UInt8]?) {
        precondition(baseline.width == candidate.width && baseline.height == candidate.height, "ImageComparison: images of different sizes")
        precondition(threshold >= 0 && threshold <= 1, "ImageComparison: threshold \(threshold) outside 0…1")
        let width = baseline.width
        let height = baseline.height
        let channels = baseline.keepsAlpha || candidate.keepsAlpha ? 4 : 3
        let maxDelta = PerceptualDelta.maximum * threshold * threshold
        let bands = (height + bandRows - 1) / bandRows
        let output = drawsDiff ? DiffBuffer(count: 4 * width * height) : nil
        let a = baseline.pixels
        let b = candidate.pixels
        let parts = ParallelFill.array(count: bands, chunk: 1, parallel: parallel) { band -> BandTotals in
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    compareRows(
                        pa.baseAddress!, pb.baseAddress!, width: width, height: height,
                        rows: (band * bandRows)..<min(height, (band + 1) * bandRows), channels: channels, maxDelta: maxDelta,
                        diff: output?.base)
                }
            }
        }
        var total = BandTotals()
        for part in parts { total.add(part) }
        let difference = ImageDifference(
            width: width, height: height, channels: channels, squaredErrorSum: total.squares, differingPixels: total.differing,
            perceptualPixels: total.counted, antialiasedPixels: total.antialiased, threshold: threshold)
        return (difference, output?.take())
    }

    /// What one band found.
    struct BandTotals: Sendable {
        var squares: UInt64 = 0
        var differing = 0
        var counted = 0
        var antialiased = 0

        mutating func add(_ other: BandTotals) {
            squares += other.squares
            differing += other.differing
            counted += other.counted
            antialiased += other.antialiased
        }
    }

    /// The diff image's bytes, which the bands fill row by row.
    ///
    /// `@unchecked Sendable` is safe because each band writes only the bytes of its own rows,
    /// and the buffer is read (``take()``) only after the parallel loop has returned.
    final class DiffBuffer: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let count: Int
        init(count: Int) {
            self.count = count
            base = .allocate(capacity: max(count, 1))
            base.initialize(repeating: 0, count: count)
        }
        func take() -> [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
        deinit { base.deallocate() }
    }

    /// The rows `rows` of the pass: four pixels at a time, then the row's tail one by one.
    static func compareRows(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int, height: Int, rows: Range<Int>, channels: Int,
        maxDelta: Double, diff: UnsafeMutablePointer<UInt8>?
    ) -> BandTotals {
        var totals = BandTotals()
        let rawA = UnsafeRawPointer(a)
        let rawB = UnsafeRawPointer(b)
        for y in rows {
            // 16 lanes of 32-bit sums: at most 65,025 a value and ⌈width / 4⌉ values a lane,
            // under 2³¹ for any width up to 33,000 pixels; flushed into 64 bits every row.
            var lanes = SIMD16<UInt32>.zero
            let rowStart = y * width * 4
            var x = 0
            while x + 4 <= width {
                let offset = rowStart + 4 * x
                // Equal pixels, the common case, cost two 64-bit comparisons.
                if rawA.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == rawB.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    && rawA.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self) == rawB.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                {
                    if let diff { for j in 0..<4 { drawGrey(a, offset + 4 * j, into: diff) } }
                } else {
                    let va = rawA.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                    let vb = rawB.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                    let wa = SIMD16<Int32>(truncatingIfNeeded: va)
                    let wb = SIMD16<Int32>(truncatingIfNeeded: vb)
                    let d = wa &- wb
                    lanes &+= SIMD16<UInt32>(truncatingIfNeeded: d &* d)
                    for j in 0..<4 {
                        classify(a, b, x + j, y, width: width, height: height, maxDelta: maxDelta, diff: diff, totals: &totals)
                    }
                }
                x += 4
            }
            var rowSum = UInt64(0)
            for lane in 0..<16 where channels == 4 || lane % 4 != 3 { rowSum += UInt64(lanes[lane]) }
            while x < width {
                let offset = rowStart + 4 * x
                for c in 0..<channels {
                    let d = Int(a[offset + c]) - Int(b[offset + c])
                    rowSum += UInt64(d * d)
                }
                classify(a, b, x, y, width: width, height: height, maxDelta: maxDelta, diff: diff, totals: &totals)
                x += 1
            }
            totals.squares += rowSum
        }
        return totals
    }

    /// Counts pixel (`x`, `y`) as pixelmatch does, and draws it into `diff`.
    @inline(__always)
    static func classify(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ x: Int, _ y: Int, width: Int, height: Int, maxDelta: Double,
        diff: UnsafeMutablePointer<UInt8>?, totals: inout BandTotals
    ) {
        let pos = (y * width + x) * 4
        guard a[pos] != b[pos] || a[pos + 1] != b[pos + 1] || a[pos + 2] != b[pos + 2] || a[pos + 3] != b[pos + 3] else {
            if let diff { drawGrey(a, pos, into: diff) }
            return
        }
        totals.differing += 1
        let delta = PerceptualDelta.delta(a, pos, b, pos)
        let colour: (UInt8, UInt8, UInt8)
        if abs(delta) > maxDelta {
            if PerceptualDelta.antialiased(a, x, y, width: width, height: height, other: b)
                || PerceptualDelta.antialiased(b, x, y, width: width, height: height, other: a)
            {
                totals.antialiased += 1
                colour = antialiasedColour
            } else {
                totals.counted += 1
                colour = differenceColour
            }
        } else {
            colour = slightColour
        }
        if let diff { draw(colour, pos, into: diff) }
    }

    @inline(__always)
    static func draw(_ colour: (UInt8, UInt8, UInt8), _ pos: Int, into diff: UnsafeMutablePointer<UInt8>) {
        diff[pos] = colour.0
        diff[pos + 1] = colour.1
        diff[pos + 2] = colour.2
        diff[pos + 3] = 255
    }

    /// pixelmatch's `drawGrayPixel`: the baseline's Y, blended over white at ``fade`` × its
    /// alpha, rounded half to even as a `Uint8ClampedArray` stores it.
    @inline(__always)
    static func drawGrey(_ a: UnsafePointer<UInt8>, _ pos: Int, into diff: UnsafeMutablePointer<UInt8>) {
        let y = PerceptualDelta.brightness(Double(a[pos]), Double(a[pos + 1]), Double(a[pos + 2]))
        let v = PerceptualDelta.blend(y, fade * Double(a[pos + 3]) / 255)
        let grey = UInt8(min(255, max(0, v.rounded(.toNearestOrEven))))
        diff[pos] = grey
        diff[pos + 1] = grey
        diff[pos + 2] = grey
        diff[pos + 3] = 255
    }
}
