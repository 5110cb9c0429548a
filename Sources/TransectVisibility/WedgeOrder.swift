import TransectSupport

/// The cells in range, block of wedges by block (block b holds wedges b·`wedgesPerBlock` up to
/// the next block's, wedge a lying between sight rays a and a + 1), each block's cells in
/// raster order, so that judging them reads the cells' arrays row by row: a counting sort on
/// the workers, row bands counted, placed and filled in order, so the order is the same on
/// any number of threads.
struct WedgeOrder: Sendable {
    /// Cell indices, block after block.
    let order: [Int32]
    /// Block b's cells are `order[starts[b]..<starts[b + 1]]`.
    let starts: [Int]

    /// Orders the cells in range of `settings` (their distances and azimuths given) among the
    /// blocks of `wedgesPerBlock` wedges of `fan`.
    init(
        distances: [Double], azimuths: [Double], settings: ViewshedSettings, fan: RayFan, wedgesPerBlock: Int, width: Int,
        parallel: ParallelLoop
    ) {
        precondition(wedgesPerBlock > 0 && wedgesPerBlock & (wedgesPerBlock - 1) == 0, "blocks of a power of two wedges")
        // A shift, not a division, per cell.
        let shift = wedgesPerBlock.trailingZeroBitCount
        let blocks = (fan.count + wedgesPerBlock - 1) / wedgesPerBlock
        let n = distances.count
        let bands = Viewshed.bands(cells: n, width: width)
        let rowsPerBand = Viewshed.rowsPerBand(cells: n, width: width)
        // Each band's count of cells in each block.
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: bands * blocks)
        counts.initialize(repeating: 0)
        defer { counts.deallocate() }
        // Each cell's block, −1 out of range: every cell written by its band's worker.
        let wedgeOf = UnsafeMutableBufferPointer<Int32>.allocate(capacity: n)
        defer { wedgeOf.deallocate() }
        HugePages.advise(wedgeOf)
        let shared = WedgeCounts(counts: counts, wedgeOf: wedgeOf)
        parallel(bands) { band in
            let from = band * rowsPerBand * width
            let to = min(n, from + rowsPerBand * width)
            for i in from..<to {
                guard Viewshed.inRange(distance: distances[i], azimuth: azimuths[i], settings: settings) else {
                    shared.wedgeOf[i] = -1
                    continue
                }
                let a = fan.wedge(of: azimuths[i]) >> shift
                shared.wedgeOf[i] = Int32(a)
                shared.counts[band * blocks + a] += 1
            }
        }
        // Where each band's cells of each block go: block by block, band by band.
        var starts = [Int](repeating: 0, count: blocks + 1)
        var total = 0
        for a in 0..<blocks {
            starts[a] = total
            for band in 0..<bands {
                let c = counts[band * blocks + a]
                counts[band * blocks + a] = total
                total += c
            }
        }
        starts[blocks] = total
        // Every slot is filled: the counts placed each band's cells of each wedge.
        self.order = [Int32](unsafeUninitializedCapacity: total) { out, filled in
            HugePages.advise(out)
            let place = WedgePlacement(order: out, next: counts, wedgeOf: wedgeOf)
            parallel(bands) { band in
                let from = band * rowsPerBand * width
                let to = min(n, from + rowsPerBand * width)
                for i in from..<to {
                    let a = Int(place.wedgeOf[i])
                    guard a >= 0 else { continue }
                    place.order[place.next[band * blocks + a]] = Int32(i)
                    place.next[band * blocks + a] += 1
                }
            }
            filled = total
        }
        self.starts = starts
    }

    /// Block `b`'s cells.
    func cells(of b: Int) -> ArraySlice<Int32> { order[starts[b]..<starts[b + 1]] }
}

/// Per-band counts and each cell's block, written by the workers of ``WedgeOrder``.
///
/// `@unchecked Sendable` is safe because each worker writes the counts of its own band and the
/// cells of its own rows only.
private struct WedgeCounts: @unchecked Sendable {
    let counts: UnsafeMutableBufferPointer<Int>
    let wedgeOf: UnsafeMutableBufferPointer<Int32>
}

/// The order being filled by the workers of ``WedgeOrder``: `next` holds each band's next slot
/// in each block.
///
/// `@unchecked Sendable` is safe because each band's slots are its own (the counts placed them
/// apart) and each worker fills its own band's.
private struct WedgePlacement: @unchecked Sendable {
    let order: UnsafeMutableBufferPointer<Int32>
    let next: UnsafeMutableBufferPointer<Int>
    let wedgeOf: UnsafeMutableBufferPointer<Int32>
}

extension Viewshed {
    /// Row bands the whole-raster passes split cells into: enough for every worker, few enough
    /// that a band's counts (one per block of wedges) stay small beside its cells.
    static func bands(cells n: Int, width: Int) -> Int {
        let rows = max(1, n / max(width, 1))
        return (rows + rowsPerBand(cells: n, width: width) - 1) / rowsPerBand(cells: n, width: width)
    }

    /// Rows in each band of ``bands(cells:width:)``: 16 bands at most.
    static func rowsPerBand(cells n: Int, width: Int) -> Int {
        let rows = max(1, n / max(width, 1))
        return max(1, (rows + 15) / 16)
    }

    /// Whether a cell at `distance` and `azimuth` lies in the range of `settings`.
    @inline(__always)
    static func inRange(distance s: Double, azimuth alpha: Double, settings: ViewshedSettings) -> Bool {
        guard s.isFinite, s >= settings.minimumDistanceMetres, s <= settings.maximumDistanceMetres ?? .infinity else { return false }
        if let (from, to) = settings.azimuthDegrees, !azimuth(alpha, liesFrom: from, to: to) { return false }
        return true
    }

    /// The farthest distance of a cell in range in each of the ``RayFan`` sectors (0 where
    /// none is).
    static func farthestInRange(
        distances: [Double], azimuths: [Double], settings: ViewshedSettings, width: Int, parallel: ParallelLoop
    )
        -> [Double]
    {
        let n = distances.count
        let bands = bands(cells: n, width: width)
        let rowsPerBand = rowsPerBand(cells: n, width: width)
        let farthest = ParallelFill.array(count: bands, chunk: 1, parallel: parallel) { band in
            var f = [Double](repeating: 0, count: RayFan.sectors)
            let from = band * rowsPerBand * width
            for i in from..<min(n, from + rowsPerBand * width) where inRange(distance: distances[i], azimuth: azimuths[i], settings: settings) {
                let s = RayFan.sector(of: azimuths[i])
                f[s] = max(f[s], distances[i])
            }
            return f
        }
        return (0..<RayFan.sectors).map { s in farthest.reduce(0) { max($0, $1[s]) } }
    }
}
