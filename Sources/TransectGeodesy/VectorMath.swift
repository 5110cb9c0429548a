// Sine, cosine and arctangent over four lanes of Double, written for the geodesic kernels.
//
// Every function works lane by lane with the same operations in the same order, so a lane
// never depends on its neighbours: a value computed alone (the `Double` entry points below
// broadcast it to four lanes and read lane 0) is bit for bit the value it gets inside a batch.
// Nothing here fuses a multiply and an add, so the x86-64 baseline and x86-64-v3 builds agree.
//
// Accuracy, measured against glibc's libm (which is correctly rounded in these ranges) over
// seeded random and edge inputs in VectorMathTests: sin, cos ≤ 1 ulp; atan2 ≤ 2 ulp (the
// rounded ratio y/x, or (y − x)/(y + x), adds up to 1 ulp before the final rounding); sincosd
// ≤ 1 ulp and atan2d ≤ 2 ulp from Karney's definitions evaluated with libm (which keep their
// own roundings: the conversion r · π/180 and the division by π/180).
//
// The polynomials are near-minimax fits (Chebyshev fits at 60 digits, then rounded to double):
// sin x = x + x³ P(x²) and cos x = 1 − x²/2 + x⁴ Q(x²) on |x| ≤ π/4 with relative error below
// 7e−18 before rounding; atan u = u + u³ R(u²) on |u| ≤ tan(π/8) below 8e−18.

/// Four lanes of Double: the width of the geodesic kernels.
typealias Lanes = SIMD4<Double>
/// The mask of a comparison of ``Lanes``.
typealias LaneMask = SIMDMask<SIMD4<Int64>>
/// The bits of ``Lanes``.
typealias LaneBits = SIMD4<UInt64>

enum VectorMath {
    @inline(__always) static func bits(_ x: Lanes) -> LaneBits { unsafeBitCast(x, to: LaneBits.self) }
    @inline(__always) static func lanes(_ b: LaneBits) -> Lanes { unsafeBitCast(b, to: Lanes.self) }
    @inline(__always) static var signBit: LaneBits { LaneBits(repeating: 0x8000_0000_0000_0000) }

    /// `a` where `m` is set, else `b`.
    @inline(__always) static func select(_ m: LaneMask, _ a: Lanes, _ b: Lanes) -> Lanes {
        b.replacing(with: a, where: m)
    }
    /// |x|, by clearing the sign bit.
    @inline(__always) static func abs(_ x: Lanes) -> Lanes { lanes(bits(x) & ~signBit) }
    /// The magnitude of `mag` with the sign of `sign` (sign bits, so −0 and NaN signs count).
    @inline(__always) static func copysign(_ mag: Lanes, _ sign: Lanes) -> Lanes {
        lanes((bits(mag) & ~signBit) | (bits(sign) & signBit))
    }
    /// Lanes whose sign bit is set (−0 included).
    @inline(__always) static func signMinus(_ x: Lanes) -> LaneMask {
        (bits(x) & signBit) .!= 0
    }
    /// `Double.maximum(a, b)` lane by lane: a where a > b or b is NaN, else b.
    @inline(__always) static func max(_ a: Lanes, _ b: Lanes) -> Lanes {
        select((a .> b) .| (b .!= b), a, b)
    }

    /// 1.5 · 2⁵²: adding it rounds |x| < 2⁵¹ to an integer (ties to even) held in the low
    /// bits of the significand.
    @inline(__always) static var roundingMagic: Lanes { Lanes(repeating: 0x1.8p52) }

    /// The IEEE square root, lane by lane: √x, −0 for −0, NaN for x < 0 or NaN. It is taken of
    /// |x| (with the sign and the NaN put back) so that the compiler can see a non-negative
    /// argument, drop libm's errno path and use one vector square root for the four lanes.
    @inline(__always) static func sqrt(_ x: Lanes) -> Lanes {
        let r = Lanes(
            x[0].magnitude.squareRoot(), x[1].magnitude.squareRoot(), x[2].magnitude.squareRoot(),
            x[3].magnitude.squareRoot())
        return select(x .< 0, Lanes(repeating: .nan), copysign(r, x))
    }

    /// √(x² + y²): the plain formula where x² + y² is a normal number well inside the range
    /// (error ≤ 1 ulp there), libm's `hypot` lane by lane elsewhere (zeros, tiny and huge).
    @inline(__always) static func hypot(_ x: Lanes, _ y: Lanes) -> Lanes {
        let s = x * x + y * y
        let r = sqrt(s)
        let outside = .!((s .>= Lanes(repeating: 0x1p-1000)) .& (s .<= Lanes(repeating: 0x1p1000)))
        if !any(outside) { return r }
        var out = r
        for i in 0..<4 where outside[i] { out[i] = libmHypot(x[i], y[i]) }
        return out
    }

    // MARK: - sin and cos

    /// sin(x + y) on |x| ≤ π/4 (about), where y is a tail below ulp(x): x + (x z P(z) + y(1 − z/2)).
    @inline(__always) static func sinKernel(_ x: Lanes, _ y: Lanes, _ z: Lanes) -> Lanes {
        // Estrin's scheme: four levels of dependent operations instead of Horner's seven.
        let z2 = z * z
        let p01 = -0x1.5555555555555p-3 + 0x1.1111111111110p-7 * z
        let p23 = -0x1.a01a01a019938p-13 + 0x1.71de3a546095bp-19 * z
        let p45 = -0x1.ae645412c560cp-26 + 0x1.61217f0b800d5p-33 * z
        let p6 = Lanes(repeating: -0x1.ab17d404de5b3p-41)
        let p = (p01 + z2 * p23) + (z2 * z2) * (p45 + z2 * p6)
        return x + ((x * z) * p + y * (1 - 0.5 * z))
    }

    /// cos(x + y) on |x| ≤ π/4 (about): w = 1 − z/2 plus the rounding error of w, plus
    /// z² Q(z) − x y.
    @inline(__always) static func cosKernel(_ x: Lanes, _ y: Lanes, _ z: Lanes) -> Lanes {
        let z2 = z * z
        let q01 = 0x1.5555555555555p-5 - 0x1.6c16c16c16967p-10 * z
        let q23 = 0x1.a01a019f4eb01p-16 - 0x1.27e4fa17da09ep-22 * z
        let q45 = 0x1.1eeb68e93b64cp-29 - 0x1.907da367a37cbp-37 * z
        let q = (q01 + z2 * q23) + (z2 * z2) * q45
        let hz = 0.5 * z
        let w = 1 - hz
        return w + (((1 - w) - hz) + (z2 * q - x * y))
    }

    /// Sine and cosine of the reduced angle x + y (radians) in quadrant `q` (low two bits).
    @inline(__always)
    static func quadrant(_ x: Lanes, _ y: Lanes, _ q: LaneBits) -> (sin: Lanes, cos: Lanes) {
        let z = x * x
        let s = select(x .== 0, x, sinKernel(x, y, z))  // keeps −0
        let c = cosKernel(x, y, z)
        let odd = (q & 1) .!= 0
        let sinx = lanes(bits(select(odd, c, s)) ^ ((q & 2) &<< 62))
        let cosx = lanes(bits(select(odd, s, c)) ^ (((q &+ 1) & 2) &<< 62))
        return (sinx, cosx)
    }

    /// Sine and cosine of x radians. |x| ≤ 10⁵ is reduced by x − kπ/2 with π/2 in three
    /// parts (k·P1 and k·P2 exact for |k| < 2²⁰) and the reduced angle kept as a head and a
    /// tail; larger or non-finite lanes go to libm.
    @inline(__always) static func sincos(_ x: Lanes) -> (sin: Lanes, cos: Lanes) {
        let kM = x * 0x1.45f306dc9c883p-1 + roundingMagic
        let q = bits(kM)
        let k = kM - roundingMagic
        let r1 = x - k * 0x1.921fb54400000p+0
        let p2 = k * 0x1.0b4611a600000p-34
        // TwoSum of r1 and −p2: t + e = r1 − p2 exactly.
        let t = r1 - p2
        let tv = t - r1
        let e = (r1 - (t - tv)) + (-p2 - tv)
        let tail = e - k * 0x1.3198a2e037073p-69
        let hi = t + tail
        let lo = (t - hi) + tail
        var out = quadrant(hi, lo, q)
        out.sin = select(x .== 0, x, out.sin)  // sin(−0) = −0
        let large = .!(abs(x) .<= 1e5)
        if any(large) {
            for i in 0..<4 where large[i] {
                out.sin[i] = libmSin(x[i])
                out.cos[i] = libmCos(x[i])
            }
        }
        return out
    }

    /// IEEE remainder of x by `m` (90 or 360: small integers with few significant bits) and
    /// the quotient's low bits: exact for |x| < 2⁴⁵, where k·m and x − k·m are exact and the
    /// rounded quotient x/m lies on the same side of every half-integer as the exact one.
    /// Larger and non-finite lanes use `remainder` lane by lane.
    @inline(__always)
    static func remainder(_ x: Lanes, _ m: Double) -> (r: Lanes, q: LaneBits) {
        let kM = x / m + roundingMagic
        let k = kM - roundingMagic
        // x − k·m is +0 when x is a nonzero multiple of m; IEEE's remainder gives x's sign.
        let difference = x - k * m
        var r = select(difference .== 0, copysign(Lanes(repeating: 0), x), difference)
        let large = .!(abs(x) .< 0x1p45)
        if any(large) {
            for i in 0..<4 where large[i] { r[i] = x[i].remainder(dividingBy: m) }
        }
        return (r, bits(kM))
    }

    /// Sine and cosine of x + t degrees with Karney's exact reduction: x = 90q + r exactly,
    /// then angRound(r + t)·π/180 into the kernels, so that multiples of 90° give exact
    /// results; sin keeps the sign of a zero x and cos is never −0. With t = 0 this is
    /// `sincosd`, else `sincosde`.
    @inline(__always)
    static func sincosd(_ x: Lanes, _ t: Lanes? = nil) -> (sin: Lanes, cos: Lanes) {
        var (r, q) = remainder(x, 90)
        let large = .!(abs(x) .< 0x1p45)
        if any(large) {
            for i in 0..<4 where large[i] {
                let (_, qi) = libmRemquo(x[i], 90)
                q[i] = UInt64(truncatingIfNeeded: Int64(qi))
            }
        }
        if let t { r = GeoLanes.angRound(r + t) }
        let rad = r * (Double.pi / 180)
        var (s, c) = quadrant(rad, Lanes(repeating: 0), q)
        c = c + 0
        s = select(s .== 0, copysign(s, x), s)
        return (s, c)
    }

    // MARK: - atan2

    /// atan u on |u| ≤ tan(π/8) as u + u z R(z), split into the head u and the rest.
    @inline(__always) static func atanRest(_ u: Lanes, _ z: Lanes) -> Lanes {
        // Estrin's scheme: the chain of dependent operations is five deep instead of twenty.
        let z2 = z * z
        let z4 = z2 * z2
        let p01 = -0x1.5555555555555p-2 + 0x1.999999999934cp-3 * z
        let p23 = -0x1.2492492436201p-3 + 0x1.c71c71853d7fap-4 * z
        let p45 = -0x1.745d0b28a7e37p-4 + 0x1.3b1263064f6b9p-4 * z
        let p67 = -0x1.10fa77b1a6d57p-4 + 0x1.dfe6497e96323p-5 * z
        let p89 = -0x1.a0999c632b6edp-5 + 0x1.4162c02b1dda3p-5 * z
        let p10 = Lanes(repeating: -0x1.3a31b1c0fd3b7p-6)
        let p = ((p01 + z2 * p23) + z4 * (p45 + z2 * p67)) + (z4 * z4) * (p89 + z2 * p10)
        return (u * z) * p
    }

    /// Four-quadrant arctangent of y/x in radians, in [−π, π], with the signed-zero and
    /// infinity conventions of C's `atan2`. The first octant is split at tan(π/8): the angle
    /// is K·π/4 ± atan u with |u| ≤ tan(π/8), and K·π/4 is added as an exact head (π/4 to
    /// 50 bits, times K ≤ 4) and a tail.
    @inline(__always) static func atan2(_ y: Lanes, _ x: Lanes) -> Lanes {
        var ax = abs(x)
        var ay = abs(y)
        let bothInf = (ax .== .infinity) .& (ay .== .infinity)
        ax = select(bothInf, Lanes(repeating: 1), ax)
        ay = select(bothInf, Lanes(repeating: 1), ay)
        let huge = .!(ax .<= 0x1p1000) .| .!(ay .<= 0x1p1000)
        ax = select(huge, ax * 0x1p-600, ax)
        ay = select(huge, ay * 0x1p-600, ay)
        let t8 = 0x1.a827999fcef32p-2  // tan(π/8)
        let low = ay .<= ax * t8  // angle ≤ π/8: K = 0
        let high = .!low .& (ax .<= ay * t8)  // angle ≥ 3π/8: K = 2
        let num = select(low, ay, select(high, -ax, ay - ax))
        var den = select(low, ax, select(high, ay, ay + ax))
        den = select(den .== 0, Lanes(repeating: 1), den)
        let u = num / den
        var kk = select(low, Lanes(repeating: 0), select(high, Lanes(repeating: 2), Lanes(repeating: 1)))
        // x < 0 (or −0): the angle is π − θ = (4 − K)π/4 − atan u.
        let negx = signMinus(x)
        kk = select(negx, 4 - kk, kk)
        let sgn = select(negx, Lanes(repeating: -1), Lanes(repeating: 1))
        let rest = atanRest(u, u * u)
        let head = kk * 0x1.921fb54442d18p-1
        let tail = kk * 0x1.1a62633145c07p-55
        let theta = head + ((tail + sgn * rest) + sgn * u)
        return copysign(theta, y)
    }

    /// atan2(y, x) in degrees as Karney's `atan2d`: the arguments are first reduced so that
    /// x ≥ |y| (angle in [−45°, 45°]), so that, e.g., `atan2d(1, 1)` is exactly 45 and
    /// `atan2d(+0, −1)` is 180. `arctangent` is the radian atan2 on the reduced lanes: these
    /// lanes' own by default, libm's lane by lane where a result must be the scalar code's bits.
    @inline(__always) static func atan2d(
        _ y0: Lanes, _ x0: Lanes, arctangent: (Lanes, Lanes) -> Lanes = { VectorMath.atan2($0, $1) }
    ) -> Lanes {
        let swapped = abs(y0) .> abs(x0)
        var x = select(swapped, y0, x0)
        let y = select(swapped, x0, y0)
        let neg = signMinus(x)
        x = select(neg, -x, x)
        let ang = arctangent(y, x) / (Double.pi / 180)
        // q = 2·swapped + neg: 1 → ±180 − ang, 2 → 90 − ang, 3 → −90 + ang.
        let q1 = .!swapped .& neg
        let q2 = swapped .& .!neg
        let q3 = swapped .& neg
        var out = ang
        out = select(q1, copysign(Lanes(repeating: 180), y) - ang, out)
        out = select(q2, 90 - ang, out)
        out = select(q3, -90 + ang, out)
        return out
    }
}

// MARK: - One value at a time, through the same lanes

extension VectorMath {
    /// sin x, radians: ``sincos(_:)-(Lanes)`` on one value.
    static func sin(_ x: Double) -> Double { sincos(Lanes(repeating: x)).sin[0] }
    /// cos x, radians.
    static func cos(_ x: Double) -> Double { sincos(Lanes(repeating: x)).cos[0] }
    /// atan2(y, x), radians.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        atan2(Lanes(repeating: y), Lanes(repeating: x))[0]
    }
    /// atan2(y, x) in degrees, Karney's reduction.
    static func atan2d(_ y: Double, _ x: Double) -> Double {
        atan2d(Lanes(repeating: y), Lanes(repeating: x))[0]
    }
    /// sin and cos of x degrees, Karney's exact reduction.
    static func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
        let r = sincosd(Lanes(repeating: x))
        return (r.sin[0], r.cos[0])
    }
}
