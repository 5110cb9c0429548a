import CGDAL
import TransectCore

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
        let wgs84 = SpatialReference.wgs84()
        if !crs.isSame(as: wgs84) {
            try CoordinateTransformer(from: crs, to: wgs84).transform(x: &xs, y: &ys)
        }
        for i in 0..<(w * h) where !(xs[i].isFinite && ys[i].isFinite && abs(ys[i]) <= 90) { heights[i] = .nan }
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
}
