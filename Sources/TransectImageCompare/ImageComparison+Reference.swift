extension ImageComparison {
    /// The plain reference of ``compare(_:_:threshold:drawsDiff:parallel:)``: pixel after pixel,
    /// channel after channel, on one thread, as matplotlib's `calculate_rms` and pixelmatch's
    /// loop read. The tests hold the SIMD pass to it bit for bit.
    public static func compareScalar(
        _ baseline: RGBAImage, _ candidate: RGBAImage, threshold: Double = 0.1, drawsDiff: Bool = false
    ) -> (difference: ImageDifference, diff: [UInt8]?) {
        precondition(baseline.width == candidate.width && baseline.height == candidate.height, "ImageComparison: images of different sizes")
        let width = baseline.width
        let height = baseline.height
        let channels = baseline.keepsAlpha || candidate.keepsAlpha ? 4 : 3
        let maxDelta = PerceptualDelta.maximum * threshold * threshold
        var squares: UInt64 = 0
        var differing = 0
        var counted = 0
        var antialiased = 0
        var diff = [UInt8](repeating: 0, count: drawsDiff ? 4 * width * height : 0)
        baseline.pixels.withUnsafeBufferPointer { pa in
            candidate.pixels.withUnsafeBufferPointer { pb in
                diff.withUnsafeMutableBufferPointer { pd in
                    guard let a = pa.baseAddress, let b = pb.baseAddress else { return }
                    for y in 0..<height {
                        for x in 0..<width {
                            let pos = (y * width + x) * 4
                            var same = true
                            for c in 0..<4 where a[pos + c] != b[pos + c] { same = false }
                            for c in 0..<channels {
                                let d = Int(a[pos + c]) - Int(b[pos + c])
                                squares += UInt64(d * d)
                            }
                            var colour: (UInt8, UInt8, UInt8)? = nil
                            if !same {
                                differing += 1
                                let delta = PerceptualDelta.delta(a, pos, b, pos)
                                if abs(delta) <= maxDelta {
                                    colour = slightColour
                                } else if PerceptualDelta.antialiased(a, x, y, width: width, height: height, other: b)
                                    || PerceptualDelta.antialiased(b, x, y, width: width, height: height, other: a)
                                {
                                    antialiased += 1
                                    colour = antialiasedColour
                                } else {
                                    counted += 1
                                    colour = differenceColour
                                }
                            }
                            guard let d = pd.baseAddress else { continue }
                            if let colour { draw(colour, pos, into: d) } else { drawGrey(a, pos, into: d) }
                        }
                    }
                }
            }
        }
        let difference = ImageDifference(
            width: width, height: height, channels: channels, squaredErrorSum: squares, differingPixels: differing, perceptualPixels: counted,
            antialiasedPixels: antialiased, threshold: threshold)
        return (difference, drawsDiff ? diff : nil)
    }
}
