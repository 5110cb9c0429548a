import CGDAL

/// An open GDAL raster, read-only. Not thread-safe: open one per task.
/// The corresponding GDAL function is `GDALOpenEx`.
///
/// The handle stays inside this type: GDAL calls on it are its methods, and GDAL's utilities,
/// which take datasets as handles, get them through ``withHandle(_:)`` and
/// ``withHandles(_:_:)``, which keep the datasets open until the call returns.
final class Dataset {
    private let handle: GDALDatasetH
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
        let h = try Self.open(path)
        handle = h
        name = path
        self.sources = sources
        fileList = try confinement.checkAfterOpen(Self.fileList(of: h), name: path)
    }

    /// Opens `path` again, a source whose references ``SourceConfinement`` checked when the
    /// dataset that uses it opened, to learn the files it uses.
    init(checkedSource path: String) throws(TerrainError) {
        GDALEnvironment.ensure()
        let h = try Self.open(path)
        handle = h
        name = path
        fileList = Self.fileList(of: h)
    }

    /// Opens `path` again for its cells alone, and only as a GeoTIFF: a local raster that a
    /// dataset opened as one and ``SourceConfinement`` checked, whose files are not listed again
    /// (GDAL's listing loads a GeoTIFF's georeferencing, and with it a PROJ context and database
    /// of the thread's own). A file that has become anything else in the meantime fails to open.
    init(reopeningGeoTIFF path: String) throws(TerrainError) {
        GDALEnvironment.ensure()
        handle = try Self.open(path, drivers: ["GTiff"])
        name = path
    }

    /// Opens `path`, a local raster whose references stay beside it.
    convenience init(path: String) throws(TerrainError) {
        try self.init(path: path, confinement: SourceConfinement(named: [path], access: .local))
    }

    /// Datasets this one reads through their handles (in-memory VRTs a mosaic is built over,
    /// which have no name to be opened again by): released only after this one is closed.
    private var kept: [Dataset] = []

    /// Takes ownership of a dataset GDAL made (for example, an in-memory VRT), keeping
    /// `keeping` open until it is closed.
    init(owning handle: GDALDatasetH, name: String, keeping: [Dataset] = []) {
        self.handle = handle
        self.name = name
        kept = keeping
    }

    /// True for a dataset GDAL made in memory (an in-memory VRT), which has no file to be
    /// opened again by.
    var isAnonymous: Bool { GDALGetDescription(handle).map { String(cString: $0).isEmpty } ?? true }

    // The body runs before `kept` is released: this dataset closes before those it reads.
    deinit { GDALClose(handle) }

    /// Opens `path` read-only as a raster through the funnel.
    /// `drivers`, when given, are the only drivers GDAL may open it with.
    private static func open(_ path: String, drivers: [String] = []) throws(TerrainError) -> GDALDatasetH {
        try gdal(fallback: "not a raster GDAL can read") {
            withCStringList(drivers) { allowed in
                GDALOpenEx(
                    path, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR), drivers.isEmpty ? nil : constList(allowed), nil, nil)
            }
        } orThrow: {
            .cannotOpen(path: path, reason: $0)
        }
    }

    /// The files GDAL says the dataset `handle` uses.
    /// The corresponding GDAL function is `GDALGetFileList`.
    private static func fileList(of handle: GDALDatasetH) -> [String] {
        guard let list = GDALGetFileList(handle) else { return [] }
        defer { CSLDestroy(list) }
        var files: [String] = []
        var k = 0
        while let entry = list[k] {
            files.append(String(cString: entry))
            k += 1
        }
        return files
    }

    /// Calls `body` with the dataset's handle, for a GDAL utility that takes one
    /// (`GDALTranslate`); the dataset stays open until `body` returns. `body` must not keep it.
    func withHandle<R>(_ body: (GDALDatasetH) -> R) -> R {
        withExtendedLifetime(self) { body(handle) }
    }

    /// Calls `body` with the handles of `datasets` as a C array, for a GDAL utility that takes
    /// several (`GDALWarp`, `GDALBuildVRT`); every dataset stays open until `body` returns.
    /// `body` must not keep them.
    static func withHandles<R>(_ datasets: [Dataset], _ body: (UnsafeMutablePointer<GDALDatasetH?>) -> R) -> R {
        withExtendedLifetime(datasets) {
            var handles: [GDALDatasetH?] = datasets.map { $0.handle }
            return handles.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        }
    }

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
    /// The corresponding GDAL function is `GDALGetRasterBand`.
    func band(_ index: Int) -> RasterBand? {
        guard index >= 1, index <= bandCount, let h = GDALGetRasterBand(handle, Int32(index)) else { return nil }
        return RasterBand(dataset: self, index: index, handle: h)
    }
}
