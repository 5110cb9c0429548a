/// The bilinear kernel: four points at a time in `SIMD4<Double>` lanes, the same arithmetic as
/// ``SampledWindow/bilinearScalar(x:y:)`` in the same order, so the two agree bit for bit.
///
/// **The fast domain.** A lane takes the vector path when its four taps lie inside the window:
/// u = x − ½ in [originColumn, originColumn + width − 1) and v = y − ½ likewise in rows. Both
/// bounds are integers, so the comparisons are exact, and `nan` fails them. Four lanes in the
/// domain run with no bounds checks and no branches; a group with any lane outside (the
/// window's edge, far-off or non-finite points) runs through the scalar reference, which is the
/// definition of the result.
///
/// **The floor without libm.** In the domain |u| < 2⁵¹ (the window's extent is checked below
/// 2⁴⁰ when the kernel is built), so u + 1.5·2⁵² lies in [2⁵², 2⁵³), where doubles are spaced
/// by 1: the sum is u rounded to an integer, and subtracting the constant again is exact. Where
/// that integer exceeds u, one less is the floor. This is `floor(u)` exactly, for either sign,
/// in five vector operations on any x86-64 (the baseline's SSE2 has no `roundpd`, and Swift's
/// `Int32(Double)` keeps a range check per lane that the compiler cannot drop). The cell index
/// (v₀ − originRow)·width + (u₀ − originColumn) is an integer below 2⁵¹, computed exactly in
/// doubles, and read from the bits of index + 1.5·2⁵², whose low mantissa bits it is.
///
/// **Taps.** Two adjacent cells per row and lane in one load (64 bits for Float32 cells, 128
/// for Float64), deinterleaved and widened in vector registers (``SampledCell/pairs(_:_:)``).
///
/// **Order.** Over a grid larger than the caches, points are visited sorted by row band (a
/// counting sort into a permutation) and each result is written back to its input position, so
/// consecutive points read neighbouring rows: pages and DRAM rows are reused instead of missed.
/// The order changes no result: each point's arithmetic is its own.
struct BilinearLanes<Cell: SampledCell> {
    let base: UnsafePointer<Cell>
    let below: UnsafePointer<Cell>
    let loU: SIMD4<Double>
    let hiU: SIMD4<Double>
    let loV: SIMD4<Double>
    let hiV: SIMD4<Double>
    let originU: SIMD4<Double>
    let originV: SIMD4<Double>
    let width: SIMD4<Double>

    static var magic: SIMD4<Double> { SIMD4(repeating: 0x1.8p52) }
    static var magicBits: SIMD4<Int> { SIMD4(repeating: Int(bitPattern: UInt(0x1.8p52.bitPattern))) }

    /// A kernel over `cells` of a window, or nil when no point can take the fast path (fewer
    /// than two columns or rows, or a window placed beyond ±2⁴⁰ cells).
    init?(base: UnsafePointer<Cell>?, width w: Int, height h: Int, originColumn: Int, originRow: Int) {
        let limit = 1 << 40
        guard let base, w >= 2, h >= 2, abs(originColumn) < limit, abs(originRow) < limit, w < limit, h < limit else { return nil }
        self.base = base
        below = base + w
        loU = SIMD4(repeating: Double(originColumn))
        hiU = SIMD4(repeating: Double(originColumn + w - 1))
        loV = SIMD4(repeating: Double(originRow))
        hiV = SIMD4(repeating: Double(originRow + h - 1))
        originU = loU
        originV = loV
        width = SIMD4(repeating: Double(w))
    }

    /// floor(u) exactly for |u| < 2⁵¹ (see the type's documentation).
    @inline(__always)
    static func floorExact(_ u: SIMD4<Double>) -> SIMD4<Double> {
        let r = (u + magic) - magic
        return r - SIMD4<Double>(repeating: 1).replacing(with: 0, where: .!(r .> u))
    }

    /// Bilinear at four points, or nil when one of them lies outside the fast domain.
    @inline(__always)
    func values(x: SIMD4<Double>, y: SIMD4<Double>) -> SIMD4<Double>? {
        let u = x - 0.5
        let v = y - 0.5
        guard all((u .>= loU) .& (u .< hiU) .& (v .>= loV) .& (v .< hiV)) else { return nil }
        let fu = Self.floorExact(u)
        let fv = Self.floorExact(v)
        let tx = u - fu
        let ty = v - fv
        let index = (fv - originV) * width + (fu - originU) + Self.magic
        let i = unsafeBitCast(index, to: SIMD4<Int>.self) &- Self.magicBits
        let (z00, z10) = Cell.pairs(base, i)
        let (z01, z11) = Cell.pairs(below, i)
        let one = SIMD4<Double>(repeating: 1)
        let w00 = (one - tx) * (one - ty)
        let w10 = tx * (one - ty)
        let w01 = (one - tx) * ty
        let w11 = tx * ty
        let zero = SIMD4<Double>()
        // A tap with no data, or with zero weight, takes no part.
        let m00 = (z00 .== z00) .& (w00 .> 0)
        let m10 = (z10 .== z10) .& (w10 .> 0)
        let m01 = (z01 .== z01) .& (w01 .> 0)
        let m11 = (z11 .== z11) .& (w11 .> 0)
        let a00 = zero.replacing(with: w00, where: m00)
        let a10 = zero.replacing(with: w10, where: m10)
        let a01 = zero.replacing(with: w01, where: m01)
        let a11 = zero.replacing(with: w11, where: m11)
        // The scalar sum starts at +0, which turns a −0 product into +0: so does this one.
        var s: SIMD4<Double> = zero + a00 * zero.replacing(with: z00, where: m00)
        s += a10 * zero.replacing(with: z10, where: m10)
        s += a01 * zero.replacing(with: z01, where: m01)
        s += a11 * zero.replacing(with: z11, where: m11)
        var wsum: SIMD4<Double> = a00 + a10
        wsum += a01
        wsum += a11
        // The half-weight rule, as in `bilinearScalar`.
        var total: SIMD4<Double> = w00 + w10
        total += w01
        total += w11
        let gap = .!(wsum .> 0) .| (2 * wsum .< total)
        return (s / wsum).replacing(with: .nan, where: gap)
    }
}

extension SampledWindow {
    /// Points are visited by row band when the grid holds more than this many bytes (beyond the
    /// caches) and the batch has at least ``sortedBatchMinimum`` points. Measured on an 8192²
    /// Float32 grid with 1M random points, the sort pays for itself and little more: the taps'
    /// cache misses stay the cost (see `make bench`).
    static var sortedGridBytes: Int { 8 << 20 }
    static var sortedBatchMinimum: Int { 1 << 14 }
    /// Rows per band of the sort: 2^bandShift.
    static var bandShift: Int { 4 }

    /// Bilinear over a batch; see ``BilinearLanes``.
    func bilinearBatch(columns: [Double], rows: [Double]) -> [Double] {
        let n = columns.count
        let cells = self.cells
        // Every path below writes every result, so the array needs no filling first.
        return [Double](unsafeUninitializedCapacity: n) { result, initialized in
            cells.withUnsafeBufferPointer { grid in
                columns.withUnsafeBufferPointer { xs in
                    rows.withUnsafeBufferPointer { ys in
                        let kernel = BilinearLanes(
                            base: grid.baseAddress, width: width, height: height, originColumn: originColumn, originRow: originRow)
                        let large = grid.count * MemoryLayout<Cell>.stride > Self.sortedGridBytes
                        if let kernel, large, n >= Self.sortedBatchMinimum, n < Int(UInt32.max) {
                            bilinearByRows(kernel, xs, ys, result)
                        } else {
                            bilinearInOrder(kernel, xs, ys, result)
                        }
                    }
                }
            }
            initialized = n
        }
    }

    /// Points in input order, four at a time.
    func bilinearInOrder(
        _ kernel: BilinearLanes<Cell>?, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
        _ out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = xs.count
        var k = 0
        if let kernel, let px = xs.baseAddress, let py = ys.baseAddress, let po = out.baseAddress {
            while k + 4 <= n {
                let x = UnsafeRawPointer(px + k).loadUnaligned(as: SIMD4<Double>.self)
                let y = UnsafeRawPointer(py + k).loadUnaligned(as: SIMD4<Double>.self)
                if let v = kernel.values(x: x, y: y) {
                    UnsafeMutableRawPointer(po + k).storeBytes(of: v, as: SIMD4<Double>.self)
                } else {
                    for l in k..<(k + 4) { out[l] = bilinearScalar(x: xs[l], y: ys[l]) }
                }
                k += 4
            }
        }
        while k < n {
            out[k] = bilinearScalar(x: xs[k], y: ys[k])
            k += 1
        }
    }

    /// Points sorted by row band (a counting sort on the row of their upper taps, clamped to
    /// the window), four at a time into a sorted buffer, then gathered back to input order:
    /// every write is sequential, so stores never wait on cache misses.
    func bilinearByRows(
        _ kernel: BilinearLanes<Cell>, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
        _ out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = xs.count
        let rowsHigh = Double(height)
        let origin = Double(originRow) + 0.5
        let shift = Self.bandShift
        let rank = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: n)
        let sx = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
        let sy = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
        defer {
            rank.deallocate()
            sx.deallocate()
            sy.deallocate()
        }
        guard let px = sx.baseAddress, let py = sy.baseAddress, let po = out.baseAddress else { return }
        var starts = [Int](repeating: 0, count: (height >> shift) + 2)
        for k in 0..<n {
            // Any deterministic key works: it only orders the visits. nan and far-off rows go first.
            let r = ys[k] - origin
            let key = r >= 0 && r < rowsHigh ? (Int(r) >> shift) + 1 : 0
            rank[k] = UInt32(truncatingIfNeeded: key)
            starts[key] += 1
        }
        var sum = 0
        for b in starts.indices {
            let c = starts[b]
            starts[b] = sum
            sum += c
        }
        for k in 0..<n {
            let b = Int(rank[k])
            let p = starts[b]
            starts[b] = p + 1
            sx[p] = xs[k]
            sy[p] = ys[k]
            rank[k] = UInt32(truncatingIfNeeded: p)
        }
        // Results overwrite the sorted columns they were computed from.
        var k = 0
        while k + 4 <= n {
            let x = UnsafeRawPointer(px + k).loadUnaligned(as: SIMD4<Double>.self)
            let y = UnsafeRawPointer(py + k).loadUnaligned(as: SIMD4<Double>.self)
            if let v = kernel.values(x: x, y: y) {
                UnsafeMutableRawPointer(px + k).storeBytes(of: v, as: SIMD4<Double>.self)
            } else {
                for l in k..<(k + 4) { sx[l] = bilinearScalar(x: sx[l], y: sy[l]) }
            }
            k += 4
        }
        while k < n {
            sx[k] = bilinearScalar(x: sx[k], y: sy[k])
            k += 1
        }
        for k in 0..<n { po[k] = px[Int(rank[k])] }
    }
}
