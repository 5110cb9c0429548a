// The angle helpers and series of Geodesic.swift over four lanes (see VectorMath.swift).
//
// Each function here is the lane twin of a `GeoMath` or `GeodesicSeries` function with the
// same name and does the same operations in the same order, with libm replaced by VectorMath
// and `hypot` by √(x² + y²) where its arguments are near 1.

enum GeoLanes {
    typealias V = VectorMath

    /// Knuth's TwoSum, lane by lane (`GeoMath.twoSum`).
    @inline(__always) static func twoSum(_ u: Lanes, _ v: Lanes) -> (s: Lanes, t: Lanes) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, V.select(s .!= 0, 0 - (up + vpp), s))
    }

    /// Exact reduction to [−180, 180] (`GeoMath.angNormalize`).
    @inline(__always) static func angNormalize(_ x: Lanes) -> Lanes {
        let y = V.remainder(x, 360).r
        return V.select(V.abs(y) .== 180, V.copysign(Lanes(repeating: 180), x), y)
    }

    /// NaN outside [−90, 90] (`GeoMath.latFix`).
    @inline(__always) static func latFix(_ x: Lanes) -> Lanes {
        V.select(V.abs(x) .> 90, Lanes(repeating: .nan), x)
    }

    /// `GeoMath.angDiff`: y − x reduced to [−180, 180] as a sum d + e.
    @inline(__always) static func angDiff(_ x: Lanes, _ y: Lanes) -> (d: Lanes, e: Lanes) {
        let first = twoSum(V.remainder(-x, 360).r, V.remainder(y, 360).r)
        var (d, t) = twoSum(V.remainder(first.s, 360).r, first.t)
        let edge = (d .== 0) .| (V.abs(d) .== 180)
        d = V.select(edge, V.copysign(d, V.select(t .== 0, y - x, -t)), d)
        return (d, t)
    }

    /// `GeoMath.angRound`: tiny angles rounded to multiples of 2⁻⁵⁷.
    @inline(__always) static func angRound(_ x: Lanes) -> Lanes {
        let z = 1.0 / 16.0
        var y = V.abs(x)
        let w = z - y
        y = V.select(w .> 0, z - w, y)
        return V.copysign(y, x)
    }

    /// `GeoMath.norm2` with √(s² + c²) (the pairs normalised here have s² + c² near 1).
    @inline(__always) static func norm2(_ s: inout Lanes, _ c: inout Lanes) {
        let r = V.hypot(s, c)
        s /= r
        c /= r
    }

    /// The six coefficients of a series in sin 2lσ, l = 1…6.
    struct Series6 {
        var c1, c2, c3, c4, c5, c6: Lanes
        init(_ c1: Lanes, _ c2: Lanes, _ c3: Lanes, _ c4: Lanes, _ c5: Lanes, _ c6: Lanes) {
            (self.c1, self.c2, self.c3, self.c4, self.c5, self.c6) = (c1, c2, c3, c4, c5, c6)
        }
    }

    /// The five coefficients of C3, l = 1…5.
    struct Series5 {
        var c1, c2, c3, c4, c5: Lanes
        init(_ c1: Lanes, _ c2: Lanes, _ c3: Lanes, _ c4: Lanes, _ c5: Lanes) {
            (self.c1, self.c2, self.c3, self.c4, self.c5) = (c1, c2, c3, c4, c5)
        }
    }

    /// Σ c[l] sin(2lσ), l = 1…6, by Clenshaw (`GeodesicSeries.sinSeries` with n = 6).
    @inline(__always) static func sinSeries(_ sx: Lanes, _ cx: Lanes, _ c: Series6) -> Lanes {
        let ar = 2 * (cx - sx) * (cx + sx)
        var y0 = Lanes(repeating: 0)
        var y1 = Lanes(repeating: 0)
        clenshawStep(&y0, &y1, ar, c.c6)
        clenshawStep(&y0, &y1, ar, c.c5)
        clenshawStep(&y0, &y1, ar, c.c4)
        clenshawStep(&y0, &y1, ar, c.c3)
        clenshawStep(&y0, &y1, ar, c.c2)
        clenshawStep(&y0, &y1, ar, c.c1)
        return 2 * sx * cx * y0
    }

    /// Σ c[l] sin(2lσ), l = 1…5 (`GeodesicSeries.sinSeries` with n = 5).
    @inline(__always) static func sinSeries(_ sx: Lanes, _ cx: Lanes, _ c: Series5) -> Lanes {
        let ar = 2 * (cx - sx) * (cx + sx)
        var y0 = Lanes(repeating: 0)
        var y1 = Lanes(repeating: 0)
        clenshawStep(&y0, &y1, ar, c.c5)
        clenshawStep(&y0, &y1, ar, c.c4)
        clenshawStep(&y0, &y1, ar, c.c3)
        clenshawStep(&y0, &y1, ar, c.c2)
        clenshawStep(&y0, &y1, ar, c.c1)
        return 2 * sx * cx * y0
    }

    /// One Clenshaw step: y = ar·y0 − y1 + c, then (y0, y1) ← (y, y0), the operations in the
    /// scalar series' order.
    @inline(__always) static func clenshawStep(_ y0: inout Lanes, _ y1: inout Lanes, _ ar: Lanes, _ c: Lanes) {
        let y = ar * y0 - y1 + c
        y1 = y0
        y0 = y
    }

    /// `GeodesicSeries.a1m1`.
    @inline(__always) static func a1m1(_ eps: Lanes) -> Lanes {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// `GeodesicSeries.c1`.
    @inline(__always) static func c1(_ eps: Lanes) -> Series6 {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (e2 * (6 - e2) - 16) / 32
        d *= eps
        let c2 = d * (e2 * (64 - 9 * e2) - 128) / 2048
        d *= eps
        let c3 = d * (9 * e2 - 16) / 768
        d *= eps
        let c4 = d * (3 * e2 - 5) / 512
        d *= eps
        let c5 = d * -7 / 1280
        d *= eps
        let c6 = d * -7 / 2048
        return Series6(c1, c2, c3, c4, c5, c6)
    }

    /// `GeodesicSeries.c1p`.
    @inline(__always) static func c1p(_ eps: Lanes) -> Series6 {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (e2 * (205 * e2 - 432) + 768) / 1536
        d *= eps
        let c2 = d * (e2 * (4005 * e2 - 4736) + 3840) / 12288
        d *= eps
        let c3 = d * (116 - 225 * e2) / 384
        d *= eps
        let c4 = d * (2695 - 7173 * e2) / 7680
        d *= eps
        let c5 = d * 3467 / 7680
        d *= eps
        let c6 = d * 38081 / 61440
        return Series6(c1, c2, c3, c4, c5, c6)
    }

    /// `GeodesicSeries.a2m1`.
    @inline(__always) static func a2m1(_ eps: Lanes) -> Lanes {
        let e2 = eps * eps
        let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// `GeodesicSeries.c2`.
    @inline(__always) static func c2(_ eps: Lanes) -> Series6 {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (e2 * (e2 + 2) + 16) / 32
        d *= eps
        let c2 = d * (e2 * (35 * e2 + 64) + 384) / 2048
        d *= eps
        let c3 = d * (15 * e2 + 80) / 768
        d *= eps
        let c4 = d * (7 * e2 + 35) / 512
        d *= eps
        let c5 = d * 63 / 1280
        d *= eps
        let c6 = d * 77 / 2048
        return Series6(c1, c2, c3, c4, c5, c6)
    }

    /// `GeodesicSeries.epsilon`.
    @inline(__always) static func epsilon(k2: Lanes) -> Lanes {
        k2 / (2 * (1 + V.sqrt(1 + k2)) + k2)
    }
}

extension Geodesic {
    /// `a3(_:)` over lanes, the coefficients read with constant indices.
    @inline(__always) func a3(_ eps: Lanes) -> Lanes {
        let k = a3x
        var y = Lanes(repeating: k[0])
        y = y * eps + k[1]
        y = y * eps + k[2]
        y = y * eps + k[3]
        y = y * eps + k[4]
        y = y * eps + k[5]
        return y
    }

    /// `c3(_:)` over lanes, the coefficients read with constant indices.
    @inline(__always) func c3(_ eps: Lanes) -> GeoLanes.Series5 {
        let k = c3x
        var mult = eps
        var y = Lanes(repeating: k[0])
        y = y * eps + k[1]
        y = y * eps + k[2]
        y = y * eps + k[3]
        y = y * eps + k[4]
        let c1 = mult * y
        mult *= eps
        y = Lanes(repeating: k[5])
        y = y * eps + k[6]
        y = y * eps + k[7]
        y = y * eps + k[8]
        let c2 = mult * y
        mult *= eps
        y = Lanes(repeating: k[9])
        y = y * eps + k[10]
        y = y * eps + k[11]
        let c3 = mult * y
        mult *= eps
        y = Lanes(repeating: k[12])
        y = y * eps + k[13]
        let c4 = mult * y
        mult *= eps
        let c5 = mult * k[14]
        return GeoLanes.Series5(c1, c2, c3, c4, c5)
    }

    /// `lengths(...)` over lanes: s₁₂/b, m₁₂/b and m₀ (K13 eqs. 38–41).
    @inline(__always)
    func lengths(
        eps: Lanes, sig12: Lanes,
        _ ssig1: Lanes, _ csig1: Lanes, _ dn1: Lanes,
        _ ssig2: Lanes, _ csig2: Lanes, _ dn2: Lanes,
        distance: Bool, reduced: Bool
    ) -> (s12b: Lanes, m12b: Lanes, m0: Lanes) {
        typealias L = GeoLanes
        let zero = Lanes(repeating: 0)
        var s12b = zero
        var m12b = zero
        var m0 = zero
        var a2 = zero
        var j12 = zero
        let ca = L.c1(eps)
        var cb = L.Series6(zero, zero, zero, zero, zero, zero)
        var a1 = L.a1m1(eps)
        if reduced {
            a2 = L.a2m1(eps)
            cb = L.c2(eps)
            m0 = a1 - a2
            a2 = 1 + a2
        }
        a1 = 1 + a1
        if distance {
            let b1 = L.sinSeries(ssig2, csig2, ca) - L.sinSeries(ssig1, csig1, ca)
            s12b = a1 * (sig12 + b1)
            if reduced {
                let b2 = L.sinSeries(ssig2, csig2, cb) - L.sinSeries(ssig1, csig1, cb)
                j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
            }
        } else if reduced {
            cb = L.Series6(
                a1 * ca.c1 - a2 * cb.c1, a1 * ca.c2 - a2 * cb.c2, a1 * ca.c3 - a2 * cb.c3,
                a1 * ca.c4 - a2 * cb.c4, a1 * ca.c5 - a2 * cb.c5, a1 * ca.c6 - a2 * cb.c6)
            j12 = m0 * sig12 + (L.sinSeries(ssig2, csig2, cb) - L.sinSeries(ssig1, csig1, cb))
        }
        if reduced {
            m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        }
        return (s12b, m12b, m0)
    }
}
