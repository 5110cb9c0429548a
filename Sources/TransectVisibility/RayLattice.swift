import TransectGeodesy
import TransectSupport

#if canImport(Glibc)
import Glibc
#endif

/// Where the points of the observer's azimuthal equidistant plane lie in the raster's pixels:
/// the sight rays' positions without a geodesic problem or a CRS transformation each.
///
/// A point at geodesic distance s and azimuth α from the observer has azimuthal equidistant
/// coordinates x = s·sin α, y = s·cos α, so a sight ray is a straight line through the
/// origin of that plane. A square lattice of nodes over the plane holds each node's pixel
/// coordinates, exact (Karney's direct problem, then the georeference); a point between nodes
/// is interpolated bilinearly. The map is smooth (away from the antipode, which the viewshed's
/// 5,000 km refuse), so over a lattice cell of h metres the interpolation departs from the
/// exact position by about h²/8 times the map's second derivative: for 30 m cells at 40° on a
/// geographic raster, h²·tan φ/(8R) ≈ 4 mm over 16 cells, and less on a projected one. The
/// sweep takes the coarsest of ``Viewshed/rayLatticeSteps`` whose estimate of that
/// (``interpolationError()``) is within ``Viewshed/latticeTolerance``.
struct RayLattice: Sendable {
    /// The plane's coordinates of node (0, 0), metres.
    let x0: Double
    let y0: Double
    /// Between neighbouring nodes, metres.
    let spacing: Double
    /// Nodes along x and along y (each at least 2).
    let across: Int
    let down: Int
    /// Pixel coordinates (column, row) of node (i, j) at index j·across + i, side by side: the
    /// four nodes about a point lie on two cache lines, not four, and the sweep asks for a
    /// ray's knots across the whole lattice.
    let nodes: [SIMD2<Double>]

    /// A lattice covering the plane's points from `xRange` and `yRange` (metres), with a node
    /// every `spacing` metres and two more on every side, on `parallel`'s workers (the
    /// georeference on `threads`).
    init(
        observer: ViewshedObserver, xRange: ClosedRange<Double>, yRange: ClosedRange<Double>, spacing: Double,
        georeference: some ViewshedGeoreference, geodesic: Geodesic, parallel: ParallelLoop, threads: Int
    ) throws {
        let margin = 2 * spacing
        x0 = xRange.lowerBound - margin
        y0 = yRange.lowerBound - margin
        self.spacing = spacing
        across = max(2, Int(((xRange.upperBound + margin - x0) / spacing).rounded(.up)) + 1)
        down = max(2, Int(((yRange.upperBound + margin - y0) / spacing).rounded(.up)) + 1)
        let m = across * down
        var azimuths = [Double](repeating: 0, count: m)
        var distances = azimuths
        for j in 0..<down {
            for i in 0..<across {
                let x = x0 + Double(i) * spacing
                let y = y0 + Double(j) * spacing
                distances[j * across + i] = (x * x + y * y).squareRoot()
                azimuths[j * across + i] = atan2(x, y) * 180 / .pi
            }
        }
        let (latitudes, longitudes) = ParallelGeodesics.direct(
            from: observer.latitude, observer.longitude, azimuths: azimuths, distances: distances, geodesic: geodesic, parallel: parallel)
        let pixels = try georeference.pixelCoordinates(longitudes: longitudes, latitudes: latitudes, threads: threads)
        nodes = zip(pixels.columns, pixels.rows).map { SIMD2($0, $1) }
    }

    /// The lattice a sweep of rays `step` metres between samples (half a cell) takes: over the
    /// cells' extent on the plane (``ViewshedCellGeometry/extent``) within `farthest` of the
    /// observer, a node every so many cells, the first of ``Viewshed/rayLatticeSteps`` that
    /// interpolates within ``Viewshed/latticeTolerance``, else the last.
    init(
        observer: ViewshedObserver, extent: (x: ClosedRange<Double>, y: ClosedRange<Double>), farthest: Double, step: Double,
        georeference: some ViewshedGeoreference, geodesic: Geodesic, parallel: ParallelLoop, threads: Int
    ) throws {
        func clipped(_ r: ClosedRange<Double>) -> ClosedRange<Double> {
            let lower = max(r.lowerBound, -farthest)
            let upper = min(r.upperBound, farthest)
            return lower <= upper ? lower...upper : 0...0
        }
        func lattice(cells: Int) throws -> RayLattice {
            try RayLattice(
                observer: observer, xRange: clipped(extent.x), yRange: clipped(extent.y), spacing: Double(2 * cells) * step,
                georeference: georeference, geodesic: geodesic, parallel: parallel, threads: threads)
        }
        var chosen = try lattice(cells: Viewshed.rayLatticeSteps[0])
        for cells in Viewshed.rayLatticeSteps.dropFirst() where !(chosen.interpolationError() <= Viewshed.latticeTolerance) {
            chosen = try lattice(cells: cells)
        }
        self = chosen
    }

    /// The nodes' largest second differences, in cells: over the nodes with neighbours both
    /// ways, the largest |Δ²p| along the row + along the column (`rowsAndColumns`), and the
    /// largest of that + the mixed difference |Δ_xy p| (`withMixed`); `nan` where a node has no
    /// place in the raster's CRS, infinity where no node has neighbours both ways. One pass for
    /// both estimates below.
    func secondDifferences() -> (rowsAndColumns: Double, withMixed: Double) {
        guard across >= 3, down >= 3 else { return (.infinity, .infinity) }
        return nodes.withUnsafeBufferPointer { nodes in
            var worst = (rowsAndColumns: -Double.infinity, withMixed: -Double.infinity)
            for j in 1..<(down - 1) {
                for i in 1..<(across - 1) {
                    let k = j * across + i
                    let alongRow = nodes[k - 1] - 2 * nodes[k] + nodes[k + 1]
                    let alongColumn = nodes[k - across] - 2 * nodes[k] + nodes[k + across]
                    let mixed = nodes[k + across + 1] - nodes[k + across] - nodes[k + 1] + nodes[k]
                    let straight = (alongRow * alongRow).sum().squareRoot() + (alongColumn * alongColumn).sum().squareRoot()
                    let all = straight + (mixed * mixed).sum().squareRoot()
                    // A node off the earth makes them nan, which no tolerance takes.
                    guard !all.isNaN else { return (.nan, .nan) }
                    worst = (max(worst.rowsAndColumns, straight), max(worst.withMixed, all))
                }
            }
            return worst
        }
    }

    /// An estimate of the farthest a point's interpolated pixel position lies from its own, in
    /// cells: on a smooth map, interpolating between nodes h apart is off by about h²·|p″|/8
    /// midway, and a node's second difference along a row or column of nodes, |Δ²p|, is
    /// h²·|p″| (bilinear interpolation is exact in the mixed term): the largest of (|Δ²p| along
    /// the row + along the column) / 8 (``secondDifferences()``).
    func interpolationError() -> Double {
        secondDifferences().rowsAndColumns / 8
    }

    /// An estimate of the farthest a sight ray's pixel path strays from its chord over
    /// `length` metres, in cells, from the nodes' second differences with the mixed one
    /// (`withMixed` of ``secondDifferences()``, passed in where it is at hand). A ray is the
    /// plane's line through the origin at azimuth α, so along it the pixel position's second
    /// derivative is sin²α·p_xx + 2·sin α·cos α·p_xy + cos²α·p_yy, at most |p_xx| + |p_xy| +
    /// |p_yy| in size; a chord of length L strays from the path by about L²/8 times that midway.
    /// The differences give h² times each term for nodes h apart: their largest sum times
    /// (L/h)²/8.
    func chordError(length: Double, withMixed worst: Double? = nil) -> Double {
        let ratio = length / spacing
        return (worst ?? secondDifferences().withMixed) * ratio * ratio / 8
    }

    /// Samples between the knots of sight rays sampled every `step` metres: the first of
    /// ``Viewshed/knotSteps`` whose chords stray within ``Viewshed/latticeTolerance`` of a
    /// cell from the rays' paths (``chordError(length:withMixed:)``), else the last.
    func knotStep(sampleStep step: Double) -> Int {
        let worst = secondDifferences().withMixed
        for samples in Viewshed.knotSteps.dropLast()
        where chordError(length: Double(samples) * step, withMixed: worst) <= Viewshed.latticeTolerance {
            return samples
        }
        return Viewshed.knotSteps.last!
    }

    /// Pixel coordinates of the plane's point (`x`, `y`), interpolated between the nodes of its
    /// lattice cell (extrapolated from the nearest cell outside the lattice).
    @inline(__always)
    func pixel(x: Double, y: Double) -> (column: Double, row: Double) {
        let u = (x - x0) / spacing
        let v = (y - y0) / spacing
        let i = Int(min(max(u.rounded(.down), 0), Double(across - 2)))
        let j = Int(min(max(v.rounded(.down), 0), Double(down - 2)))
        let fu = u - Double(i)
        let fv = v - Double(j)
        let a = j * across + i
        let b = a + across
        // Column and row lane by lane, the same arithmetic as each alone.
        return nodes.withUnsafeBufferPointer { nodes in
            let above = nodes[a] + fu * (nodes[a + 1] - nodes[a])
            let below = nodes[b] + fu * (nodes[b + 1] - nodes[b])
            let p = above + fv * (below - above)
            return (p.x, p.y)
        }
    }
}
