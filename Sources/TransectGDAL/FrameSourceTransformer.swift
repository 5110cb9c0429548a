import CGDAL

/// Maps the pixels of a map frame to the continuous pixel coordinates of a raster, as gdalwarp
/// maps them: GDAL's general image-to-image transformer (frame pixel → frame CRS → raster CRS →
/// raster pixel, with the area of interest and the CRS pair gdalwarp would use) behind GDAL's
/// approximating transformer with gdalwarp's default error threshold of 0.125 pixel (exact
/// transforms at the ends and middle of a row, linear interpolation between them where that stays
/// within the threshold, halving the row where it does not). A row asked of it whole gets the
/// very coordinates GDAL's warp kernel gets for a chunk as wide as the frame.
/// Not thread-safe: one per thread.
/// The corresponding GDAL functions are `GDALCreateGenImgProjTransformer2`,
/// `GDALSetGenImgProjTransformerDstGeoTransform`, `GDALCreateApproxTransformer` and
/// `GDALApproxTransform`.
final class FrameSourceTransformer {
    /// gdalwarp's default `-et`.
    static let errorThreshold = 0.125

    private let handle: UnsafeMutableRawPointer
    /// The exact transformer behind the approximation (owned by it).
    private let exactHandle: UnsafeMutableRawPointer
    private var z: [Double]

    /// The transformer from `frame`'s pixels to `source`'s, with `sourceCRS` standing for the
    /// raster's own CRS when given (gdalwarp's `-s_srs`).
    init(source: Dataset, sourceCRS: SpatialReference?, frame: FrameGrid, label: String) throws(TerrainError) {
        try frame.validate(label: label)
        var options = ["DST_SRS=" + (try frame.crs.wkt)]
        if let sourceCRS { options.append("SRC_SRS=" + (try sourceCRS.wkt)) }
        let raw = try gdal {
            withCStringList(options) { list in source.withHandle { GDALCreateGenImgProjTransformer2($0, nil, list) } }
        } orThrow: {
            .readFailed(path: label, reason: "cannot transform into the frame: " + $0)
        }
        // The geotransform gdalwarp gives a frame it creates from `-te` and `-ts`.
        var gt = frame.warpGeoTransform
        gt.withUnsafeMutableBufferPointer { GDALSetGenImgProjTransformerDstGeoTransform(raw, $0.baseAddress) }
        guard let approx = GDALCreateApproxTransformer(GDALGenImgProjTransform, raw, Self.errorThreshold) else {
            GDALDestroyTransformer(raw)
            throw .readFailed(path: label, reason: "cannot approximate the transformation into the frame")
        }
        GDALApproxTransformerOwnsSubtransformer(approx, 1)
        handle = approx
        exactHandle = raw
        z = [Double](repeating: 0, count: frame.width)
    }

    deinit { GDALDestroyTransformer(handle) }

    /// The raster pixel coordinates of the centres of the `x.count` frame pixels from column
    /// `column` of row `row` (a row of a warp chunk), in `x` and `y`, with `success[k]` zero where
    /// a point does not transform; the frame coordinates are formed as GDAL's kernel forms them.
    func sourceRow(_ row: Int, column: Int, x: inout [Double], y: inout [Double], success: inout [Int32]) {
        let count = x.count
        precondition(y.count == count && success.count == count && count <= z.count, "FrameSourceTransformer: row arrays of the wrong size")
        let rowCentre = Double(row) + 0.5
        let offset = Double(column)
        for k in 0..<count {
            x[k] = Double(k) + 0.5 + offset
            y[k] = rowCentre
            z[k] = 0
        }
        _ = GDALApproxTransform(handle, 1, Int32(count), &x, &y, &z, &success)
    }

    /// Frame pixel coordinates (`x`, `y`) transformed exactly to raster pixel coordinates, in
    /// place; false when any point fails.
    func exact(x: inout [Double], y: inout [Double]) -> Bool {
        var zs = [Double](repeating: 0, count: x.count)
        var ok = [Int32](repeating: 0, count: x.count)
        _ = GDALGenImgProjTransform(exactHandle, 1, Int32(x.count), &x, &y, &zs, &ok)
        return ok.allSatisfy { $0 != 0 } && x.allSatisfy(\.isFinite) && y.allSatisfy(\.isFinite)
    }
}

extension FrameGrid {
    /// The geotransform gdalwarp computes for an output it creates from ``extentArguments``
    /// (`-te xmin ymin xmax ymax -ts width height`): the extent's corner and its size divided by
    /// the pixel counts.
    var warpGeoTransform: [Double] {
        let gt = geoTransform
        let xs = [gt[0], gt[0] + Double(width) * gt[1]]
        let ys = [gt[3], gt[3] + Double(height) * gt[5]]
        let minX = xs.min()!
        let maxX = xs.max()!
        let minY = ys.min()!
        let maxY = ys.max()!
        return [minX, (maxX - minX) / Double(width), 0, maxY, 0, -((maxY - minY) / Double(height))]
    }
}
