extension ElevationGrid: SampledWindow {
    var cells: [Double] { values }

    /// Elevations at continuous raster pixel coordinates, batch-first.
    ///
    /// `columns[k]`, `rows[k]` are a point's coordinates in the whole raster's pixel space
    /// (cell centres at i + ½). The result is `nan` where the method finds no data. Taps outside
    /// the window count as no data, so the window must hold `interpolation.radius` cells of
    /// margin around every point that lies inside the raster.
    ///
    /// Bilinear runs four points at a time in `SIMD4<Double>` lanes (`BilinearLanes`: taps
    /// loaded two adjacent cells at a time and prefetched 16 points ahead, no libm, no per-lane
    /// branches inside the window); nearest and cubic are per point. `sampleScalar` is the plain reference the tests compare
    /// with, bit for bit.
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

    /// The scalar reference: one point, any method. See ``sample(columns:rows:interpolation:)``.
    public func sampleScalar(column x: Double, row y: Double, interpolation: Interpolation) -> Double {
        referenceSample(column: x, row: y, interpolation: interpolation)
    }
}
