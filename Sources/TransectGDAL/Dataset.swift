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
        CPLErrorReset()
        guard let h = GDALOpenEx(path, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR), nil, nil, nil)
        else {
            throw .cannotOpen(path: path, reason: GDALEnvironment.lastMessage(or: "not a raster GDAL can read"))
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

    /// Band `index` (1-based), which lives as long as this dataset.
    func band(_ index: Int) -> GDALRasterBandH? { GDALGetRasterBand(handle, Int32(index)) }
}

/// Facts about a raster band that sampling needs, read once.
struct BandInfo: Equatable {
    var noData: Double?
    var scale: Double
    var offset: Double
    var unitType: String
    var dataType: GDALDataType

    init(band: GDALRasterBandH) {
        var hasNoData: Int32 = 0
        let nd = GDALGetRasterNoDataValue(band, &hasNoData)
        noData = hasNoData != 0 ? nd : nil
        var hasScale: Int32 = 0, hasOffset: Int32 = 0
        let s = GDALGetRasterScale(band, &hasScale)
        let o = GDALGetRasterOffset(band, &hasOffset)
        scale = hasScale != 0 && s != 0 ? s : 1
        offset = hasOffset != 0 ? o : 0
        unitType = GDALGetRasterUnitType(band).map { String(cString: $0) } ?? ""
        dataType = GDALGetRasterDataType(band)
    }

    /// The no-data value as it compares with values read as doubles: a Float32 band stores the
    /// value rounded to single precision (ETOPO5's −1e34 is −9.99999984e33 on disk).
    var noDataAsRead: Double? {
        guard let noData else { return nil }
        return dataType == GDT_Float32 ? Double(Float(noData)) : noData
    }

    /// Metres per stored unit of elevation, from the band's unit type; nil for units that are not
    /// lengths we know.
    static func metresPerUnit(_ unitType: String) -> Double? {
        switch unitType.lowercased().trimmingWhitespace {
        case "", "m", "metre", "metres", "meter", "meters": 1
        case "ft", "foot", "feet", "international foot", "ft (international)": 0.3048
        case "us-ft", "ftus", "us survey foot", "us survey feet", "foot_us", "us_survey_foot", "survey foot":
            1200.0 / 3937.0
        case "km", "kilometre", "kilometer", "kilometres", "kilometers": 1000
        case "cm", "centimetre", "centimeter", "centimetres", "centimeters": 0.01
        case "dm", "decimetre", "decimeter": 0.1
        default: nil
        }
    }
}
