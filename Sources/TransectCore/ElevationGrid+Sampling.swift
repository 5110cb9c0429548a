extension ElevationGrid {
    /// Elevations at continuous raster pixel coordinates, batch-first.
    ///
    /// `columns[k]`, `rows[k]` are a point's coordinates in the whole raster's pixel space
    /// (cell centres at i + ½). The result is `nan` where the method finds no data. Taps outside
    /// the window count as no data, so the window must hold `interpolation.radius` cells of
    /// margin around every point that lies inside the raster.
    ///
    /// Bilinear runs four points at a time in `SIMD4<Double>` lanes; nearest and cubic are
    /// per point. `sampleScalar` is the plain reference the tests compare with.
    ///
    /// - Complexity: O(n) for n points.
    public func sample(columns: [Double], rows: [Double], interpolation: Interpolation) -> [Double] {
        precondition(columns.count == rows.count, "one row coordinate per column coordinate")
        switch interpolation {
        case .bilinear: return bilinearSIMD(columns: columns, rows: rows)
        case .nearest, .cubic:
            var out = [Double](repeating: .nan, count: columns.count)
            for k in columns.indices {
                out[k] = sampleScalar(column: columns[k], row: rows[k], interpolation: interpolation)
            }
            return out
        }
    }

    /// The scalar reference: one point, any method. See ``sample(columns:rows:interpolation:)``.
    public func sampleScalar(column x: Double, row y: Double, interpolation: Interpolation) -> Double {
        guard x.isFinite, y.isFinite else { return .nan }
        switch interpolation {
        case .nearest:
            let c = x.rounded(.down)
            let r = y.rounded(.down)
            guard abs(c) < 1e15, abs(r) < 1e15 else { return .nan }
            return value(column: Int(c), row: Int(r))
        case .bilinear:
            return bilinearScalar(x: x, y: y)
        case .cubic:
            return cubicScalar(x: x, y: y)
        }
    }

    /// The cell whose centre is the lower-left of the four around (x, y), and the offsets from
    /// that centre; nil for non-finite or far-off coordinates (no taps).
    @inline(__always) @usableFromInline
    func anchor(x: Double, y: Double) -> (column: Int, row: Int, tx: Double, ty: Double)? {
        let u = x - 0.5
        let v = y - 0.5
        let fu = u.rounded(.down)
        let fv = v.rounded(.down)
        guard abs(fu) < 1e15, abs(fv) < 1e15 else { return nil }
        return (Int(fu), Int(fv), u - fu, v - fv)
    }

    @usableFromInline
    func bilinearScalar(x: Double, y: Double) -> Double {
        guard let (c0, r0, tx, ty) = anchor(x: x, y: y) else { return .nan }
        let w00 = (1 - tx) * (1 - ty)
        let w10 = tx * (1 - ty)
        let w01 = (1 - tx) * ty
        let w11 = tx * ty
        var sum = 0.0
        var weightSum = 0.0
        // Taps in the order the SIMD kernel adds them, so the two agree bit for bit; a tap
        // without data, or with zero weight, takes no part.
        func add(_ z: Double, _ w: Double) {
            guard !z.isNaN, w > 0 else { return }
            sum += w * z
            weightSum += w
        }
        add(value(column: c0, row: r0), w00)
        add(value(column: c0 + 1, row: r0), w10)
        add(value(column: c0, row: r0 + 1), w01)
        add(value(column: c0 + 1, row: r0 + 1), w11)
        // The half-weight rule (see ``Interpolation``): the four weights sum to 1 up to
        // rounding; comparing with their computed sum keeps the exact midpoint on the data side.
        let total = w00 + w10 + w01 + w11
        return weightSum > 0 && !(2 * weightSum < total) ? sum / weightSum : .nan
    }

    /// Keys' cubic convolution kernel with a = −½ at offset `t` (|t| < 2).
    @usableFromInline
    static func keys(_ t: Double) -> Double {
        let a = -0.5
        let s = abs(t)
        if s <= 1 { return ((a + 2) * s - (a + 3)) * s * s + 1 }
        if s < 2 { return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a }
        return 0
    }

    /// Keys' cubic over the sixteen taps when all have data; otherwise bilinear, whose
    /// half-weight rule then decides whether the point is a gap (see ``Interpolation``).
    @usableFromInline
    func cubicScalar(x: Double, y: Double) -> Double {
        guard let (c0, r0, tx, ty) = anchor(x: x, y: y) else { return .nan }
        var sum = 0.0
        for dj in -1...2 {
            let wy = Self.keys(Double(dj) - ty)
            for di in -1...2 {
                let z = value(column: c0 + di, row: r0 + dj)
                if z.isNaN { return bilinearScalar(x: x, y: y) }
                sum += wy * Self.keys(Double(di) - tx) * z
            }
        }
        return sum
    }

    /// Bilinear over four points at a time, with the half-weight no-data rule of
    /// ``Interpolation``. Gathers are scalar; weights, masks and the
    /// renormalisation run in `SIMD4<Double>`.
    @usableFromInline
    func bilinearSIMD(columns: [Double], rows: [Double]) -> [Double] {
        let n = columns.count
        var out = [Double](repeating: .nan, count: n)
        let lanes = 4
        let full = n - n % lanes
        values.withUnsafeBufferPointer { grid in
            columns.withUnsafeBufferPointer { xs in
                rows.withUnsafeBufferPointer { ys in
                    out.withUnsafeMutableBufferPointer { result in
                        var k = 0
                        while k < full {
                            let x = SIMD4(xs[k], xs[k + 1], xs[k + 2], xs[k + 3])
                            let y = SIMD4(ys[k], ys[k + 1], ys[k + 2], ys[k + 3])
                            let u = x - 0.5
                            let v = y - 0.5
                            let fu = u.rounded(.down)
                            let fv = v.rounded(.down)
                            let tx = u - fu
                            let ty = v - fv
                            var z00 = SIMD4<Double>(repeating: .nan)
                            var z10 = z00
                            var z01 = z00
                            var z11 = z00
                            for lane in 0..<lanes {
                                // Far-off or non-finite coordinates have no taps: leave nan.
                                guard abs(fu[lane]) < 1e15, abs(fv[lane]) < 1e15 else { continue }
                                let c = Int(fu[lane]) - originColumn
                                let r = Int(fv[lane]) - originRow
                                z00[lane] = Self.tap(grid, c, r, width, height)
                                z10[lane] = Self.tap(grid, c + 1, r, width, height)
                                z01[lane] = Self.tap(grid, c, r + 1, width, height)
                                z11[lane] = Self.tap(grid, c + 1, r + 1, width, height)
                            }
                            let w00 = (1 - tx) * (1 - ty)
                            let w10 = tx * (1 - ty)
                            let w01 = (1 - tx) * ty
                            let w11 = tx * ty
                            let zero = SIMD4<Double>(repeating: 0)
                            // A tap with no data, or with zero weight, takes no part.
                            let m00 = (z00 .== z00) .& (w00 .> 0)
                            let m10 = (z10 .== z10) .& (w10 .> 0)
                            let m01 = (z01 .== z01) .& (w01 .> 0)
                            let m11 = (z11 .== z11) .& (w11 .> 0)
                            let a00 = zero.replacing(with: w00, where: m00)
                            let a10 = zero.replacing(with: w10, where: m10)
                            let a01 = zero.replacing(with: w01, where: m01)
                            let a11 = zero.replacing(with: w11, where: m11)
                            let s =
                                a00 * zero.replacing(with: z00, where: m00)
                                + a10 * zero.replacing(with: z10, where: m10)
                                + a01 * zero.replacing(with: z01, where: m01)
                                + a11 * zero.replacing(with: z11, where: m11)
                            let wsum = a00 + a10 + a01 + a11
                            // The half-weight rule, as in `bilinearScalar`.
                            let total = w00 + w10 + w01 + w11
                            let gap = .!(wsum .> 0) .| (2 * wsum .< total)
                            let value = (s / wsum).replacing(with: .nan, where: gap)
                            for lane in 0..<lanes { result[k + lane] = value[lane] }
                            k += lanes
                        }
                        while k < n {
                            result[k] = bilinearScalar(x: xs[k], y: ys[k])
                            k += 1
                        }
                    }
                }
            }
        }
        return out
    }

    @inline(__always) @usableFromInline
    static func tap(_ grid: UnsafeBufferPointer<Double>, _ c: Int, _ r: Int, _ w: Int, _ h: Int) -> Double {
        guard c >= 0, r >= 0, c < w, r < h else { return .nan }
        return grid[r * w + c]
    }
}
