import TransectSupport

/// The bilinear kernel: four points at a time in `SIMD4<Double>` lanes, the same arithmetic as
/// ``SampledWindow/bilinearScalar(x:y:)`` in the same order, so the two agree bit for bit.
///
/// **The fast domain.** A lane takes the vector path when its four taps lie inside the window:
/// u = x − ½ in [originColumn, originColumn + width − 1) and v = y − ½ likewise in rows. Both
/// bounds are integers, so the comparisons are exact, and `nan` fails them. A group with any
/// lane outside (the window's edge, far-off or non-finite points) runs through the scalar
/// reference, which is the definition of the result.
///
/// **The floor.** `rounded(.down)` where the target CPU floors vectors in one instruction
/// (SSE4.1's `roundpd`: the x86-64-v3 release build); elsewhere (the baseline build, whose
/// `rounded(.down)` is a libm call per lane) five vector operations: in the domain |u| < 2⁵¹
/// (the window's extent is checked below 2⁴⁰ when the kernel is built), so u + 1.5·2⁵² lies in
/// [2⁵², 2⁵³), where doubles are spaced by 1: the sum is u rounded to an integer, and
/// subtracting the constant again is exact. Where that integer exceeds u, one less is the
/// floor. Both are `floor(u)` exactly, for either sign. The cell index
/// (v₀ − originRow)·width + (u₀ − originColumn) is an integer below 2⁵¹, computed exactly in
/// doubles, and read from the bits of index + 1.5·2⁵², whose low mantissa bits it is.
///
/// **Taps.** Two adjacent cells per row and lane in one load (64 bits for Float32 cells, 128
/// for Float64), deinterleaved and widened in vector registers (``SampledCell/pairs(_:_:)``).
/// AVX2 gathers were measured no faster on this kernel and are not used.
///
/// **Two tiers of arithmetic.** Where no tap of the four points is missing, every weight is
/// ≥ 0 and the reference's sums reduce to Σ wᵢzᵢ / Σ wᵢ: a zero weight times a finite tap adds
/// a zero, which changes neither sum (the reference's sum starts at +0 and is never −0). If
/// that quotient is `nan` in any lane (a tap without data, an infinite tap under a zero weight,
/// opposite infinities), the group is recomputed with the reference's masks and half-weight
/// rule (``maskedValues(x:y:)``), which also give the reference's bits in every other case.
///
/// **Memory.** A batch runs as a two-stage pipeline (``SampledWindow/bilinearBatch(columns:rows:)``):
/// stage one computes a group's cell indices and prefetches its two rows of taps
/// ``prefetchGroups`` groups ahead of stage two, which reads them, so the taps' cache misses
/// overlap instead of following one another. Points are visited in input order.
struct BilinearLanes<Cell: SampledCell> {
    let base: UnsafePointer<Cell>
    let below: UnsafePointer<Cell>
    let loU: SIMD4<Double>
    let hiU: SIMD4<Double>
    let loV: SIMD4<Double>
    let hiV: SIMD4<Double>
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
        width = SIMD4(repeating: Double(w))
    }

    /// floor(u) exactly for |u| < 2⁵¹, without libm (see the type's documentation).
    @inline(__always)
    static func floorWithoutLibm(_ u: SIMD4<Double>) -> SIMD4<Double> {
        let r = (u + magic) - magic
        return r - SIMD4<Double>(repeating: 1).replacing(with: 0, where: .!(r .> u))
    }

    /// floor(u) exactly for |u| < 2⁵¹: one instruction where the target has it.
    @inline(__always)
    static func floor(_ u: SIMD4<Double>) -> SIMD4<Double> {
        KernelHints.roundsVectors ? u.rounded(.down) : floorWithoutLibm(u)
    }

    /// Stage one: the cell index of each lane's upper-left tap, −1 in every lane when one of
    /// the four points lies outside the fast domain; the taps' two rows are prefetched.
    @inline(__always)
    func prepare(x: SIMD4<Double>, y: SIMD4<Double>) -> SIMD4<Int> {
        let u = x - 0.5
        let v = y - 0.5
        let inside = (u .>= loU) .& (u .< hiU) .& (v .>= loV) .& (v .< hiV)
        // Lanes outside get index 0 for the prefetch (any address would do; this one is ours).
        let index = ((Self.floor(v) - loV) * width + (Self.floor(u) - loU)).replacing(with: 0, where: .!inside)
        let i = unsafeBitCast(index + Self.magic, to: SIMD4<Int>.self) &- Self.magicBits
        let stride = MemoryLayout<Cell>.stride
        let upper = UnsafeRawPointer(base)
        let lower = UnsafeRawPointer(below)
        for lane in 0..<4 {
            KernelHints.prefetch(upper + i[lane] &* stride)
            KernelHints.prefetch(lower + i[lane] &* stride)
        }
        return all(inside) ? i : SIMD4(repeating: -1)
    }

    /// Stage two: bilinear at four points from their indices (``prepare(x:y:)``), or nil when
    /// the group lies outside the fast domain or its quotient is `nan` in a lane (then
    /// ``maskedValues(x:y:)`` decides).
    @inline(__always)
    func values(x: SIMD4<Double>, y: SIMD4<Double>, index i: SIMD4<Int>) -> SIMD4<Double>? {
        // Stage one marks a refused group in every lane: one lane tells.
        guard i[0] >= 0 else { return nil }
        let u = x - 0.5
        let v = y - 0.5
        return weighted(tx: u - Self.floor(u), ty: v - Self.floor(v), index: i)
    }

    /// Bilinear at four points from scratch, without prefetching their taps (neighbouring
    /// points whose taps share cache lines): ``prepare(x:y:)`` and ``values(x:y:index:)`` in
    /// one, each floor taken once, the same bits. Nil as `values`.
    @inline(__always)
    func values(x: SIMD4<Double>, y: SIMD4<Double>) -> SIMD4<Double>? {
        guard let (tx, ty, i) = anchor(x: x, y: y) else { return nil }
        return weighted(tx: tx, ty: ty, index: i)
    }

    /// Each lane's fractions within its cell and its upper-left tap's index, or nil when one
    /// of the four points lies outside the fast domain.
    @inline(__always)
    func anchor(x: SIMD4<Double>, y: SIMD4<Double>) -> (tx: SIMD4<Double>, ty: SIMD4<Double>, index: SIMD4<Int>)? {
        let u = x - 0.5
        let v = y - 0.5
        guard all((u .>= loU) .& (u .< hiU) .& (v .>= loV) .& (v .< hiV)) else { return nil }
        let fu = Self.floor(u)
        let fv = Self.floor(v)
        let i = unsafeBitCast((fv - loV) * width + (fu - loU) + Self.magic, to: SIMD4<Int>.self) &- Self.magicBits
        return (u - fu, v - fv, i)
    }

    /// The weighted sum of the taps at `index` with fractions `tx`, `ty` (stage two's
    /// arithmetic), nil when its quotient is `nan` in a lane.
    @inline(__always)
    func weighted(tx: SIMD4<Double>, ty: SIMD4<Double>, index i: SIMD4<Int>) -> SIMD4<Double>? {
        let (z00, z10) = Cell.pairs(base, i)
        let (z01, z11) = Cell.pairs(below, i)
        let one = SIMD4<Double>(repeating: 1)
        let w00 = (one - tx) * (one - ty)
        let w10 = tx * (one - ty)
        let w01 = (one - tx) * ty
        let w11 = tx * ty
        // The scalar sum starts at +0, which turns a −0 product into +0: so does this one.
        var s: SIMD4<Double> = SIMD4() + w00 * z00
        s += w10 * z10
        s += w01 * z01
        s += w11 * z11
        var total: SIMD4<Double> = w00 + w10
        total += w01
        total += w11
        let r = s / total
        return all(r .== r) ? r : nil
    }

    /// Bilinear at four points with the reference's masks: a tap with no data, or with zero
    /// weight, takes no part, and the half-weight rule makes gaps. Nil when one of the points
    /// lies outside the fast domain.
    @inline(never)
    func maskedValues(x: SIMD4<Double>, y: SIMD4<Double>) -> SIMD4<Double>? {
        guard let (tx, ty, i) = anchor(x: x, y: y) else { return nil }
        let (z00, z10) = Cell.pairs(base, i)
        let (z01, z11) = Cell.pairs(below, i)
        let one = SIMD4<Double>(repeating: 1)
        let w00 = (one - tx) * (one - ty)
        let w10 = tx * (one - ty)
        let w01 = (one - tx) * ty
        let w11 = tx * ty
        let zero = SIMD4<Double>()
        let m00 = (z00 .== z00) .& (w00 .> 0)
        let m10 = (z10 .== z10) .& (w10 .> 0)
        let m01 = (z01 .== z01) .& (w01 .> 0)
        let m11 = (z11 .== z11) .& (w11 .> 0)
        let a00 = zero.replacing(with: w00, where: m00)
        let a10 = zero.replacing(with: w10, where: m10)
        let a01 = zero.replacing(with: w01, where: m01)
        let a11 = zero.replacing(with: w11, where: m11)
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
    /// Groups of four points between stage one (indices, prefetch) and stage two (taps,
    /// arithmetic): 16 points, two cache lines each. Measured on 1M random points over an 8192²
    /// Float32 grid (`make bench`, output written in place): 16 points ahead 22.0–22.7 ns per
    /// point, 24 ahead 23.9–25.3, 32 ahead 24.1–24.6 (interleaved runs); 4 ahead was slower.
    static var prefetchGroups: Int { 4 }

    /// Bilinear over a batch into a fresh array; see ``BilinearLanes``.
    func bilinearBatch(columns: [Double], rows: [Double]) -> [Double] {
        let n = columns.count
        // Every path below writes every result, so the array needs no filling first.
        return [Double](unsafeUninitializedCapacity: n) { result, initialized in
            bilinearBatch(columns: columns, rows: rows, into: UnsafeMutableBufferPointer(rebasing: result[0..<n]))
            initialized = n
        }
    }

    /// Bilinear over a batch into `out`, which holds one slot per point; every slot is written.
    func bilinearBatch(columns: [Double], rows: [Double], into out: UnsafeMutableBufferPointer<Double>) {
        precondition(columns.count == rows.count && out.count == columns.count, "one result slot per point")
        let cells = self.cells
        cells.withUnsafeBufferPointer { grid in
            columns.withUnsafeBufferPointer { xs in
                rows.withUnsafeBufferPointer { ys in
                    let kernel = BilinearLanes(
                        base: grid.baseAddress, width: width, height: height, originColumn: originColumn, originRow: originRow)
                    bilinearPipelined(kernel, xs, ys, out)
                }
            }
        }
    }

    /// Points in input order, four at a time through the two stages, the tail (and any group
    /// the fast paths refuse) through the scalar reference.
    func bilinearPipelined(
        _ kernel: BilinearLanes<Cell>?, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
        _ out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = xs.count
        let groups = n / 4
        if let kernel, let px = xs.baseAddress, let py = ys.baseAddress, let po = out.baseAddress, groups > 0 {
            let ahead = Self.prefetchGroups
            // Stage one's indices wait here for stage two: a ring of slots, a power of two.
            let slots = 8
            precondition(ahead < slots)
            withUnsafeTemporaryAllocation(of: SIMD4<Int>.self, capacity: slots) { ring in
                guard let ring = ring.baseAddress else { return }
                @inline(__always) func group(_ g: Int) -> (x: SIMD4<Double>, y: SIMD4<Double>) {
                    (
                        UnsafeRawPointer(px + 4 &* g).loadUnaligned(as: SIMD4<Double>.self),
                        UnsafeRawPointer(py + 4 &* g).loadUnaligned(as: SIMD4<Double>.self)
                    )
                }
                for g in 0..<min(ahead, groups) {
                    let (x, y) = group(g)
                    ring[g & (slots - 1)] = kernel.prepare(x: x, y: y)
                }
                for g in 0..<groups {
                    let next = g &+ ahead
                    if next < groups {
                        let (x, y) = group(next)
                        ring[next & (slots - 1)] = kernel.prepare(x: x, y: y)
                    }
                    let (x, y) = group(g)
                    let k = 4 &* g
                    // Two `if let`s, not `??`: through `??`'s closure the optimiser takes the lanes
                    // apart into scalars (seen in the disassembly).
                    if let v = kernel.values(x: x, y: y, index: ring[g & (slots - 1)]) {
                        UnsafeMutableRawPointer(po + k).storeBytes(of: v, as: SIMD4<Double>.self)
                    } else if let v = kernel.maskedValues(x: x, y: y) {
                        UnsafeMutableRawPointer(po + k).storeBytes(of: v, as: SIMD4<Double>.self)
                    } else {
                        for l in k..<(k + 4) { out[l] = bilinearScalar(x: xs[l], y: ys[l]) }
                    }
                }
            }
        }
        for k in (kernel == nil ? 0 : 4 * groups)..<n {
            out[k] = bilinearScalar(x: xs[k], y: ys[k])
        }
    }
}

extension SampledWindow {
    /// Bilinear at `count` evenly spaced points of a segment into `out`: point k at
    /// (column + u·columnSpan, row + u·rowSpan) with u = (first + k)·fraction, the same bits
    /// as ``bilinearBatch(columns:rows:into:)`` given those positions, without arrays of them.
    /// Four points at a time through ``BilinearLanes``; no prefetching, since neighbouring
    /// points of a segment share their taps' cache lines.
    func bilinearSegment(
        column: Double, row: Double, columnSpan: Double, rowSpan: Double, fraction: Double, first: Int, count: Int,
        into out: UnsafeMutablePointer<Double>
    ) {
        @inline(__always) func point(_ k: Int) -> (x: Double, y: Double) {
            let u = Double(first + k) * fraction
            return (column + u * columnSpan, row + u * rowSpan)
        }
        let groups = count / 4
        let done = cells.withUnsafeBufferPointer { grid -> Int in
            let kernel = BilinearLanes(base: grid.baseAddress, width: width, height: height, originColumn: originColumn, originRow: originRow)
            guard let kernel, groups > 0 else { return 0 }
            let lanes = SIMD4<Double>(0, 1, 2, 3)
            let c = SIMD4<Double>(repeating: column)
            let r = SIMD4<Double>(repeating: row)
            let dc = SIMD4<Double>(repeating: columnSpan)
            let dr = SIMD4<Double>(repeating: rowSpan)
            let f = SIMD4<Double>(repeating: fraction)
            for g in 0..<groups {
                let k = 4 &* g
                let u = (SIMD4<Double>(repeating: Double(first &+ k)) + lanes) * f
                let x = c + u * dc
                let y = r + u * dr
                if let v = kernel.values(x: x, y: y) {
                    UnsafeMutableRawPointer(out + k).storeBytes(of: v, as: SIMD4<Double>.self)
                } else if let v = kernel.maskedValues(x: x, y: y) {
                    UnsafeMutableRawPointer(out + k).storeBytes(of: v, as: SIMD4<Double>.self)
                } else {
                    for l in k..<(k + 4) {
                        let (px, py) = point(l)
                        out[l] = bilinearScalar(x: px, y: py)
                    }
                }
            }
            return 4 * groups
        }
        for k in done..<max(count, done) {
            let (px, py) = point(k)
            out[k] = bilinearScalar(x: px, y: py)
        }
    }
}
