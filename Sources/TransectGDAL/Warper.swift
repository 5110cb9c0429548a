import CGDAL
import TransectCore

/// A raster grid in a map frame: a CRS, a geotransform and a size in pixels.
public struct FrameGrid {
    public let crs: SpatialReference
    /// x = gt0 + col·gt1, y = gt3 + row·gt5 (north-up, no rotation).
    public let geoTransform: [Double]
    public let width: Int
    public let height: Int

    public init(crs: SpatialReference, geoTransform: [Double], width: Int, height: Int) {
        self.crs = crs
        self.geoTransform = geoTransform
        self.width = width
        self.height = height
    }

    var extentArguments: [String] {
        let gt = geoTransform
        let xs = [gt[0], gt[0] + Double(width) * gt[1]], ys = [gt[3], gt[3] + Double(height) * gt[5]]
        return ["-te", "\(xs.min()!)", "\(ys.min()!)", "\(xs.max()!)", "\(ys.max()!)", "-ts", "\(width)", "\(height)"]
    }
}

/// Resamples rasters into a map frame with GDAL's warper.
/// The corresponding GDAL function is `GDALWarp`.
enum Warper {
    /// Warps `source` into `frame` with `arguments` (gdalwarp's options) into an in-memory dataset.
    static func warp(_ source: Dataset, sourceCRS: SpatialReference?, into frame: FrameGrid, arguments: [String],
                     label: String) throws(TerrainError) -> Dataset {
        var args = ["-of", "MEM", "-t_srs", frame.crs.wkt] + frame.extentArguments + arguments
        if let sourceCRS { args += ["-s_srs", sourceCRS.wkt] }
        // Both cores for large frames; the result does not depend on the thread count.
        args += ["-multi", "-wo", "NUM_THREADS=2"]
        CPLErrorReset()
        var handles: [GDALDatasetH?] = [source.handle]
        let result: GDALDatasetH? = withCStringList(args) { list in
            guard let options = GDALWarpAppOptionsNew(list, nil) else { return nil }
            defer { GDALWarpAppOptionsFree(options) }
            var usageError: Int32 = 0
            return handles.withUnsafeMutableBufferPointer {
                GDALWarp("", nil, 1, $0.baseAddress, options, &usageError)
            }
        }
        guard let result else { throw .readFailed(path: label, reason: "cannot warp into the frame: " + GDALEnvironment.lastMessage()) }
        return Dataset(owning: result, name: label)
    }
}

extension ElevationModel {
    /// Elevations in metres resampled (bilinear) into `frame`, row-major, `nan` where the DEM has
    /// no data or does not reach. Scale, offset and vertical units are applied.
    public func warped(into frame: FrameGrid) throws(TerrainError) -> [Float] {
        let ds = try Warper.warp(dataset, sourceCRS: crsAssumed ? crs : nil, into: frame,
                                 arguments: ["-r", "bilinear", "-ot", "Float32", "-wt", "Float32",
                                             // Cells nothing maps to stay nan. Declaring nan as the
                                             // destination no-data instead sends GDAL down its
                                             // masked path, half again slower.
                                             "-wo", "INIT_DEST=NaN"], label: label)
        guard let band = ds.band(1) else { throw .readFailed(path: label, reason: "the warped frame has no band") }
        var values = [Float](repeating: .nan, count: frame.width * frame.height)
        CPLErrorReset()
        let err = values.withUnsafeMutableBytes {
            GDALRasterIO(band, GF_Read, 0, 0, Int32(frame.width), Int32(frame.height), $0.baseAddress,
                         Int32(frame.width), Int32(frame.height), GDT_Float32, 0, 0)
        }
        guard err == CE_None else { throw .readFailed(path: label, reason: GDALEnvironment.lastMessage()) }
        let scale = Float(info.scale * verticalUnitMetres), offset = Float(info.offset * verticalUnitMetres)
        if scale != 1 || offset != 0 {
            for k in values.indices where !values[k].isNaN { values[k] = values[k] * scale + offset }
        }
        return values
    }
}

/// A georeferenced image (PNG with a world file, GeoTIFF, anything GDAL georeferences) to use
/// as a basemap.
public enum GeoreferencedImage {
    /// The image resampled into `frame` as RGBA, 4 bytes per pixel; alpha 0 where it does not reach.
    public static func warped(path: String, into frame: FrameGrid) throws(TerrainError) -> [UInt8] {
        let source: Dataset
        do { source = try Dataset(path: path) } catch {
            if case let .cannotOpen(_, reason) = error { throw .unusableImage(path: path, reason: "cannot open: " + reason) }
            throw error
        }
        guard source.geoTransform != nil, source.spatialReference != nil else {
            throw .unusableImage(path: path, reason: "is not georeferenced (no geotransform or no CRS; a PNG needs a world file and a .aux.xml or .prj)")
        }
        let bands = source.bandCount
        guard bands >= 1 else { throw .unusableImage(path: path, reason: "has no raster band") }
        // gdalwarp (GDAL 3.6) warps every band; -dstalpha adds one after them.
        let ds = try Warper.warp(source, sourceCRS: nil, into: frame, arguments: ["-r", "bilinear", "-ot", "Byte", "-dstalpha"], label: path)
        let colour = bands >= 3 ? [1, 2, 3] : [1, 1, 1]
        var rgba = [UInt8](repeating: 0, count: frame.width * frame.height * 4)
        for (b, sourceBand) in (colour + [bands + 1]).enumerated() {
            guard let band = ds.band(sourceBand) else { throw .readFailed(path: path, reason: "the warped image lacks band \(sourceBand)") }
            let err = rgba.withUnsafeMutableBytes {
                GDALRasterIO(band, GF_Read, 0, 0, Int32(frame.width), Int32(frame.height), $0.baseAddress! + b,
                             Int32(frame.width), Int32(frame.height), GDT_Byte, 4, Int32(frame.width * 4))
            }
            guard err == CE_None else { throw .readFailed(path: path, reason: GDALEnvironment.lastMessage()) }
        }
        return rgba
    }
}
