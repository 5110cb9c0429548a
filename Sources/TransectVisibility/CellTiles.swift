import TransectGeodesy
import TransectSupport

/// The raster's cells in tiles, one per cell of the lattice their distances and azimuths are
/// interpolated on (``Viewshed/cellGeometry``), each with the turn of azimuths its cells can
/// have, and listed under every ``RayFan`` sector that turn touches: a block of sight rays finds
/// the cells it judges among its sectors' tiles, row by row in each tile, with no order of
/// every cell.
///
/// A tile's cells have azimuthal equidistant coordinates interpolated between its four corner
/// nodes, so they lie in the corners' convex hull; where the corners' directions span less than
/// half a turn the hull leaves the observer out and every cell's azimuth lies between the
/// corners'. A tile whose corners span half a turn or more (the observer's own), or lack a
/// place on the earth, takes the whole turn and is looked at by every block.
struct CellTiles: Sendable {
    /// Each tile row's first raster row and the next tile row's (the last one's end the raster's).
    let rowBounds: [Int]
    /// Each tile column's first raster column, and the raster's width last.
    let columnBounds: [Int]
    /// Tile (i, j) at j·across + i: its azimuths from `lower` clockwise through `span`
    /// degrees (360: the whole turn), with a margin for rounding.
    let lower: [Double]
    let span: [Double]
    /// Sector s's tiles are `sectorTiles[sectorStart[s]..<sectorStart[s + 1]]`.
    let sectorStart: [Int]
    let sectorTiles: [Int32]
    /// The lattice: its nodes' raster columns and rows, and their azimuthal equidistant
    /// coordinates (metres, node (i, j) at j·columns + i; `nan` off the earth).
    let latticeColumns: [Int]
    let latticeRows: [Int]
    let nodesX: [Double]
    let nodesY: [Double]
    /// The most cells along a tile's side (a lattice step and one) and in a tile.
    static let maximumSide = Viewshed.latticeSteps.max()! + 1
    static let maximumCells = maximumSide * maximumSide

    var across: Int { columnBounds.count - 1 }
    var down: Int { rowBounds.count - 1 }

    /// Degrees a tile's turn is widened by on each side: its cells' azimuths are computed from
    /// interpolated coordinates, its corners' from the nodes, alike to about 1e-13°.
    static let margin = 1e-6

    /// Tiles over the lattice whose nodes lie at `latticeColumns` × `latticeRows` (the last
    /// the raster's last column and row), node (i, j) at j·columns + i with coordinates
    /// `nodesX`, `nodesY` (`nan` off the earth), azimuth `nodeAzimuths` (degrees, any turn) and
    /// distance `nodeDistances`; a tile row a worker.
    init(
        nodesX: [Double], nodesY: [Double], nodeAzimuths: [Double], nodeDistances: [Double], latticeColumns: [Int], latticeRows: [Int],
        width: Int, height: Int, parallel: ParallelLoop
    ) {
        self.nodesX = nodesX
        self.nodesY = nodesY
        self.latticeColumns = latticeColumns
        self.latticeRows = latticeRows
        // Lattice intervals, the last one holding the raster's last column or row too.
        let tilesAcross = max(1, latticeColumns.count - 1)
        let tilesDown = max(1, latticeRows.count - 1)
        columnBounds = Array(latticeColumns.prefix(tilesAcross)) + [width]
        rowBounds = Array(latticeRows.prefix(tilesDown)) + [height]
        let nodesAcross = latticeColumns.count
        let nodesDown = latticeRows.count
        // Each tile's turn (lower, span) and sectors (first, count), a tile row an item.
        let rowsOfTiles = ParallelFill.array(count: tilesDown, chunk: 1, parallel: parallel) { j -> [SIMD4<Double>] in
            var out = [SIMD4<Double>](repeating: SIMD4(0, 360, 0, Double(RayFan.sectors)), count: tilesAcross)
            for i in 0..<tilesAcross {
                let i1 = min(i + 1, nodesAcross - 1)
                let j1 = min(j + 1, nodesDown - 1)
                // The corners' directions, degrees in [0, 360), sorted (no heap: four of them).
                let corners = SIMD4<Int>(j * nodesAcross + i, j * nodesAcross + i1, j1 * nodesAcross + i, j1 * nodesAcross + i1)
                var angles = SIMD4<Double>()
                var whole = false
                for k in 0..<4 {
                    guard nodesX[corners[k]].isFinite, nodesY[corners[k]].isFinite, nodeDistances[corners[k]] > 0 else {
                        whole = true
                        break
                    }
                    let a = nodeAzimuths[corners[k]].truncatingRemainder(dividingBy: 360)
                    angles[k] = a < 0 ? a + 360 : a
                }
                guard !whole else { continue }
                for p in 1..<4 {
                    var q = p
                    while q > 0 && angles[q - 1] > angles[q] {
                        (angles[q - 1], angles[q]) = (angles[q], angles[q - 1])
                        q -= 1
                    }
                }
                // The smallest arc holding the corners: the turn less its widest gap.
                var gap = angles[0] + 360 - angles[3]
                var start = angles[0]
                for k in 1..<4 where angles[k] - angles[k - 1] > gap {
                    gap = angles[k] - angles[k - 1]
                    start = angles[k]
                }
                let arc = 360 - gap
                guard arc < 180 else { continue }
                var from = start - Self.margin
                if from < 0 { from += 360 }
                let span = arc + 2 * Self.margin
                let sectors = Self.sectors(from: from, span: span)
                out[i] = SIMD4(from, span, Double(sectors.lowerBound), Double(sectors.count))
            }
            return out
        }
        let all = rowsOfTiles.flatMap { $0 }
        var counts = [Int](repeating: 0, count: RayFan.sectors + 1)
        for tile in all {
            for k in 0..<Int(tile[3]) { counts[(Int(tile[2]) + k) % RayFan.sectors + 1] += 1 }
        }
        for s in 0..<RayFan.sectors { counts[s + 1] += counts[s] }
        var next = Array(counts.prefix(RayFan.sectors))
        var listed = [Int32](repeating: 0, count: counts[RayFan.sectors])
        for (t, tile) in all.enumerated() {
            for k in 0..<Int(tile[3]) {
                let s = (Int(tile[2]) + k) % RayFan.sectors
                listed[next[s]] = Int32(t)
                next[s] += 1
            }
        }
        lower = all.map { $0[0] }
        span = all.map { $0[1] }
        sectorStart = counts
        sectorTiles = listed
    }

    /// The sectors a turn from `from` (degrees in [0, 360)) clockwise through `span` touches:
    /// from `from`'s on until the one holding its end, past the last sector counting on from
    /// ``RayFan/sectors`` (take them modulo it).
    static func sectors(from: Double, span: Double) -> Range<Int> {
        let width = 360 / Double(RayFan.sectors)
        let s0 = RayFan.sector(of: from)
        return s0..<(s0 + min(RayFan.sectors, Int(((from + span - Double(s0) * width) / width).rounded(.down)) + 1))
    }

    /// The sectors tile `t`'s turn touches (``sectors(from:span:)``), nil where it takes the
    /// whole turn.
    func sectors(of t: Int) -> Range<Int>? {
        span[t] < 360 ? Self.sectors(from: lower[t], span: span[t]) : nil
    }

    /// Whether tile `t`'s cells all lie in one sector (their azimuths between two sector
    /// bounds): its sector, or nil.
    func soleSector(of t: Int) -> Int? {
        guard span[t] < 360 else { return nil }
        let end = lower[t] + span[t]
        guard end < 360 else { return nil }
        let s = RayFan.sector(of: lower[t])
        return RayFan.sector(of: end) == s ? s : nil
    }

    /// The tiles whose turn meets azimuths `from` through `to` (degrees, 0 ≤ from ≤ to ≤ 360),
    /// each once, in order; `seen` (one entry a tile) and `mark` tell the tiles met already,
    /// `mark` differing from every earlier call's.
    func tiles(from: Double, to: Double, seen: inout [Int32], mark: Int32) -> [Int32] {
        let first = RayFan.sector(of: from)
        let last = RayFan.sector(of: min(to, 360.0.nextDown))
        var out: [Int32] = []
        for s in first...max(first, last) {
            for t in sectorTiles[sectorStart[s]..<sectorStart[s + 1]] where seen[Int(t)] != mark {
                seen[Int(t)] = mark
                if meets(Int(t), from: from, to: to) { out.append(t) }
            }
        }
        out.sort()
        return out
    }

    /// Whether tile `t`'s turn lies strictly between `from` and `to` (degrees, no wrap).
    func lies(_ t: Int, between from: Double, and to: Double) -> Bool {
        guard span[t] < 360 else { return false }
        let end = lower[t] + span[t]
        return lower[t] > from && end < to
    }

    /// Whether tile `t`'s turn meets `from` through `to`.
    func meets(_ t: Int, from: Double, to: Double) -> Bool {
        guard span[t] < 360 else { return true }
        // The tile's turn as one or two intervals of [0, 360).
        let end = lower[t] + span[t]
        if end <= 360 { return lower[t] <= to && end >= from }
        return (lower[t] <= to) || (end - 360 >= from)
    }

    /// The azimuthal equidistant coordinates of tile `t`'s cells, row after row of the tile,
    /// into `xs` and `ys` (room for ``maximumCells``): interpolated bilinearly between the
    /// lattice's nodes, by the same arithmetic wherever a cell is asked for, so a cell has the
    /// same bits from any pass. A lattice interval's cells lie from its first node up to the
    /// next one's (the last row at its interval's far end); the raster's last column takes its
    /// own column of nodes alone. Returns the count.
    func coordinates(of t: Int, xs: UnsafeMutablePointer<Double>, ys: UnsafeMutablePointer<Double>) -> Int {
        let (rows, columns) = cells(of: t)
        // Each column's interpolations along the lattice rows above and below (the same sums
        // as a cell's whole formula evaluates first), then each row's between them.
        let side = Self.maximumSide
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * side) { terms in
            let aboveX = terms.baseAddress!
            let belowX = aboveX + side
            let aboveY = belowX + side
            let belowY = aboveY + side
            let (ti, tj) = (t % across, t / across)
            for (n, col) in columns.enumerated() {
                (aboveX[n], belowX[n], aboveY[n], belowY[n]) = columnTerms(tileColumn: ti, tileRow: tj, column: col)
            }
            var k = 0
            for r in rows {
                let v = rowFraction(tileRow: tj, row: r)
                for n in 0..<columns.count {
                    xs[k] = aboveX[n] * (1 - v) + belowX[n] * v
                    ys[k] = aboveY[n] * (1 - v) + belowY[n] * v
                    k += 1
                }
            }
            return k
        }
    }

    /// The distance of tile `t`'s farthest cell from the observer: the largest of its corner
    /// cells', each with ``coordinates(of:xs:ys:)``'s bits. A cell's coordinates are affine along
    /// its tile's columns and then along its rows, and a distance is convex along any line (and
    /// strictly so unless the line runs through the observer, where it rises a cell's width from
    /// cell to cell), so no other cell of the tile lies as far as the farthest corner, by margins
    /// far above the arithmetic's rounding.
    func farthestDistance(of t: Int) -> Double {
        let (x, y) = cornerCells(of: t)
        return (x * x + y * y).squareRoot().max()
    }

    /// At most the distance of tile `t`'s nearest cell, and the distance of its farthest
    /// (``farthestDistance(of:)``), for a tile whose turn is narrower than half a turn (the
    /// observer outside its corners' hull). Each cell is a convex combination of the tile's
    /// four corner cells (bilinear weights over the tile's rows and columns), so it lies in their
    /// hull, no nearer than the nearest of the six segments between them, less a micrometre
    /// for rounding.
    func distanceBounds(of t: Int) -> (nearest: Double, farthest: Double) {
        let (x, y) = cornerCells(of: t)
        var nearest = Double.infinity
        for a in 0..<4 {
            for b in (a + 1)..<4 {
                // The origin's distance to segment a–b.
                let dx = x[b] - x[a]
                let dy = y[b] - y[a]
                let length = dx * dx + dy * dy
                let f = length > 0 ? min(1, max(0, -(x[a] * dx + y[a] * dy) / length)) : 0
                let px = x[a] + f * dx
                let py = y[a] + f * dy
                nearest = min(nearest, (px * px + py * py).squareRoot())
            }
        }
        return (max(0, nearest - 1e-6), (x * x + y * y).squareRoot().max())
    }

    /// Tile `t`'s corner cells' coordinates (first and last column of its first and last row,
    /// repeated where it has one), with ``coordinates(of:xs:ys:)``'s bits.
    @inline(__always)
    private func cornerCells(of t: Int) -> (x: SIMD4<Double>, y: SIMD4<Double>) {
        let (rows, columns) = cells(of: t)
        var x = SIMD4<Double>()
        var y = SIMD4<Double>()
        let (ti, tj) = (t % across, t / across)
        let first = rowFraction(tileRow: tj, row: rows.lowerBound)
        let last = rowFraction(tileRow: tj, row: rows.upperBound - 1)
        for n in 0..<2 {
            let (aboveX, belowX, aboveY, belowY) = columnTerms(
                tileColumn: ti, tileRow: tj, column: n == 0 ? columns.lowerBound : columns.upperBound - 1)
            x[2 * n] = aboveX * (1 - first) + belowX * first
            y[2 * n] = aboveY * (1 - first) + belowY * first
            x[2 * n + 1] = aboveX * (1 - last) + belowX * last
            y[2 * n + 1] = aboveY * (1 - last) + belowY * last
        }
        return (x, y)
    }

    /// Column `col` of the tile in tile column `ti` and tile row `rj`: its coordinates
    /// interpolated along the lattice rows above and below the tile (x above, x below, y above,
    /// y below). A lattice interval's cells lie from its first node up to the next one's; the
    /// raster's last column takes its own nodes alone.
    @inline(__always)
    private func columnTerms(tileColumn ti: Int, tileRow rj: Int, column col: Int) -> (Double, Double, Double, Double) {
        let nodesAcross = latticeColumns.count
        let nodesDown = latticeRows.count
        // The interval whose first column is the last at or before `col`.
        let ci = col == latticeColumns[nodesAcross - 1] ? nodesAcross - 1 : ti
        let c0 = latticeColumns[ci]
        let c1 = ci + 1 < nodesAcross ? latticeColumns[ci + 1] : c0
        let a = rj * nodesAcross + ci
        let b = ci + 1 < nodesAcross ? a + 1 : a
        let c = rj + 1 < nodesDown ? a + nodesAcross : a
        let d = ci + 1 < nodesAcross ? c + 1 : c
        let u = c1 > c0 ? Double(col - c0) / Double(c1 - c0) : 0
        return (
            nodesX[a] * (1 - u) + nodesX[b] * u, nodesX[c] * (1 - u) + nodesX[d] * u, nodesY[a] * (1 - u) + nodesY[b] * u,
            nodesY[c] * (1 - u) + nodesY[d] * u
        )
    }

    /// Row `r` of a tile in tile row `rj`: how far it lies from the lattice row above the tile to
    /// the one below.
    @inline(__always)
    private func rowFraction(tileRow rj: Int, row r: Int) -> Double {
        let r0 = latticeRows[rj]
        let r1 = rj + 1 < latticeRows.count ? latticeRows[rj + 1] : r0
        return r1 > r0 ? Double(r - r0) / Double(r1 - r0) : 0
    }

    /// Tile `t`'s cells' distances (metres) and azimuths (degrees in [0, 360)) from the
    /// observer, row after row of the tile, into `distances` and `azimuths`, with `xs` and `ys`
    /// for scratch (each with room for ``maximumCells``). Returns the count.
    func geometry(
        of t: Int, xs: UnsafeMutablePointer<Double>, ys: UnsafeMutablePointer<Double>, distances: UnsafeMutablePointer<Double>,
        azimuths: UnsafeMutablePointer<Double>
    ) -> Int {
        let count = coordinates(of: t, xs: xs, ys: ys)
        GeoMath.polar(
            x: UnsafeBufferPointer(start: xs, count: count), y: UnsafeBufferPointer(start: ys, count: count),
            distances: UnsafeMutableBufferPointer(start: distances, count: count),
            azimuths: UnsafeMutableBufferPointer(start: azimuths, count: count))
        return count
    }

    /// Tile `t`'s raster rows and columns.
    func cells(of t: Int) -> (rows: Range<Int>, columns: Range<Int>) {
        let i = t % across
        let j = t / across
        return (rowBounds[j]..<rowBounds[j + 1], columnBounds[i]..<columnBounds[i + 1])
    }
}
