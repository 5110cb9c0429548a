import CGDAL
import TransectCore

/// A digital elevation model: one raster, or many tiles mosaicked as an in-memory VRT, read by
/// windows through GDAL's bounded block cache.
///
/// Heights come out in metres: no data (and GDAL's no-data value) becomes `nan`; scale and
/// offset are applied; feet and US survey feet are converted. Points go in as WGS84 longitude
/// and latitude and are transformed to the DEM's CRS; geographic DEMs accept longitudes in
/// either −180…180 or 0…360, and a DEM spanning the whole globe wraps around in longitude.
///
/// Not thread-safe: open one per task.
public final class ElevationModel {
    /// The rasters behind the model, as opened.
    public let paths: [String]
    /// A short name for messages: the path, or the first path and the tile count.
    public let label: String
    /// Things the user should know about how the DEM was read (one line each, for stderr).
    public private(set) var notes: [String] = []

    let dataset: Dataset
    /// What GDAL said each opened tile uses (`GDALGetFileList`), and the sources nested VRTs
    /// open: the material of ``inputFiles``.
    let openedFiles: [String]
    let nestedSources: [String]
    let band: GDALRasterBandH
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

    /// Opens the DEMs that `specs` name (files, directories of tiles, globs, GDAL virtual paths).
    /// What they may reference is confined as ``SourceConfinement`` describes: files under
    /// the named paths' directories, and the network only when `access` allows it.
    public init(_ specs: [String], access: DataAccess = .local) throws(TerrainError) {
        GDALEnvironment.ensure()
        precondition(!specs.isEmpty, "at least one DEM")
        var files: [String] = []
        for spec in specs { files += try DEMPaths.expand(spec) }
        paths = files
        label = files.count == 1 ? files[0] : "\(files[0]) and \(files.count - 1) more"

        let confinement = SourceConfinement(named: files, access: access)
        let tiles = try files.map { (path: String) throws(TerrainError) -> Dataset in
            try Dataset(path: path, confinement: confinement)
        }
        openedFiles = tiles.flatMap(\.fileList)
        nestedSources = tiles.flatMap(\.sources)
        var tileInfo: BandInfo?
        for tile in tiles {
            guard tile.bandCount >= 1, let b = tile.band(1) else {
                throw .unusableRaster(path: tile.name, reason: "has no raster band")
            }
            let bi = BandInfo(band: b)
            if let first = tileInfo, first.scale != bi.scale || first.offset != bi.offset || first.unitType != bi.unitType {
                throw .cannotMosaic(reason: "'\(tile.name)' differs from '\(tiles[0].name)' in scale, offset or unit")
            }
            tileInfo = bi
        }
        if tiles.count == 1 {
            dataset = tiles[0]
            driverName = tiles[0].driverName
        } else {
            dataset = try Self.mosaic(tiles)
            driverName = "VRT"
        }
        guard let b = dataset.band(1) else { throw .unusableRaster(path: label, reason: "has no raster band") }
        band = b
        var bandInfo = BandInfo(band: b)
        // Scale, offset and unit belong to the tiles; a VRT built over them may not carry them.
        bandInfo.scale = tileInfo!.scale
        bandInfo.offset = tileInfo!.offset
        bandInfo.unitType = tileInfo!.unitType
        info = bandInfo
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
            throw .unusableRaster(path: label, reason: "has an unusable geotransform (\(gt.map { "\($0)" }.joined(separator: ", "))): cell sizes must be finite and non-zero")
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
            crs = .wgs84()
            crsAssumed = true
            notes.append("note: DEM '\(label)' records no CRS; its extent is geographic, so EPSG:4326 (WGS84 longitude/latitude) is assumed")
        } else {
            throw .unusableRaster(path: label, reason: "records no CRS and its extent is not longitude/latitude")
        }
        guard crs.isHorizontal else {
            throw .unusableRaster(path: label, reason: "is in \(crs.label), a \(crs.kind) CRS; a DEM needs a geographic or projected one")
        }
        // Only once the DEMs opened: a refused network path leaves PROJ off the network.
        if access.allowNetwork { GDALEnvironment.enablePROJNetwork() }
        let wgs84 = SpatialReference.wgs84()
        fromWGS84 = crs.isSame(as: wgs84) ? nil : try CoordinateTransformer(from: wgs84, to: crs)

        if let metres = BandInfo.metresPerUnit(info.unitType) {
            verticalUnitMetres = info.unitType.isEmpty ? (crs.verticalUnitMetres ?? 1) : metres
        } else {
            throw .unusableRaster(path: label, reason: "has elevations in an unknown unit '\(info.unitType)'")
        }
        if verticalUnitMetres != 1 {
            notes.append("note: DEM '\(label)' stores elevations in \(info.unitType.isEmpty ? "its CRS's vertical unit" : "'" + info.unitType + "'"); converted to metres")
        }
        let spanDegrees = Double(width) * abs(gt[1])
        wrapsLongitude = crs.isGeographic && gt[2] == 0 && gt[4] == 0 && spanDegrees >= 360 - abs(gt[1]) / 2
    }

    /// A geotransform whose extent lies within longitude −180…360 and latitude −90…90, allowing
    /// the half pixel by which cell-centred global grids overhang.
    static func isPlainlyGeographic(_ gt: [Double], width: Int, height: Int) -> Bool {
        guard gt[2] == 0, gt[4] == 0 else { return false }
        let x0 = gt[0], x1 = gt[0] + Double(width) * gt[1]
        let y0 = gt[3], y1 = gt[3] + Double(height) * gt[5]
        let slackX = abs(gt[1]), slackY = abs(gt[5])
        return min(x0, x1) >= -180 - slackX && max(x0, x1) <= 360 + slackX
            && min(y0, y1) >= -90 - slackY && max(y0, y1) <= 90 + slackY
            && abs(gt[1]) < 10 && abs(gt[5]) < 10
    }

    /// Tiles as one in-memory VRT at the finest resolution among them.
    /// The corresponding GDAL function is `GDALBuildVRT`.
    static func mosaic(_ tiles: [Dataset]) throws(TerrainError) -> Dataset {
        let first = tiles[0]
        let firstCRS = first.spatialReference
        for tile in tiles.dropFirst() {
            let crs = tile.spatialReference
            switch (firstCRS, crs) {
            case (nil, nil): continue
            case let (a?, b?) where a.isSame(as: b): continue
            default:
                throw .cannotMosaic(reason: "'\(tile.name)' is in \(crs?.label ?? "no CRS") but '\(first.name)' is in \(firstCRS?.label ?? "no CRS")")
            }
        }
        var handles: [GDALDatasetH?] = tiles.map { $0.handle }
        CPLErrorReset()
        let vrt: GDALDatasetH? = withCStringList(["-resolution", "highest"]) { args in
            guard let options = GDALBuildVRTOptionsNew(args, nil) else { return nil }
            defer { GDALBuildVRTOptionsFree(options) }
            var usageError: Int32 = 0
            return handles.withUnsafeMutableBufferPointer {
                GDALBuildVRT("", Int32(tiles.count), $0.baseAddress, nil, options, &usageError)
            }
        }
        guard let vrt else { throw .cannotMosaic(reason: GDALEnvironment.lastMessage()) }
        // The VRT holds its own references to the tiles, so ours may close.
        return Dataset(owning: vrt, name: "mosaic of \(tiles.count) DEMs")
    }
}

extension ElevationModel {
    /// Continuous pixel coordinates of WGS84 points (cell centres at i + ½), `nan` where PROJ
    /// cannot transform a point. Longitudes of a geographic DEM are shifted by 360° to fall in
    /// its extent; a DEM that wraps takes any longitude.
    public func pixelCoordinates(of points: [GeoPoint]) -> (columns: [Double], rows: [Double]) {
        var xs = points.map(\.longitude)
        var ys = points.map(\.latitude)
        fromWGS84?.transform(x: &xs, y: &ys)
        let g = inverseGeoTransform
        var columns = [Double](repeating: .nan, count: points.count)
        var rows = columns
        let geographic = crs.isGeographic
        let minX = min(geoTransform[0], geoTransform[0] + Double(width) * geoTransform[1])
        let maxX = max(geoTransform[0], geoTransform[0] + Double(width) * geoTransform[1])
        for k in 0..<points.count {
            var x = xs[k]
            let y = ys[k]
            guard x.isFinite, y.isFinite else { continue }
            if wrapsLongitude {
                // Into [minX, minX + 360): the period is 360°, whatever rounding the stored
                // cell size carries (ETOPO5's is 0.0833341° for 360/4320).
                x = minX + (x - minX) - ((x - minX) / 360).rounded(.down) * 360
            } else if geographic {
                if x < minX, x + 360 <= maxX { x += 360 } else if x > maxX, x - 360 >= minX { x -= 360 }
            }
            var column = g[0] + x * g[1] + y * g[2]
            let row = g[3] + x * g[4] + y * g[5]
            if wrapsLongitude && column >= Double(width) {
                column -= Double(width)
            }
            columns[k] = column
            rows[k] = row
        }
        return (columns, rows)
    }

    /// True when the pixel coordinates fall within the raster.
    @inlinable
    public func contains(column: Double, row: Double) -> Bool {
        column >= 0 && row >= 0 && column <= Double(width) && row <= Double(height)
    }

    /// Elevations in metres at WGS84 points, `nan` where a point is outside the DEM or on no data.
    ///
    /// Points are grouped by 256 × 256 chunks of the raster; each group reads one window (the
    /// bounding box of its points plus the interpolation's margin) through GDAL's block cache
    /// and is sampled by ``ElevationGrid/sample(columns:rows:interpolation:)``. Memory is
    /// bounded by the batch, never by the size of the DEM.
    ///
    /// A height beyond ±``maximumHeightMetres`` (a Float64 cell of 1e308, say) is an error
    /// naming the point, not a number for statistics to overflow on; no data stays `nan`.
    public func elevations(at points: [GeoPoint], interpolation: Interpolation = .bilinear) throws(TerrainError) -> [Double] {
        let (columns, rows) = pixelCoordinates(of: points)
        let values = try sampled(columns: columns, rows: rows, interpolation: interpolation)
        try checkHeights(values) { "\(points[$0].longitude),\(points[$0].latitude)" }
        return values
    }

    /// Elevations at continuous pixel coordinates; see ``elevations(at:interpolation:)``.
    public func elevations(columns: [Double], rows: [Double], interpolation: Interpolation) throws(TerrainError) -> [Double] {
        let values = try sampled(columns: columns, rows: rows, interpolation: interpolation)
        try checkHeights(values) { "column \(columns[$0]), row \(rows[$0])" }
        return values
    }

    /// Heights beyond this magnitude, in metres (100,000 km), are errors: far past any terrain
    /// or geoid, and small enough that sums of many of them stay finite.
    public static let maximumHeightMetres = GeoPoint.heightLimitMetres

    /// Throws for the first value beyond ±``maximumHeightMetres`` (infinity included);
    /// `describe` names the point at an index.
    func checkHeights(_ values: [Double], describe: (Int) -> String) throws(TerrainError) {
        guard let k = values.firstIndex(where: { !$0.isNaN && abs($0) > Self.maximumHeightMetres }) else { return }
        throw .implausibleHeight(path: label, metres: values[k], point: describe(k))
    }

    func sampled(columns: [Double], rows: [Double], interpolation: Interpolation) throws(TerrainError) -> [Double] {
        let n = columns.count
        var result = [Double](repeating: .nan, count: n)
        let chunk = 256
        let chunksAcross = (width + chunk - 1) / chunk + 1
        var keyed: [(key: Int, index: Int)] = []
        keyed.reserveCapacity(n)
        for k in 0..<n where contains(column: columns[k], row: rows[k]) {
            let cx = min(Int(columns[k]), width - 1) / chunk
            let cy = min(Int(rows[k]), height - 1) / chunk
            keyed.append((cy * chunksAcross + cx, k))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        let margin = interpolation.radius
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count && keyed[end].key == keyed[start].key { end += 1 }
            var minC = Int.max, maxC = Int.min, minR = Int.max, maxR = Int.min
            for item in keyed[start..<end] {
                let c = Int(columns[item.index]), r = Int(rows[item.index])
                minC = min(minC, c); maxC = max(maxC, c)
                minR = min(minR, r); maxR = max(maxR, r)
            }
            let c0 = minC - margin, c1 = maxC + margin + 1
            let r0 = max(minR - margin, 0), r1 = min(maxR + margin + 1, height)
            let grid = try readWindow(column: c0, row: r0, width: c1 - c0, height: r1 - r0)
            let groupColumns = keyed[start..<end].map { columns[$0.index] }
            let groupRows = keyed[start..<end].map { rows[$0.index] }
            let values = grid.sample(columns: groupColumns, rows: groupRows, interpolation: interpolation)
            for (offset, item) in keyed[start..<end].enumerated() { result[item.index] = values[offset] }
            start = end
        }
        return result
    }

    /// Reads a window of elevations in metres. Columns outside the raster are no data, or, for a
    /// DEM that wraps in longitude, the columns on the other side of the antimeridian.
    /// The corresponding GDAL function is `GDALRasterIO`.
    func readWindow(column: Int, row: Int, width w: Int, height h: Int) throws(TerrainError) -> ElevationGrid {
        var values = [Double](repeating: .nan, count: max(w, 0) * max(h, 0))
        guard w > 0, h > 0 else { return ElevationGrid(width: 0, height: 0, originColumn: column, originRow: row, values: []) }
        // Split the window's columns into runs that map to contiguous raster columns.
        var runs: [(windowColumn: Int, rasterColumn: Int, count: Int)] = []
        var c = column
        while c < column + w {
            var rasterColumn = c
            if wrapsLongitude { rasterColumn = ((c % width) + width) % width }
            if rasterColumn < 0 || rasterColumn >= width {
                c += 1
                continue
            }
            let count = min(column + w - c, width - rasterColumn)
            runs.append((c - column, rasterColumn, count))
            c += count
        }
        let ndRead = info.noDataAsRead
        let scale = info.scale * verticalUnitMetres, offset = info.offset * verticalUnitMetres
        for run in runs {
            var buffer = [Double](repeating: .nan, count: run.count * h)
            CPLErrorReset()
            let err = buffer.withUnsafeMutableBytes {
                GDALRasterIO(band, GF_Read, Int32(run.rasterColumn), Int32(row), Int32(run.count), Int32(h),
                             $0.baseAddress, Int32(run.count), Int32(h), GDT_Float64, 0, 0)
            }
            guard err == CE_None else { throw .readFailed(path: label, reason: GDALEnvironment.lastMessage()) }
            for j in 0..<h {
                for i in 0..<run.count {
                    let v = buffer[j * run.count + i]
                    let isNoData = v.isNaN || v == ndRead || !v.isFinite
                    values[j * w + run.windowColumn + i] = isNoData ? .nan : v * scale + offset
                }
            }
        }
        return ElevationGrid(width: w, height: h, originColumn: column, originRow: row, values: values)
    }
}
