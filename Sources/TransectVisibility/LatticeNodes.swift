import TransectGeodesy
import TransectSupport

/// The nodes of the lattice a viewshed's cells' distances and azimuths are interpolated on
/// (``Viewshed/cellGeometry(width:height:observer:georeference:geodesic:settings:parallel:)``):
/// every `step`-th column and row of the raster and its last, each node at its cell's centre,
/// with its geodesic distance and azimuth from the observer (Karney's inverse problem, after the
/// georeference's transformation) and its azimuthal equidistant coordinates.
struct LatticeNodes {
    /// Cells between nodes (the last column and row of nodes nearer).
    let step: Int
    /// The nodes' raster columns and rows, the raster's last column and row last.
    let columns: [Int]
    let rows: [Int]
    /// Node (i, j) at j·columns.count + i: its distance (metres) and azimuth (degrees) from the
    /// observer, and x = s·sin α, y = s·cos α (`nan` off the earth).
    let distances: [Double]
    let azimuths: [Double]
    let x: [Double]
    let y: [Double]

    /// The nodes every `step` cells of a `width` × `height` raster, transformed and solved in
    /// chunks on the workers (the same bits on any number of them).
    init(
        step: Int, width w: Int, height h: Int, observer: ViewshedObserver, georeference: some ViewshedGeoreference, geodesic: Geodesic,
        threads: Int, parallel: ParallelLoop
    ) throws {
        self.step = step
        columns = Array(stride(from: 0, to: w - 1, by: step)) + [w - 1]
        rows = Array(stride(from: 0, to: h - 1, by: step)) + [h - 1]
        let (columns, rows) = (columns, rows)
        let nodeColumns = (0..<(rows.count * columns.count)).map { Double(columns[$0 % columns.count]) + 0.5 }
        let nodeRows = (0..<(rows.count * columns.count)).map { Double(rows[$0 / columns.count]) + 0.5 }
        let (lon, lat) = try georeference.lonLat(columns: nodeColumns, rows: nodeRows, threads: threads)
        let (s, az) = ParallelGeodesics.inverse(
            from: observer.latitude, observer.longitude, toLatitudes: lat, longitudes: lon, geodesic: geodesic, parallel: parallel)
        (distances, azimuths) = (s, az)
        (x, y) = ParallelGeodesics.inChunks(count: lon.count, parallel: parallel) { range in
            var x = [Double](repeating: .nan, count: range.count)
            var y = x
            for i in range where lon[i].isFinite && lat[i].isFinite && abs(lat[i]) <= 90 {
                let (sa, ca) = GeoMath.sincosd(az[i])
                x[i - range.lowerBound] = s[i] * sa
                y[i - range.lowerBound] = s[i] * ca
            }
            return (x, y)
        }
    }

    /// An estimate of the farthest a cell's position, interpolated bilinearly between the
    /// nodes, lies from its own, in cells. On a smooth map, interpolating between nodes h apart
    /// is off by about h²·|p″|/8 midway, and a node's second difference along its row or
    /// column of nodes, |Δ²p|, is h²·|p″| (bilinear interpolation is exact in the mixed term); a
    /// cell there is |Δp|/step. The largest of (|Δ²p| along the row + along the column) / 8 over
    /// the node's smaller first difference / step, among nodes with evenly spaced neighbours on
    /// the earth both ways; infinity where no node has them (a raster of a few steps).
    func interpolationError() -> Double {
        let across = columns.count
        let down = rows.count
        // Nodes 0 ... count − 2 are evenly spaced; the last is the raster's last column or row.
        guard across >= 4 || down >= 4 else { return .infinity }
        @inline(__always) func norm(_ k: Int, _ a: Int, _ b: Int) -> Double {
            let dx = x[a] - 2 * x[k] + x[b]
            let dy = y[a] - 2 * y[k] + y[b]
            return (dx * dx + dy * dy).squareRoot()
        }
        @inline(__always) func gap(_ a: Int, _ b: Int) -> Double {
            let dx = x[b] - x[a]
            let dy = y[b] - y[a]
            return (dx * dx + dy * dy).squareRoot()
        }
        var worst = -Double.infinity
        for j in 0..<down {
            for i in 0..<across {
                let k = j * across + i
                let alongRow = i >= 1 && i + 1 <= across - 2
                let alongColumn = j >= 1 && j + 1 <= down - 2
                guard alongRow || alongColumn else { continue }
                var curve = 0.0
                var cell = Double.infinity
                if alongRow {
                    curve += norm(k, k - 1, k + 1)
                    cell = min(cell, gap(k, k + 1))
                }
                if alongColumn {
                    curve += norm(k, k - across, k + across)
                    cell = min(cell, gap(k, k + across))
                }
                let error = curve / 8 / (cell / Double(step))
                // A node off the earth makes it nan, which no tolerance takes.
                guard !error.isNaN else { return .nan }
                worst = max(worst, error)
            }
        }
        return worst == -.infinity ? .infinity : worst
    }
}
