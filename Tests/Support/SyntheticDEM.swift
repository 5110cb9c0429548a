import CGDAL
import TransectGDAL

/// Writes small DEMs with GDAL for tests: surfaces whose answers are known in closed form.
public enum SyntheticDEM {
    /// Writes a one-band GeoTIFF. `value(column, row)` gives the stored value of each cell.
    /// `crs` is anything OSRSetFromUserInput takes, or nil for a raster without a CRS;
    /// `options` are the driver's creation options (`TILED=YES`, say).
    public static func write(
        path: String, width: Int, height: Int, geoTransform: [Double], crs: String?,
        type: GDALDataType = GDT_Float64, noData: Double? = nil, unitType: String? = nil,
        scale: Double? = nil, offset: Double? = nil, driver: String = "GTiff", options: [String] = [],
        value: (Int, Int) -> Double
    ) {
        prepareGDAL()
        guard let drv = GDALGetDriverByName(driver) else { fatalError("no GDAL driver \(driver)") }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for option in options { list = CSLAddString(list, option) }
        defer { CSLDestroy(list) }
        guard let ds = GDALCreate(drv, path, Int32(width), Int32(height), 1, type, list) else {
            fatalError("cannot create \(path)")
        }
        var gt = geoTransform
        GDALSetGeoTransform(ds, &gt)
        if let crs {
            let srs = OSRNewSpatialReference(nil)
            OSRSetFromUserInput(srs, crs)
            GDALSetSpatialRef(ds, srs)
            OSRDestroySpatialReference(srs)
        }
        let band = GDALGetRasterBand(ds, 1)
        if let noData { GDALSetRasterNoDataValue(band, noData) }
        if let unitType { GDALSetRasterUnitType(band, unitType) }
        if let scale { GDALSetRasterScale(band, scale) }
        if let offset { GDALSetRasterOffset(band, offset) }
        var values = [Double](repeating: 0, count: width * height)
        for r in 0..<height { for c in 0..<width { values[r * width + c] = value(c, r) } }
        let err = values.withUnsafeMutableBytes {
            GDALRasterIO(
                band, GF_Write, 0, 0, Int32(width), Int32(height), $0.baseAddress,
                Int32(width), Int32(height), GDT_Float64, 0, 0)
        }
        precondition(err == CE_None, "cannot write \(path)")
        GDALClose(ds)
    }

    /// The whole first band as doubles, read by GDAL (the oracle for sampling tests).
    public static func readAll(path: String) -> (width: Int, height: Int, values: [Double], geoTransform: [Double]) {
        prepareGDAL()
        guard let ds = GDALOpen(path, GA_ReadOnly) else { fatalError("cannot open \(path)") }
        defer { GDALClose(ds) }
        let w = Int(GDALGetRasterXSize(ds))
        let h = Int(GDALGetRasterYSize(ds))
        var gt = [Double](repeating: 0, count: 6)
        GDALGetGeoTransform(ds, &gt)
        var values = [Double](repeating: 0, count: w * h)
        let err = values.withUnsafeMutableBytes {
            GDALRasterIO(
                GDALGetRasterBand(ds, 1), GF_Read, 0, 0, Int32(w), Int32(h), $0.baseAddress,
                Int32(w), Int32(h), GDT_Float64, 0, 0)
        }
        precondition(err == CE_None, "cannot read \(path)")
        return (w, h, values, gt)
    }

    /// A textbook bilinear reading of GDAL's array at geographic/projected x, y (no no-data
    /// handling: for points whose four neighbours all hold data).
    public static func bilinear(
        _ raster: (width: Int, height: Int, values: [Double], geoTransform: [Double]),
        x: Double, y: Double
    ) -> Double {
        let gt = raster.geoTransform
        let u = (x - gt[0]) / gt[1] - 0.5
        let v = (y - gt[3]) / gt[5] - 0.5
        let i = Int(u.rounded(.down))
        let j = Int(v.rounded(.down))
        let fx = u - Double(i)
        let fy = v - Double(j)
        func z(_ c: Int, _ r: Int) -> Double { raster.values[r * raster.width + c] }
        return (1 - fy) * ((1 - fx) * z(i, j) + fx * z(i + 1, j)) + fy * ((1 - fx) * z(i, j + 1) + fx * z(i + 1, j + 1))
    }
}
