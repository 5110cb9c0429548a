/// A window of elevations in metres, row-major, north-up, with `Double.nan` for no data.
///
/// A grid is a window of a larger raster: `originColumn` and `originRow` place its first cell
/// in the raster's pixel space, and `rasterWidth`/`rasterHeight` say where that raster ends.
/// Pixel coordinates are continuous: cell (i, j) covers [i, i + 1) × [j, j + 1) and its value
/// belongs to the cell centre (i + ½, j + ½), as in GDAL's geotransform convention.
public struct ElevationGrid: Sendable {
    /// Columns in the window.
    public let width: Int
    /// Rows in the window.
    public let height: Int
    /// Column of the window's first cell in the whole raster.
    public let originColumn: Int
    /// Row of the window's first cell in the whole raster.
    public let originRow: Int
    /// Elevations in metres, `width × height`, row after row; `nan` where there is no data.
    public var values: [Double]

    /// A window of a raster. `values.count` must equal `width × height`.
    public init(width: Int, height: Int, originColumn: Int = 0, originRow: Int = 0, values: [Double]) {
        precondition(
            width >= 0 && height >= 0 && values.count == width * height,
            "grid values must hold width × height elevations")
        self.width = width
        self.height = height
        self.originColumn = originColumn
        self.originRow = originRow
        self.values = values
    }

    /// The elevation of the cell at raster column `column`, row `row`, or `nan` outside the
    /// window or where there is no data.
    @inlinable
    public func value(column: Int, row: Int) -> Double {
        let i = column - originColumn
        let j = row - originRow
        guard i >= 0, j >= 0, i < width, j < height else { return .nan }
        return values[j * width + i]
    }
}

/// How an elevation is read between cell centres.
///
/// **No data.** A sample is a gap when the taps with data carry less than half of the
/// interpolation weight; otherwise the weights of the taps with data are renormalised. So a
/// point at a no-data cell's centre is always a gap, whatever the method, and nearest, bilinear
/// and cubic all return a cell's own value at its centre.
/// - nearest: one tap of weight 1, so a gap exactly when the point's cell has no data.
/// - bilinear: the valid taps' weights w = (1 − tx)(1 − ty), tx(1 − ty), … are summed; below
///   half of the four weights' sum the point is a gap, else Σ w·z / Σ w over the valid taps.
///   Exactly half (the midpoint between a void cell's centre and a valid one's) has data.
/// - cubic: Keys' weights are negative on the outer ring, so renormalising a partial kernel
///   can divide by a sum near zero and overshoot far outside the data. Cubic therefore runs only
///   when all sixteen taps have data (they carry all the weight); where any has none the point
///   is read bilinearly and the bilinear rule decides. A cubic gap is a bilinear gap.
///
/// GDAL's RasterIO resampling with a nodata value (the convolution shared with overviews)
/// gives masked pixels zero weight and renormalises over the rest, so its target has no data
/// only where no valid pixel carries any weight at all (for cubic, also where a direction has
/// fewer valid pixels than the kernel's radius). A point a rounding error away from a void
/// cell's centre thus takes the value of neighbours whose weight is of the order of that
/// rounding error (1e-11 and less); the half-weight rule makes it a gap. Where at least half of
/// the weight has data the two agree: both renormalise over the valid taps.
public enum Interpolation: String, Sendable, CaseIterable {
    /// The value of the cell containing the point; a gap when that cell has no data.
    case nearest
    /// Bilinear between the four nearest cell centres, weights renormalised over the
    /// neighbours that have data; a gap when those carry less than half of the weight.
    case bilinear
    /// Keys' cubic convolution (a = −½, as GDAL's cubic) over the 4 × 4 nearest centres; where
    /// any of the sixteen has no data it falls back to bilinear (and its half-weight rule).
    case cubic

    /// Cells on each side of the point that the method reads: 1 for nearest and bilinear,
    /// 2 for cubic. A window holding this margin around a point holds every tap.
    public var radius: Int { self == .cubic ? 2 : 1 }
}
