import TransectSupport
import CGDAL
import TransectGeodesy
import TransectRaster

extension ElevationModel {
    /// Continuous pixel coordinates of WGS84 points (cell centres at i + ½), `nan` where PROJ
    /// cannot transform a point. Longitudes of a geographic DEM are shifted by 360° to fall in
    /// its extent; a DEM that wraps takes any longitude. Throws when PROJ could not fetch a grid
    /// over the network (``CoordinateTransformer/transform(x:y:)``).
    public func pixelCoordinates(of points: [GeoPoint]) throws(TerrainError) -> (columns: [Double], rows: [Double]) {
        try pixelCoordinates(longitudes: points.map(\.longitude), latitudes: points.map(\.latitude))
    }

    /// ``pixelCoordinates(of:)`` of points given as longitudes and latitudes (degrees, as
    /// many of each): no copy of them when the DEM is in WGS84 degrees.
    public func pixelCoordinates(longitudes: [Double], latitudes: [Double]) throws(TerrainError) -> (columns: [Double], rows: [Double]) {
        try pixelCoordinates(longitudes: longitudes, latitudes: latitudes, through: fromWGS84, geographic: crs.isGeographic)
    }

    /// ``pixelCoordinates(longitudes:latitudes:)`` through `transformer` (WGS84 to the DEM's
    /// CRS, nil when that is WGS84) for a DEM whose CRS is `geographic` or not: a caller on
    /// another thread passes its own, since PROJ's transformations are not thread-safe.
    func pixelCoordinates(
        longitudes: [Double], latitudes: [Double], through transformer: CoordinateTransformer?, geographic: Bool
    )
        throws(TerrainError) -> (columns: [Double], rows: [Double])
    {
        precondition(longitudes.count == latitudes.count, "as many longitudes as latitudes")
        var xs = longitudes
        var ys = latitudes
        try transformer?.transform(x: &xs, y: &ys)
        let g = inverseGeoTransform
        var columns = [Double](repeating: .nan, count: xs.count)
        var rows = columns
        let minX = min(geoTransform[0], geoTransform[0] + Double(width) * geoTransform[1])
        let maxX = max(geoTransform[0], geoTransform[0] + Double(width) * geoTransform[1])
        for k in 0..<xs.count {
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
    /// Points are grouped by 256 × 256 chunks of the raster; each group is sampled by
    /// ``ElevationGrid/sample(columns:rows:interpolation:)`` in its chunk's window (the chunk
    /// plus the interpolation's margin), which the model's ``ElevationWindowCache`` keeps for
    /// later calls. A DEM read over the network is sampled by blocks instead, only those its
    /// points' taps fall in (``SampleWindows/blocks``). Memory is bounded by the batch and the
    /// cache's budget, never by the size of the DEM.
    ///
    /// A height beyond ±``maximumHeightMetres`` (a Float64 cell of 1e308, say) is an error
    /// naming the point, not a number for statistics to overflow on; no data stays `nan`.
    public func elevations(at points: [GeoPoint], interpolation: Interpolation = .bilinear) throws(TerrainError) -> [Double] {
        let (columns, rows) = try pixelCoordinates(of: points)
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

    /// ``checkHeights(_:describe:)`` for Float32 values (a whole DEM's, read for a viewshed).
    func checkHeights(_ values: [Float], describe: (Int) -> String) throws(TerrainError) {
        guard let k = Self.firstBeyond(Float(Self.maximumHeightMetres), in: values) else { return }
        throw .implausibleHeight(path: label, metres: Double(values[k]), point: describe(k))
    }

    /// The index of the first of `values` whose magnitude exceeds `limit` (a positive finite
    /// value): infinity does, no data (`nan`) does not. Looked for a chunk at a time on the
    /// values' bits, where magnitudes order as unsigned integers and every `nan` lies above
    /// infinity, so one comparison a value, which the compiler vectorises, tells a chunk that
    /// holds one; only that chunk is looked at value by value.
    static func firstBeyond(_ limit: Float, in values: [Float]) -> Int? {
        precondition(limit > 0 && limit.isFinite, "a positive finite limit")
        // Magnitudes beyond the limit, up to infinity's, are `beyond` ..< `beyond` + `count`.
        let beyond = limit.bitPattern &+ 1
        let count = Float.infinity.bitPattern &- limit.bitPattern
        return values.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let chunk = 4096
            var start = 0
            while start < buffer.count {
                let end = min(start + chunk, buffer.count)
                var found: UInt32 = 0
                var k = start
                while k < end {
                    found |= (base[k].bitPattern & 0x7fff_ffff) &- beyond < count ? 1 : 0
                    k &+= 1
                }
                if found != 0 { return (start..<end).first { abs(base[$0]) > limit } }
                start = end
            }
            return nil
        }
    }

    /// Points are grouped by ``sampleChunk`` squares of the raster.
    static let sampleChunk = 256

    /// Samples in the windows `windows` chooses (the model's ``sampleWindows`` when nil): chunks
    /// or blocks through the window cache, or, as the reference the cache must equal, for each
    /// chunk only the bounding box of its points plus the margin, in Float64. All are equal bit
    /// for bit: every window holds all the taps of its points, a cell's value does not depend
    /// on the window it is read in (nor on its storage: a Float32 window holds only values
    /// Float32 represents exactly), and all clip rows to the raster alike, so every tap reads
    /// the same value or the same `nan`.
    func sampled(
        columns: [Double], rows: [Double], interpolation: Interpolation, windows: SampleWindows? = nil
    ) throws(TerrainError) -> [Double] {
        let mode = windows ?? sampleWindows
        if mode == .blocks { return try sampledByBlocks(columns: columns, rows: rows, interpolation: interpolation) }
        let cached = mode == .chunks
        let n = columns.count
        var result = [Double](repeating: .nan, count: n)
        let chunk = Self.sampleChunk
        // Chunks in the order of a Hilbert curve over them, so that chunks taken one after the
        // other lie side by side, and share the blocks their margins reach into.
        let order = HilbertCurve.order(side: max(width - 1, height - 1, 0) / chunk + 1)
        var keyed: [(key: Int, index: Int)] = []
        keyed.reserveCapacity(n)
        for k in 0..<n where contains(column: columns[k], row: rows[k]) {
            let cx = min(Int(columns[k]), width - 1) / chunk
            let cy = min(Int(rows[k]), height - 1) / chunk
            keyed.append((HilbertCurve.index(x: cx, y: cy, order: order), k))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        let margin = interpolation.radius
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count && keyed[end].key == keyed[start].key { end += 1 }
            let (cx, cy) = HilbertCurve.point(index: keyed[start].key, order: order)
            // A few points in a chunk not read yet take only their own cells, once: a point
            // query decodes the one to four blocks under its taps, not the nine a chunk's
            // window with its margin reaches into.
            let few = cached && end - start <= Self.fewPoints && windowCache.glimpse(chunkKey(chunkColumn: cx, chunkRow: cy, margin: margin))
            let grid =
                cached && !few
                ? try chunkWindow(chunkColumn: cx, chunkRow: cy, margin: margin)
                : .float64(try boundingWindow(keyed[start..<end].map(\.index), columns: columns, rows: rows, margin: margin))
            let groupColumns = keyed[start..<end].map { columns[$0.index] }
            let groupRows = keyed[start..<end].map { rows[$0.index] }
            let values = grid.sample(columns: groupColumns, rows: groupRows, interpolation: interpolation)
            for (offset, item) in keyed[start..<end].enumerated() { result[item.index] = values[offset] }
            start = end
        }
        return result
    }

    /// The window of chunk (`chunkColumn`, `chunkRow`) with `margin` cells around it, from the
    /// cache. A point of the chunk has whole column and row within the chunk, or equal to the
    /// raster's width or height in the last one (each chunk's far edge reaches past the
    /// raster there), so the window holds every tap its points read; rows are clipped to the
    /// raster, columns are not (no data, or the other side of a DEM that wraps).
    func chunkWindow(chunkColumn cx: Int, chunkRow cy: Int, margin: Int) throws(TerrainError) -> DecodedWindow {
        let key = chunkKey(chunkColumn: cx, chunkRow: cy, margin: margin)
        return try cachedWindow(column: key.column, row: key.row, width: key.width, height: key.height)
    }

    /// The rectangle of ``chunkWindow(chunkColumn:chunkRow:margin:)``.
    func chunkKey(chunkColumn cx: Int, chunkRow cy: Int, margin: Int) -> ElevationWindowCache.Key {
        let chunk = Self.sampleChunk
        let c0 = cx * chunk - margin
        let c1 = (cx + 1) * chunk + margin + 1
        let r0 = max(cy * chunk - margin, 0)
        let r1 = min((cy + 1) * chunk + margin + 1, height)
        return .init(column: c0, row: r0, width: c1 - c0, height: r1 - r0)
    }

    /// Points of a chunk few enough to be sampled in their bounding box rather than the
    /// chunk's window, the first time that window is wanted (``ElevationWindowCache/glimpse(_:)``).
    static let fewPoints = 4

    /// The window at (`column`, `row`) of `w` × `h` cells, from the cache or read and kept.
    func cachedWindow(column: Int, row: Int, width w: Int, height h: Int) throws(TerrainError) -> DecodedWindow {
        try windowCache.window(.init(column: column, row: row, width: w, height: h)) { () throws(TerrainError) in
            try readDecodedWindow(column: column, row: row, width: w, height: h)
        }
    }

    /// The bounding box of the points at `indices` plus `margin`, read without the cache.
    func boundingWindow(_ indices: [Int], columns: [Double], rows: [Double], margin: Int) throws(TerrainError) -> ElevationGrid {
        let box = boundingBox(columns: indices.lazy.map { columns[$0] }, rows: indices.lazy.map { rows[$0] }, margin: margin)
        return try readWindow(column: box.column, row: box.row, width: box.width, height: box.height)
    }

    /// The cells of the points at `columns`, `rows` (inside the raster, at least one) and
    /// `margin` cells around them: rows clipped to the raster, columns not, as in every window.
    func boundingBox(columns: some Sequence<Double>, rows: some Sequence<Double>, margin: Int) -> ElevationWindowCache.Key {
        var minC = Int.max
        var maxC = Int.min
        var minR = Int.max
        var maxR = Int.min
        for c in columns {
            minC = min(minC, Int(c))
            maxC = max(maxC, Int(c))
        }
        for r in rows {
            minR = min(minR, Int(r))
            maxR = max(maxR, Int(r))
        }
        let c0 = minC - margin
        let c1 = maxC + margin + 1
        let r0 = max(minR - margin, 0)
        let r1 = min(maxR + margin + 1, height)
        return .init(column: c0, row: r0, width: c1 - c0, height: r1 - r0)
    }

    /// True when Float32 holds every elevation the DEM yields exactly: an 8- or 16-bit integer
    /// or a Float32 band (every such value is a Float32), read with scale 1 and offset 0 in
    /// metres, so the conversion `v × 1 + 0` changes nothing a Float32 cannot hold. Anything
    /// else (Float64 or 32-bit integer cells, a scale, an offset, feet) keeps Float64 windows.
    var storesFloat32Windows: Bool {
        let exact = [GDT_Byte, GDT_UInt16, GDT_Int16, GDT_Float32]
        return exact.contains(info.dataType) && info.scale * verticalUnitMetres == 1 && info.offset * verticalUnitMetres == 0
    }

    /// A window in Float32 where ``storesFloat32Windows``, else in Float64: the same values.
    /// `source` is the band to read (the DEM's own by default; see ``directReadBand()``).
    func readDecodedWindow(column: Int, row: Int, width w: Int, height h: Int, source: RasterBand? = nil) throws(TerrainError) -> DecodedWindow {
        guard storesFloat32Windows else { return .float64(try readWindow(column: column, row: row, width: w, height: h, source: source)) }
        // The Float64 reader's test and arithmetic on the same value, widened exactly; with
        // scale 1 and offset 0 the result narrows back exactly.
        let values: [Float] = try readWindowValues(column: column, row: row, width: w, height: h, type: GDT_Float32, source: source)
        let (gw, gh) = values.isEmpty ? (0, 0) : (w, h)
        return .float32(Float32ElevationGrid(width: gw, height: gh, originColumn: column, originRow: row, values: values))
    }

    /// A window's cells in metres as `Cell` (`Float` read as `GDT_Float32`, `Double` as
    /// `GDT_Float64`), `nan` for no data and for columns outside the raster: each value is
    /// widened to `Double`, tested against no data, scaled and offset, and narrowed back.
    private func readWindowValues<Cell: BinaryFloatingPoint>(
        column: Int, row: Int, width w: Int, height h: Int, type: GDALDataType, source: RasterBand? = nil
    ) throws(TerrainError) -> [Cell] {
        guard w > 0, h > 0 else { return [] }
        let band = source ?? band
        let ndRead = info.noDataAsRead
        let scale = info.scale * verticalUnitMetres
        let offset = info.offset * verticalUnitMetres
        @inline(__always) func metres(_ cell: Cell) -> Cell {
            let v = Double(cell)
            let isNoData = v.isNaN || v == ndRead || !v.isFinite
            return isNoData ? .nan : Cell(v * scale + offset)
        }
        let runs = windowRuns(column: column, width: w)
        if runs.count == 1 && runs[0].windowColumn == 0 && runs[0].count == w {
            // One run across the whole window: read in place, then into metres in place.
            var values: [Cell] = try Self.readInPlace(band, column: runs[0].rasterColumn, row: row, width: w, height: h, type: type, label: label)
            values.withUnsafeMutableBufferPointer { cells in
                if scale == 1 && offset == 0 {
                    Self.unscaledMetres(cells, noDataAsRead: ndRead)
                } else {
                    for k in cells.indices { cells[k] = metres(cells[k]) }
                }
            }
            return values
        }
        var values = [Cell](repeating: .nan, count: w * h)
        for run in runs {
            var buffer = [Cell](repeating: .nan, count: run.count * h)
            try band.read(
                column: run.rasterColumn, row: row, width: run.count, height: h, into: &buffer,
                bufferWidth: run.count, bufferHeight: h, type: type
            ) { .readFailed(path: label, reason: $0) }
            for j in 0..<h {
                for i in 0..<run.count {
                    values[j * w + run.windowColumn + i] = metres(buffer[j * run.count + i])
                }
            }
        }
        return values
    }

    /// Cells `column`, `row` onwards (`width` × `height`, inside the raster) of `band` as stored,
    /// read as `type` straight into the array's own storage, on huge pages where the kernel lends
    /// them (a DEM of a few hundred megabytes faults every 2 MiB, not every 4 KiB), and a VRT's
    /// sources opened as it reads with direct reads. A failure names `label`.
    static func readInPlace<Cell: BinaryFloatingPoint>(
        _ band: RasterBand, column: Int, row: Int, width w: Int, height h: Int, type: GDALDataType, label: String
    ) throws(TerrainError) -> [Cell] {
        var failure: TerrainError?
        let values = [Cell](unsafeUninitializedCapacity: w * h) { cells, count in
            HugePages.advise(cells)
            do throws(TerrainError) {
                try GDALEnvironment.withDirectReads { () throws(TerrainError) in
                    try band.read(
                        column: column, row: row, width: w, height: h, into: UnsafeMutableRawBufferPointer(cells), bufferWidth: w,
                        bufferHeight: h, type: type
                    ) { .readFailed(path: label, reason: $0) }
                }
            } catch {
                failure = error
                cells.initialize(repeating: .nan)
            }
            count = w * h
        }
        if let failure { throw failure }
        return values
    }

    /// Cells read as stored turned into metres in place where scale is 1 and offset 0: no data
    /// (`noDataAsRead`, infinities, `nan`) becomes `nan`, any other value v becomes v + 0
    /// (v·1 + 0, which turns −0 into +0). No data is the value that widens to the one read (none
    /// where no cell can): the same bits as the Float64 arithmetic, in comparisons of the cell
    /// type alone.
    @inline(__always)
    static func unscaledMetres<Cell: BinaryFloatingPoint>(_ cells: UnsafeMutableBufferPointer<Cell>, noDataAsRead ndRead: Double?) {
        let noData = ndRead.map { Double(Cell($0)) == $0 ? Cell($0) : Cell.nan } ?? .nan
        guard let base = cells.baseAddress else { return }
        var k = 0
        while k < cells.count {
            let v = base[k]
            base[k] = v.magnitude < .infinity && v != noData ? v + 0 : .nan
            k &+= 1
        }
    }

    /// ``unscaledMetres(_:noDataAsRead:)`` on Float32 cells and, in the same pass, the index of
    /// the first cell whose metres' magnitude exceeds `limit` (a positive finite value), as
    /// ``firstBeyond(_:in:)`` would find it afterwards: nil where none does. Eight cells at a
    /// time on their bits (a magnitude below infinity's bits is finite; above the limit's, beyond
    /// it), a chunk's flags or-ed, and only a chunk that holds one looked at cell by cell. The
    /// cells after a chunk holding one are left as stored.
    static func unscaledMetresFirstBeyond(_ cells: UnsafeMutableBufferPointer<Float>, noDataAsRead ndRead: Double?, limit: Float) -> Int? {
        precondition(limit > 0 && limit.isFinite, "a positive finite limit")
        typealias Lanes = SIMD8<Float>
        typealias Bits = SIMD8<UInt32>
        let noData = ndRead.map { Double(Float($0)) == $0 ? Float($0) : Float.nan } ?? .nan
        guard let base = cells.baseAddress else { return nil }
        let raw = UnsafeMutableRawPointer(base)
        let noDataLanes = Lanes(repeating: noData)
        let magnitude = Bits(repeating: 0x7fff_ffff)
        let infinity = Bits(repeating: Float.infinity.bitPattern)
        let limitBits = Bits(repeating: limit.bitPattern)
        let nan = Lanes(repeating: .nan)
        let chunk = 4096
        var start = 0
        while start < cells.count {
            let end = min(start + chunk, cells.count)
            var k = start
            var flagged = Bits()
            while k + Lanes.scalarCount <= end {
                let v = raw.loadUnaligned(fromByteOffset: k * 4, as: Lanes.self)
                let bits = unsafeBitCast(v, to: Bits.self) & magnitude
                let keep = (bits .< infinity) .& (v .!= noDataLanes)
                var metres = v + 0
                metres.replace(with: nan, where: .!keep)
                raw.storeBytes(of: metres, toByteOffset: k * 4, as: Lanes.self)
                flagged |= unsafeBitCast(keep .& (bits .> limitBits), to: Bits.self)
                k += Lanes.scalarCount
            }
            // The chunk's last cells, fewer than a lane's, as unscaledMetres takes any cell.
            unscaledMetres(UnsafeMutableBufferPointer(rebasing: cells[k..<end]), noDataAsRead: ndRead)
            if flagged != Bits() || (k..<end).contains(where: { abs(base[$0]) > limit }) {
                return (start..<end).first { abs(base[$0]) > limit }
            }
            start = end
        }
        return nil
    }

    /// The window's columns as runs that map to contiguous raster columns: columns outside the
    /// raster belong to no run (no data), except on a DEM that wraps in longitude, where they
    /// are the columns on the other side of the antimeridian.
    func windowRuns(column: Int, width w: Int) -> [(windowColumn: Int, rasterColumn: Int, count: Int)] {
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
        return runs
    }

    /// Reads a window of elevations in metres. Columns outside the raster are no data, or, for a
    /// DEM that wraps in longitude, the columns on the other side of the antimeridian.
    /// `source` is the band to read, the DEM's own by default. The corresponding GDAL function
    /// is `GDALRasterIO`.
    func readWindow(column: Int, row: Int, width w: Int, height h: Int, source: RasterBand? = nil) throws(TerrainError) -> ElevationGrid {
        let values: [Double] = try readWindowValues(column: column, row: row, width: w, height: h, type: GDT_Float64, source: source)
        let (gw, gh) = values.isEmpty ? (0, 0) : (w, h)
        return ElevationGrid(width: gw, height: gh, originColumn: column, originRow: row, values: values)
    }
}
