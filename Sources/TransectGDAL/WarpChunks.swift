/// The chunks GDAL's warper cuts a frame into, predicted, for a warp whose values depend on them:
/// the approximating transformer interpolates along each chunk's rows, so a position's
/// coordinates depend on the chunk's columns.
///
/// GDAL's rule (`GDALWarpOperation::CollectChunkList`): a chunk is halved when its destination
/// and source window need more than the warp memory limit, or when less than half of the source
/// window it would need lies in the raster (the "fill ratio", for chunks over 100 pixels in
/// either direction); across its columns when it is wider than tall, else across its rows; the
/// first half gets the smaller count. The source window of a chunk is the bounding box of its
/// edges transformed into the raster, widened by the kernel's radius and clamped to the raster.
///
/// The prediction transforms 21 points along each chunk edge exactly, where GDAL's own samples
/// can differ slightly, so a decision that lies within a margin of GDAL's threshold is declared
/// uncertain and the prediction gives up (nil): the caller then lets the warper work.
struct WarpChunks {
    struct Chunk: Equatable {
        let column: Int
        let row: Int
        let width: Int
        let height: Int
        /// False when no source cell can reach the chunk (GDAL skips it; its pixels stay nan).
        let hasSource: Bool
    }

    let chunks: [Chunk]

    /// The chunks of a `frameWidth` × `frameHeight` Float32 warp from a one-band Float32 source
    /// of `rasterWidth` × `rasterHeight` cells with no mask, `radius` the resampling kernel's
    /// (2 for the cubic B-spline), the memory limit `memoryLimitBytes`; nil when uncertain.
    init?(
        frameWidth: Int, frameHeight: Int, rasterWidth: Int, rasterHeight: Int, radius: Int, memoryLimitBytes: Double,
        transformer: FrameSourceTransformer
    ) {
        var out: [Chunk] = []
        var stack = [(0, 0, frameWidth, frameHeight)]
        while let (x, y, w, h) = stack.popLast() {
            guard out.count + stack.count < 4096 else { return nil }
            var xs: [Double] = []
            var ys: [Double] = []
            for k in 0...20 {
                let fx = Double(x) + Double(w) * Double(k) / 20
                let fy = Double(y) + Double(h) * Double(k) / 20
                xs += [fx, fx, Double(x), Double(x + w)]
                ys += [Double(y), Double(y + h), fy, fy]
            }
            guard transformer.exact(x: &xs, y: &ys) else { return nil }
            let minX = xs.min()!
            let maxX = xs.max()!
            let minY = ys.min()!
            let maxY = ys.max()!
            let outside = minX > Double(rasterWidth) || maxX < 0 || minY > Double(rasterHeight) || maxY < 0
            let clearlyOutside =
                minX > Double(rasterWidth) + 1 || maxX < -1 || minY > Double(rasterHeight) + 1 || maxY < -1
            if outside != clearlyOutside { return nil }
            if outside {
                out.append(Chunk(column: x, row: y, width: w, height: h, hasSource: false))
                continue
            }
            let x0 = max(0, Int(minX.rounded(.down)) - radius)
            let y0 = max(0, Int(minY.rounded(.down)) - radius)
            let sourceWidth = max(0, min(rasterWidth - x0, Int(maxX.rounded(.up)) - x0 + radius))
            let sourceHeight = max(0, min(rasterHeight - y0, Int(maxY.rounded(.up)) - y0 + radius))
            let area = Double(sourceWidth) * Double(sourceHeight)
            let fill = area / max(1, (maxX - minX + Double(2 * radius)) * (maxY - minY + Double(2 * radius)))
            let memory = 4 * area + 4 * Double(w) * Double(h)
            // Margins: GDAL's edge samples differ from these by a fraction of a cell.
            let large = w > 100 || h > 100
            if large, abs(fill - 0.5) < 0.05 { return nil }
            if w > 2 || h > 2, abs(memory - memoryLimitBytes) < 0.02 * memoryLimitBytes { return nil }
            let split = (memory > memoryLimitBytes && (w > 2 || h > 2)) || (fill > 0 && fill < 0.5 && large)
            guard split else {
                out.append(Chunk(column: x, row: y, width: w, height: h, hasSource: sourceWidth > 0 && sourceHeight > 0))
                continue
            }
            // Pushed second half first, so chunks come out in GDAL's order.
            if w > h {
                let first = w / 2
                stack.append((x + first, y, w - first, h))
                stack.append((x, y, first, h))
            } else {
                let first = h / 2
                stack.append((x, y + first, w, h - first))
                stack.append((x, y, w, first))
            }
        }
        chunks = out
    }
}
