// Exact angle reduction and the few C math functions TransectCore needs.
//
// This is the only file in TransectCore that imports the C library: the rest of the module
// uses the wrappers below, so the module depends on nothing but the Swift standard library
// and libm.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - libm wrappers

/// Sine of an angle in radians (libm `sin`).
@inlinable func libmSin(_ x: Double) -> Double { sin(x) }
/// Cosine of an angle in radians (libm `cos`).
@inlinable func libmCos(_ x: Double) -> Double { cos(x) }
/// Four-quadrant arctangent in radians, in [−π, π] (libm `atan2`).
@inlinable func libmAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
/// √(x² + y²) without undue overflow or underflow (libm `hypot`).
@inlinable func libmHypot(_ x: Double, _ y: Double) -> Double { hypot(x, y) }
/// Real cube root; `libmCbrt(-8) == -2` (libm `cbrt`).
@inlinable func libmCbrt(_ x: Double) -> Double { cbrt(x) }
/// Arctangent in radians (libm `atan`).
@inlinable func libmAtan(_ x: Double) -> Double { atan(x) }
/// Hyperbolic sine (libm `sinh`).
@inlinable func libmSinh(_ x: Double) -> Double { sinh(x) }
/// Inverse hyperbolic tangent (libm `atanh`).
@inlinable func libmAtanh(_ x: Double) -> Double { atanh(x) }
/// IEEE remainder of `x / y` together with the low bits of the rounded quotient (libm `remquo`).
@inlinable func libmRemquo(_ x: Double, _ y: Double) -> (remainder: Double, quotient: Int32) {
    var q: Int32 = 0
    let r = remquo(x, y, &q)
    return (r, q)
}

// MARK: - Angle helpers (degrees)

/// Angle utilities in the style of GeographicLib's `Math` class: every reduction is exact, so
/// that, for example, `sincosd(90)` is exactly (1, 0) and `sincosd(180 + x)` is exactly the
/// negation of `sincosd(x)`.
public enum GeoMath {
    /// One degree in radians.
    @inlinable public static var degree: Double { Double.pi / 180 }

    /// The square of `x`.
    @inlinable public static func sq(_ x: Double) -> Double { x * x }

    /// Error-free sum (Knuth's TwoSum): `u + v == s + t` exactly with `s = round(u + v)`.
    /// The sign of `t` is fixed so that `t == 0` when `s == 0`.
    @inlinable public static func twoSum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, s != 0 ? 0 - (up + vpp) : s)
    }

    /// Reduces an angle in degrees exactly to [−180, 180]; the sign of ±180 follows `x`.
    @inlinable public static func angNormalize(_ x: Double) -> Double {
        let y = x.remainder(dividingBy: 360)
        return y.magnitude == 180 ? Double(signOf: x, magnitudeOf: 180) : y
    }

    /// A latitude in degrees, or NaN when it lies outside [−90, 90].
    @inlinable public static func latFix(_ x: Double) -> Double { x.magnitude > 90 ? .nan : x }

    /// The exact difference `y − x` of two angles in degrees, reduced to [−180, 180], as a
    /// rounded value `d` plus the rounding error `e` (`y − x = d + e` exactly, mod 360).
    ///
    /// When `d` is 0 or ±180 its sign is chosen so that `d + e` has the sign of the true
    /// difference: a line whose longitude difference is exactly 180° is treated as east-going.
    @inlinable public static func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
        let first = twoSum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        // The second sum can change d only when |d| < 128, so one more reduction suffices.
        var (d, t) = twoSum(first.s.remainder(dividingBy: 360), first.t)
        if d == 0 || d.magnitude == 180 {
            d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
        }
        return (d, t)
    }

    /// Rounds tiny angles: values with |x| < 1/16 are rounded to a multiple of 2⁻⁵⁷ (the
    /// spacing of doubles just below 1/16), so that latitudes within ~1e−17° of the equator
    /// are treated as on it and the sign of zero survives.
    @inlinable public static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16.0
        var y = x.magnitude
        let w = z - y
        // z − (z − y) is not simplified to y: Swift does not reassociate floating point.
        y = w > 0 ? z - w : y
        return Double(signOf: x, magnitudeOf: y)
    }

    /// Sine and cosine of `x` degrees after exact reduction to [−45°, 45°] by `remquo`, so
    /// that multiples of 90° give exact results. `sin` keeps the sign of a zero `x`; `cos`
    /// never returns −0.
    @inlinable public static func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
        let (r0, q) = libmRemquo(x, 90)
        return quadrant(r0 * degree, q, x)
    }

    /// `sincosd(x + t)` where `t` is a small correction (e.g. the error term of `angDiff`);
    /// the reduced angle is passed through `angRound` before conversion to radians.
    @inlinable public static func sincosde(_ x: Double, _ t: Double) -> (sin: Double, cos: Double) {
        let (r0, q) = libmRemquo(x, 90)
        return quadrant(angRound(r0 + t) * degree, q, x)
    }

    @inlinable public static func quadrant(_ r: Double, _ q: Int32, _ x: Double) -> (sin: Double, cos: Double) {
        let s = libmSin(r)
        let c = libmCos(r)
        var sinx: Double
        var cosx: Double
        switch q & 3 {
        case 0: (sinx, cosx) = (s, c)
        case 1: (sinx, cosx) = (c, -s)
        case 2: (sinx, cosx) = (-s, -c)
        default: (sinx, cosx) = (-c, s)
        }
        cosx += 0  // −0 → +0
        if sinx == 0 { sinx = Double(signOf: x, magnitudeOf: sinx) }
        return (sinx, cosx)
    }

    /// atan2(y, x) in degrees, in [−180, 180], computed with the libm result confined to
    /// [−45°, 45°] so that, e.g., `atan2d(1, 1)` is exactly 45 and `atan2d(+0, −1)` is 180.
    @inlinable public static func atan2d(_ y0: Double, _ x0: Double) -> Double {
        var y = y0
        var x = x0
        var q = 0
        if y.magnitude > x.magnitude {
            swap(&x, &y)
            q = 2
        }
        if x.sign == .minus {
            x = -x
            q += 1
        }
        // Now x ≥ 0 and x ≥ |y|, so the angle is in [−45°, 45°].
        var ang = libmAtan2(y, x) / degree
        switch q {
        case 1: ang = Double(signOf: y, magnitudeOf: 180) - ang
        case 2: ang = 90 - ang
        case 3: ang = -90 + ang
        default: break
        }
        return ang
    }

    /// Normalises (sin, cos) to lie on the unit circle.
    @inlinable public static func norm2(_ s: inout Double, _ c: inout Double) {
        let r = libmHypot(s, c)
        s /= r
        c /= r
    }
}
