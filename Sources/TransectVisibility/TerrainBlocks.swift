import TransectRaster
import TransectSupport

/// The highest and lowest elevation of every ``size`` × ``size`` block of cells: a bound on
/// what any sample can read in a rectangle of cells, so a sight ray's stretch whose terrain
/// cannot rise above its horizon is skipped without sampling it (``Viewshed/sweepRay``).
///
/// A block holding a cell without data is `+∞` high (and `−∞` low), so a stretch near no
/// data is always sampled and its gap found.
struct TerrainBlocks: Sendable {
    /// Cells on a block's side.
    static let size = 8
    /// The raster's columns and rows.
    let width: Int
    let height: Int
    /// Blocks across and down (the last ones may be partial).
    let across: Int
    let down: Int
    /// Block (i, j) at j·across + i.
    let highest: [Double]
    let lowest: [Double]

    init(terrain: some ViewshedTerrain, parallel: ParallelLoop) {
        let w = terrain.width
        let h = terrain.height
        let size = Self.size
        let across = (w + size - 1) / size
        let down = (h + size - 1) / size
        width = w
        height = h
        self.across = across
        self.down = down
        // One row of blocks per item: its cells are read row after row.
        let bands = ParallelFill.array(count: down, chunk: 1, parallel: parallel) { j -> [Double] in
            var high = [Double](repeating: -.infinity, count: across)
            var low = [Double](repeating: .infinity, count: across)
            for r in (j * size)..<min(h, (j + 1) * size) {
                for i in 0..<across {
                    var top = high[i]
                    var bottom = low[i]
                    for c in (i * size)..<min(w, (i + 1) * size) {
                        let z = terrain.elevation(index: r * w + c)
                        if z.isNaN {
                            top = .infinity
                            bottom = -.infinity
                        } else {
                            top = max(top, z)
                            bottom = min(bottom, z)
                        }
                    }
                    high[i] = top
                    low[i] = bottom
                }
            }
            return high + low
        }
        highest = bands.flatMap { $0[0..<across] }
        lowest = bands.flatMap { $0[across...] }
    }

    /// The highest value `interpolation` can give at a point whose taps lie in cells
    /// `columns` × `rows`, a little above it for rounding; `+∞` when they reach beyond the
    /// raster, where taps outside make gaps near its edges that the bound would not know. Bilinear and nearest give a weighted mean of taps with weights ≥ 0, so
    /// at most their highest; Keys' cubic (a = −½) can overshoot: its negative weights sum to
    /// at most ½·t(1 − t) ≤ ⅛ a side, 0.28125 of both sides, so it gives at most the highest
    /// plus 0.3 of the taps' range.
    @inline(__always)
    func bound(columns c0: Int, _ c1: Int, rows r0: Int, _ r1: Int, interpolation: Interpolation) -> Double {
        guard c0 >= 0, r0 >= 0, c1 < width, r1 < height, c0 <= c1, r0 <= r1 else { return .infinity }
        let size = Self.size
        let i0 = c0 / size
        let i1 = c1 / size
        let j0 = r0 / size
        let j1 = r1 / size
        var top = -Double.infinity
        var bottom = Double.infinity
        for j in j0...j1 {
            let row = j * across
            for i in i0...i1 {
                top = max(top, highest[row + i])
                bottom = min(bottom, lowest[row + i])
            }
        }
        guard top.isFinite else { return top }
        let z = interpolation == .cubic ? top + 0.3 * (top - bottom) : top
        return z + 1e-9 * (1 + abs(z))
    }
}
