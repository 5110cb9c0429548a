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

    /// A frame GDAL can warp into: a positive size and a finite, non-degenerate geotransform.
    func validate(label: String) throws(TerrainError) {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
            width.multipliedReportingOverflow(by: height).overflow == false
        else {
            throw .readFailed(path: label, reason: "the map frame's size \(width) × \(height) is not usable")
        }
        guard geoTransform.count == 6, geoTransform.allSatisfy(\.isFinite), geoTransform[1] != 0, geoTransform[5] != 0 else {
            throw .readFailed(path: label, reason: "the map frame's geotransform is not finite and non-degenerate")
        }
    }

    var extentArguments: [String] {
        let gt = geoTransform
        let xs = [gt[0], gt[0] + Double(width) * gt[1]]
        let ys = [gt[3], gt[3] + Double(height) * gt[5]]
        return ["-te", "\(xs.min()!)", "\(ys.min()!)", "\(xs.max()!)", "\(ys.max()!)", "-ts", "\(width)", "\(height)"]
    }
}
