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
}

/// A raster in WGS84 longitude and latitude through an affine geotransform
/// (x = gt0 + col·gt1 + row·gt2, y = gt3 + col·gt4 + row·gt5, x the longitude).
public struct GeographicGeoreference: ViewshedGeoreference, Sendable {
    /// The geotransform, six numbers as GDAL orders them.
    public let geoTransform: [Double]
    let inverse: [Double]

    /// A georeference for `geoTransform`; nil when it cannot be inverted.
    public init?(geoTransform gt: [Double]) {
        guard gt.count == 6 else { return nil }
        let det = gt[1] * gt[5] - gt[2] * gt[4]
        guard det != 0, det.isFinite else { return nil }
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
            columns[k] = g[0] + longitudes[k] * g[1] + latitudes[k] * g[2]
            rows[k] = g[3] + longitudes[k] * g[4] + latitudes[k] * g[5]
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

/// A north-up raster in WGS84 degrees that wraps around the earth in longitude, its `width`
/// cells making the whole turn (to within the rounding its stored cell size carries, as
/// ETOPO5's 0.0833341° for 360/4320): a longitude falls in the column it reaches east of the
/// raster's west edge, whole turns taken off, so the seam lies at that edge alone.
public struct WrappedGeographicGeoreference: ViewshedGeoreference, Sendable {
    /// West edge's longitude and north edge's latitude, degrees.
    public let west: Double
    public let north: Double
    /// Cell size in longitude and in latitude (negative: rows go south), degrees.
    public let cellLongitude: Double
    public let cellLatitude: Double
    public let width: Int

    public init(west: Double, north: Double, cellLongitude: Double, cellLatitude: Double, width: Int) {
        self.west = west
        self.north = north
        self.cellLongitude = cellLongitude
        self.cellLatitude = cellLatitude
        self.width = width
    }

    public func pixelCoordinates(longitudes: [Double], latitudes: [Double]) -> (columns: [Double], rows: [Double]) {
        var columns = [Double](repeating: .nan, count: longitudes.count)
        var rows = columns
        for k in 0..<longitudes.count where longitudes[k].isFinite && latitudes[k].isFinite {
            let east = longitudes[k] - west
            var column = (east - (east / 360).rounded(.down) * 360) / cellLongitude
            if column >= Double(width) { column -= Double(width) }
            columns[k] = column
            rows[k] = (latitudes[k] - north) / cellLatitude
        }
        return (columns, rows)
    }

    public func lonLat(columns: [Double], rows: [Double]) -> (longitudes: [Double], latitudes: [Double]) {
        var lon = [Double](repeating: .nan, count: columns.count)
        var lat = lon
        for k in 0..<columns.count {
            let phi = north + rows[k] * cellLatitude
            guard abs(phi) <= 90 else { continue }
            lon[k] = west + columns[k] * cellLongitude
            lat[k] = phi
        }
        return (lon, lat)
    }
}
