/// The Hilbert curve over a square grid of 2^`order` × 2^`order` cells: a walk that visits
/// every cell once, each step to a cell beside the last, so cells close along the walk are
/// close on the grid. Sampling visits a raster's chunks in this order.
public enum HilbertCurve {
    /// The position of cell (`x`, `y`) along the walk, from 0 to 4^`order` − 1.
    /// Precondition: 0 ≤ x, y < 2^`order`.
    public static func index(x: Int, y: Int, order: Int) -> Int {
        var x = x
        var y = y
        var d = 0
        var s = (1 << order) >> 1
        while s > 0 {
            let rx = x & s != 0 ? 1 : 0
            let ry = y & s != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Turn the quadrant so that the walk within it starts where the last one ended.
            (x, y) = turned(x, y, side: s, rx: rx, ry: ry)
            s >>= 1
        }
        return d
    }

    /// The cell at position `index` along the walk: the inverse of ``index(x:y:order:)``.
    public static func point(index: Int, order: Int) -> (x: Int, y: Int) {
        var x = 0
        var y = 0
        var t = index
        var s = 1
        while s < 1 << order {
            let rx = 1 & (t >> 1)
            let ry = 1 & (t ^ rx)
            (x, y) = turned(x, y, side: s, rx: rx, ry: ry)
            x += s * rx
            y += s * ry
            t >>= 2
            s <<= 1
        }
        return (x, y)
    }

    /// The smallest order whose grid holds `side` cells across (0 for one cell).
    public static func order(side: Int) -> Int {
        side <= 1 ? 0 : Int.bitWidth - (side - 1).leadingZeroBitCount
    }

    /// A quadrant's walk turned into place: in the lower quadrants (`ry` 0) the axes swap, and
    /// in the lower right one (`rx` 1) the quadrant is also mirrored, within a side of `side`.
    private static func turned(_ x: Int, _ y: Int, side: Int, rx: Int, ry: Int) -> (Int, Int) {
        guard ry == 0 else { return (x, y) }
        if rx == 1 { return (side - 1 - y, side - 1 - x) }
        return (y, x)
    }
}
