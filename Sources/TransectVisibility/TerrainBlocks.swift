import TransectRaster
import TransectSupport

/// Bounds on what any sample can read in a rectangle of cells, so a sight ray's stretch whose
/// terrain cannot rise above its horizon is skipped without sampling it (``Viewshed/sweepRay``):
/// the highest and lowest elevation of every block of cells, at three sizes (``fine``, 8 cells a
/// side, for a stretch of ``Viewshed/cullSpan`` samples; ``coarse``, 32, for
/// ``Viewshed/coarseSpan`` samples; ``far``, 128, for ``Viewshed/farSpan`` samples).
///
/// A block holding a cell without data is `+∞` high (and `−∞` low), so a stretch near no
/// data is always sampled and its gap found.
struct TerrainBlocks: Sendable {
    /// One size of blocks.
    struct Level: Sendable {
        /// Cells on a block's side, a power of two.
        let size: Int
        /// log₂ ``size``: a cell's block is its column (row) shifted right by it, not divided
        /// (a division by a stored size costs tens of cycles, and the sweep asks millions of
        /// times).
        let shift: Int
        /// Blocks across and down (the last ones may be partial).
        let across: Int
        let down: Int
        /// Block (i, j) at j·across + i.
        let highest: [Double]
        let lowest: [Double]
        /// The same over the 3 × 3 blocks from (i, j) to (i + 2, j + 2), rounded outwards to
        /// single precision (half the cache a sight ray's looks take): any rectangle of cells
        /// starting in block (i, j) and ending at most two blocks on, in one look.
        let highestAround: [Float]
        let lowestAround: [Float]

        init(size: Int, across: Int, down: Int, highest: [Double], lowest: [Double]) {
            precondition(size > 0 && size & (size - 1) == 0, "blocks of a power of two cells")
            self.size = size
            shift = size.trailingZeroBitCount
            self.across = across
            self.down = down
            self.highest = highest
            self.lowest = lowest
            highestAround = Self.around(highest, across: across, down: down, up: true)
            lowestAround = Self.around(lowest, across: across, down: down, up: false)
        }

        /// The highest (`up`) or lowest of `values` over the 3 × 3 blocks from each block on
        /// (`across` × `down` blocks, row-major), rounded outwards to single precision
        /// (``outward(_:up:)``): three blocks across into a scratch row-major array, then three
        /// of those down, each written once (no copy of the blocks to update in place).
        static func around(_ values: [Double], across: Int, down: Int, up: Bool) -> [Float] {
            @inline(__always) func extreme(_ a: Double, _ b: Double) -> Double { up ? max(a, b) : min(a, b) }
            let n = across * down
            let rows = [Double](unsafeUninitializedCapacity: n) { rows, count in
                values.withUnsafeBufferPointer { values in
                    for j in 0..<down {
                        for i in 0..<across {
                            let k = j * across + i
                            var e = values[k]
                            for di in 1..<3 where i + di < across { e = extreme(e, values[k + di]) }
                            rows[k] = e
                        }
                    }
                }
                count = n
            }
            return [Float](unsafeUninitializedCapacity: n) { out, count in
                rows.withUnsafeBufferPointer { rows in
                    for j in 0..<down {
                        for i in 0..<across {
                            let k = j * across + i
                            var e = rows[k]
                            for dj in 1..<3 where j + dj < down { e = extreme(e, rows[k + dj * across]) }
                            out[k] = outward(e, up: up)
                        }
                    }
                }
                count = n
            }
        }

        /// Blocks four times as large a side: each the extremes of 4 × 4 of these.
        func merged() -> Level {
            let mergedAcross = (across + 3) / 4
            let mergedDown = (down + 3) / 4
            var mergedHighest = [Double](repeating: -.infinity, count: mergedAcross * mergedDown)
            var mergedLowest = [Double](repeating: .infinity, count: mergedAcross * mergedDown)
            for j in 0..<down {
                for i in 0..<across {
                    let k = (j / 4) * mergedAcross + i / 4
                    mergedHighest[k] = max(mergedHighest[k], highest[j * across + i])
                    mergedLowest[k] = min(mergedLowest[k], lowest[j * across + i])
                }
            }
            return Level(size: 4 * size, across: mergedAcross, down: mergedDown, highest: mergedHighest, lowest: mergedLowest)
        }

        /// `z` in single precision, rounded up (`up`) or down to a Float at or beyond it.
        @inline(__always)
        static func outward(_ z: Double, up: Bool) -> Float {
            let f = Float(z)
            if up { return Double(f) < z ? f.nextUp : f }
            return Double(f) > z ? f.nextDown : f
        }

        /// The highest and (when `needsLowest`) lowest elevation of cells `c0...c1` ×
        /// `r0...r1`, which lie inside the raster.
        @inline(__always)
        func range(columns c0: Int, _ c1: Int, rows r0: Int, _ r1: Int, needsLowest: Bool) -> (Double, Double) {
            let i0 = c0 &>> shift
            let i1 = c1 &>> shift
            let j0 = r0 &>> shift
            let j1 = r1 &>> shift
            if i1 &- i0 < 3 && j1 &- j0 < 3 {
                // Block (i0, j0) of the raster's (its cells lie inside it): an index below
                // across × down, read without a second bounds test.
                let k = j0 &* across &+ i0
                let top = highestAround.withUnsafeBufferPointer { $0[k] }
                return (Double(top), needsLowest ? Double(lowestAround.withUnsafeBufferPointer { $0[k] }) : .infinity)
            }
            var top = -Double.infinity
            var bottom = Double.infinity
            for j in j0...j1 {
                for i in i0...i1 {
                    top = max(top, highest[j * across + i])
                    bottom = min(bottom, lowest[j * across + i])
                }
            }
            return (top, bottom)
        }
    }

    /// The raster's columns and rows.
    let width: Int
    let height: Int
    /// Blocks of 8 cells a side, of 32 and of 128.
    let fine: Level
    let coarse: Level
    let far: Level

    init(terrain: some ViewshedTerrain, parallel: ParallelLoop) {
        let w = terrain.width
        let h = terrain.height
        let size = 8
        let across = (w + size - 1) / size
        let down = (h + size - 1) / size
        width = w
        height = h
        // One row of blocks per item (the terrain's own kernel where it has one), written in
        // place: each item its own row of both arrays.
        let n = across * down
        var lowest: [Double] = []
        let highest = [Double](unsafeUninitializedCapacity: n) { highest, count in
            lowest = [Double](unsafeUninitializedCapacity: n) { lowest, count in
                let rows = BlockRows(highest: highest.baseAddress!, lowest: lowest.baseAddress!)
                parallel(down) { j in
                    terrain.blockExtremes(
                        rows: (j * size)..<min(h, (j + 1) * size), size: size, highest: rows.highest + j * across, lowest: rows.lowest + j * across)
                }
                count = n
            }
            count = n
        }
        fine = Level(size: size, across: across, down: down, highest: highest, lowest: lowest)
        coarse = fine.merged()
        far = coarse.merged()
    }

    /// The highest value `interpolation` can give at a point whose taps lie in cells
    /// `columns` × `rows`, a little above it for rounding; `+∞` when they reach beyond the
    /// raster, where taps outside make gaps near its edges that the bound would not know.
    /// Bilinear and nearest give a weighted mean of taps with weights ≥ 0, so at most their
    /// highest; Keys' cubic (a = −½) can overshoot: its negative weights sum to at most
    /// ½·t(1 − t) ≤ ⅛ a side, 0.28125 of both sides, so it gives at most the highest plus 0.3
    /// of the taps' range.
    @inline(__always)
    func bound(columns c0: Int, _ c1: Int, rows r0: Int, _ r1: Int, interpolation: Interpolation, level: Level) -> Double {
        guard c0 >= 0, r0 >= 0, c1 < width, r1 < height, c0 <= c1, r0 <= r1 else { return .infinity }
        let cubic = interpolation == .cubic
        let (top, bottom) = level.range(columns: c0, c1, rows: r0, r1, needsLowest: cubic)
        guard top.isFinite else { return top }
        let z = cubic ? top + 0.3 * (top - bottom) : top
        return z + 1e-9 * (1 + abs(z))
    }
}

/// The fine blocks' arrays while their rows are filled.
///
/// `@unchecked Sendable` is safe because each item of the loop writes only its own row of
/// each, and the loop returns before the arrays are used.
private struct BlockRows: @unchecked Sendable {
    let highest: UnsafeMutablePointer<Double>
    let lowest: UnsafeMutablePointer<Double>
}

/// What a viewshed reads of its terrain whatever the observer (the bounds of its blocks of
/// cells): made once, it serves every observer over the same terrain.
public struct ViewshedTerrainPreparation: Sendable {
    let blocks: TerrainBlocks

    /// The preparation of `terrain`, on `threads` workers.
    @_specialize(where Terrain == Float32ElevationGrid)
    @_specialize(where Terrain == ElevationGrid)
    public init<Terrain: ViewshedTerrain>(terrain: Terrain, threads: Int) {
        blocks = TerrainBlocks(terrain: terrain, parallel: stripedParallelLoop(threads: threads))
    }
}
