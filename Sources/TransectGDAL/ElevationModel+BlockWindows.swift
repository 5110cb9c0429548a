import TransectRaster

/// How sampling chooses the windows of the raster it reads
/// (``ElevationModel/sampled(columns:rows:interpolation:windows:)``). Every choice gives the same
/// bits: a window holds every tap of the points sampled in it, and a cell's value does not
/// depend on the window it is read in. Only what is read, and how often, differs.
enum SampleWindows: Equatable {
    /// ``ElevationModel/sampleChunk`` squares plus the interpolation's margin, kept in the
    /// window cache: few, large reads, for files on this machine.
    case chunks
    /// Whole blocks of the raster (GDAL's block, at most ``ElevationModel/blockWindowLimit``
    /// cells a side), only those the interpolation's taps of the points fall in, kept in the
    /// window cache. For a DEM read over the network, where every block is a request: a point
    /// costs the one block that holds its taps, where a chunk and its margin may span four.
    case blocks
    /// The bounding box of each chunk's points plus the margin, read without the cache: the
    /// reference the other two must equal.
    case boundingBoxes

    /// ``blocks`` when reading the DEM goes over the network (a path, a file GDAL opened or a
    /// VRT's source on a network file system, or a driver that fetches from servers, such as a
    /// STAC item collection's), ``chunks`` otherwise.
    static func choosing(files: [String], drivers: [String]) -> SampleWindows {
        let network =
            files.contains { SourceConfinement.isNetwork($0) }
            || drivers.contains { SourceConfinement.networkDrivers.contains($0.uppercased()) }
        return network ? .blocks : .chunks
    }
}

extension ElevationModel {
    /// Blocks larger than this many cells a side (a file stored in one strip, say) are read in
    /// pieces of this size, so a window stays within the cache's budget.
    static let blockWindowLimit = 1024

    /// The raster cells, along one axis, that `interpolation` reads for coordinate `x` (cell
    /// centres at i + ½), as ``ElevationGrid/sample(columns:rows:interpolation:)`` finds them:
    /// the cell holding `x` for nearest; the two centres around it for bilinear; those and one
    /// more on each side for cubic. `x` is finite and within the raster's extent.
    static func taps(_ x: Double, _ interpolation: Interpolation) -> ClosedRange<Int> {
        switch interpolation {
        case .nearest:
            let c = Int(x.rounded(.down))
            return c...c
        case .bilinear:
            let c = Int((x - 0.5).rounded(.down))
            return c...(c + 1)
        case .cubic:
            let c = Int((x - 0.5).rounded(.down))
            return (c - 1)...(c + 2)
        }
    }

    /// The block index of `cell` for blocks of `size` cells, rounding down below zero.
    @inline(__always)
    static func block(of cell: Int, size: Int) -> Int {
        cell >= 0 ? cell / size : -((size - 1 - cell) / size)
    }

    /// Samples by blocks (``SampleWindows/blocks``). Points are grouped by the blocks their taps
    /// fall in, first to last along each axis; a group's window is those whole blocks, so every
    /// point of the group reads each of them and no other. Rows are clipped to the raster;
    /// columns too unless the DEM wraps, where the columns past an edge are the other side's.
    func sampledByBlocks(columns: [Double], rows: [Double], interpolation: Interpolation) throws(TerrainError) -> [Double] {
        let n = columns.count
        var result = [Double](repeating: .nan, count: n)
        let natural = band.blockSize
        let bw = min(max(natural.width, 1), Self.blockWindowLimit)
        let bh = min(max(natural.height, 1), Self.blockWindowLimit)
        typealias Span = (column0: Int, column1: Int, row0: Int, row1: Int)
        var keyed: [(span: Span, index: Int)] = []
        keyed.reserveCapacity(n)
        for k in 0..<n where contains(column: columns[k], row: rows[k]) {
            let c = Self.taps(columns[k], interpolation)
            let r = Self.taps(rows[k], interpolation)
            let span = (
                Self.block(of: c.lowerBound, size: bw), Self.block(of: c.upperBound, size: bw),
                Self.block(of: r.lowerBound, size: bh), Self.block(of: r.upperBound, size: bh)
            )
            keyed.append((span, k))
        }
        keyed.sort { $0.span != $1.span ? $0.span < $1.span : $0.index < $1.index }
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count && keyed[end].span == keyed[start].span { end += 1 }
            let span = keyed[start].span
            var c0 = span.column0 * bw
            var c1 = (span.column1 + 1) * bw
            if !wrapsLongitude {
                c0 = max(c0, 0)
                c1 = max(min(c1, width), c0)
            }
            let r0 = max(span.row0 * bh, 0)
            let r1 = max(min((span.row1 + 1) * bh, height), r0)
            let grid = try cachedWindow(column: c0, row: r0, width: c1 - c0, height: r1 - r0)
            let group = keyed[start..<end]
            let values = grid.sample(columns: group.map { columns[$0.index] }, rows: group.map { rows[$0.index] }, interpolation: interpolation)
            for (offset, item) in group.enumerated() { result[item.index] = values[offset] }
            start = end
        }
        return result
    }
}
