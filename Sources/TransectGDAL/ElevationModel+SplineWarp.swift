import CGDAL
import Dispatch
import TransectRaster

// GDAL's warper spends nearly all of a large frame's time in its general resampling loop: for
// Float32 data and `cubicspline` it has no specialised kernel, so every frame pixel calls the
// B-spline weight function eight times and walks the taps through per-pixel mask and type
// checks. ``BSplineWarp`` computes the same values to the bit in SIMD lanes; here the rows of
// each of the warper's chunks (``WarpChunks``) are transformed with GDAL's own approximating
// transformer (the coordinates the warper would use) and resampled, the rows shared out in fixed
// strips over several threads. Only the cases whose result is certainly the warper's take this
// path; everything else stays with `GDALWarp`.

extension ElevationModel {
    /// The frame resampled with ``BSplineWarp`` (GDAL's `cubicspline` values), or nil when the
    /// warper's result could differ from it and `GDALWarp` must do the work. Scale and offset are
    /// not applied.
    func splineWarped(into frame: FrameGrid, threads: Int) throws(TerrainError) -> [Float]? {
        guard let window = try splineWarpWindow(for: frame) else { return nil }
        let sourceCRS = crsAssumed ? crs : nil
        let first = try FrameSourceTransformer(source: dataset, sourceCRS: sourceCRS, frame: frame, label: label)
        guard
            let plan = WarpChunks(
                frameWidth: frame.width, frameHeight: frame.height, rasterWidth: width, rasterHeight: height, radius: 2,
                memoryLimitBytes: Double(Warper.memoryLimitMegabytes) * 1024 * 1024, transformer: first)
        else { return nil }
        var values = [Float](repeating: .nan, count: window.width * window.height)
        try band.read(
            column: window.column, row: window.row, width: window.width, height: window.height, into: &values,
            bufferWidth: window.width, bufferHeight: window.height, type: GDT_Float32
        ) {
            .readFailed(path: label, reason: $0)
        }
        // One task per row of each chunk, in chunk order (the chunks tile the frame, so the
        // tasks write every pixel once: the frame is first touched by the workers, in parallel).
        var tasks: [(chunk: Int, row: Int)] = []
        for (k, chunk) in plan.chunks.enumerated() {
            for row in chunk.row..<(chunk.row + chunk.height) { tasks.append((k, row)) }
        }
        let workers = max(1, min(threads, 64, tasks.count))
        var transformers = [first]
        while transformers.count < workers {
            transformers.append(try FrameSourceTransformer(source: dataset, sourceCRS: sourceCRS, frame: frame, label: label))
        }
        var outsideWindow = false
        let count = frame.width * frame.height
        let out = values.withUnsafeBufferPointer { source in
            // Float is trivial: a frame given up on (outside the window) is dropped unread.
            [Float](unsafeUninitializedCapacity: count) { target, initialised in
                let job = SplineWarpJob(
                    source: BSplineWarp.Source(
                        values: source, column: window.column, row: window.row, windowWidth: window.width,
                        windowHeight: window.height, rasterWidth: width, rasterHeight: height),
                    target: target.baseAddress!, frameWidth: frame.width, chunks: plan.chunks, tasks: tasks,
                    transformers: transformers)
                DispatchQueue.concurrentPerform(iterations: workers) { job.run(strip: $0) }
                outsideWindow = job.outsideWindow.contains(true)
                initialised = count
            }
        }
        // A frame that bends beyond the window read for it: the warper does it.
        return outsideWindow ? nil : out
    }

    /// The raster window ``splineWarped(into:threads:)`` reads for `frame`, or nil when the
    /// frame is not one it can do: the DEM must be one band with no mask and no no-data value,
    /// at least 8 cells each way; the frame must be finer than the DEM by at least 1.25 along
    /// each axis (so the warper uses the B-spline unscaled), stay 4 cells clear of the raster's
    /// right and bottom edges, and every point of its 17 × 17 sample grid must transform.
    func splineWarpWindow(for frame: FrameGrid) throws(TerrainError) -> (column: Int, row: Int, width: Int, height: Int)? {
        guard dataset.bandCount == 1, band.maskFlags == GMF_ALL_VALID, info.noData == nil, width >= 8, height >= 8 else {
            return nil
        }
        let grid = try frameSampleGrid(frame)
        guard grid.columns.allSatisfy(\.isFinite), grid.rows.allSatisfy(\.isFinite) else { return nil }
        let minC = grid.columns.min()!
        let maxC = grid.columns.max()!
        let minR = grid.rows.min()!
        let maxR = grid.rows.max()!
        let spanC = max(maxC - minC, 1e-9)
        let spanR = max(maxR - minR, 1e-9)
        guard Double(frame.width) / spanC >= 1.25, Double(frame.height) / spanR >= 1.25 else { return nil }
        // Near the raster's right and bottom edges GDAL's warper keeps or drops positions in ways
        // this path does not reproduce to the bit (its tests compare the two); frames that come
        // within 4 cells of those edges stay with the warper. Left and top edges match.
        guard maxC < Double(width) - 4, maxR < Double(height) - 4 else { return nil }
        // The window: the sample grid's bounds, clamped to the raster, with room for the taps
        // and for rows that bow between the samples.
        let marginC = 8 + spanC / 64
        let marginR = 8 + spanR / 64
        let c0 = max(0, Int((max(minC, 0) - marginC).rounded(.down)))
        let r0 = max(0, Int((max(minR, 0) - marginR).rounded(.down)))
        let c1 = min(width, Int((min(maxC, Double(width)) + marginC).rounded(.up)))
        let r1 = min(height, Int((min(maxR, Double(height)) + marginR).rounded(.up)))
        guard c1 > c0, r1 > r0 else { return nil }
        return (c0, r0, c1 - c0, r1 - r0)
    }
}

/// One spline warp shared by its workers.
///
/// `@unchecked Sendable` is safe because worker `k` uses only `transformers[k]`, writes only the
/// pixels of its own strip of tasks (each task is one row of one chunk, and chunks do not
/// overlap) and only `outsideWindow[k]`, and reads `source`, which no one writes meanwhile.
/// Every pixel of a chunk row is written (nan where there is no value; ``BSplineWarp`` writes
/// every position it is given), so the tasks initialise the whole frame.
private final class SplineWarpJob: @unchecked Sendable {
    let source: BSplineWarp.Source
    let target: UnsafeMutablePointer<Float>
    let frameWidth: Int
    let chunks: [WarpChunks.Chunk]
    let tasks: [(chunk: Int, row: Int)]
    let transformers: [FrameSourceTransformer]
    var outsideWindow: [Bool]

    init(
        source: BSplineWarp.Source, target: UnsafeMutablePointer<Float>, frameWidth: Int, chunks: [WarpChunks.Chunk],
        tasks: [(chunk: Int, row: Int)], transformers: [FrameSourceTransformer]
    ) {
        self.source = source
        self.target = target
        self.frameWidth = frameWidth
        self.chunks = chunks
        self.tasks = tasks
        self.transformers = transformers
        outsideWindow = [Bool](repeating: false, count: transformers.count)
    }

    /// Tasks `strip · count / workers ..< (strip + 1) · count / workers`.
    func run(strip: Int) {
        let transformer = transformers[strip]
        let workers = transformers.count
        var x: [Double] = []
        var y: [Double] = []
        var success: [Int32] = []
        for task in tasks[(strip * tasks.count / workers)..<((strip + 1) * tasks.count / workers)] {
            let chunk = chunks[task.chunk]
            guard chunk.hasSource else {
                (target + task.row * frameWidth + chunk.column).initialize(repeating: .nan, count: chunk.width)
                continue
            }
            if x.count != chunk.width {
                x = [Double](repeating: 0, count: chunk.width)
                y = x
                success = [Int32](repeating: 0, count: chunk.width)
            }
            transformer.sourceRow(task.row, column: chunk.column, x: &x, y: &y, success: &success)
            guard tapsInsideWindow(x: x, y: y, success: success) else {
                outsideWindow[strip] = true
                return
            }
            x.withUnsafeBufferPointer { xs in
                y.withUnsafeBufferPointer { ys in
                    success.withUnsafeBufferPointer { ok in
                        BSplineWarp.resampleRow(
                            source, count: chunk.width, x: xs.baseAddress!, y: ys.baseAddress!, success: ok.baseAddress!,
                            into: target + task.row * frameWidth + chunk.column)
                    }
                }
            }
        }
    }

    /// Whether every tap of every point of the row that lands in the raster lies in the window
    /// read (taps beyond the raster's edges are left out by the kernel itself).
    private func tapsInsideWindow(x: [Double], y: [Double], success: [Int32]) -> Bool {
        let w = Double(source.rasterWidth)
        let h = Double(source.rasterHeight)
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        for k in x.indices where success[k] != 0 && x[k] >= 0 && y[k] >= 0 && x[k] <= w && y[k] <= h {
            minX = min(minX, x[k])
            maxX = max(maxX, x[k])
            minY = min(minY, y[k])
            maxY = max(maxY, y[k])
        }
        guard minX <= maxX else { return true }
        // The taps of a position x run from ⌊x − 0.5⌋ − 1 to ⌊x − 0.5⌋ + 2, clipped to the raster.
        let c0 = max(Int((minX - 0.5).rounded(.down)) - 1, 0)
        let c1 = min(Int((maxX - 0.5).rounded(.down)) + 2, source.rasterWidth - 1)
        let r0 = max(Int((minY - 0.5).rounded(.down)) - 1, 0)
        let r1 = min(Int((maxY - 0.5).rounded(.down)) + 2, source.rasterHeight - 1)
        return c0 >= source.column && c1 < source.column + source.windowWidth && r0 >= source.row
            && r1 < source.row + source.windowHeight
    }
}
