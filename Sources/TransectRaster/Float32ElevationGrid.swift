/// A window of elevations in metres stored as Float32, row-major, north-up, `nan` for no data:
/// half the memory of an ``ElevationGrid`` and half the bytes per tap.
///
/// Use it only where Float32 holds every value exactly: a Float32 raster read without scale or
/// offset, or 8- and 16-bit integer rasters (every integer below 2²⁴ is a Float32). Sampling
/// widens each cell to `Double` exactly and runs the same arithmetic as ``ElevationGrid``, so a
/// Float32 grid and a Float64 grid holding the same values sample to the same bits. Values that
/// need Float64 (a Float64 or 32-bit integer raster, a scale or an offset) stay in an
/// ``ElevationGrid``.
///
/// Placement and pixel coordinates are as in ``ElevationGrid``.
public struct Float32ElevationGrid: Sendable {
    /// Columns in the window.
    public let width: Int
    /// Rows in the window.
    public let height: Int
    /// Column of the window's first cell in the whole raster.
    public let originColumn: Int
    /// Row of the window's first cell in the whole raster.
    public let originRow: Int
    /// Elevations in metres, `width × height`, row after row; `nan` where there is no data.
    public var values: [Float]

    /// A window of a raster. `values.count` must equal `width × height`.
    public init(width: Int, height: Int, originColumn: Int = 0, originRow: Int = 0, values: [Float]) {
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
    public func value(column: Int, row: Int) -> Double {
        cellValue(column: column, row: row)
    }

    /// Elevations at continuous raster pixel coordinates, batch-first; as
    /// ``ElevationGrid/sample(columns:rows:interpolation:)``, to the same bits.
    ///
    /// - Complexity: O(n) for n points.
    public func sample(columns: [Double], rows: [Double], interpolation: Interpolation) -> [Double] {
        sampleBatch(columns: columns, rows: rows, interpolation: interpolation)
    }

    /// ``sample(columns:rows:interpolation:)`` into a buffer the caller keeps, for callers that
    /// sample batch after batch: the same results to the bit, without a fresh array per call.
    /// `out.count` must equal `columns.count` (a precondition); every element is overwritten.
    ///
    /// - Complexity: O(n) for n points.
    public func sample(columns: [Double], rows: [Double], interpolation: Interpolation, into out: inout [Double]) {
        sampleBatch(columns: columns, rows: rows, interpolation: interpolation, into: &out)
    }

    /// Elevations at `count` evenly spaced points of a segment into `out`: point k at
    /// (column + u·columnSpan, row + u·rowSpan) with u = (first + k)·fraction, the same bits as
    /// ``sample(columns:rows:interpolation:into:)`` given those positions, without arrays of
    /// them (a sight ray's samples between two of its knots).
    ///
    /// - Complexity: O(count).
    public func sampleSegment(
        column: Double, row: Double, columnSpan: Double, rowSpan: Double, fraction: Double, first: Int, count: Int,
        interpolation: Interpolation, into out: UnsafeMutablePointer<Double>
    ) {
        precondition(count >= 0, "a segment has no negative count of points")
        segmentSamples(
            column: column, row: row, columnSpan: columnSpan, rowSpan: rowSpan, fraction: fraction, first: first, count: count,
            interpolation: interpolation, into: out)
    }

    /// The scalar reference: one point, any method.
    public func sampleScalar(column x: Double, row y: Double, interpolation: Interpolation) -> Double {
        referenceSample(column: x, row: y, interpolation: interpolation)
    }
}

extension Float32ElevationGrid: SampledWindow {
    var cells: [Float] { values }
}
