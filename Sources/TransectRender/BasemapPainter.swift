import Dispatch
import TransectRaster

/// Turns elevations warped into a frame into basemap pixels.
enum BasemapPainter {
    /// Rows per piece of the work split across threads: fixed, so the pieces never depend on
    /// the thread count.
    static let stripRows = 64

    /// Hillshade of a frame's elevations, strips of rows on `threads` threads.
    static func shade(_ z: [Float], frame: MapFrame, parameters: HillshadeParameters, threads: Int) -> [UInt8] {
        shade(z, frame: frame, parameters: parameters, threads: threads) { _, _ in }
    }

    /// Hillshade of a frame's elevations painted on `canvas` as grey (level 0, no data, as
    /// `noData`, or black): each strip of rows is shaded and put on the canvas by one thread,
    /// while it is still in that core's cache.
    static func paintHillshade(
        _ z: [Float], frame: MapFrame, parameters: HillshadeParameters, noData: Color?, on canvas: Canvas, threads: Int
    ) {
        let nd = Canvas.opaque(noData)
        let width = frame.width
        canvas.withMutablePixels { data, stride in
            let target = SharedPixels(data: data)
            _ = shade(z, frame: frame, parameters: parameters, threads: threads) { grey, rows in
                Canvas.putGrey(grey, rows: rows, width: width, noData: nd, into: target.data, stride: stride)
            }
        }
    }

    /// Shades strips of ``stripRows`` rows on `threads` threads, handing each strip's rows to
    /// `then` on the thread that shaded them.
    static func shade(
        _ z: [Float], frame: MapFrame, parameters: HillshadeParameters, threads: Int,
        then: @Sendable (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: z.count)
        let w = frame.width
        let h = frame.height
        let cellX = frame.pixelSizeX * frame.crs.linearUnitMetres
        let cellY = frame.pixelSizeY * frame.crs.linearUnitMetres
        z.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                let shared = SharedBuffers(input: input, output: output)
                Parallel.forEach((h + stripRows - 1) / stripRows, threads: threads) { k in
                    let rows = Parallel.rows(k, of: stripRows, height: h)
                    Hillshade.shade(
                        elevations: shared.input, width: w, height: h, cellWidth: cellX, cellHeight: cellY,
                        parameters: parameters, computeEdges: true, rows: rows, into: shared.output)
                    then(UnsafeBufferPointer(shared.output), rows)
                }
            }
        }
        return out
    }

    /// Buffers handed to worker threads, each writing only its own rows.
    ///
    /// `@unchecked Sendable` is safe because the input is only read, each worker writes a
    /// disjoint range of the output's rows, and both buffers outlive the workers:
    /// `concurrentPerform` returns only when every worker is done, inside the
    /// `withUnsafe…BufferPointer` calls that lend them.
    struct SharedBuffers: @unchecked Sendable {
        let input: UnsafeBufferPointer<Float>
        let output: UnsafeMutableBufferPointer<UInt8>
    }

    /// A canvas's pixels handed to worker threads, each writing only its own rows.
    ///
    /// `@unchecked Sendable` is safe because each worker writes a disjoint range of rows and
    /// the pixels outlive the workers: `concurrentPerform` returns only when every worker is
    /// done, inside the `withMutablePixels` call that lends them.
    struct SharedPixels: @unchecked Sendable {
        let data: UnsafeMutablePointer<UInt8>
    }

    /// A light hillshade: shade mapped into 212…250, slightly warm, for quiet overlays.
    static func lightGray(_ shade: [UInt8]) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: shade.count * 3)
        for k in shade.indices {
            if shade[k] == 0 {
                (rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]) = Palette.noDataRGB
                continue
            }
            let v = 212 + Double(shade[k]) * 38 / 255
            rgb[3 * k] = UInt8(v.rounded())
            rgb[3 * k + 1] = UInt8((v - 1).rounded())
            rgb[3 * k + 2] = UInt8((v - 3).rounded())
        }
        return rgb
    }

    /// The hypsometric ramp: lowland greens through tans and browns to pale grey summits.
    static let ramp: [(Double, (Double, Double, Double))] = [
        (0.00, (0.44, 0.64, 0.44)), (0.20, (0.66, 0.77, 0.52)), (0.40, (0.90, 0.87, 0.62)),
        (0.60, (0.84, 0.70, 0.50)), (0.80, (0.66, 0.54, 0.44)), (1.00, (0.95, 0.94, 0.93)),
    ]

    static func rampColor(_ t: Double) -> (Double, Double, Double) {
        let t = min(max(t, 0), 1)
        for k in 1..<ramp.count where t <= ramp[k].0 {
            let (t0, c0) = ramp[k - 1]
            let (t1, c1) = ramp[k]
            let f = (t - t0) / (t1 - t0)
            return (c0.0 + (c1.0 - c0.0) * f, c0.1 + (c1.1 - c0.1) * f, c0.2 + (c1.2 - c0.2) * f)
        }
        return ramp.last!.1
    }

    /// Hypsometric tint between `low` and `high` metres, multiplied by a softened hillshade.
    static func tint(_ z: [Float], shade: [UInt8], low: Double, high: Double) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: z.count * 3)
        let span = max(high - low, 1)
        for k in z.indices {
            guard !z[k].isNaN, shade[k] != 0 else {
                (rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]) = Palette.noDataRGB
                continue
            }
            let c = rampColor((Double(z[k]) - low) / span)
            let light = 0.45 + 0.55 * Double(shade[k]) / 255
            rgb[3 * k] = UInt8(min(255, (c.0 * light * 255).rounded()))
            rgb[3 * k + 1] = UInt8(min(255, (c.1 * light * 255).rounded()))
            rgb[3 * k + 2] = UInt8(min(255, (c.2 * light * 255).rounded()))
        }
        return rgb
    }
}
