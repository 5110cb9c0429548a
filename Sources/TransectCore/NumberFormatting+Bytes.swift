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
    /// Example: `-119.5234567` at 4 decimals is `-119.5235`; `1200.0` at 6 is `1200`;
    /// `0.0000123` at 9 is `1.23e-05`.
    public mutating func appendRounded(_ value: Double, decimals: Int) {
        guard value.isFinite else { return }
        precondition((0...9).contains(decimals), "decimals must be in 0...9")
        let scale = Self.scales[decimals]
        let scaled = value * scale
        guard abs(scaled) < 4.5e15 else { return append(NumberFormatting.shortest(value)) }
        let q = scaled.rounded(.toNearestOrAwayFromZero)
        if q == 0 { return append(UInt8(ascii: "0")) }
        let n = UInt64(q.magnitude)
        let negative = q < 0
        // n's digits, most significant first, in a small stack buffer.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let written: Bool = withUnsafeMutableBytes(of: &digits) { raw in
            let d = raw.bindMemory(to: UInt8.self)
            var k = 0
            var rest = n
            repeat {
                d[k] = UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                k += 1
            } while rest > 0
            let count = k
            var trailing = 0
            while d[trailing] == 0 { trailing += 1 }
            let wholeDigits = count - decimals
            if trailing >= decimals {
                // A whole number: Int64's text below 10¹⁵, Swift's exponent form above.
                guard wholeDigits <= 15 else { return false }
                append(maximum: 17) { out in
                    var w = 0
                    if negative {
                        out[0] = UInt8(ascii: "-")
                        w = 1
                    }
                    for j in stride(from: count - 1, through: decimals, by: -1) {
                        out[w] = d[j] + UInt8(ascii: "0")
                        w += 1
                    }
                    return w
                }
                return true
            }
            guard count - trailing <= 15 else { return false }
            append(maximum: 32) { out in
                var w = 0
                if negative {
                    out[0] = UInt8(ascii: "-")
                    w = 1
                }
                if wholeDigits >= 1 {
                    for j in stride(from: count - 1, through: decimals, by: -1) {
                        out[w] = d[j] + UInt8(ascii: "0")
                        w += 1
                    }
                    out[w] = UInt8(ascii: ".")
                    w += 1
                    for j in stride(from: decimals - 1, through: trailing, by: -1) {
                        out[w] = d[j] + UInt8(ascii: "0")
                        w += 1
                    }
                } else if -wholeDigits >= 4 {
                    // Below 10⁻⁴: d.ddde-XX, as Swift's description writes it.
                    out[w] = d[count - 1] + UInt8(ascii: "0")
                    w += 1
                    if count - 1 > trailing {
                        out[w] = UInt8(ascii: ".")
                        w += 1
                        for j in stride(from: count - 2, through: trailing, by: -1) {
                            out[w] = d[j] + UInt8(ascii: "0")
                            w += 1
                        }
                    }
                    let exponent = 1 - wholeDigits
                    out[w] = UInt8(ascii: "e")
                    out[w + 1] = UInt8(ascii: "-")
                    out[w + 2] = UInt8(truncatingIfNeeded: exponent / 10) + UInt8(ascii: "0")
                    out[w + 3] = UInt8(truncatingIfNeeded: exponent % 10) + UInt8(ascii: "0")
                    w += 4
                } else {
                    out[w] = UInt8(ascii: "0")
                    out[w + 1] = UInt8(ascii: ".")
                    w += 2
                    for _ in 0..<(-wholeDigits) {
                        out[w] = UInt8(ascii: "0")
                        w += 1
                    }
                    for j in stride(from: count - 1, through: trailing, by: -1) {
                        out[w] = d[j] + UInt8(ascii: "0")
                        w += 1
                    }
                }
                return w
            }
            return true
        }
        if !written { append(NumberFormatting.shortest(NumberFormatting.rounded(value, decimals: decimals))) }
    }

    /// 10^k for k in 0…9, each exact, as ``NumberFormatting/rounded(_:decimals:)`` computes
    /// them.
    @usableFromInline
    static let scales: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// Appends the decimal digits of `value` (with a `-` when negative).
    public mutating func append(integer value: Int) {
        append(maximum: 20) { out in
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            return withUnsafeMutableBytes(of: &digits) { raw in
                let d = raw.bindMemory(to: UInt8.self)
                var rest = value.magnitude
                var k = 0
                repeat {
                    d[k] = UInt8(truncatingIfNeeded: rest % 10) + UInt8(ascii: "0")
                    rest /= 10
                    k += 1
                } while rest > 0
                var w = 0
                if value < 0 {
                    out[0] = UInt8(ascii: "-")
                    w = 1
                }
                for j in stride(from: k - 1, through: 0, by: -1) {
                    out[w] = d[j]
                    w += 1
                }
                return w
            }
        }
    }
}
