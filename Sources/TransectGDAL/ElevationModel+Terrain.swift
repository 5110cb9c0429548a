import CGDAL
import TransectGeodesy
import TransectPerspective

extension ElevationModel {
    /// The most cells a perspective view reads: a larger DEM is read decimated (every k-th
    /// cell, k the smallest whole factor that fits), as a view of it has fewer pixels anyway.
    public static let maximumViewCells = 4_000_000

    /// The DEM as a ``TerrainGrid``: every cell centre (every `k`-th where the DEM has more
    /// than ``maximumViewCells`` cells) with its WGS84 longitude and latitude, through the DEM's
    /// geotransform and CRS whatever they are, and its height in metres (`nan` for no data, as
    /// everywhere in the model).
    public func terrainGrid() throws(TerrainError) -> TerrainGrid {
        var k = 1
        while (width / k) * (height / k) > Self.maximumViewCells { k += 1 }
        let w = width / k
        let h = height / k
        guard w >= 2, h >= 2 else { throw .unusableRaster(path: label, reason: "has too few cells for a view (\(width) × \(height))") }
        var buffer = [Double](repeating: .nan, count: w * h)
        try band.read(
            column: 0, row: 0, width: w * k, height: h * k, into: &buffer, bufferWidth: w, bufferHeight: h, type: GDT_Float64
        ) { .readFailed(path: label, reason: $0) }
        let ndRead = info.noDataAsRead
        let scale = info.scale * verticalUnitMetres
        let offset = info.offset * verticalUnitMetres
        var heights = [Float](repeating: .nan, count: w * h)
        for i in 0..<(w * h) {
            let v = buffer[i]
            guard !(v.isNaN || v == ndRead || !v.isFinite) else { continue }
            let metres = v * scale + offset
            guard abs(metres) <= Self.maximumHeightMetres else {
                throw .implausibleHeight(path: label, metres: metres, point: "column \(i % w * k), row \(i / w * k)")
            }
            heights[i] = Float(metres)
        }
        let gt = geoTransform
        var xs = [Double](repeating: 0, count: w * h)
        var ys = xs
        for j in 0..<h {
            for i in 0..<w {
                let c = (Double(i) + 0.5) * Double(k)
                let r = (Double(j) + 0.5) * Double(k)
                xs[j * w + i] = gt[0] + c * gt[1] + r * gt[2]
                ys[j * w + i] = gt[3] + c * gt[4] + r * gt[5]
            }
        }
        let wgs84 = try SpatialReference.wgs84()
        if !crs.isSame(as: wgs84) {
            try Self.transformOnLattice(x: &xs, y: &ys, width: w, height: h, with: CoordinateTransformer(from: crs, to: wgs84))
        }
        for i in 0..<(w * h) where !(xs[i].isFinite && ys[i].isFinite && abs(ys[i]) <= 90) { heights[i] = .nan }
        // A view of nothing is an error, not an empty image: at least one cell with a height.
        guard heights.contains(where: { !$0.isNaN }) else {
            throw .unusableRaster(
                path: label, reason: "has no cell to view: every cell is no data, NaN or infinite, or lies beyond ±90° latitude")
        }
        // Cell sizes on the ellipsoid, measured at the grid's middle.
        let m = (h / 2) * w + w / 2
        func metres(_ a: Int, _ b: Int) -> Double {
            let g = Geodesic.wgs84.inverse(
                from: GeoPoint(longitude: xs[a], latitude: ys[a]), to: GeoPoint(longitude: xs[b], latitude: ys[b]))
            return g.distanceMetres.isFinite && g.distanceMetres > 0 ? g.distanceMetres : 1
        }
        return TerrainGrid(
            width: w, height: h, longitudes: xs, latitudes: ys, heights: heights,
            cellWidthMetres: metres(m - 1, m), cellHeightMetres: metres(m - w, m))
    }

    /// Cells between lattice nodes, along rows and columns.
    static let latticeStep = 8

    /// Transforms the grid's points through PROJ at every ``latticeStep``-th row and column
    /// (and the last ones) and interpolates bilinearly between them. A CRS transformation is
    /// smooth: over 8 cells of a 30 m UTM DEM the interpolation departs from PROJ's own answer
    /// by under a millimetre (8e-9°, the test measures it), far below any cell, and PROJ runs on
    /// 1/64 of the points. A node PROJ cannot transform makes its cells `nan`.
    static func transformOnLattice(
        x: inout [Double], y: inout [Double], width w: Int, height h: Int, with transformer: CoordinateTransformer
    ) throws(TerrainError) {
        let step = latticeStep
        let columns = Array(stride(from: 0, to: w - 1, by: step)) + [w - 1]
        let rows = Array(stride(from: 0, to: h - 1, by: step)) + [h - 1]
        var nx: [Double] = []
        var ny: [Double] = []
        for r in rows {
            for c in columns {
                nx.append(x[r * w + c])
                ny.append(y[r * w + c])
            }
        }
        try transformer.transform(x: &nx, y: &ny)
        let across = columns.count
        for (rj, r0) in rows.enumerated().dropLast() {
            let r1 = rows[rj + 1]
            for r in r0...r1 {
                let v = Double(r - r0) / Double(r1 - r0)
                for (ci, c0) in columns.enumerated().dropLast() {
                    let c1 = columns[ci + 1]
                    let a = rj * across + ci
                    let b = a + 1
                    let c = a + across
                    let d = c + 1
                    for col in c0...c1 {
                        let u = Double(col - c0) / Double(c1 - c0)
                        x[r * w + col] = (nx[a] * (1 - u) + nx[b] * u) * (1 - v) + (nx[c] * (1 - u) + nx[d] * u) * v
                        y[r * w + col] = (ny[a] * (1 - u) + ny[b] * u) * (1 - v) + (ny[c] * (1 - u) + ny[d] * u) * v
                    }
                }
            }
        }
    }
}
