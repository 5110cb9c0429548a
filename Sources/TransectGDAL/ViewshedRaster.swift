import CGDAL

/// A viewshed's visibility classes (``ViewshedClass`` raw values: visible 255, hidden 0, unknown
/// 2, out of range 1) brought into a map frame, for drawing over the basemap.
public enum ViewshedRaster {
    /// The classes of a visibility raster `viewshed` wrote (`path`: one Byte band with a
    /// georeference), warped into `frame` by nearest neighbour; 1 (out of range) where the
    /// raster does not reach.
    public static func warped(path: String, into frame: FrameGrid) throws(TerrainError) -> [UInt8] {
        let source: Dataset
        do { source = try Dataset(path: path) } catch {
            if case .cannotOpen(_, let reason) = error { throw .unusableImage(path: path, reason: "cannot open: " + reason) }
            throw error
        }
        guard source.geoTransform != nil, source.spatialReference != nil else {
            throw .unusableImage(path: path, reason: "is not georeferenced (no geotransform or no CRS)")
        }
        guard source.bandCount == 1, let band = source.band(1), band.info.dataType == GDT_Byte else {
            throw .unusableImage(
                path: path, reason: "is not a viewshed's visibility raster (one Byte band: visible 255, hidden 0, unknown 2, out of range 1)")
        }
        return try warp(source, into: frame, label: path)
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
}
