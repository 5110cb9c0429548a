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
    /// The highest and lowest elevation of each block of `size` columns (the last one the
    /// columns left) over rows `rows`, no data counting as +∞ high and −∞ low: block i's into
    /// `highest[i]` and `lowest[i]`.
    func blockExtremes(rows: Range<Int>, size: Int, highest: UnsafeMutablePointer<Double>, lowest: UnsafeMutablePointer<Double>)
}

extension ViewshedTerrain {
    public func blockExtremes(rows: Range<Int>, size: Int, highest: UnsafeMutablePointer<Double>, lowest: UnsafeMutablePointer<Double>) {
        blockExtremesCellByCell(rows: rows, size: size, highest: highest, lowest: lowest)
    }

    /// ``blockExtremes(rows:size:highest:lowest:)`` block by block, cell by cell.
    func blockExtremesCellByCell(rows: Range<Int>, size: Int, highest: UnsafeMutablePointer<Double>, lowest: UnsafeMutablePointer<Double>) {
        for i in 0..<((width + size - 1) / size) {
            (highest[i], lowest[i]) = extremes(rows: rows, columns: (i * size)..<min(width, (i + 1) * size))
        }
    }

    /// The highest and lowest elevation of cells `columns` × `rows`, no data as +∞ and −∞.
    func extremes(rows: Range<Int>, columns: Range<Int>) -> (Double, Double) {
        var top = -Double.infinity
        var bottom = Double.infinity
        for r in rows {
            for c in columns {
                let z = elevation(index: r * width + c)
                top = max(top, z.isNaN ? .infinity : z)
                bottom = min(bottom, z.isNaN ? -.infinity : z)
            }
        }
        return (top, bottom)
    }
}

extension ElevationGrid: ViewshedTerrain {
    public func elevation(index: Int) -> Double { values[index] }
}

extension Float32ElevationGrid: ViewshedTerrain {
    public func elevation(index: Int) -> Double { Double(values[index]) }

    /// ``ViewshedTerrain/blockExtremes(rows:size:highest:lowest:)`` eight columns at a time
    /// where blocks are 8 wide: each block's rows in one SIMD8 lane each, the lanes' extremes
    /// taken once. The same values: Float to Double keeps both order and value.
    public func blockExtremes(rows: Range<Int>, size: Int, highest: UnsafeMutablePointer<Double>, lowest: UnsafeMutablePointer<Double>) {
        typealias Lanes = SIMD8<Float>
        guard size == Lanes.scalarCount else { return blockExtremesCellByCell(rows: rows, size: size, highest: highest, lowest: lowest) }
        let w = width
        let whole = w / size
        values.withUnsafeBufferPointer { cells in
            let raw = UnsafeRawBufferPointer(cells)
            let stride = w * MemoryLayout<Float>.stride
            for i in 0..<whole {
                var top = Lanes(repeating: -.infinity)
                var bottom = Lanes(repeating: .infinity)
                var offset = (rows.lowerBound * w + i * size) * MemoryLayout<Float>.stride
                for _ in rows {
                    let z = raw.loadUnaligned(fromByteOffset: offset, as: Lanes.self)
                    // No data raises the top and lowers the bottom; elsewhere a compare and a
                    // blend a lane (the standard library's pointwiseMax is a call a row here).
                    let missing = z .!= z
                    top.replace(with: z, where: z .> top)
                    top.replace(with: .infinity, where: missing)
                    bottom.replace(with: z, where: z .< bottom)
                    bottom.replace(with: -.infinity, where: missing)
                    offset += stride
                }
                highest[i] = Double(top.max())
                lowest[i] = Double(bottom.min())
            }
        }
        if whole * size < w { (highest[whole], lowest[whole]) = extremes(rows: rows, columns: (whole * size)..<w) }
    }
}
