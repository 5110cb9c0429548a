/// Where a raster's pixels lie on the earth: the one thing a viewshed needs from the raster's
/// CRS. The GDAL layer implements it over any CRS (``GeographicGeoreference`` is the plain
/// case of a north-up raster in WGS84 degrees).
///
/// Pixel coordinates are continuous, cell (i, j) covering [i, i + 1) × [j, j + 1), its centre
/// at (i + ½, j + ½), as in GDAL's geotransform convention. Calls come from one thread at a
/// time, so an implementation may keep a transformation that is not thread-safe.
public protocol ViewshedGeoreference {
    /// Continuous pixel coordinates of WGS84 points (degrees), `nan` where there are none.
    func pixelCoordinates(longitudes: [Double], latitudes: [Double]) throws -> (columns: [Double], rows: [Double])
    /// WGS84 longitudes and latitudes (degrees) of continuous pixel coordinates, `nan` where
    /// the CRS has none.
    func lonLat(columns: [Double], rows: [Double]) throws -> (longitudes: [Double], latitudes: [Double])
    /// ``lonLat(columns:rows:)`` on up to `threads` threads where the implementation can share
    /// the work (the same values).
    func lonLat(columns: [Double], rows: [Double], threads: Int) throws -> (longitudes: [Double], latitudes: [Double])
    /// ``pixelCoordinates(longitudes:latitudes:)`` on up to `threads` threads where the
    /// implementation can share the work (the same values).
    func pixelCoordinates(longitudes: [Double], latitudes: [Double], threads: Int) throws -> (columns: [Double], rows: [Double])
}

extension ViewshedGeoreference {
    public func lonLat(columns: [Double], rows: [Double], threads: Int) throws -> (longitudes: [Double], latitudes: [Double]) {
        try lonLat(columns: columns, rows: rows)
    }

    public func pixelCoordinates(longitudes: [Double], latitudes: [Double], threads: Int) throws -> (columns: [Double], rows: [Double]) {
        try pixelCoordinates(longitudes: longitudes, latitudes: latitudes)
    }
}

/// A raster in WGS84 longitude and latitude through an affine geotransform
/// (x = gt0 + col·gt1 + row·gt2, y = gt3 + col·gt4 + row·gt5, x the longitude).
///
/// A north-up raster that wraps around the earth (its `wrapsAfter` columns making the whole
/// turn, to within the rounding its stored cell size carries, as ETOPO5's 0.0833341° for
/// 360/4320) places a longitude in the column it reaches east of the west edge, whole turns
/// taken off, as ``ElevationModel`` does: the seam lies at that edge alone.
public struct GeographicGeoreference: ViewshedGeoreference, Sendable {
    /// The geotransform, six numbers as GDAL orders them.
    public let geoTransform: [Double]
    /// Columns that make the whole turn, for a raster that wraps; nil otherwise.
    public let wrapsAfter: Int?
    let inverse: [Double]

    /// A georeference for `geoTransform`, wrapping after `wrapsAfter` columns when given; nil
    /// when it cannot be inverted, or wraps without being north-up.
    public init?(geoTransform gt: [Double], wrapsAfter: Int? = nil) {
        guard gt.count == 6 else { return nil }
        let det = gt[1] * gt[5] - gt[2] * gt[4]
        guard det != 0, det.isFinite else { return nil }
        guard wrapsAfter == nil || (gt[2] == 0 && gt[4] == 0 && wrapsAfter! > 0) else { return nil }
        self.wrapsAfter = wrapsAfter
        geoTransform = gt
        inverse = [
            (gt[2] * gt[3] - gt[0] * gt[5]) / det, gt[5] / det, -gt[2] / det,
            (gt[0] * gt[4] - gt[1] * gt[3]) / det, -gt[4] / det, gt[1] / det,
        ]
    }

    public func pixelCoordinates(longitudes: [Double], latitudes: [Double]) -> (columns: [Double], rows: [Double]) {
        let g = inverse
        var columns = [Double](repeating: .nan, count: longitudes.count)
        var rows = columns
        for k in 0..<longitudes.count {
            var lon = longitudes[k]
            if let width = wrapsAfter, lon.isFinite {
                let east = lon - geoTransform[0]
                lon = geoTransform[0] + (east - (east / 360).rounded(.down) * 360)
                let column = g[0] + lon * g[1]
                columns[k] = column >= Double(width) ? column - Double(width) : column
            } else {
                columns[k] = g[0] + lon * g[1] + latitudes[k] * g[2]
            }
            rows[k] = g[3] + lon * g[4] + latitudes[k] * g[5]
        }
        return (columns, rows)
    }

    public func lonLat(columns: [Double], rows: [Double]) -> (longitudes: [Double], latitudes: [Double]) {
        let g = geoTransform
        var lon = [Double](repeating: .nan, count: columns.count)
        var lat = lon
        for k in 0..<columns.count {
            lon[k] = g[0] + columns[k] * g[1] + rows[k] * g[2]
            lat[k] = g[3] + columns[k] * g[4] + rows[k] * g[5]
        }
        return (lon, lat)
    }
}
