import CGDAL

extension ElevationModel {
    /// Elevations in metres resampled into `frame`, row-major, `nan` where the DEM has no data or
    /// does not reach. Scale, offset and vertical units are applied.
    ///
    /// - Parameter resampling: how to resample; nil (the default) chooses with
    ///   ``resampling(for:)``: cubic spline where the frame's pixel is finer than the DEM's cell,
    ///   bilinear elsewhere.
    /// - Parameter threads: the threads GDAL's warper may use (1: the calling thread alone); the
    ///   values are the same for any count.
    public func warped(into frame: FrameGrid, resampling: ElevationResampling? = nil, threads: Int = 2) throws(TerrainError) -> [Float] {
        try frame.validate(label: label)
        let decimated = try decimatedForFrame(frame)
        let source = decimated ?? dataset
        var method = ElevationResampling.bilinear
        if let resampling { method = resampling } else if decimated == nil { method = try self.resampling(for: frame) }
        var values: [Float]
        if method == .cubicSpline, decimated == nil, let spline = try splineWarped(into: frame, threads: threads) {
            values = spline
        } else {
            values = try gdalWarped(source, into: frame, method: method, threads: threads)
        }
        let scale = Float(info.scale * verticalUnitMetres)
        let offset = Float(info.offset * verticalUnitMetres)
        if scale != 1 || offset != 0 {
            for k in values.indices where !values[k].isNaN { values[k] = values[k] * scale + offset }
        }
        return values
    }

    /// `source` warped into `frame` by `GDALWarp` with `method`, as Float32, nan where nothing
    /// maps; scale and offset not applied.
    func gdalWarped(_ source: Dataset, into frame: FrameGrid, method: ElevationResampling, threads: Int) throws(TerrainError) -> [Float] {
        let ds = try Warper.warp(
            source, sourceCRS: crsAssumed ? crs : nil, into: frame,
            arguments: [
                "-r", method.rawValue, "-ot", "Float32", "-wt", "Float32",
                // Cells nothing maps to stay nan. Declaring nan as the
                // destination no-data instead sends GDAL down its
                // masked path, half again slower.
                "-wo", "INIT_DEST=NaN",
            ], label: label, threads: threads)
        // The band holds the warped dataset open until the read is done.
        guard let band = ds.band(1) else { throw .readFailed(path: label, reason: "the warped frame has no band") }
        var values = [Float](repeating: .nan, count: frame.width * frame.height)
        try band.read(
            column: 0, row: 0, width: frame.width, height: frame.height, into: &values,
            bufferWidth: frame.width, bufferHeight: frame.height, type: GDT_Float32
        ) {
            .readFailed(path: label, reason: $0)
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
    func frameSampleGrid(
        _ frame: FrameGrid
    ) throws(TerrainError)
        -> (columns: [Double], rows: [Double], steps: Int, stepX: Double, stepY: Double)
    {
        let steps = 16
        var xs: [Double] = []
        var ys: [Double] = []
        let gt = frame.geoTransform
        let stepX = Double(frame.width) / Double(steps)
        let stepY = Double(frame.height) / Double(steps)
        for j in 0...steps {
            for i in 0...steps {
                let col = stepX * Double(i)
                let row = stepY * Double(j)
                xs.append(gt[0] + col * gt[1] + row * gt[2])
                ys.append(gt[3] + col * gt[4] + row * gt[5])
            }
        }
        if !frame.crs.isSame(as: crs) {
            try CoordinateTransformer(from: frame.crs, to: crs).transform(x: &xs, y: &ys)
        }
        let g = inverseGeoTransform
        var columns = xs
        var rows = ys
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
                let dc1 = grid.columns[k + 1] - grid.columns[k]
                let dr1 = grid.rows[k + 1] - grid.rows[k]
                let dc2 = grid.columns[k + n] - grid.columns[k]
                let dr2 = grid.rows[k + n] - grid.rows[k]
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
        var minC = Double.infinity
        var maxC = -Double.infinity
        var minR = Double.infinity
        var maxR = -Double.infinity
        for k in grid.columns.indices where grid.columns[k].isFinite && grid.rows[k].isFinite {
            let c = min(max(grid.columns[k], 0), Double(width))
            let r = min(max(grid.rows[k], 0), Double(height))
            minC = min(minC, c)
            maxC = max(maxC, c)
            minR = min(minR, r)
            maxR = max(maxR, r)
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
        let handle = try gdal {
            withCStringList(["-of", "VRT", "-outsize", "\(w)", "\(h)", "-r", "nearest"]) { list -> GDALDatasetH? in
                guard let options = GDALTranslateOptionsNew(list, nil) else { return nil }
                defer { GDALTranslateOptionsFree(options) }
                var usageError: Int32 = 0
                return dataset.withHandle { GDALTranslate("", $0, options, &usageError) }
            }
        } orThrow: {
            .readFailed(path: label, reason: "cannot decimate for the frame: " + $0)
        }
        return Dataset(owning: handle, name: label)
    }
}
