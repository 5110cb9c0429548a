#if canImport(Glibc)
import Glibc
#endif

/// Round numbers for axes, scale bars and legends: 1, 2 or 5 times a power of ten.
enum NiceNumbers {
    /// The largest 1/2/5 × 10ⁿ not above `value` (value > 0).
    static func floorNice(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for m in [5.0, 2, 1] where m * power <= value * (1 + 1e-12) { return m * power }
        return power
    }

    /// A tick step giving about `target` intervals over `span`.
    static func step(span: Double, target: Int) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / Double(max(target, 1))
        let power = pow(10, floor(log10(raw)))
        let m = raw / power
        let nice: Double = m < 1.5 ? 1 : (m < 3 ? 2 : (m < 7 ? 5 : 10))
        return nice * power
    }

    /// Ticks at multiples of `step` within [lo, hi].
    static func ticks(lo: Double, hi: Double, step: Double) -> [Double] {
        guard step > 0, hi >= lo else { return [] }
        var out: [Double] = []
        var k = (lo / step).rounded(.up)
        while k * step <= hi + step * 1e-9 {
            let v = k * step
            out.append(abs(v) < step * 1e-9 ? 0 : v)
            k += 1
            if out.count > 1000 { break }
        }
        return out
    }

    /// `value` with as many decimals as `step` needs, grouped: 1,500 or 0.25.
    static func label(_ value: Double, step: Double) -> String {
        var decimals = 0
        var s = step
        while decimals < 6 && abs(s - s.rounded()) > 1e-9 * max(1, abs(s)) {
            s *= 10
            decimals += 1
        }
        return TransectCoreFormatting.grouped(value, decimals: decimals)
    }
}

import TransectSupport
typealias TransectCoreFormatting = NumberFormatting
