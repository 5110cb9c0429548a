import CGDAL
import TransectSupport

/// A digital elevation model: one raster, or many tiles mosaicked as an in-memory VRT, read by
/// windows through GDAL's bounded block cache.
///
/// Heights come out in metres: no data (and GDAL's no-data value) becomes `nan`; scale and
/// offset are applied; feet and US survey feet are converted. Points go in as WGS84 longitude
/// and latitude and are transformed to the DEM's CRS; geographic DEMs accept longitudes in
/// either −180…180 or 0…360, and a DEM spanning the whole globe wraps around in longitude.
///
/// Windows it has read and converted stay in a bounded cache (``ElevationWindowCache``), so
/// consecutive batches over the same terrain do not read them again.
///
/// Not thread-safe: open one per task.
public final class ElevationModel {
    /// The rasters behind the model, as opened.
    public let paths: [String]
    /// A short name for messages: the path, or the first path and the tile count.
    public let label: String
    /// Things the user should know about how the DEM was read (one line each, for stderr).
    public private(set) var notes: [String] = []
    /// The no-data values `--nodata` gave (one for all DEMs, or one each); empty when the
    /// files' own apply.
    public let givenNoData: [Double]
    /// True when the no-data value is the one `--nodata` gave, not the one the files record.
    public var noDataGiven: Bool { !givenNoData.isEmpty }
    /// The cell type the (first) file stores, whatever GDAL reads it through.
    let fileDataType: GDALDataType

    let dataset: Dataset
    /// What GDAL said each opened tile uses (`GDALGetFileList`), and the sources nested VRTs
    /// open: the material of ``inputFiles``.
    let openedFiles: [String]
    let nestedSources: [String]
    let band: RasterBand
    let info: BandInfo
    /// GDAL's driver for a single raster; `VRT` for a mosaic.
    public let driverName: String
    public let width: Int
    public let height: Int
    /// The geotransform: x = gt0 + col·gt1 + row·gt2, y = gt3 + col·gt4 + row·gt5.
    public let geoTransform: [Double]
    let inverseGeoTransform: [Double]
    /// The DEM's CRS (EPSG:4326 when it records none and its extent is plainly geographic).
    public let crs: SpatialReference
    /// True when the CRS was assumed rather than read.
    public let crsAssumed: Bool
    /// WGS84 longitude/latitude to the DEM's CRS; nil when they are the same.
    let fromWGS84: CoordinateTransformer?
    /// Metres per stored elevation unit (0.3048 for a DEM in feet).
    public let verticalUnitMetres: Double
    /// True when the DEM is geographic and covers all 360° of longitude, so columns wrap.
    public let wrapsLongitude: Bool
    /// Decoded windows kept between calls, within a byte budget.
    let windowCache = ElevationWindowCache()
    /// How sampling chooses its windows: whole blocks for a DEM read over the network, chunks
    /// otherwise (``SampleWindows``).
    let sampleWindows: SampleWindows
    /// The whole raster's cells as a thread of its own reads them while the DEM's georeferencing
    /// loads (`readsWholeEarly`), for ``viewshedWindow()``; nil where it was not asked for or
    /// does not apply.
    let earlyWhole: EarlyWholeRead?

    /// Opens the DEMs that `specs` name (files, directories of tiles, globs, GDAL virtual paths).
    /// What they may reference is confined as ``SourceConfinement`` describes: files under
    /// the named paths' directories, and the network only when `access` allows it.
    ///
    /// `noData` (`--nodata`) overrides the no-data value the files record, as `gdal_translate
    /// -a_nodata` does (the recorded value becomes an elevation like any other): empty keeps
    /// the files' values, one value applies to every DEM, and as many values as `specs` give
    /// each spec's tiles its own. A cell holding the value is no data, in samples, profiles and
    /// the frames maps warp.
    ///
    /// `readsWholeEarly` (a viewshed's, which reads the whole raster): one local Float32 GeoTIFF
    /// starts being read whole on a thread of its own as soon as it opens
    /// (``EarlyWholeRead``), while this thread loads its georeferencing, PROJ's database and the
    /// transformations (10 to 20 ms that a read would otherwise wait for).
    public init(_ specs: [String], access: DataAccess = .local, noData: [Double] = [], readsWholeEarly: Bool = false) throws(TerrainError) {
        GDALEnvironment.ensure()
        if access.allowNetwork { GDALEnvironment.enableNetworkReads(access) }
        precondition(!specs.isEmpty, "at least one DEM")
        precondition(noData.count <= 1 || noData.count == specs.count, "one no-data value, or one for each DEM")
        var files: [String] = []
        var fileNoData: [Double?] = []
        for (k, spec) in specs.enumerated() {
            let expanded = try DEMPaths.expand(spec)
            files += expanded
            fileNoData += Array(repeating: noData.isEmpty ? nil : noData[noData.count == 1 ? 0 : k], count: expanded.count)
        }
        givenNoData = noData
        paths = files
        label = files.count == 1 ? files[0] : "\(files[0]) and \(files.count - 1) more"

        let confinement = SourceConfinement(named: files, access: access)
        let tiles = try files.map { (path: String) throws(TerrainError) -> Dataset in
            try GDALEnvironment.openingNetworkPath(path) { () throws(TerrainError) in try Dataset(path: path, confinement: confinement) }
        }
        // Size, driver and cell type need no georeferencing: the read starts before it loads.
        if readsWholeEarly, files.count == 1, noData.isEmpty, !files[0].hasPrefix("/vsi"), tiles[0].driverName == "GTiff",
            tiles[0].width > 0, tiles[0].height > 0, tiles[0].width * tiles[0].height <= Self.maximumViewshedCells,
            tiles[0].band(1)?.dataType == GDT_Float32
        {
            earlyWhole = EarlyWholeRead(path: files[0], width: tiles[0].width, height: tiles[0].height)
        } else {
            earlyWhole = nil
        }
        openedFiles = tiles.flatMap(\.fileList)
        nestedSources = tiles.flatMap(\.sources)
        sampleWindows = .choosing(files: files + openedFiles + nestedSources, drivers: tiles.map(\.driverName))
        var tileInfo: BandInfo?
        for tile in tiles {
            guard tile.bandCount >= 1, let b = tile.band(1) else {
                throw .unusableRaster(path: tile.name, reason: "has no raster band")
            }
            let bi = b.info
            if let first = tileInfo, first.scale != bi.scale || first.offset != bi.offset || !Self.sameUnit(first.unitType, bi.unitType) {
                throw .cannotMosaic(
                    reason:
                        "'\(tile.name)' differs from '\(tiles[0].name)' in scale, offset or unit (\(Self.describe(bi)) against \(Self.describe(first)))")
            }
            tileInfo = bi
        }
        var given: [Dataset] = []
        for (tile, value) in zip(tiles, fileNoData) {
            given.append(try value.map { (v: Double) throws(TerrainError) in try Self.withNoData(tile, v) } ?? tile)
        }
        if tiles.count == 1 {
            dataset = given[0]
            driverName = tiles[0].driverName
        } else {
            // Tiles given different no-data values (doubles, through withNoData): the mosaic's
            // own is NaN, which no tile's elevation can be, so one tile's real 0 is not
            // another's no data.
            let mixed = !noData.isEmpty && Set(fileNoData.map { $0?.bitPattern }).count > 1
            dataset = try Self.mosaic(given, options: mixed ? ["-vrtnodata", "nan"] : [])
            driverName = "VRT"
        }
        guard let b = dataset.band(1) else { throw .unusableRaster(path: label, reason: "has no raster band") }
        band = b
        var bandInfo = b.info
        // Scale, offset and unit belong to the tiles; a VRT built over them may not carry them.
        bandInfo.scale = tileInfo!.scale
        bandInfo.offset = tileInfo!.offset
        bandInfo.unitType = tileInfo!.unitType
        info = bandInfo
        fileDataType = tileInfo!.dataType
        width = dataset.width
        height = dataset.height

        guard width > 0, height > 0 else {
            throw .unusableRaster(path: label, reason: "has \(width) × \(height) cells")
        }
        guard let gt = dataset.geoTransform else {
            throw .unusableRaster(path: label, reason: "has no georeferencing (no geotransform)")
        }
        // Every number below drives arithmetic, windows and loops: finite, a non-zero cell,
        // and an extent that stays finite.
        let farX = gt[0] + Double(width) * gt[1] + Double(height) * gt[2]
        let farY = gt[3] + Double(width) * gt[4] + Double(height) * gt[5]
        guard gt.allSatisfy(\.isFinite), gt[1] != 0, gt[5] != 0, farX.isFinite, farY.isFinite else {
            throw .unusableRaster(
                path: label, reason: "has an unusable geotransform (\(gt.map { "\($0)" }.joined(separator: ", "))): cell sizes must be finite and non-zero")
        }
        geoTransform = gt
        var inverse = [Double](repeating: 0, count: 6)
        var forward = gt
        guard GDALInvGeoTransform(&forward, &inverse) != 0 else {
            throw .unusableRaster(path: label, reason: "has a geotransform that cannot be inverted")
        }
        inverseGeoTransform = inverse

        if let srs = dataset.spatialReference {
            crs = srs
            crsAssumed = false
        } else if Self.isPlainlyGeographic(gt, width: width, height: height) {
            crs = try .wgs84()
            crsAssumed = true
            notes.append("note: DEM '\(label)' records no CRS; its extent is geographic, so EPSG:4326 (WGS84 longitude/latitude) is assumed")
        } else {
            throw .unusableRaster(path: label, reason: "records no CRS and its extent is not longitude/latitude")
        }
        guard crs.isHorizontal else {
            throw .unusableRaster(path: label, reason: "is in \(crs.label), a \(crs.kind) CRS; a DEM needs a geographic or projected one")
        }
        // Only once the DEMs opened: a refused network path leaves PROJ off the network.
        if access.allowNetwork { GDALEnvironment.enablePROJNetworkIfAsked() }
        let wgs84 = try SpatialReference.wgs84()
        fromWGS84 = crs.isSame(as: wgs84) ? nil : try CoordinateTransformer(from: wgs84, to: crs)

        if let metres = BandInfo.metresPerUnit(info.unitType) {
            verticalUnitMetres = info.unitType.isEmpty ? (crs.verticalUnitMetres ?? 1) : metres
        } else {
            throw .unusableRaster(path: label, reason: "has elevations in an unknown unit '\(info.unitType)'")
        }
        if verticalUnitMetres != 1 {
            notes.append(
                "note: DEM '\(label)' stores elevations in \(info.unitType.isEmpty ? "its CRS's vertical unit" : "'" + info.unitType + "'"); converted to metres"
            )
        }
        let spanDegrees = Double(width) * abs(gt[1])
        wrapsLongitude = crs.isGeographic && gt[2] == 0 && gt[4] == 0 && spanDegrees >= 360 - abs(gt[1]) / 2
    }

    /// True when the unit types `a` and `b` name one length: a unit a band does not record is
    /// metres, as `info` says ("m (assumed)"), so an SRTM tile (no unit) mosaics with a GeoTIFF
    /// that says `m`. Units Transect does not know compare by name.
    static func sameUnit(_ a: String, _ b: String) -> Bool {
        guard let ma = BandInfo.metresPerUnit(a), let mb = BandInfo.metresPerUnit(b) else { return a == b }
        return ma == mb
    }

    /// A band's scale, offset and unit as the mosaic error names them.
    static func describe(_ info: BandInfo) -> String {
        let unit = info.unitType.isEmpty ? "m (assumed)" : info.unitType
        return "scale \(NumberFormatting.shortest(info.scale)), offset \(NumberFormatting.shortest(info.offset)), unit \(unit)"
    }

    /// `tile` read with `value` as its no-data value, as `gdal_translate -a_nodata` gives it: an
    /// in-memory VRT of doubles (which hold every stored value exactly) over the tile, whose band
    /// says `value` is no data; the value the tile records becomes an elevation. The
    /// corresponding GDAL function is `GDALTranslate`.
    static func withNoData(_ tile: Dataset, _ value: Double) throws(TerrainError) -> Dataset {
        let text = NumberFormatting.shortest(value)
        let vrt = try gdal {
            withCStringList(["-of", "VRT", "-ot", "Float64", "-a_nodata", text]) { args -> GDALDatasetH? in
                guard let options = GDALTranslateOptionsNew(args, nil) else { return nil }
                defer { GDALTranslateOptionsFree(options) }
                var usageError: Int32 = 0
                return tile.withHandle { GDALTranslate("", $0, options, &usageError) }
            }
        } orThrow: {
            .unusableRaster(path: tile.name, reason: "cannot take \(text) as its no-data value: \($0)")
        }
        // The VRT reads the tile through its handle: the tile stays open as long as the VRT.
        return Dataset(owning: vrt, name: tile.name, keeping: [tile])
    }

    /// A geotransform whose extent lies within longitude −180…360 and latitude −90…90, allowing
    /// the half pixel by which cell-centred global grids overhang.
    static func isPlainlyGeographic(_ gt: [Double], width: Int, height: Int) -> Bool {
        guard gt[2] == 0, gt[4] == 0 else { return false }
        let x0 = gt[0]
        let x1 = gt[0] + Double(width) * gt[1]
        let y0 = gt[3]
        let y1 = gt[3] + Double(height) * gt[5]
        let slackX = abs(gt[1])
        let slackY = abs(gt[5])
        return min(x0, x1) >= -180 - slackX && max(x0, x1) <= 360 + slackX
            && min(y0, y1) >= -90 - slackY && max(y0, y1) <= 90 + slackY
            && abs(gt[1]) < 10 && abs(gt[5]) < 10
    }

    /// Tiles as one in-memory VRT at the finest resolution among them.
    /// The corresponding GDAL function is `GDALBuildVRT`.
    static func mosaic(_ tiles: [Dataset], options: [String] = []) throws(TerrainError) -> Dataset {
        let first = tiles[0]
        let firstCRS = first.spatialReference
        for tile in tiles.dropFirst() {
            let crs = tile.spatialReference
            switch (firstCRS, crs) {
            case (nil, nil): continue
            case (let a?, let b?) where a.isSame(as: b): continue
            default:
                throw .cannotMosaic(reason: "'\(tile.name)' is in \(crs?.label ?? "no CRS") but '\(first.name)' is in \(firstCRS?.label ?? "no CRS")")
            }
        }
        let vrt = try gdal {
            withCStringList(["-resolution", "highest"] + options) { args -> GDALDatasetH? in
                guard let options = GDALBuildVRTOptionsNew(args, nil) else { return nil }
                defer { GDALBuildVRTOptionsFree(options) }
                var usageError: Int32 = 0
                return Dataset.withHandles(tiles) { GDALBuildVRT("", Int32(tiles.count), $0, nil, options, &usageError) }
            }
        } orThrow: {
            .cannotMosaic(reason: $0)
        }
        // The VRT opens the tiles again by name, so ours may close; in-memory VRTs (tiles
        // read with --nodata) have no name, and stay open as long as the mosaic.
        return Dataset(owning: vrt, name: "mosaic of \(tiles.count) DEMs", keeping: tiles.filter(\.isAnonymous))
    }
}

/// A local Float32 GeoTIFF's cells read whole, as stored, on a thread of its own while its
/// ``ElevationModel`` goes on opening (``ElevationModel/init(_:access:noData:readsWholeEarly:)``):
/// the file opened again as ``ElevationModel/directReadBand()`` opens it
/// (``ElevationModel/reopenedGeoTIFFBand(_:width:height:dataType:)``) and read as
/// ``ElevationModel/readInPlace(_:column:row:width:height:type:label:)`` reads, so the thread
/// shares no GDAL handle with the model. The model turns the cells into metres when it knows their no-data value; a read that
/// failed, or a file that no longer opens as the same raster, leaves the model to read as it
/// would have.
final class EarlyWholeRead: @unchecked Sendable {
    /// Written by the thread, read after it is joined.
    private final class Cells: @unchecked Sendable {
        var values: [Float]?
    }
    private let cells = Cells()
    private var thread: OwnThread?

    /// Starts reading the `width` × `height` cells of band 1 of the GeoTIFF at `path`; nil when
    /// no thread can be started.
    init?(path: String, width: Int, height: Int) {
        let cells = cells
        guard let thread = OwnThread({ cells.values = Self.read(path: path, width: width, height: height) }) else { return nil }
        self.thread = thread
    }

    /// Waits for the read and hands its cells over, once: nil where it failed or was taken.
    /// Called on one thread at a time.
    func take() -> [Float]? {
        thread?.join()
        thread = nil
        defer { cells.values = nil }
        return cells.values
    }

    /// The cells of band 1 as stored; nil on any failure.
    private static func read(path: String, width: Int, height: Int) -> [Float]? {
        guard let band = ElevationModel.reopenedGeoTIFFBand(path, width: width, height: height, dataType: GDT_Float32) else { return nil }
        return try? ElevationModel.readInPlace(band, column: 0, row: 0, width: width, height: height, type: GDT_Float32, label: path)
    }
}
