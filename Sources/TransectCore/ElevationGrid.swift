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
        precondition(width >= 0 && height >= 0 && values.count == width * height,
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
public enum Interpolation: String, Sendable, CaseIterable {
    /// The value of the cell containing the point.
    case nearest
    /// Bilinear between the four nearest cell centres, weights renormalised over the
    /// neighbours that have data; no neighbour with data means no data.
    case bilinear
    /// Keys' cubic convolution (a = −½, as GDAL's cubic) over the 4 × 4 nearest centres; where
    /// any of the sixteen has no data it falls back to bilinear.
    case cubic

    /// Cells on each side of the point that the method reads: 1 for nearest and bilinear,
    /// 2 for cubic. A window holding this margin around a point holds every tap.
    public var radius: Int { self == .cubic ? 2 : 1 }
}
