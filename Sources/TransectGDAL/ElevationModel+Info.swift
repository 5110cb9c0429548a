import CGDAL
import TransectGeodesy
import TransectSupport

extension ElevationModel {
    /// The extent in the DEM's own CRS: (minX, minY, maxX, maxY) of the pixel edges.
    public var nativeExtent: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let gt = geoTransform
        let xs = [0.0, Double(width)].flatMap { c in [0.0, Double(height)].map { r in gt[0] + c * gt[1] + r * gt[2] } }
        let ys = [0.0, Double(width)].flatMap { c in [0.0, Double(height)].map { r in gt[3] + c * gt[4] + r * gt[5] } }
        return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
    }

    /// The extent in WGS84 longitude/latitude, densified along the edges so a projected DEM's
    /// curved edges are covered. The corresponding GDAL function is `OCTTransformBounds`.
    public func extentLonLat() throws(TerrainError) -> GeoExtent {
        let e = nativeExtent
        guard fromWGS84 != nil else { return GeoExtent(west: e.minX, south: e.minY, east: e.maxX, north: e.maxY) }
        let toWGS84 = try CoordinateTransformer(from: crs, to: try .wgs84())
        let b = try toWGS84.transformBounds(minX: e.minX, minY: e.minY, maxX: e.maxX, maxY: e.maxY) {
            .cannotTransform(from: crs.label, to: "EPSG:4326", reason: $0)
        }
        return GeoExtent(west: b.minX, south: b.minY, east: b.maxX, north: b.maxY)
    }

    /// The size of one cell in metres (east–west, north–south) at the DEM's centre: geodesic
    /// lengths for a geographic DEM, map units times the unit's metres for a projected one.
    public func resolutionMetres() throws(TerrainError) -> (x: Double, y: Double) {
        let e = nativeExtent
        if crs.isGeographic {
            return geographicCell(longitude: (e.minX + e.maxX) / 2, latitude: (e.minY + e.maxY) / 2)
        }
        return projectedCell
    }

    /// The size of one cell in metres (east–west, north–south) at a WGS84 point.
    public func resolutionMetres(at point: GeoPoint) -> (x: Double, y: Double) {
        guard crs.isGeographic else { return projectedCell }
        return geographicCell(longitude: point.longitude, latitude: point.latitude)
    }

    private var projectedCell: (x: Double, y: Double) {
        let gt = geoTransform
        let unit = crs.linearUnitMetres
        return (hypot2(gt[1], gt[4]) * unit, hypot2(gt[2], gt[5]) * unit)
    }

    private func geographicCell(longitude lon: Double, latitude lat: Double) -> (x: Double, y: Double) {
        let gt = geoTransform
        let g = Geodesic.wgs84
        let dx = g.inverse(latitude1: lat, longitude1: lon, latitude2: lat, longitude2: lon + abs(gt[1])).distanceMetres
        let dy = g.inverse(
            latitude1: max(lat - abs(gt[5]) / 2, -90), longitude1: lon,
            latitude2: min(lat + abs(gt[5]) / 2, 90), longitude2: lon
        ).distanceMetres
        return (dx, dy)
    }

    /// The no-data value as the band stores it (rounded to single precision for a Float32
    /// band, so ETOPO5's reads as −1e34), if the DEM has one.
    /// With `--nodata`, the value given (nil when the DEMs were given one each).
    public var noDataValue: Double? {
        guard noDataGiven else { return info.noData }
        return givenNoData.count == 1 ? givenNoData[0] : nil
    }

    /// The no-data value written as the band's type holds it: `-1e+34` for ETOPO5's Float32;
    /// with `--nodata`, the values given (`0, -9999` for one each).
    public var noDataText: String? {
        if noDataGiven { return givenNoData.map { NumberFormatting.shortest($0) }.joined(separator: ", ") }
        guard let noData = info.noData else { return nil }
        // Said in words, as info prints no `nan` or `inf`.
        if noData.isNaN { return "not a number" }
        if noData.isInfinite { return noData < 0 ? "minus infinity" : "plus infinity" }
        if info.dataType == GDT_Float32 { return "\(Float(noData))" }
        return NumberFormatting.shortest(noData)
    }

    /// The band's unit type as recorded (`m`, `ft`, empty).
    public var unitType: String { info.unitType }

    /// The band's data type name (`Float32`, `Int16`, …).
    public var dataTypeName: String { GDALGetDataTypeName(fileDataType).map { String(cString: $0) } ?? "unknown" }

    /// Rasters up to this many cells get an exact range; larger ones a decimated one.
    static let exactRangeCells = 100_000_000
    /// The decimated read for a larger raster is at most this many cells on a side.
    static let approximateRangeSide = 1024
    /// Cells per window of the exact scan (32 MiB of doubles).
    static let rangeWindowCells = 1 << 22

    /// Minimum and maximum elevation in metres, or nil when every cell is no data. Exact for
    /// DEMs up to 100 million cells (read window by window); beyond that from a decimated read
    /// at most 1024 × 1024 cells (GDAL takes overviews where the DEM has them), and
    /// `approximate` says so. A cell GDAL cannot read is an error, never no data.
    /// The corresponding GDAL function is `GDALRasterIO`.
    public func elevationRange() throws(TerrainError) -> (min: Double, max: Double, approximate: Bool)? {
        var low = Double.infinity
        var high = -Double.infinity
        func take(_ values: [Double]) {
            for v in values where !v.isNaN {
                low = min(low, v)
                high = max(high, v)
            }
        }
        // width and height are at most Int32.max, so the product fits.
        let approximate = width * height > Self.exactRangeCells
        if approximate {
            take(try readDecimated(width: min(width, Self.approximateRangeSide), height: min(height, Self.approximateRangeSide)))
        } else {
            let columnsPerWindow = min(width, Self.rangeWindowCells)
            let rowsPerWindow = max(1, Self.rangeWindowCells / columnsPerWindow)
            var row = 0
            while row < height {
                let h = min(rowsPerWindow, height - row)
                var column = 0
                while column < width {
                    let w = min(columnsPerWindow, width - column)
                    take(try readWindow(column: column, row: row, width: w, height: h).values)
                    column += w
                }
                row += h
            }
        }
        guard low <= high else { return nil }
        // A scale or offset that takes a stored value past any terrain (to infinity, even) is
        // an error as it is for samples, so no description prints `inf`.
        for (metres, which) in [(low, "its lowest cell"), (high, "its highest cell")] where !(abs(metres) <= Self.maximumHeightMetres) {
            throw .implausibleHeight(path: label, metres: metres, point: which)
        }
        return (low, high, approximate)
    }

    /// The whole raster read into a `w` × `h` buffer (nearest neighbour, or an overview), in
    /// metres with no data as `nan`. The corresponding GDAL function is `GDALRasterIO`.
    func readDecimated(width w: Int, height h: Int) throws(TerrainError) -> [Double] {
        guard w > 0, h > 0 else { return [] }
        var buffer = [Double](repeating: .nan, count: w * h)
        try band.read(
            column: 0, row: 0, width: width, height: height, into: &buffer,
            bufferWidth: w, bufferHeight: h, type: GDT_Float64
        ) { .readFailed(path: label, reason: $0) }
        let ndRead = info.noDataAsRead
        let scale = info.scale * verticalUnitMetres
        let offset = info.offset * verticalUnitMetres
        for k in buffer.indices {
            let v = buffer[k]
            buffer[k] = v.isNaN || v == ndRead || !v.isFinite ? .nan : v * scale + offset
        }
        return buffer
    }
}

@inline(__always)
private func hypot2(_ a: Double, _ b: Double) -> Double { (a * a + b * b).squareRoot() }
