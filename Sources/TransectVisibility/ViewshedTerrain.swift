import TransectRaster

/// The terrain a viewshed reads: a whole raster's elevations in metres (`nan` for no data),
/// sampled as `profile` samples them.
///
/// Both grid types of ``TransectRaster`` conform, so a viewshed reads a Float32 DEM at half the
/// memory of a Float64 one, to the same bits (``Float32ElevationGrid`` samples exactly as
/// ``ElevationGrid`` does).
public protocol ViewshedTerrain: Sendable {
    /// Columns of the raster.
    var width: Int { get }
    /// Rows of the raster.
    var height: Int { get }
    /// The elevation of cell (`column`, `row`), `nan` for no data or outside the raster.
    func value(column: Int, row: Int) -> Double
    /// The elevation of the cell at `index` = row × width + column (inside the raster), `nan`
    /// for no data: ``value(column:row:)`` without the division.
    func elevation(index: Int) -> Double
    /// Elevations at continuous pixel coordinates (cell centres at i + ½) into `out`, which
    /// has `columns.count` entries; `nan` where the method finds no data.
    func sample(columns: [Double], rows: [Double], interpolation: Interpolation, into out: inout [Double])
    /// Elevations at `count` evenly spaced points of a segment into `out`: point k at
    /// (column + u·columnSpan, row + u·rowSpan) with u = (first + k)·fraction, as
    /// ``sample(columns:rows:interpolation:into:)`` gives them.
    func sampleSegment(
        column: Double, row: Double, columnSpan: Double, rowSpan: Double, fraction: Double, first: Int, count: Int,
        interpolation: Interpolation, into out: UnsafeMutablePointer<Double>)
}

extension ElevationGrid: ViewshedTerrain {
    public func elevation(index: Int) -> Double { values[index] }
}

extension Float32ElevationGrid: ViewshedTerrain {
    public func elevation(index: Int) -> Double { Double(values[index]) }
}
