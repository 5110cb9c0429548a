import CGDAL
import TransectSupport

/// Writes images as georeferenced Cloud-Optimized GeoTIFFs through GDAL's COG driver: RGB,
/// 8 bits a band, 512-pixel tiles deflated with the horizontal predictor, overviews down to one
/// tile, the CRS and geotransform inside the file (no world file). The bytes depend on the
/// pixels, the georeference and GDAL's version alone.
public enum GeoTIFFWriter {
    /// The COG driver's creation options.
    static let options = ["COMPRESS=DEFLATE", "PREDICTOR=2", "BLOCKSIZE=512", "OVERVIEWS=AUTO", "NUM_THREADS=1"]
    /// The COG driver's creation options for a data band: Zstandard at level 1 (a viewshed's
    /// 4096² classes compress in a third of DEFLATE's time, to half its size; GDAL 2.3 and
    /// later, QGIS and rasterio read it), its overviews take the nearest cell (the driver's
    /// default, cubic, would invent classes and counts between a band's values), and no
    /// predictor (differences between neighbouring classes or counts compress worse than the
    /// values). The overviews are the source's own (``bandOverviewFactors``).
    static let bandOptions = ["COMPRESS=ZSTD", "LEVEL=1", "PREDICTOR=NO", "RESAMPLING=NEAREST", "BLOCKSIZE=512"]
    /// A data band's tile side, and the side its smallest overview fits in.
    static let bandTile = 512

    /// The factors of a data band's overviews: halving until the overview fits in one tile, each
    /// side ⌈side / factor⌉ as `GDALBuildOverviews` sizes them (the COG driver's own
    /// `OVERVIEWS=AUTO` rounds down, so its levels can be a cell smaller, and one fewer).
    static func bandOverviewFactors(width: Int, height: Int) -> [Int] {
        var factors: [Int] = []
        var factor = 1
        while (width + factor - 1) / factor > bandTile || (height + factor - 1) / factor > bandTile {
            factor *= 2
            factors.append(factor)
        }
        return factors
    }

    /// Writes opaque RGB `pixels` (3 bytes a pixel, row-major, `stride` bytes a row, read with
    /// `read` for each row into a packed RGB buffer) to `path`.
    ///
    /// - Parameters:
    ///   - geoTransform: x = gt0 + col·gt1 + row·gt2, y = gt3 + col·gt4 + row·gt5.
    ///   - wkt: the CRS as WKT.
    ///   - rows: fills row `y`'s `width × 3` RGB bytes.
    public static func writeCOG(
        path: String, width: Int, height: Int, geoTransform: [Double], wkt: String,
        rows: (_ y: Int, _ into: UnsafeMutableBufferPointer<UInt8>) -> Void
    ) throws(TerrainError) {
        GDALEnvironment.ensure()
        let failure = { (reason: String) in TerrainError.cannotWriteImage(path: path, reason: reason) }
        let mem = try gdal({ GDALGetDriverByName("MEM") }, orThrow: failure)
        let cog = try gdal(fallback: "GDAL has no COG driver (GDAL 3.1 or later writes them)", { GDALGetDriverByName("COG") }, orThrow: failure)
        let dataset = try gdal({ GDALCreate(mem, "", Int32(width), Int32(height), 3, GDT_Byte, nil) }, orThrow: failure)
        defer { GDALClose(dataset) }
        var transform = geoTransform
        try gdal({ GDALSetGeoTransform(dataset, &transform) }, orThrow: failure)
        try gdal({ GDALSetProjection(dataset, wkt) }, orThrow: failure)
        for (k, interpretation) in [GCI_RedBand, GCI_GreenBand, GCI_BlueBand].enumerated() {
            GDALSetRasterColorInterpretation(GDALGetRasterBand(dataset, Int32(k + 1)), interpretation)
        }
        var row = [UInt8](repeating: 0, count: width * 3)
        var bands: [Int32] = [1, 2, 3]
        for y in 0..<height {
            row.withUnsafeMutableBufferPointer { rows(y, $0) }
            try gdal(
                {
                    row.withUnsafeMutableBytes { bytes in
                        GDALDatasetRasterIO(
                            dataset, GF_Write, 0, Int32(y), Int32(width), 1, bytes.baseAddress, Int32(width), 1, GDT_Byte, 3, &bands, 3,
                            Int32(width * 3), 1)
                    }
                }, orThrow: failure)
        }
        try copyAsCOG(dataset, driver: cog, to: path, failure: failure)
    }

    /// Writes the in-memory `dataset` to `path` through the COG `driver` with `options` (a
    /// picture's, ``options``, unless given), and closes the copy: GDALClose reports a failed
    /// final write only through the error state.
    static func copyAsCOG(
        _ dataset: GDALDatasetH, driver cog: GDALDriverH, to path: String, options: [String] = options,
        failure: @escaping (String) -> TerrainError
    ) throws(TerrainError) {
        let made: Result<GDALDatasetH, TerrainError> = withCStringList(options) { list in
            Result { () throws(TerrainError) in try gdal({ GDALCreateCopy(cog, path, dataset, 0, list, nil, nil) }, orThrow: failure) }
        }
        let copy = try made.get()
        try gdal(
            succeeds: {
                GDALFlushCache(copy)
                GDALClose(copy)
                return CPLGetLastErrorType() != CE_Failure
            }, orThrow: failure)
    }

    /// A single band's cell type.
    public enum BandType: Sendable {
        case byte, uint32, uint64, float32

        var gdal: GDALDataType {
            switch self {
            case .byte: GDT_Byte
            case .uint32: GDT_UInt32
            case .uint64: GDT_UInt64
            case .float32: GDT_Float32
            }
        }
        /// Bytes a cell.
        public var size: Int {
            switch self {
            case .byte: 1
            case .uint32: 4
            case .uint64: 8
            case .float32: 4
            }
        }
    }

    /// Writes one band of `width × height` cells of `type` (row-major, `values` holding
    /// exactly that many bytes) to `path` as a Cloud-Optimized GeoTIFF (``bandOptions``): a data
    /// raster a GIS reads as values (a viewshed's classes, counts or heights), not a picture.
    ///
    /// - Parameters:
    ///   - noData: the band's no-data value, if any.
    ///   - description: the band's description (what its values are).
    ///   - metadata: dataset metadata items, `KEY=VALUE`, in this order.
    ///   - threads: threads compressing the tiles; the driver writes them in order whatever
    ///     thread compressed them, so the bytes are the same for any count.
    public static func writeBandCOG(
        path: String, width: Int, height: Int, geoTransform: [Double], wkt: String, type: BandType, values: [UInt8], noData: Double? = nil,
        description: String? = nil, metadata: [(String, String)] = [], threads: Int = 1
    ) throws(TerrainError) {
        precondition(values.count == width * height * type.size, "one cell of the type for each of width × height")
        GDALEnvironment.ensure()
        let failure = { (reason: String) in TerrainError.cannotWriteImage(path: path, reason: reason) }
        let mem = try gdal({ GDALGetDriverByName("MEM") }, orThrow: failure)
        let cog = try gdal(fallback: "GDAL has no COG driver (GDAL 3.1 or later writes them)", { GDALGetDriverByName("COG") }, orThrow: failure)
        // The band in memory is the cells themselves (the MEM driver's `DATAPOINTER`), not a
        // copy: GDAL only reads them, and the dataset is closed before the buffer is given back.
        let written = values.withUnsafeBytes { raw in
            Result { () throws(TerrainError) in
                let dataset = try gdal({ GDALCreate(mem, "", Int32(width), Int32(height), 0, type.gdal, nil) }, orThrow: failure)
                defer { GDALClose(dataset) }
                let address = "0x" + String(UInt(bitPattern: raw.baseAddress), radix: 16)
                let band = [
                    "DATAPOINTER=\(address)", "PIXELOFFSET=\(type.size)", "LINEOFFSET=\(width * type.size)",
                ]
                try gdal(succeeds: { withCStringList(band) { GDALAddBand(dataset, type.gdal, $0) } == CE_None }, orThrow: failure)
                try describeAndCopy(
                    dataset, cells: raw, width: width, height: height, geoTransform: geoTransform, wkt: wkt, noData: noData, description: description,
                    metadata: metadata, driver: cog, to: path, threads: threads, failure: failure)
            }
        }
        try written.get()
    }

    /// ``writeBandCOG(path:width:height:geoTransform:wkt:type:values:noData:description:metadata:threads:)``
    /// on the band of `dataset` in memory: its georeference, description and metadata, its
    /// overviews built in memory (the nearest cell, ``fillNearestOverviews(of:cells:width:height:threads:failure:)``)
    /// and copied as they are (the driver's own would go through a temporary file), and the COG.
    private static func describeAndCopy(
        _ dataset: GDALDatasetH, cells: UnsafeRawBufferPointer, width: Int, height: Int, geoTransform: [Double], wkt: String, noData: Double?,
        description: String?,
        metadata: [(String, String)], driver cog: GDALDriverH, to path: String, threads: Int, failure: @escaping (String) -> TerrainError
    ) throws(TerrainError) {
        var transform = geoTransform
        try gdal({ GDALSetGeoTransform(dataset, &transform) }, orThrow: failure)
        try gdal({ GDALSetProjection(dataset, wkt) }, orThrow: failure)
        for (key, value) in metadata { GDALSetMetadataItem(dataset, key, value, nil) }
        let band = GDALGetRasterBand(dataset, 1)
        if let noData { try gdal({ GDALSetRasterNoDataValue(band, noData) }, orThrow: failure) }
        if let description { GDALSetDescription(band, description) }
        var factors = bandOverviewFactors(width: width, height: height).map(Int32.init)
        if !factors.isEmpty {
            // The overview bands made empty ("NONE"), then filled with the nearest cells here.
            try gdal({ GDALBuildOverviews(dataset, "NONE", Int32(factors.count), &factors, 0, nil, nil, nil) }, orThrow: failure)
            guard let band else { throw failure("GDAL gave the band in memory no handle") }
            try fillNearestOverviews(of: band, cells: cells, width: width, height: height, threads: threads, failure: failure)
        }
        let overviews = factors.isEmpty ? "OVERVIEWS=NONE" : "OVERVIEWS=FORCE_USE_EXISTING"
        try copyAsCOG(dataset, driver: cog, to: path, options: bandOptions + [overviews, "NUM_THREADS=\(max(1, threads))"], failure: failure)
    }

    /// Fills each overview of `band` (a MEM band of `width` × `height` cells, `cells` row after
    /// row, with overviews made but not computed) with the nearest cell of the band: for an
    /// overview of w′ × h′ cells, column ⌊½ + i·w/w′⌋ and row ⌊½ + j·h/h′⌋ (the first of each 2 × 2
    /// at a factor of two), as GDAL's `NEAREST` builder picks them for a Byte band. Its builder
    /// goes through its general resampling chunk by chunk (7 ms for a 4096² band's three
    /// levels), picks otherwise for wider cells, and carries them through single precision
    /// (GDAL 3.6), which loses a UInt32 count's bits above 2²⁴ and a 64-bit mask's bits of
    /// observers past the 24th (`gdaladdo -r nearest` on a UInt64 GeoTIFF shows it); here each
    /// level's rows are a gather of the cells' bytes on `threads` workers, and one write.
    static func fillNearestOverviews(
        of band: GDALRasterBandH, cells: UnsafeRawBufferPointer, width: Int, height: Int, threads: Int,
        failure: @escaping (String) -> TerrainError
    ) throws(TerrainError) {
        let type = GDALGetRasterDataType(band)
        let size = Int(GDALGetDataTypeSizeBytes(type))
        precondition(cells.count == width * height * size, "the band's cells")
        for level in 0..<Int(GDALGetOverviewCount(band)) {
            guard let overview = GDALGetOverview(band, Int32(level)) else { throw failure("GDAL made no overview \(level + 1)") }
            let w = Int(GDALGetRasterBandXSize(overview))
            let h = Int(GDALGetRasterBandYSize(overview))
            let columns = nearestSources(count: w, of: width)
            let rows = nearestSources(count: h, of: height)
            var picked = [UInt8](repeating: 0, count: w * h * size)
            picked.withUnsafeMutableBytes { target in
                let from = UncheckedBytes(source: cells, target: target)
                stripedParallelLoop(threads: threads)(h) { j in
                    // A cell of each width as one load and one store.
                    switch size {
                    case 1: gather(UInt8.self, row: j, of: from, columns: columns, sourceRow: rows[j], width: width, overviewWidth: w)
                    case 2: gather(UInt16.self, row: j, of: from, columns: columns, sourceRow: rows[j], width: width, overviewWidth: w)
                    case 4: gather(UInt32.self, row: j, of: from, columns: columns, sourceRow: rows[j], width: width, overviewWidth: w)
                    default: gather(UInt64.self, row: j, of: from, columns: columns, sourceRow: rows[j], width: width, overviewWidth: w)
                    }
                }
            }
            let written = picked.withUnsafeMutableBytes { raw in
                GDALRasterIO(overview, GF_Write, 0, 0, Int32(w), Int32(h), raw.baseAddress, Int32(w), Int32(h), type, 0, 0)
            }
            try gdal(succeeds: { written == CE_None }, orThrow: failure)
        }
    }

    /// Overview row `j`: cell i from column `columns[i]` of the band's row `sourceRow`, cells of
    /// `Cell`'s width (the band type's: 1, 2, 4 or 8 bytes).
    @inline(__always)
    private static func gather<Cell: FixedWidthInteger>(
        _: Cell.Type, row j: Int, of bytes: UncheckedBytes, columns: [Int], sourceRow: Int, width: Int, overviewWidth w: Int
    ) {
        let size = MemoryLayout<Cell>.size
        let line = sourceRow * width * size
        let start = j * w * size
        columns.withUnsafeBufferPointer { columns in
            for i in 0..<w {
                let cell = bytes.source.loadUnaligned(fromByteOffset: line + columns[i] * size, as: Cell.self)
                bytes.target.storeBytes(of: cell, toByteOffset: start + i * size, as: Cell.self)
            }
        }
    }

    /// For each of `count` overview cells along a side of `full` cells, the cell GDAL's
    /// `NEAREST` takes: ⌊½ + k·full/count⌋, within the side.
    static func nearestSources(count: Int, of full: Int) -> [Int] {
        let ratio = Double(full) / Double(count)
        return (0..<count).map { min(full - 1, Int(0.5 + Double($0) * ratio)) }
    }
}

/// A band's cells and an overview's, for the workers that gather one from the other.
///
/// `@unchecked Sendable` is safe because each worker writes only its own rows of `target`, and
/// both buffers outlive the loop.
private struct UncheckedBytes: @unchecked Sendable {
    let source: UnsafeRawBufferPointer
    let target: UnsafeMutableRawBufferPointer
}
