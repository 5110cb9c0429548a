extension OutputBytes {
    /// Appends `value` rounded half away from zero to `decimals` (0…9) places and written
    /// short: the bytes of `NumberFormatting.shortest(NumberFormatting.rounded(value,
    /// decimals: decimals))`, the CSV and JSON number of the batch outputs, and nothing for
    /// NaN and infinities (an empty CSV field).
    ///
    /// The rounding is ``NumberFormatting/rounded(_:decimals:)``'s, to the same whole number
    /// q = round(value · 10^decimals). The text is then q's digits with the decimal point put
    /// back and trailing zeros dropped: that is the shortest text of q / 10^decimals whenever it
    /// has at most 15 significant digits, because two different decimals of 15 digits or fewer
    /// never round to the same double (`DBL_DIG`), so no shorter or other text of that length
    /// reads back as it. Swift writes values below 10⁻⁴ with an exponent (`1.5e-05`), and so
    /// does this. Rarer values (16 significant digits, whole numbers from 10¹⁵, a value too
    /// large to round) take ``NumberFormatting`` itself.
    ///
    /// The first byte writer of the batch outputs, kept as the reference that
    /// ``appendRounded(_:decimals:)`` is tested against, value for value.
    ///
    /// Example: `-119.5234567` at 4 decimals is `-119.5235`; `1200.0` at 6 is `1200`;
    /// `0.0000123` at 9 is `1.23e-05`.
    mutating func referenceAppendRounded(_ value: Double, decimals: Int) {
        guard value.isFinite else { return }
        precondition((0...9).contains(decimals), "decimals must be in 0...9")
        let scaled = value * NumberText.exactPowerOfTen(decimals)
        guard abs(scaled) < 4.5e15 else { return append(NumberFormatting.shortest(value)) }
        let q = scaled.rounded(.toNearestOrAwayFromZero)
        let n = UInt64(q.magnitude)
        // n's digits: ⌊log10(2^bits)⌋ by 1233/4096 ≈ log10(2), plus one when n reaches 10^t.
        let t = ((64 - n.leadingZeroBitCount) &* 1233) >> 12
        let count = n == 0 ? 1 : t + (n >= Self.power(t) ? 1 : 0)
        // m: n without the trailing zeros of its fraction.
        var m = n
        var trailing = 0
        while trailing < decimals && m != 0 && m % 10 == 0 {
            m /= 10
            trailing += 1
        }
        let wholeDigits = count - decimals
        // More than 15 significant digits: the shortest text may be shorter than q's.
        guard (trailing == decimals ? wholeDigits : count - trailing) <= 15 || n == 0 else {
            return append(NumberFormatting.shortest(NumberFormatting.rounded(value, decimals: decimals)))
        }
        if n == 0 { return append(UInt8(ascii: "0")) }
        if written + 32 > storage.count { grow(toFit: 32) }
        let start = written
        let negative = q < 0
        let added = storage.withUnsafeMutableBufferPointer { buffer -> Int in
            let out = buffer.baseAddress! + start
            var w = 0
            if negative {
                out[0] = UInt8(ascii: "-")
                w = 1
            }
            let pairs: StaticString = """
                00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                4041424344454647484950515253545556575859606162636465666768697071727374757677787980\
                81828384858687888990919293949596979899
                """
            let twoDigits = pairs.utf8Start
            /// Writes the `k` low digits of `x` ending just before `end`, two at a time.
            func digits(_ x: UInt64, _ k: Int, endingAt end: Int) {
                var x = x
                var i = end
                var left = k
                while left >= 2 {
                    let r = Int(truncatingIfNeeded: x % 100)
                    x /= 100
                    i -= 2
                    out[i] = twoDigits[2 * r]
                    out[i + 1] = twoDigits[2 * r + 1]
                    left -= 2
                }
                if left == 1 { out[i - 1] = UInt8(truncatingIfNeeded: x % 10) &+ UInt8(ascii: "0") }
            }
            let fractionDigits = decimals - trailing
            if fractionDigits == 0 {
                // A whole number, as Int64 writes it.
                digits(m, wholeDigits, endingAt: w + wholeDigits)
                return w + wholeDigits
            }
            if wholeDigits >= 1 {
                let end = w + wholeDigits + 1 + fractionDigits
                digits(m, fractionDigits, endingAt: end)
                out[w + wholeDigits] = UInt8(ascii: ".")
                digits(m / Self.power(fractionDigits), wholeDigits, endingAt: w + wholeDigits)
                return end
            }
            let significant = count - trailing
            if -wholeDigits >= 4 {
                // Below 10⁻⁴: d.ddde-XX, as Swift's description writes it.
                if significant == 1 {
                    out[w] = UInt8(truncatingIfNeeded: m) &+ UInt8(ascii: "0")
                    w += 1
                } else {
                    digits(m, significant - 1, endingAt: w + significant + 1)
                    out[w + 1] = UInt8(ascii: ".")
                    out[w] = UInt8(truncatingIfNeeded: m / Self.power(significant - 1)) &+ UInt8(ascii: "0")
                    w += significant + 1
                }
                let exponent = 1 - wholeDigits
                out[w] = UInt8(ascii: "e")
                out[w + 1] = UInt8(ascii: "-")
                out[w + 2] = UInt8(truncatingIfNeeded: exponent / 10) &+ UInt8(ascii: "0")
                out[w + 3] = UInt8(truncatingIfNeeded: exponent % 10) &+ UInt8(ascii: "0")
                return w + 4
            }
            out[w] = UInt8(ascii: "0")
            out[w + 1] = UInt8(ascii: ".")
            w += 2
            for _ in 0..<(-wholeDigits) {
                out[w] = UInt8(ascii: "0")
                w += 1
            }
            digits(m, significant, endingAt: w + significant)
            return w + significant
        }
        written += added
    }
}
