import TransectGeodesy
import TransectSupport

/// The raster's cells in tiles of ``side`` × ``side``, each within one cell of the lattice their
/// distances and azimuths are interpolated on (``Viewshed/cellGeometry``), each with the turn of
/// azimuths its cells can have, and listed under every ``RayFan`` sector that turn touches: a
/// block of sight rays finds the cells it judges among its sectors' tiles, row by row in each
/// tile, with no order of every cell.
///
/// A tile's cells have azimuthal equidistant coordinates interpolated bilinearly between the
/// four nodes of its lattice cell, so they lie in the convex hull of the tile's four corner
/// cells, and in that of the four points about it on the grid of the tiles' first columns and
/// rows; where those points' directions span less than half a turn the hull leaves the observer
/// out and every cell's azimuth lies between theirs. A tile whose points span half a turn or
/// more (the observer's own), or lack a place on the earth, takes the whole turn and is looked
/// at by every block.
struct CellTiles: Sendable {
    /// Each tile row's first raster row and the next tile row's (the last one's end the raster's).
    let rowBounds: [Int]
    /// Each tile column's first raster column, and the raster's width last.
    let columnBounds: [Int]
    /// What a tile's cells' geometry comes to, computed once a tile.
    struct Facts {
        /// Its azimuths from `lower` clockwise through `span` degrees (360: the whole turn),
        /// with a margin for rounding.
        var lower: Double
        var span: Double
        /// At most its nearest cell's distance from the observer where its turn is narrower
        /// than half a turn (0 elsewhere), and its farthest cell's: ``distanceBounds(of:)``.
        var nearest: Double
        var farthest: Double
        /// The sectors its turn touches (``sectors(from:span:)``): the first and how many.
        var firstSector: Int32
        var sectorCount: Int32
    }
    /// Tile (i, j)'s at j·across + i.
    private(set) var facts: [Facts] = []
    /// Sector s's tiles are `sectorTiles[sectorStart[s]..<sectorStart[s + 1]]`.
    private(set) var sectorStart: [Int] = []
    private(set) var sectorTiles: [Int32] = []
    /// The lattice: its nodes' raster columns and rows, and their azimuthal equidistant
    /// coordinates (metres, node (i, j) at j·columns + i; `nan` off the earth).
    let latticeColumns: [Int]
    let latticeRows: [Int]
    let nodesX: [Double]
    let nodesY: [Double]
    /// Cells between the lattice's nodes (but its last column and row), a power of two and a
    /// multiple of ``side``, and its log₂ (a cell's lattice cell is a shift away, not a division).
    let latticeStep: Int
    let latticeShift: Int
    /// Cells on a tile's side, the last tile of a row or column taking the raster's last column
    /// or row as well: how finely a block of rays finds the cells of its wedges (a cell of a
    /// tile across two blocks' wedges is looked at by both) and hides them whole.
    static let side = 8
    /// The most cells on a tile's side, and in a tile.
    static let maximumSide = side + 1
    static let maximumCells = maximumSide * maximumSide

    var across: Int { columnBounds.count - 1 }
    var down: Int { rowBounds.count - 1 }

    /// Degrees a tile's turn is widened by on each side: the azimuths of the grid points about
    /// it and its cells' are computed alike, and a cell lies in those points' hull to the
    /// interpolation's rounding, about 1e-13°.
    static let margin = 1e-6

    /// Tiles over the lattice whose nodes lie at `latticeColumns` × `latticeRows`, every
    /// `latticeStep` cells (a multiple of ``side``) and the raster's last column and row, node
    /// (i, j) at j·columns + i with coordinates `nodesX`, `nodesY` (`nan` off the earth); a run
    /// of tiles a worker.
    init(
        nodesX: [Double], nodesY: [Double], latticeStep: Int, latticeColumns: [Int], latticeRows: [Int], width: Int, height: Int,
        parallel: ParallelLoop
    ) {
        precondition(
            latticeStep > 0 && latticeStep & (latticeStep - 1) == 0 && latticeStep % Self.side == 0, "a lattice step of whole tiles, a power of two")
        self.nodesX = nodesX
        self.nodesY = nodesY
        self.latticeStep = latticeStep
        latticeShift = latticeStep.trailingZeroBitCount
        self.latticeColumns = latticeColumns
        self.latticeRows = latticeRows
        // Every side-th column and row, the last tile holding the raster's last column or row
        // too: each tile within one lattice cell.
        columnBounds = Array(stride(from: 0, to: max(1, width - 1), by: Self.side)) + [width]
        rowBounds = Array(stride(from: 0, to: max(1, height - 1), by: Self.side)) + [height]
        // The directions of the grid of the tiles' first columns and rows (and the raster's
        // last), degrees in [0, 360) as each cell's own are computed
        // (``geometry(of:xs:ys:distances:azimuths:)``), `nan` off the earth or at the observer:
        // a tile's cells lie in the hull of the four grid points about it, within its lattice
        // cell, and the tiles meeting at a point share it.
        let tiles = self
        let gridAcross = across + 1
        let gridRows = ParallelFill.array(count: down + 1, chunk: 1, parallel: parallel) { gj -> [Double] in
            let row = gj < tiles.down ? tiles.rowBounds[gj] : height - 1
            let lj = tiles.rowBounds[min(gj, tiles.down - 1)] &>> tiles.latticeShift
            let v = tiles.rowFraction(latticeRow: lj, row: row)
            var xs = [Double](repeating: .nan, count: gridAcross)
            var ys = xs
            for gi in 0..<gridAcross {
                let (aboveX, belowX, aboveY, belowY) = tiles.columnTerms(
                    latticeRow: lj, column: gi < tiles.across ? tiles.columnBounds[gi] : width - 1)
                xs[gi] = aboveX * (1 - v) + belowX * v
                ys[gi] = aboveY * (1 - v) + belowY * v
            }
            var distances = xs
            var azimuths = xs
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    distances.withUnsafeMutableBufferPointer { d in
                        azimuths.withUnsafeMutableBufferPointer { a in GeoMath.polar(x: x, y: y, distances: d, azimuths: a) }
                    }
                }
            }
            for gi in 0..<gridAcross where !(xs[gi].isFinite && ys[gi].isFinite && distances[gi] > 0) { azimuths[gi] = .nan }
            return azimuths
        }
        // Each tile's turn, sectors and distance bounds.
        let all = ParallelFill.array(count: across * down, chunk: 1 << 12, parallel: parallel) { t -> Facts in
            let (i, j) = (t % tiles.across, t / tiles.across)
            let (x, y) = tiles.cornerCells(of: t)
            var out = Facts(
                // The farthest corner's distance: √ of the largest square (√ keeps order).
                lower: 0, span: 360, nearest: 0, farthest: (x * x + y * y).max().squareRoot(), firstSector: 0, sectorCount: Int32(RayFan.sectors))
            // The directions about the tile, sorted (no heap: four of them).
            var angles = SIMD4(gridRows[j][i], gridRows[j][i + 1], gridRows[j + 1][i], gridRows[j + 1][i + 1])
            guard !(0..<4).contains(where: { angles[$0].isNaN }) else { return out }
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
            guard arc < 180 else { return out }
            var from = start - Self.margin
            if from < 0 { from += 360 }
            let span = arc + 2 * Self.margin
            let sectors = Self.sectors(from: from, span: span)
            (out.lower, out.span, out.firstSector, out.sectorCount) = (from, span, Int32(sectors.lowerBound), Int32(sectors.count))
            out.nearest = Self.nearestBound(x: x, y: y)
            return out
        }
        var counts = [Int](repeating: 0, count: RayFan.sectors + 1)
        all.withUnsafeBufferPointer { all in
            for tile in all {
                for k in 0..<Int(tile.sectorCount) { counts[(Int(tile.firstSector) + k) % RayFan.sectors + 1] += 1 }
            }
        }
        for s in 0..<RayFan.sectors { counts[s + 1] += counts[s] }
        var next = Array(counts.prefix(RayFan.sectors))
        let listed = [Int32](unsafeUninitializedCapacity: counts[RayFan.sectors]) { listed, count in
            all.withUnsafeBufferPointer { all in
                for (t, tile) in all.enumerated() {
                    for k in 0..<Int(tile.sectorCount) {
                        let s = (Int(tile.firstSector) + k) % RayFan.sectors
                        listed[next[s]] = Int32(t)
                        next[s] += 1
                    }
                }
            }
            count = listed.count
        }
        facts = all
        sectorStart = counts
        sectorTiles = listed
    }

    /// The sectors a turn from `from` (degrees in [0, 360)) clockwise through `span` touches:
    /// from `from`'s on until the one holding its end, past the last sector counting on from
    /// ``RayFan/sectors`` (take them modulo it).
    ///
    /// Sectors are counted by multiplying by their count per degree, not by dividing by their
    /// width as ``RayFan/sector(of:)`` does (a division's latency, twice, on each of a quarter
    /// of a million tiles): the two can differ by an ulp, and so by a sector only where an end
    /// lies within an ulp of a sector's bound, and the ends lie ``margin`` beyond the tile's
    /// cells, so every sector that holds one of its cells is among these.
    static func sectors(from: Double, span: Double) -> Range<Int> {
        let width = 360 / Double(RayFan.sectors)
        let perDegree = Double(RayFan.sectors) / 360
        let s0 = min(RayFan.sectors - 1, max(0, Int(from * perDegree)))
        return s0..<(s0 + min(RayFan.sectors, Int(((from + span - Double(s0) * width) * perDegree).rounded(.down)) + 1))
    }

    /// The sectors tile `t`'s turn touches (``sectors(from:span:)``), nil where it takes the
    /// whole turn.
    func sectors(of t: Int) -> Range<Int>? {
        facts[t].span < 360 ? Self.sectors(from: facts[t].lower, span: facts[t].span) : nil
    }

    /// Whether tile `t`'s cells all lie in one sector (their azimuths between two sector
    /// bounds): its sector, or nil.
    func soleSector(of t: Int) -> Int? {
        let (lower, span) = (facts[t].lower, facts[t].span)
        guard span < 360 else { return nil }
        let end = lower + span
        guard end < 360 else { return nil }
        let s = RayFan.sector(of: lower)
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
        let (lower, span) = (facts[t].lower, facts[t].span)
        guard span < 360 else { return false }
        return lower > from && lower + span < to
    }

    /// Whether tile `t`'s turn meets `from` through `to`.
    func meets(_ t: Int, from: Double, to: Double) -> Bool {
        let (lower, span) = (facts[t].lower, facts[t].span)
        guard span < 360 else { return true }
        // The tile's turn as one or two intervals of [0, 360).
        let end = lower + span
        if end <= 360 { return lower <= to && end >= from }
        return (lower <= to) || (end - 360 >= from)
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
            let lj = latticeRow(ofTile: t)
            for (n, col) in columns.enumerated() {
                (aboveX[n], belowX[n], aboveY[n], belowY[n]) = columnTerms(latticeRow: lj, column: col)
            }
            var k = 0
            for r in rows {
                let v = rowFraction(latticeRow: lj, row: r)
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
    func farthestDistance(of t: Int) -> Double { facts[t].farthest }

    /// At most the distance of tile `t`'s nearest cell, and the distance of its farthest
    /// (``farthestDistance(of:)``), for a tile whose turn is narrower than half a turn (the
    /// observer outside its corners' hull; 0 for the nearest of any other).
    func distanceBounds(of t: Int) -> (nearest: Double, farthest: Double) { (facts[t].nearest, facts[t].farthest) }

    /// Tile `t`'s turn: from `lower` clockwise through `span` degrees (360: the whole turn).
    func turn(of t: Int) -> (lower: Double, span: Double) { (facts[t].lower, facts[t].span) }

    /// At most the distance of the nearest cell of a tile whose corner cells lie at `x`, `y`,
    /// with the observer outside their hull. Each cell is a convex combination of the corner
    /// cells (bilinear weights over the tile's rows and columns within its lattice cell), so it
    /// lies in their hull, no nearer than the nearest of the six segments between them, less a
    /// micrometre for rounding.
    static func nearestBound(x: SIMD4<Double>, y: SIMD4<Double>) -> Double {
        // The six segments a–b at once (the first twice more), and the origin's nearest point
        // on each; the square root of the least square distance is the least distance.
        let xa = SIMD8(x[0], x[0], x[0], x[1], x[1], x[2], x[0], x[0])
        let ya = SIMD8(y[0], y[0], y[0], y[1], y[1], y[2], y[0], y[0])
        let dx = SIMD8(x[1], x[2], x[3], x[2], x[3], x[3], x[1], x[1]) - xa
        let dy = SIMD8(y[1], y[2], y[3], y[2], y[3], y[3], y[1], y[1]) - ya
        let length = dx * dx + dy * dy
        let f = SIMD8<Double>(repeating: 0).replacing(
            with: (-(xa * dx + ya * dy) / length).clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 1)),
            where: length .> 0)
        let px = xa + f * dx
        let py = ya + f * dy
        return max(0, (px * px + py * py).min().squareRoot() - 1e-6)
    }

    /// Tile `t`'s corner cells' coordinates (first and last column of its first and last row,
    /// repeated where it has one), with ``coordinates(of:xs:ys:)``'s bits.
    @inline(__always)
    func cornerCells(of t: Int) -> (x: SIMD4<Double>, y: SIMD4<Double>) {
        let (rows, columns) = cells(of: t)
        var x = SIMD4<Double>()
        var y = SIMD4<Double>()
        let lj = latticeRow(ofTile: t)
        let first = rowFraction(latticeRow: lj, row: rows.lowerBound)
        let last = rowFraction(latticeRow: lj, row: rows.upperBound - 1)
        for n in 0..<2 {
            let (aboveX, belowX, aboveY, belowY) = columnTerms(latticeRow: lj, column: n == 0 ? columns.lowerBound : columns.upperBound - 1)
            x[2 * n] = aboveX * (1 - first) + belowX * first
            y[2 * n] = aboveY * (1 - first) + belowY * first
            x[2 * n + 1] = aboveX * (1 - last) + belowX * last
            y[2 * n + 1] = aboveY * (1 - last) + belowY * last
        }
        return (x, y)
    }

    /// The lattice row (of nodes) above tile `t`, where the lattice cell holding its rows starts.
    @inline(__always)
    func latticeRow(ofTile t: Int) -> Int { rowBounds[t / across] &>> latticeShift }

    /// Column `col` of a tile below lattice row `rj`: its coordinates interpolated along the
    /// lattice rows above and below the tile (x above, x below, y above, y below). A lattice
    /// interval's cells lie from its first node up to the next one's; the raster's last column
    /// takes its own nodes alone.
    @inline(__always)
    func columnTerms(latticeRow rj: Int, column col: Int) -> (Double, Double, Double, Double) {
        let nodesAcross = latticeColumns.count
        let nodesDown = latticeRows.count
        // The interval whose first column is the last at or before `col`.
        let ci = col == latticeColumns[nodesAcross - 1] ? nodesAcross - 1 : col &>> latticeShift
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

    /// Row `r` of a tile below lattice row `rj`: how far it lies from that lattice row to the
    /// next.
    @inline(__always)
    func rowFraction(latticeRow rj: Int, row r: Int) -> Double {
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
