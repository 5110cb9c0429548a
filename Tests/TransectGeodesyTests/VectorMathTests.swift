import Glibc
import Testing
import TransectTestSupport

@testable import TransectGeodesy

/// Distance in units in the last place between two doubles of the same sign (0 when both are
/// NaN or bit-equal; ±0 are 0 ulp apart).
func ulps(_ a: Double, _ b: Double) -> Double {
    if a.isNaN && b.isNaN { return 0 }
    if a == b { return 0 }
    if a.isNaN || b.isNaN || a.isInfinite || b.isInfinite { return .infinity }
    func ordered(_ x: Double) -> Int64 {
        let i = Int64(bitPattern: x.bitPattern)
        return i < 0 ? Int64.min - i : i
    }
    return Double((ordered(a) &- ordered(b)).magnitude)
}

/// Seeded inputs for the elementary functions: uniform over several ranges and decades, and
/// the edges (±0, subnormal, huge, ±inf, NaN, multiples of π/2 and 90°, near π/4).
func vectorMathInputs(seed: UInt64, count: Int) -> [Double] {
    var r = SeededRandom(seed: seed)
    var xs: [Double] = [
        0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, -1e-300,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, 1e5, -1e5, 1e6, 1e22,
        .pi / 4, .pi / 4 + 1e-15, .pi / 4 - 1e-15, .pi / 2, .pi, 3 * .pi / 2, 2 * .pi, -.pi / 2, -.pi,
        0x1p-26, 0x1p-27, 0x1p-600, 1, -1,
    ]
    for k in -8...8 { xs.append(Double(k) * 45) }
    for k in [0x1p44, 0x1p45, 0x1p46, 0x1p52, 0x1p53] { xs += [k * 90, -k * 90, k * 90 + 45, k] }
    for _ in 0..<count {
        switch r.below(6) {
        case 0: xs.append(r.uniform(-.pi / 4, .pi / 4))
        case 1: xs.append(r.uniform(-10, 10))
        case 2: xs.append(r.uniform(-1e5, 1e5))
        case 3: xs.append(r.tiny(0, 300))
        case 4: xs.append(r.uniform(-720, 720))
        default: xs.append(Double(r.below(2001) - 1000) * .pi / 2 + r.tiny(0, 16))
        }
    }
    return xs
}

@Suite("VectorMath: sin, cos, atan2 over lanes against glibc's libm, in ulps")
struct VectorMathTests {
    /// The bounds this file shows and VectorMath.swift states.
    static let sinCosBound = 1.0
    /// atan2 rounds the ratio y/x (or (y − x)/(y + x)) before the polynomial: up to 1 ulp of
    /// the ratio on top of the final rounding, 2 ulp in all.
    static let atan2Bound = 2.0
    static let count = 200_000

    @Test("sin and cos of radians are within 1 ulp of libm; lanes equal the one-value path")
    func sinCos() {
        let xs = vectorMathInputs(seed: 0x51_0C05, count: Self.count)
        var worstSin = 0.0
        var worstCos = 0.0
        var unequal = 0
        var k = 0
        while k + 4 <= xs.count {
            let v = Lanes(xs[k], xs[k + 1], xs[k + 2], xs[k + 3])
            let (s, c) = VectorMath.sincos(v)
            for i in 0..<4 {
                let x = xs[k + i]
                worstSin = Swift.max(worstSin, ulps(s[i], Glibc.sin(x)))
                worstCos = Swift.max(worstCos, ulps(c[i], Glibc.cos(x)))
                if s[i].bitPattern != VectorMath.sin(x).bitPattern || c[i].bitPattern != VectorMath.cos(x).bitPattern {
                    unequal += 1
                }
                if x == 0 && s[i].sign != x.sign { unequal += 1 }
            }
            k += 4
        }
        print("sin: \(worstSin) ulp, cos: \(worstCos) ulp")
        #expect(worstSin <= Self.sinCosBound)
        #expect(worstCos <= Self.sinCosBound)
        #expect(unequal == 0)
    }

    @Test("sincosd: exact at multiples of 90°, within 1 ulp of libm on Karney's reduced angle")
    func sincosd() {
        let xs = vectorMathInputs(seed: 0x5_1DE6, count: Self.count)
        var worst = 0.0
        var unequal = 0
        for x in xs {
            let mine = VectorMath.sincosd(x)
            let ref = GeoMath.sincosd(x)  // remquo, then libm on r · π/180
            worst = Swift.max(worst, ulps(mine.sin, ref.sin), ulps(mine.cos, ref.cos))
            if mine.sin.sign != ref.sin.sign && !ref.sin.isNaN { unequal += 1 }
            if x.isFinite && x == (x / 90).rounded() * 90 && (x / 90).magnitude < 0x1p50 {
                // Exact: one of sin, cos is ±1 and the other ±0, cos never −0.
                if !(mine.sin.bitPattern == ref.sin.bitPattern && mine.cos.bitPattern == ref.cos.bitPattern) { unequal += 1 }
            }
        }
        print("sincosd: \(worst) ulp")
        #expect(worst <= Self.sinCosBound)
        #expect(unequal == 0)
        #expect(VectorMath.sincosd(-0.0).sin.sign == .minus)
        #expect(VectorMath.sincosd(90).cos.sign == .plus)
        #expect(VectorMath.sincosd(-90).cos.sign == .plus)
    }

    /// y, x pairs from the same inputs, with both signs and zeros in either place.
    func atan2Pairs(seed: UInt64) -> [(Double, Double)] {
        var r = SeededRandom(seed: seed)
        let xs = vectorMathInputs(seed: seed, count: Self.count)
        var pairs: [(Double, Double)] = []
        for x in xs {
            let y = xs[r.below(xs.count)]
            pairs.append((y, x))
            pairs.append((r.uniform(-1, 1), r.uniform(-1, 1)))
        }
        for a in [0.0, -0.0, 1, -1, .infinity, -.infinity, .nan] {
            for b in [0.0, -0.0, 1, -1, .infinity, -.infinity, .nan] { pairs.append((a, b)) }
        }
        return pairs
    }

    @Test("atan2 is within 2 ulp of libm, with C's zeros and infinities; lanes equal the one-value path")
    func atan2() {
        var worst = 0.0
        var unequal = 0
        let pairs = atan2Pairs(seed: 0xA7A2)
        var k = 0
        while k + 4 <= pairs.count {
            let y = Lanes(pairs[k].0, pairs[k + 1].0, pairs[k + 2].0, pairs[k + 3].0)
            let x = Lanes(pairs[k].1, pairs[k + 1].1, pairs[k + 2].1, pairs[k + 3].1)
            let a = VectorMath.atan2(y, x)
            for i in 0..<4 {
                let ref = Glibc.atan2(y[i], x[i])
                worst = Swift.max(worst, ulps(a[i], ref))
                if a[i] == 0 && a[i].sign != ref.sign { unequal += 1 }
                if a[i].bitPattern != VectorMath.atan2(y[i], x[i]).bitPattern { unequal += 1 }
            }
            k += 4
        }
        print("atan2: \(worst) ulp")
        #expect(worst <= Self.atan2Bound)
        #expect(unequal == 0)
    }

    @Test("atan2d is within 2 ulp of Karney's atan2d on libm; exact at the octant boundaries")
    func atan2d() {
        var worst = 0.0
        var unequal = 0
        for (y, x) in atan2Pairs(seed: 0xA7A2D) {
            let mine = VectorMath.atan2d(y, x)
            let ref = GeoMath.atan2d(y, x)
            worst = Swift.max(worst, ulps(mine, ref))
            if mine == 0 && mine.sign != ref.sign { unequal += 1 }
        }
        print("atan2d: \(worst) ulp")
        #expect(worst <= Self.atan2Bound)
        #expect(unequal == 0)
        #expect(VectorMath.atan2d(1, 1) == 45)
        #expect(VectorMath.atan2d(-1, 1) == -45)
        #expect(VectorMath.atan2d(1, -1) == 135)
        #expect(VectorMath.atan2d(0, -1) == 180)
        #expect(VectorMath.atan2d(-0.0, -1) == -180)
        #expect(VectorMath.atan2d(1, 0) == 90)
        #expect(VectorMath.atan2d(-1, 0) == -90)
    }

    @Test("remainder by 90 and 360 equals IEEE remainder bit for bit, the sign of a zero result included")
    func remainderIsIEEE() {
        var xs = vectorMathInputs(seed: 11, count: 4_000)
        for k in -6...6 { xs += [Double(k) * 360, Double(k) * 90, Double(k) * 180] }
        for m in [90.0, 360.0] {
            var mismatches = 0
            for start in stride(from: 0, to: xs.count - 3, by: 4) {
                let lanes = Lanes(xs[start], xs[start + 1], xs[start + 2], xs[start + 3])
                let r = VectorMath.remainder(lanes, m).r
                for i in 0..<4 {
                    let expected = xs[start + i].remainder(dividingBy: m)
                    let same = r[i].bitPattern == expected.bitPattern || (r[i].isNaN && expected.isNaN)
                    if !same { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "remainder by \(m)")
        }
    }
}
