/// Cubic B-spline resampling of a Float32 raster at source pixel positions, computed exactly as
/// GDAL's warper computes its `cubicspline` resampling when the frame is finer than the source
/// (no scaling of the kernel) and the source has no mask: the same Float64 operations in the same
/// order, so every value is GDAL's to the bit.
///
/// For a position (x, y) in the raster's continuous pixel coordinates (pixel centres at +0.5):
/// ix = ⌊x − 0.5⌋, dx = (x − 0.5) − ix (likewise for y), and the value is
///
///     Σⱼ w(j − dy) · Σᵢ z[iy + j][ix + i] · w(i − dx)   /   Σⱼ w(j − dy) · Σᵢ w(i − dx)
///
/// over the taps i, j ∈ −1…2 that lie inside the raster, where w is the cubic B-spline
/// (Mitchell–Netravali with B = 1, C = 0) times six:
///
///     w(t) = (t+2)³ − 4(t+1)³ + 6t³ − 4(t−1)³, each term counted only where its base is > 0.
///
/// The sums run in GDAL's order (taps left to right within a row, rows top to bottom, each row's
/// sum times its weight added to the total); the quotient is taken unless the weight sum lies
/// within 1 ± 10⁻⁵, and the result is rounded once to Float32. A position left of or above the
/// raster, or beyond its right or bottom edge (with GDAL's 10⁻¹⁰ tolerance), has no value, nor
/// has one whose weight sum is below 10⁻⁶.
///
/// ``sample(_:_:x:y:)`` is the scalar reference; ``resampleRow(_:_:x:y:success:into:)`` runs
/// four positions at a time in `SIMD4<Double>` lanes wherever all four taps of all four lanes lie
/// inside the raster, and the reference elsewhere; the two agree bit for bit.
public enum BSplineWarp {
    /// A Float32 raster window: `values` row-major, `windowWidth` × `windowHeight` cells whose
    /// first cell is the raster's (`column`, `row`); the raster is `rasterWidth` × `rasterHeight`.
    /// Positions are given in the raster's pixel coordinates, and every tap a position inside the
    /// raster uses must lie inside the window.
    public struct Source {
        public let values: UnsafeBufferPointer<Float>
        public let column: Int
        public let row: Int
        public let windowWidth: Int
        public let windowHeight: Int
        public let rasterWidth: Int
        public let rasterHeight: Int

        public init(
            values: UnsafeBufferPointer<Float>, column: Int, row: Int, windowWidth: Int, windowHeight: Int, rasterWidth: Int,
            rasterHeight: Int
        ) {
            precondition(values.count >= windowWidth * windowHeight, "BSplineWarp.Source: the window is larger than its values")
            self.values = values
            self.column = column
            self.row = row
            self.windowWidth = windowWidth
            self.windowHeight = windowHeight
            self.rasterWidth = rasterWidth
            self.rasterHeight = rasterHeight
        }

        @inline(__always) func value(column c: Int, row r: Int) -> Double {
            let wc = c - column
            let wr = r - row
            precondition(wc >= 0 && wc < windowWidth && wr >= 0 && wr < windowHeight, "BSplineWarp: a tap lies outside the window")
            return Double(values[wr * windowWidth + wc])
        }
    }

    /// The B-spline weight of a tap `t` cells from the position, times six (GDAL's form: the
    /// weights are divided by their sum at the end).
    @inlinable public static func weight(_ t: Double) -> Double {
        let xp2 = t + 2
        let xp1 = t + 1
        let xm1 = t - 1
        let xp2c = xp2 * xp2 * xp2
        guard xp2 > 0 else { return 0 }
        var a = 0.0
        if xp1 > 0 {
            var b = 0.0
            if t > 0 {
                let c = xm1 > 0 ? -4 * xm1 * xm1 * xm1 : 0
                b = c + 6 * t * t * t
            }
            a = b + -4 * xp1 * xp1 * xp1
        }
        return a + xp2c
    }

    /// ``weight(_:)`` in four lanes, the same operations lane by lane.
    @inline(__always) static func weight(_ t: SIMD4<Double>) -> SIMD4<Double> {
        let zero = SIMD4<Double>(repeating: 0)
        let xp2 = t + 2
        let xp1 = t + 1
        let xm1 = t - 1
        let xp2c = xp2 * xp2 * xp2
        let c = zero.replacing(with: -4 * xm1 * xm1 * xm1, where: xm1 .> zero)
        let b = zero.replacing(with: c + 6 * t * t * t, where: t .> zero)
        let a = zero.replacing(with: b + -4 * xp1 * xp1 * xp1, where: xp1 .> zero)
        return zero.replacing(with: a + xp2c, where: xp2 .> zero)
    }

    /// The value at (`x`, `y`) in the raster's pixel coordinates, or nil where there is none.
    /// The scalar reference of the kernel.
    public static func sample(_ source: Source, x: Double, y: Double) -> Float? {
        let w = source.rasterWidth
        let h = source.rasterHeight
        // GDAL's GWKCheckAndComputeSrcOffsets: nan fails the first test.
        guard x >= 0, y >= 0, !(x + 1e-10 > Double(w)), !(y + 1e-10 > Double(h)) else { return nil }
        let fx = (x - 0.5).rounded(.down)
        let fy = (y - 0.5).rounded(.down)
        let ix = Int(fx)
        let iy = Int(fy)
        let dx = (x - 0.5) - fx
        let dy = (y - 0.5) - fy
        let iMin = max(-1, -ix)
        let iMax = min(2, w - ix - 1)
        let jMin = max(-1, -iy)
        let jMax = min(2, h - iy - 1)
        var wx = SIMD4<Double>(repeating: 0)
        var i = iMin
        while i <= iMax {
            wx[i + 1] = weight(Double(i) - dx)
            i += 1
        }
        var acc = 0.0
        var accW = 0.0
        var j = jMin
        while j <= jMax {
            var rowAcc = 0.0
            var rowW = 0.0
            i = iMin
            while i <= iMax {
                rowAcc += source.value(column: ix + i, row: iy + j) * wx[i + 1]
                rowW += wx[i + 1]
                i += 1
            }
            let wy = weight(Double(j) - dy)
            acc += rowAcc * wy
            accW += rowW * wy
            j += 1
        }
        guard !(accW < 0.000001) else { return nil }
        return Float(accW < 0.99999 || accW > 1.00001 ? acc / accW : acc)
    }

    /// Resamples the positions (`x[k]`, `y[k]`) into `out[k]`: nan where `success[k]` is zero
    /// or there is no value.
    public static func resampleRow(
        _ source: Source, count: Int, x: UnsafePointer<Double>, y: UnsafePointer<Double>, success: UnsafePointer<Int32>,
        into out: UnsafeMutablePointer<Float>
    ) {
        let lastColumn = Double(source.rasterWidth - 3)
        let lastRow = Double(source.rasterHeight - 3)
        var k = 0
        while k + 4 <= count {
            let xs = SIMD4(x[k], x[k + 1], x[k + 2], x[k + 3])
            let ys = SIMD4(y[k], y[k + 1], y[k + 2], y[k + 3])
            let fx = (xs - 0.5).rounded(.down)
            let fy = (ys - 0.5).rounded(.down)
            // All four lanes transformed, and all sixteen taps of each inside the raster (nan
            // fails every comparison).
            let inside = (fx .>= 1) .& (fx .<= lastColumn) .& (fy .>= 1) .& (fy .<= lastRow)
            if all(inside), success[k] != 0, success[k + 1] != 0, success[k + 2] != 0, success[k + 3] != 0 {
                let v = lanes(source, xs: xs, ys: ys, fx: fx, fy: fy)
                UnsafeMutableRawPointer(out + k).storeBytes(of: v, as: SIMD4<Float>.self)
            } else {
                for l in 0..<4 { out[k + l] = success[k + l] != 0 ? sample(source, x: x[k + l], y: y[k + l]) ?? .nan : .nan }
            }
            k += 4
        }
        while k < count {
            out[k] = success[k] != 0 ? sample(source, x: x[k], y: y[k]) ?? .nan : .nan
            k += 1
        }
    }

    /// Four interior positions: every tap inside the raster, so the ranges are −1…2 in full.
    @inline(__always) static func lanes(
        _ source: Source, xs: SIMD4<Double>, ys: SIMD4<Double>, fx: SIMD4<Double>, fy: SIMD4<Double>
    ) -> SIMD4<Float> {
        let dx = (xs - 0.5) - fx
        let dy = (ys - 0.5) - fy
        let wx0 = weight(-1 - dx)
        let wx1 = weight(0 - dx)
        let wx2 = weight(1 - dx)
        let wx3 = weight(2 - dx)
        let zero = SIMD4<Double>(repeating: 0)
        let rowW = zero + wx0 + wx1 + wx2 + wx3
        let stride = source.windowWidth
        var base = SIMD4<Int>()
        for l in 0..<4 {
            let wc = Int(fx[l]) - 1 - source.column
            let wr = Int(fy[l]) - 1 - source.row
            precondition(
                wc >= 0 && wc + 4 <= source.windowWidth && wr >= 0 && wr + 4 <= source.windowHeight,
                "BSplineWarp: a tap lies outside the window")
            base[l] = wr * stride + wc
        }
        var acc = zero
        var accW = zero
        let p = source.values.baseAddress!
        for j in 0..<4 {
            let o0 = p + base[0] + j * stride
            let o1 = p + base[1] + j * stride
            let o2 = p + base[2] + j * stride
            let o3 = p + base[3] + j * stride
            let v0 = SIMD4(Double(o0[0]), Double(o1[0]), Double(o2[0]), Double(o3[0]))
            let v1 = SIMD4(Double(o0[1]), Double(o1[1]), Double(o2[1]), Double(o3[1]))
            let v2 = SIMD4(Double(o0[2]), Double(o1[2]), Double(o2[2]), Double(o3[2]))
            let v3 = SIMD4(Double(o0[3]), Double(o1[3]), Double(o2[3]), Double(o3[3]))
            let rowAcc = zero + v0 * wx0 + v1 * wx1 + v2 * wx2 + v3 * wx3
            let wy = weight(Double(j - 1) - dy)
            acc = acc + rowAcc * wy
            accW = accW + rowW * wy
        }
        let divide = (accW .< 0.99999) .| (accW .> 1.00001)
        var value = acc.replacing(with: acc / accW, where: divide)
        value.replace(with: .nan, where: accW .< 0.000001)
        return SIMD4<Float>(value)
    }
}
