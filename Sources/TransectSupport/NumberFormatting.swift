/// Locale-independent number formatting: the same bytes on every machine. The one family of
/// number text: every message, table and file Transect writes formats its numbers here.
///
/// - ``shortest(_:pointZero:)``: the shortest text that reads back as the same double, whole
///   numbers without a fraction (`1200`, `37.75`, `1e-07`); what messages quote and JSON writes
///   (`JSON.format`, which writes `null` for what is not finite).
/// - ``rounded(_:decimals:)``: a value rounded half away from zero to decimal places, as a
///   double, so that ``shortest(_:pointZero:)`` writes it short (`Fixed.format` in CSV).
/// - ``grouped(_:decimals:plusSign:)``: fixed decimals with thousands separators, for people
///   (`1,234.57 m`), and ``count(_:_:plural:)`` for a count and its noun.
/// - ``fixed(_:decimals:)``: exactly `decimals` decimals of the exact binary value, rounded
///   half to even as C's `%.*f` rounds (`TrackWriter`'s GPX, GeoJSON and CSV fixes).
/// - ``hoursMinutesSeconds(_:)``: a duration for people (`1h 02m 03s`).
///
/// ```swift
/// NumberFormatting.shortest(-0.0)                                      // "0"
/// NumberFormatting.shortest(NumberFormatting.rounded(-119.5234567, decimals: 4))  // "-119.5235"
/// NumberFormatting.grouped(1234.567)                                   // "1,234.57"
/// ```
public enum NumberFormatting {
    /// The shortest decimal that reads back as `value` (Swift's round-trip description), with
    /// whole numbers below 10¹⁵ in magnitude written as integers: `1200`, not `1200.0`, and
    /// `0` for −0.0, never `-0`. Other values are written as Swift writes them, with an
    /// exponent where it uses one (`1e+16`, `1e-07`) and `nan`, `inf`, `-inf` for what is not
    /// finite.
    ///
    /// - Parameters:
    ///   - value: any double.
    ///   - pointZero: write whole numbers with `.0` (`12.0`, `0.0`), for readers that take a
    ///     number with a decimal point as a real one (a world file).
    public static func shortest(_ value: Double, pointZero: Bool = false) -> String {
        guard value == value.rounded(), value.magnitude < 1e15 else { return String(value) }
        return String(Int64(value)) + (pointZero ? ".0" : "")
    }

    /// `value` rounded half away from zero to `decimals` places: the double nearest to the
    /// rounded decimal, so ``shortest(_:pointZero:)`` writes it with at most `decimals`
    /// decimals. The value is scaled by 10^`decimals` in binary first, so a decimal that lies a
    /// hair below a half in binary (`1.005`, stored as 1.00499999999999989…) rounds down.
    /// A value that rounds to zero is +0.0; one of 4.5·10¹⁵ or more once scaled has no
    /// fraction left to round and is returned as it is, and so is NaN or an infinity.
    ///
    /// Example: `rounded(2.5, decimals: 0)` is 3, `rounded(-0.125, decimals: 2)` is −0.13.
    public static func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = value * scale
        // Beyond 2^52 the value has no fractional digits to round.
        guard abs(scaled) < 4.5e15 else { return value }
        let r = scaled.rounded(.toNearestOrAwayFromZero) / scale
        return r == 0 ? 0 : r
    }

    /// `value` rounded half away from zero to `decimals` places, with a `,` every three
    /// integer digits and `.` as the decimal mark: `1234.567` → `1,234.57`.
    /// Non-finite values print as `nan`, `inf` and `-inf`.
    ///
    /// A value that rounds to zero prints without a sign, whatever its own sign: `-0.0` and
    /// `-0.004` are `0.00`, never `-0.00`. With `plusSign`, a value that rounds to a positive
    /// number shows `+` (`+1,181.88`), so a signed column reads `+12.00`, `0.00`, `-3.50`.
    public static func grouped(_ value: Double, decimals: Int = 2, plusSign: Bool = false) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        precondition((0...9).contains(decimals), "decimals must be in 0...9")
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^63 the integer path cannot hold the value; such lengths are not physical.
        guard scaled < 9.2e18 else { return String(value) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        let whole = units / divisor
        let fraction = units % divisor
        var digits = String(whole)
        var groupedDigits = ""
        groupedDigits.reserveCapacity(digits.count + digits.count / 3)
        while digits.count > 3 {
            groupedDigits = "," + digits.suffix(3) + groupedDigits
            digits.removeLast(3)
        }
        groupedDigits = digits + groupedDigits
        let sign = units == 0 ? "" : (value < 0 ? "-" : (plusSign ? "+" : ""))
        var result = sign + groupedDigits
        if decimals > 0 {
            let fractionDigits = String(fraction)
            result += "." + String(repeating: "0", count: decimals - fractionDigits.count) + fractionDigits
        }
        return result
    }

    /// `value` with exactly `decimals` (0…9) decimals, no grouping and no exponent: the
    /// decimal nearest to the *exact* binary value, ties to even, which is what C's `%.*f`
    /// writes (glibc): `0.125` at 2 places is `0.12` and `0.375` is `0.38`, `2.5` at 0 places is
    /// `2`, and `1.005` (stored as 1.00499999999999989…) is `1.00`. So it differs from
    /// ``grouped(_:decimals:plusSign:)`` and ``rounded(_:decimals:)``, which round half away
    /// from zero after scaling in binary. One difference from `%.*f`: a value that rounds to
    /// zero has no sign (`-0.0000000001` at 9 places is `0.000000000`, never `-0.000000000`).
    /// Non-finite values print as `nan`, `inf` and `-inf`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        precondition((0...9).contains(decimals), "decimals must be in 0...9")
        var digits = value == 0 ? "0" : scaledDigits(value.magnitude, decimals: decimals)
        if decimals > 0 {
            if digits.utf8.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.utf8.count) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        let isZero = digits.utf8.allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }
        return (value < 0 && !isZero ? "-" : "") + digits
    }

    /// The decimal digits of `magnitude` (finite, above 0) × 10^`decimals` rounded half to
    /// even, computed exactly: magnitude = m · 2^e with an integer m < 2^53, so the scaled
    /// value is N · 2^(e + decimals) with N = m · 5^decimals < 2^74, held in two words.
    private static func scaledDigits(_ magnitude: Double, decimals: Int) -> String {
        let m = magnitude.significandBitPattern | (magnitude.isNormal ? 1 << 52 : 0)
        let e = (magnitude.isNormal ? Int(magnitude.exponentBitPattern) : 1) - 1075
        var five: UInt64 = 1
        for _ in 0..<decimals { five *= 5 }
        let (high, low) = m.multipliedFullWidth(by: five)
        let shift = e + decimals
        if shift >= 0 {
            // A whole number: N doubled `shift` times, on decimal digits (least significant
            // first), at most 2^56 at a time so that a digit times the factor fits a word.
            var digits = Array(decimal(high: high, low: low).utf8.reversed().map { UInt64($0 - UInt8(ascii: "0")) })
            var left = shift
            while left > 0 {
                let step = min(left, 56)
                left -= step
                var carry: UInt64 = 0
                for k in digits.indices {
                    let x = digits[k] << UInt64(step) + carry
                    digits[k] = x % 10
                    carry = x / 10
                }
                while carry > 0 {
                    digits.append(carry % 10)
                    carry /= 10
                }
            }
            return String(decoding: digits.reversed().map { UInt8($0) + UInt8(ascii: "0") }, as: UTF8.self)
        }
        let t = -shift
        // N < 2^74 lies below half of 2^t: it rounds to zero.
        guard t <= 74 else { return "0" }
        func bit(_ i: Int) -> Bool { (i < 64 ? low >> UInt64(i) : high >> UInt64(i - 64)) & 1 == 1 }
        var quotientLow = t < 64 ? low >> UInt64(t) | high << UInt64(64 - t) : high >> UInt64(t - 64)
        var quotientHigh = t < 64 ? high >> UInt64(t) : 0
        // The bit below the quotient, and whether any lower bit is set: above, at or below half.
        let below = t - 1
        let sticky =
            below == 0 ? false : below < 64 ? low & (1 << UInt64(below) - 1) != 0 : low != 0 || high & (1 << UInt64(below - 64) - 1) != 0
        if bit(t - 1) && (sticky || quotientLow & 1 == 1) {
            let (sum, carried) = quotientLow.addingReportingOverflow(1)
            quotientLow = sum
            if carried { quotientHigh += 1 }
        }
        return decimal(high: quotientHigh, low: quotientLow)
    }

    /// The two-word number high · 2^64 + low, high below 10^19, in decimal.
    private static func decimal(high: UInt64, low: UInt64) -> String {
        guard high > 0 else { return String(low) }
        let (quotient, remainder) = UInt64(10_000_000_000_000_000_000).dividingFullWidth((high, low))
        let tail = String(remainder)
        return String(quotient) + String(repeating: "0", count: 19 - tail.utf8.count) + tail
    }

    /// A duration rounded to the second as hours, minutes and seconds, minutes and seconds in
    /// two digits: `3723.4` → `1h 02m 03s`, `59.5` → `0h 01m 00s`.
    public static func hoursMinutesSeconds(_ seconds: Double) -> String {
        let t = Int(seconds.rounded())
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(t / 3600)h \(twoDigits((t % 3600) / 60))m \(twoDigits(t % 60))s"
    }

    /// `count` followed by `singular` or its plural, in agreement: `1 sample`, `162 samples`,
    /// `1,204 fixes` (with `plural: "fixes"`). The count is grouped as ``grouped(_:decimals:plusSign:)``
    /// groups it.
    ///
    /// - Parameters:
    ///   - count: how many; 1 (and only 1) takes the singular, as English does (`0 samples`).
    ///   - singular: the noun for one, for example `sample` or `invalid fix`.
    ///   - plural: the noun for any other count; `singular` + `s` when nil.
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        grouped(Double(count), decimals: 0) + " " + noun(singular, count: count, plural: plural)
    }

    /// `singular` when `count` is 1, else `plural` (`singular` + `s` when nil): for a noun
    /// whose count is written elsewhere, as in `1 of 3 rows`.
    public static func noun(_ singular: String, count: Int, plural: String? = nil) -> String {
        count == 1 ? singular : plural ?? singular + "s"
    }
}
