import CGDAL

/// Resamples rasters into a map frame with GDAL's warper.
/// The corresponding GDAL function is `GDALWarp`.
///
/// Work and memory are bounded by the frame, not by the raster: the warper works in chunks of
/// at most ``memoryLimitMegabytes`` (`-wm`), and a source much finer than the frame is first
/// decimated (``ElevationModel/decimatedForFrame(_:)``) so the warper never reads more than
/// about ``maximumSourceCellsPerFramePixel`` source cells per frame pixel.
enum Warper {
    /// The warper's working memory (GDALWarpOptions' `dfWarpMemoryLimit`), in MiB.
    static let memoryLimitMegabytes = 128
    /// Source cells per frame pixel beyond which the source is decimated before warping
    /// (16: a 4 × 4 block; bilinear resampling of a coarser frame gains nothing from more).
    static let maximumSourceCellsPerFramePixel = 16

    /// Warps `source` into `frame` with `arguments` (gdalwarp's options) into an in-memory dataset,
    /// on `threads` threads (1 warps on the calling thread alone).
    static func warp(
        _ source: Dataset, sourceCRS: SpatialReference?, into frame: FrameGrid, arguments: [String],
        label: String, threads: Int = 2
    ) throws(TerrainError) -> Dataset {
        try frame.validate(label: label)
        var args = ["-of", "MEM", "-t_srs", try frame.crs.wkt] + frame.extentArguments + arguments
        args += ["-wm", "\(memoryLimitMegabytes)"]
        if let sourceCRS { args += ["-s_srs", try sourceCRS.wkt] }
        // Every core for large frames (reading overlapped with warping); the result does not
        // depend on the thread count.
        args += threads > 1 ? ["-multi", "-wo", "NUM_THREADS=\(min(threads, 64))"] : ["-wo", "NUM_THREADS=1"]
        let result = try gdal {
            withCStringList(args) { list -> GDALDatasetH? in
                guard let options = GDALWarpAppOptionsNew(list, nil) else { return nil }
                defer { GDALWarpAppOptionsFree(options) }
                var usageError: Int32 = 0
                return Dataset.withHandles([source]) { GDALWarp("", nil, 1, $0, options, &usageError) }
            }
        } orThrow: {
            .readFailed(path: label, reason: "cannot warp into the frame: " + $0)
        }
        return Dataset(owning: result, name: label)
    }
}
