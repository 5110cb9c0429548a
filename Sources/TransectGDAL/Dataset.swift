import CGDAL

/// An open GDAL raster, read-only. Not thread-safe: open one per task.
/// The corresponding GDAL function is `GDALOpenEx`.
final class Dataset {
    let handle: GDALDatasetH
    /// What the user gave to open it (a path, or a description of a mosaic).
    let name: String
    /// The sources a VRT made GDAL open, nested ones included, as GDAL names them.
    private(set) var sources: [String] = []
    /// The files GDAL said, when it opened the dataset, that it uses (`GDALGetFileList`): the
    /// raster, its side files (`.aux.xml`, `.ovr`, world files, …) and a VRT's direct sources.
    private(set) var fileList: [String] = []

    /// Opens `path` after ``SourceConfinement`` has checked what it references, and checks the
    /// files GDAL then says it uses.
    init(path: String, confinement: SourceConfinement) throws(TerrainError) {
        GDALEnvironment.ensure()
        let sources = try confinement.checkBeforeOpen(path)
        let h = try gdal(fallback: "not a raster GDAL can read") {
            GDALOpenEx(path, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR), nil, nil, nil)
        } orThrow: {
            .cannotOpen(path: path, reason: $0)
        }
        handle = h
        name = path
        self.sources = sources
        fileList = try confinement.checkAfterOpen(h, name: path)
    }

    /// Opens `path`, a local raster whose references stay beside it.
    convenience init(path: String) throws(TerrainError) {
        try self.init(path: path, confinement: SourceConfinement(named: [path], access: .local))
    }

    /// Takes ownership of a dataset GDAL made (for example, an in-memory VRT).
    init(owning handle: GDALDatasetH, name: String) {
        self.handle = handle
        self.name = name
    }

    deinit { GDALClose(handle) }

    var width: Int { Int(GDALGetRasterXSize(handle)) }
    var height: Int { Int(GDALGetRasterYSize(handle)) }
    var bandCount: Int { Int(GDALGetRasterCount(handle)) }

    var driverName: String {
        guard let driver = GDALGetDatasetDriver(handle), let cName = GDALGetDriverShortName(driver) else { return "unknown" }
        return String(cString: cName)
    }

    /// The six geotransform coefficients, or nil when the raster has no georeferencing.
    var geoTransform: [Double]? {
        var gt = [Double](repeating: 0, count: 6)
        let err = gt.withUnsafeMutableBufferPointer { GDALGetGeoTransform(handle, $0.baseAddress) }
        guard err == CE_None else { return nil }
        return gt
    }

    /// The raster's CRS, or nil when it records none.
    var spatialReference: SpatialReference? {
        guard let srs = GDALGetSpatialRef(handle), let clone = OSRClone(srs) else { return nil }
        return SpatialReference(owning: clone)
    }

    /// Band `index` (1-based), or nil when the dataset has no such band. The band holds this
    /// dataset, so it stays open for as long as the band is used.
    func band(_ index: Int) -> RasterBand? { RasterBand(self, index: index) }
}
