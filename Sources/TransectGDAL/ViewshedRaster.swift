import CGDAL

/// A viewshed's visibility classes (``ViewshedClass`` raw values: visible 255, hidden 0, unknown
/// 2, out of range 1) brought into a map frame, for drawing over the basemap.
public enum ViewshedRaster {
    /// The classes of a visibility raster `viewshed` wrote (`path`: one Byte band with a
    /// georeference), warped into `frame` by nearest neighbour; 1 (out of range) where the
    /// raster does not reach.
    public static func warped(path: String, into frame: FrameGrid) throws(TerrainError) -> [UInt8] {
        try warp(try openVisibility(path: path), into: frame, label: path)
    }

    /// Checks that `path` is a visibility raster `viewshed` wrote: one Byte band with a
    /// georeference.
    public static func checkVisibility(path: String) throws(TerrainError) {
        _ = try openVisibility(path: path)
    }

    /// The raster at `path`, opened; a failure said of the image, not of a DEM.
    static func open(path: String) throws(TerrainError) -> Dataset {
        do { return try Dataset(path: path) } catch {
            if case .cannotOpen(_, let reason) = error { throw .unusableImage(path: path, reason: "cannot open: " + reason) }
            throw error
        }
    }

    /// The visibility raster at `path`, opened and checked: one Byte band with a georeference.
    static func openVisibility(path: String) throws(TerrainError) -> Dataset {
        let source = try open(path: path)
        guard source.geoTransform != nil, source.spatialReference != nil else {
            throw .unusableImage(path: path, reason: "is not georeferenced (no geotransform or no CRS)")
        }
        guard source.bandCount == 1, let band = source.band(1), band.info.dataType == GDT_Byte else {
            throw .unusableImage(
                path: path, reason: "is not a viewshed's visibility raster (one Byte band: visible 255, hidden 0, unknown 2, out of range 1)")
        }
        return source
    }

    /// `classes` of a raster of `width × height` cells on `geoTransform` in the CRS `wkt`,
    /// warped into `frame` by nearest neighbour.
    public static func warped(
        classes: [UInt8], width: Int, height: Int, geoTransform: [Double], wkt: String, into frame: FrameGrid, label: String
    ) throws(TerrainError) -> [UInt8] {
        precondition(classes.count == width * height, "one class a cell")
        GDALEnvironment.ensure()
        let failure = { (reason: String) in TerrainError.unusableImage(path: label, reason: reason) }
        let mem = try gdal({ GDALGetDriverByName("MEM") }, orThrow: failure)
        let handle = try gdal({ GDALCreate(mem, "", Int32(width), Int32(height), 1, GDT_Byte, nil) }, orThrow: failure)
        let dataset = Dataset(owning: handle, name: label)
        var transform = geoTransform
        try gdal({ dataset.withHandle { GDALSetGeoTransform($0, &transform) } }, orThrow: failure)
        try gdal({ dataset.withHandle { GDALSetProjection($0, wkt) } }, orThrow: failure)
        var cells = classes
        try gdal(
            {
                cells.withUnsafeMutableBytes { raw in
                    dataset.withHandle {
                        GDALRasterIO(
                            GDALGetRasterBand($0, 1), GF_Write, 0, 0, Int32(width), Int32(height), raw.baseAddress, Int32(width), Int32(height),
                            GDT_Byte, 0, 0)
                    }
                }
            }, orThrow: failure)
        return try warp(dataset, into: frame, label: label)
    }

    static func warp(_ source: Dataset, into frame: FrameGrid, label: String) throws(TerrainError) -> [UInt8] {
        // Out of range (1) where the raster does not reach: the warp's initial value.
        let ds = try Warper.warp(
            source, sourceCRS: nil, into: frame, arguments: ["-r", "near", "-ot", "Byte", "-wo", "INIT_DEST=1", "-dstnodata", "None"], label: label)
        guard let band = ds.band(1) else { throw .readFailed(path: label, reason: "the warped viewshed has no band") }
        var out = [UInt8](repeating: 1, count: frame.width * frame.height)
        try band.read(
            column: 0, row: 0, width: frame.width, height: frame.height, into: &out, byteOffset: 0, bufferWidth: frame.width,
            bufferHeight: frame.height, type: GDT_Byte, pixelSpacing: 1, lineSpacing: frame.width
        ) { .readFailed(path: label, reason: $0) }
        return out
    }

    /// One band of a raster `viewshed` wrote, whole, with what writing it again takes: a shard's
    /// part, for `merge` to combine with the others into the bytes of one run.
    public struct Band {
        public var type: GeoTIFFWriter.BandType
        /// The cells, `width × height` of `type`, in the machine's byte order.
        public var values: [UInt8]
        public var width: Int
        public var height: Int
        public var geoTransform: [Double]
        public var wkt: String
        public var noData: Double?
        public var description: String
        /// The dataset's metadata items, in the file's order.
        public var metadata: [(String, String)]

        public init(
            type: GeoTIFFWriter.BandType, values: [UInt8], width: Int, height: Int, geoTransform: [Double], wkt: String, noData: Double?,
            description: String, metadata: [(String, String)]
        ) {
            self.type = type
            self.values = values
            self.width = width
            self.height = height
            self.geoTransform = geoTransform
            self.wkt = wkt
            self.noData = noData
            self.description = description
            self.metadata = metadata
        }
    }

    /// Reads the one band of the viewshed raster at `path`.
    public static func readBand(path: String) throws(TerrainError) -> Band {
        let source = try open(path: path)
        let bad = { (reason: String) in TerrainError.unusableImage(path: path, reason: reason) }
        guard source.bandCount == 1, let band = source.band(1) else { throw bad("is not a viewshed raster (one band)") }
        guard let geoTransform = source.geoTransform, let crs = source.spatialReference else { throw bad("is not georeferenced") }
        let type: GeoTIFFWriter.BandType
        switch band.info.dataType {
        case GDT_Byte: type = .byte
        case GDT_UInt32: type = .uint32
        case GDT_UInt64: type = .uint64
        case GDT_Float32: type = .float32
        default: throw bad("is not a viewshed raster (Byte, UInt32, UInt64 or Float32)")
        }
        let (w, h) = source.withHandle { (Int(GDALGetRasterXSize($0)), Int(GDALGetRasterYSize($0))) }
        let (cells, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, cells <= ElevationModel.maximumViewshedCells else {
            throw bad("has \(w) × \(h) cells, more than a viewshed holds (\(ElevationModel.maximumViewshedCells))")
        }
        var values = [UInt8](repeating: 0, count: w * h * type.size)
        try band.read(
            column: 0, row: 0, width: w, height: h, into: &values, byteOffset: 0, bufferWidth: w, bufferHeight: h, type: type.gdal,
            pixelSpacing: type.size, lineSpacing: w * type.size
        ) { .readFailed(path: path, reason: $0) }
        let metadata: [(String, String)] = source.withHandle { handle in
            guard let list = GDALGetMetadata(handle, nil) else { return [] }
            var items: [(String, String)] = []
            var k = 0
            while let entry = list[k] {
                let text = String(cString: entry)
                if let eq = text.firstIndex(of: "=") {
                    items.append((String(text[..<eq]), String(text[text.index(after: eq)...])))
                }
                k += 1
            }
            return items
        }
        let info = band.info
        let description = source.withHandle { GDALGetDescription(GDALGetRasterBand($0, 1)).map { String(cString: $0) } ?? "" }
        return Band(
            type: type, values: values, width: w, height: h, geoTransform: geoTransform, wkt: try crs.wkt, noData: info.noData,
            description: description, metadata: metadata.filter { $0.0 != "AREA_OR_POINT" })
    }
}
