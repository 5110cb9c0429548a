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

    /// A frame GDAL can warp into: a positive size and a finite, non-degenerate geotransform.
    func validate(label: String) throws(TerrainError) {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              width.multipliedReportingOverflow(by: height).overflow == false else {
            throw .readFailed(path: label, reason: "the map frame's size \(width) × \(height) is not usable")
        }
        guard geoTransform.count == 6, geoTransform.allSatisfy(\.isFinite), geoTransform[1] != 0, geoTransform[5] != 0 else {
            throw .readFailed(path: label, reason: "the map frame's geotransform is not finite and non-degenerate")
        }
    }

    var extentArguments: [String] {
        let gt = geoTransform
        let xs = [gt[0], gt[0] + Double(width) * gt[1]], ys = [gt[3], gt[3] + Double(height) * gt[5]]
        return ["-te", "\(xs.min()!)", "\(ys.min()!)", "\(xs.max()!)", "\(ys.max()!)", "-ts", "\(width)", "\(height)"]
    }
}

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

    /// Warps `source` into `frame` with `arguments` (gdalwarp's options) into an in-memory dataset.
    static func warp(_ source: Dataset, sourceCRS: SpatialReference?, into frame: FrameGrid, arguments: [String],
                     label: String) throws(TerrainError) -> Dataset {
        try frame.validate(label: label)
        var args = ["-of", "MEM", "-t_srs", frame.crs.wkt] + frame.extentArguments + arguments
        args += ["-wm", "\(memoryLimitMegabytes)"]
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

/// How elevations are resampled into a map frame.
///
/// The hillshade of a frame is computed from the frame's own pixels, so it sees the surface the
/// resampling builds between the DEM's cell centres. Bilinear interpolation is a patchwork of
/// bilinear tiles, one between each four cell centres: continuous, but its gradient jumps where
/// two tiles meet. Where several frame pixels fall in one tile that jump becomes a visible step
/// in the shade along every row and column of cell centres. A cubic B-spline surface (GDAL's
/// `cubicspline`) has a continuous gradient and curvature, so its shade has no steps.
///
/// The B-spline approximates rather than interpolates: it leaves planes and, up to a constant
/// offset of h²/3 times the curvature, quadratic surfaces exactly as they are (so their shading
/// is exact), but damps detail a few cells wide (a wave two cells long to a third of its
/// height, four cells long to two thirds). That softening is why it is used only where the
/// frame is finer than the DEM, where bilinear's steps would show.
public enum ElevationResampling: String, Sendable, Hashable {
    /// GDAL's `bilinear`: exact at the cell centres; at or coarser than the DEM's resolution.
    case bilinear
    /// GDAL's `cubicspline` (cubic B-spline): a smooth surface for frames finer than the DEM.
    case cubicSpline = "cubicspline"
}

extension ElevationModel {
    /// Elevations in metres resampled into `frame`, row-major, `nan` where the DEM has no data or
    /// does not reach. Scale, offset and vertical units are applied.
    ///
    /// - Parameter resampling: how to resample; nil (the default) chooses with
    ///   ``resampling(for:)``: cubic spline where the frame's pixel is finer than the DEM's cell,
    ///   bilinear elsewhere.
    public func warped(into frame: FrameGrid, resampling: ElevationResampling? = nil) throws(TerrainError) -> [Float] {
        try frame.validate(label: label)
        let decimated = try decimatedForFrame(frame)
        let source = decimated ?? dataset
        var method = ElevationResampling.bilinear
        if let resampling { method = resampling } else if decimated == nil { method = try self.resampling(for: frame) }
        let ds = try Warper.warp(source, sourceCRS: crsAssumed ? crs : nil, into: frame,
                                 arguments: ["-r", method.rawValue, "-ot", "Float32", "-wt", "Float32",
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

    /// The resampling ``warped(into:resampling:)`` uses for `frame` by default: ``ElevationResampling/cubicSpline``
    /// when a frame pixel covers less than one DEM cell (``sourceCellsPerFramePixel(for:)`` < 1),
    /// else ``ElevationResampling/bilinear``.
    ///
    /// A frame on the DEM's own grid covers exactly one cell per pixel and stays bilinear, so its
    /// bare hillshade is `gdaldem hillshade` of the DEM. The rule compares areas: a frame finer
    /// than the DEM along one axis and coarser along the other switches only when it is finer on
    /// balance. A frame no sample of which lands in a transformable place stays bilinear.
    public func resampling(for frame: FrameGrid) throws(TerrainError) -> ElevationResampling {
        guard let cells = try sourceCellsPerFramePixel(for: frame), cells < 1 else { return .bilinear }
        return .cubicSpline
    }
}

extension ElevationModel {
    /// The frame sampled on a 17 × 17 grid of points from corner to corner, in the DEM's
    /// continuous pixel coordinates (unclamped; `nan` where PROJ cannot transform a point), with
    /// the frame pixel coordinates of the grid's steps.
    func frameSampleGrid(_ frame: FrameGrid) throws(TerrainError)
        -> (columns: [Double], rows: [Double], steps: Int, stepX: Double, stepY: Double) {
        let steps = 16
        var xs: [Double] = [], ys: [Double] = []
        let gt = frame.geoTransform
        let stepX = Double(frame.width) / Double(steps), stepY = Double(frame.height) / Double(steps)
        for j in 0...steps {
            for i in 0...steps {
                let col = stepX * Double(i), row = stepY * Double(j)
                xs.append(gt[0] + col * gt[1] + row * gt[2])
                ys.append(gt[3] + col * gt[4] + row * gt[5])
            }
        }
        if !frame.crs.isSame(as: crs) {
            try CoordinateTransformer(from: frame.crs, to: crs).transform(x: &xs, y: &ys)
        }
        let g = inverseGeoTransform
        var columns = xs, rows = ys
        for k in xs.indices {
            columns[k] = g[0] + xs[k] * g[1] + ys[k] * g[2]
            rows[k] = g[3] + xs[k] * g[4] + ys[k] * g[5]
        }
        return (columns, rows, steps, stepX, stepY)
    }

    /// DEM cells per frame pixel, by area: the median over the cells of the frame's 17 × 17
    /// sample grid of the local scale (the area, in DEM cells, of the parallelogram spanned by a
    /// grid cell's two edges from its north-west corner, divided by its area in frame pixels).
    /// It does not depend on how much of the frame the DEM covers, and a frame whose CRS bends
    /// against the DEM's is judged by its typical pixel. Nil when no grid cell transforms.
    func sourceCellsPerFramePixel(for frame: FrameGrid) throws(TerrainError) -> Double? {
        let grid = try frameSampleGrid(frame)
        let n = grid.steps + 1
        var scales: [Double] = []
        for j in 0..<grid.steps {
            for i in 0..<grid.steps {
                let k = j * n + i
                let dc1 = grid.columns[k + 1] - grid.columns[k], dr1 = grid.rows[k + 1] - grid.rows[k]
                let dc2 = grid.columns[k + n] - grid.columns[k], dr2 = grid.rows[k + n] - grid.rows[k]
                let area = abs(dc1 * dr2 - dr1 * dc2) / (grid.stepX * grid.stepY)
                if area.isFinite { scales.append(area) }
            }
        }
        guard !scales.isEmpty else { return nil }
        scales.sort()
        return scales[scales.count / 2]
    }

    /// The source window `frame` covers, in DEM cells: the frame's 17 × 17 sample grid clamped to
    /// the raster. Nil when no sample lands.
    func sourceWindowCells(for frame: FrameGrid) throws(TerrainError) -> Double? {
        let grid = try frameSampleGrid(frame)
        var minC = Double.infinity, maxC = -Double.infinity, minR = Double.infinity, maxR = -Double.infinity
        for k in grid.columns.indices where grid.columns[k].isFinite && grid.rows[k].isFinite {
            let c = min(max(grid.columns[k], 0), Double(width))
            let r = min(max(grid.rows[k], 0), Double(height))
            minC = min(minC, c); maxC = max(maxC, c)
            minR = min(minR, r); maxR = max(maxR, r)
        }
        guard minC <= maxC, minR <= maxR else { return nil }
        // A frame edge that transforms to nan leaves the window smaller than it is: the
        // decision errs towards decimating less, never towards reading outside the raster.
        return (maxC - minC + 1) * (maxR - minR + 1)
    }

    /// When the frame would make the warper read more than
    /// ``Warper/maximumSourceCellsPerFramePixel`` DEM cells per frame pixel, the DEM
    /// decimated (nearest neighbour, or GDAL's overviews where the DEM has them) to about
    /// 4 cells per frame pixel, as a virtual dataset read on demand; else nil.
    /// The corresponding GDAL function is `GDALTranslate` (`-of VRT -outsize`).
    func decimatedForFrame(_ frame: FrameGrid) throws(TerrainError) -> Dataset? {
        guard let cells = try sourceWindowCells(for: frame) else { return nil }
        let framePixels = Double(frame.width) * Double(frame.height)
        guard cells > Double(Warper.maximumSourceCellsPerFramePixel) * framePixels else { return nil }
        let factor = (cells / (4 * framePixels)).squareRoot()
        let w = max(1, Int((Double(width) / factor).rounded(.up)))
        let h = max(1, Int((Double(height) / factor).rounded(.up)))
        let handle = try GDALEnvironment.value({
            withCStringList(["-of", "VRT", "-outsize", "\(w)", "\(h)", "-r", "nearest"]) { list -> GDALDatasetH? in
                guard let options = GDALTranslateOptionsNew(list, nil) else { return nil }
                defer { GDALTranslateOptionsFree(options) }
                var usageError: Int32 = 0
                return GDALTranslate("", dataset.handle, options, &usageError)
            }
        }, orThrow: { .readFailed(path: label, reason: "cannot decimate for the frame: " + $0) })
        return Dataset(owning: handle, name: label)
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
