extension OutputBytes {
    /// Appends `value` rounded half away from zero to `decimals` (0…9) places and written
    /// short: the bytes of `NumberFormatting.shortest(NumberFormatting.rounded(value,
    /// decimals: decimals))`, the CSV and JSON number of the batch outputs, and nothing for
    /// NaN and infinities (an empty CSV field). ``writeRounded(_:decimals:to:)`` writes them.
    ///
    /// Example: `-119.5234567` at 4 decimals is `-119.5235`; `1200.0` at 6 is `1200`;
    /// `0.0000123` at 9 is `1.23e-05`.
    @inlinable @inline(__always)
    public mutating func appendRounded(_ value: Double, decimals: Int) {
        append(maximum: Self.roundedRoom) { Self.writeRounded(value, decimals: decimals, to: $0) }
    }

    /// The room ``writeRounded(_:decimals:to:)`` needs: its longest text is 24 bytes
    /// (`-1.7976931348623157e+308`), and its eight-byte stores may reach 26 bytes past the start.
    @inlinable public static var roundedRoom: Int { 40 }

    /// Writes the text of ``appendRounded(_:decimals:)`` at `out`, which has room for
    /// ``roundedRoom`` bytes, and returns its length; the bytes past it are scratch.
    ///
    /// The rounding is ``NumberFormatting/rounded(_:decimals:)``'s, to the same whole number
    /// n = round(|value| · 10^decimals) (the product rounded in binary, then half away from
    /// zero: its whole part by truncation, and one more when the part left, which is exact, is
    /// a half or more). The text is n's digits with the decimal point put back and the trailing
    /// zeros of the fraction dropped: that is the shortest text of n / 10^decimals whenever n
    /// is below 10¹⁵, since two different decimals of 15 digits or fewer never round to the
    /// same double (`DBL_DIG`). Larger values, and those Swift writes with an exponent (below
    /// 10⁻⁴), take ``NumberFormatting`` itself.
    ///
    /// Digits go eight at a time: the bytes of eight decimal digits are made in one 64-bit word
    /// (``eightDigits(_:)``) and stored at once. Given `decimals` as a constant, the compiler
    /// turns every division here into a multiplication.
    @inlinable @inline(__always)
    public static func writeRounded(_ value: Double, decimals: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else { return 0 }
        precondition((0...9).contains(decimals), "decimals must be in 0...9")
        let scaled = value * NumberText.exactPowerOfTen(decimals)
        let magnitude = scaled.magnitude
        // Below this n < 10¹⁵, at most 15 digits.
        guard magnitude < 999_999_999_999_999 else { return writeRoundedRare(value, decimals: decimals, to: out) }
        var n = UInt64(magnitude)
        if magnitude - Double(n) >= 0.5 { n &+= 1 }
        if n == 0 {
            out[0] = UInt8(ascii: "0")
            return 1
        }
        let whole = n / power(decimals)
        let fraction = n &- whole &* power(decimals)
        // Below 10⁻⁴ (n < 10^(decimals − 4)) Swift writes an exponent.
        if whole == 0 && decimals >= 5 && fraction < power(decimals &- 4) {
            return writeRoundedRare(value, decimals: decimals, to: out)
        }
        var w = 0
        if scaled < 0 {
            out[0] = UInt8(ascii: "-")
            w = 1
        }
        w &+= writeWhole(whole, to: out + w)
        guard fraction != 0 else { return w }
        out[w] = UInt8(ascii: ".")
        w &+= 1
        // The fraction's digits, zeros in front, then cut after the last non-zero one.
        var rest = fraction
        if decimals == 9 {
            let first = fraction / 100_000_000
            out[w] = UInt8(truncatingIfNeeded: first) &+ UInt8(ascii: "0")
            w &+= 1
            rest = fraction &- first &* 100_000_000
            if rest == 0 { return w }
        } else {
            rest = fraction &* power(8 &- decimals)
        }
        let digits = eightDigits(rest)
        store(digits, at: out + w)
        return w &+ 8 &- digits.leadingZeroBitCount >> 3
    }

    /// The eight decimal digits of x < 10⁸, zeros in front, as the bytes 0…9 of a word whose
    /// lowest byte is the first digit (so that a little-endian store writes them in order).
    ///
    /// x splits into two groups of four digits (32-bit lanes), each into two of two digits
    /// (16-bit lanes), each into two digits (bytes), all lanes at once: q = ⌊x / 100⌋ is
    /// ⌊x · 10486 / 2²⁰⌋ for x < 10⁴ and ⌊x / 10⌋ is ⌊x · 103 / 2¹⁰⌋ for x < 100, and no product
    /// leaves its lane.
    @inlinable @inline(__always)
    static func eightDigits(_ x: UInt64) -> UInt64 {
        let high = x / 10_000
        var v = high | (x &- high &* 10_000) << 32
        var q = (v &* 10486) >> 20 & 0x0000_007F_0000_007F
        v = q | (v &- q &* 100) << 16
        q = (v &* 103) >> 10 & 0x000F_000F_000F_000F
        return q | (v &- q &* 10) << 8
    }

    /// Stores the eight digits of ``eightDigits(_:)`` as ASCII at `out`, unaligned.
    @inlinable @inline(__always)
    static func store(_ digits: UInt64, at out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: (digits | 0x3030_3030_3030_3030).littleEndian, as: UInt64.self)
    }

    /// Writes x < 10¹⁶ without zeros in front (`0` for zero) and returns how many bytes it
    /// wrote; it may store up to 16 bytes.
    @inlinable @inline(__always)
    static func writeWhole(_ x: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard x != 0 else {
            out[0] = UInt8(ascii: "0")
            return 1
        }
        let high = x / 100_000_000
        let head = high == 0 ? x : high
        let digits = eightDigits(head)
        // The zeros in front are the low zero bytes.
        let zeros = digits.trailingZeroBitCount >> 3
        store(digits >> (zeros << 3), at: out)
        let count = 8 &- zeros
        guard high != 0 else { return count }
        store(eightDigits(x &- high &* 100_000_000), at: out + count)
        return count &+ 8
    }

    /// The text of ``writeRounded(_:decimals:to:)`` for the values it leaves to
    /// ``NumberFormatting``: from 10¹⁵ once scaled, and below 10⁻⁴.
    @usableFromInline
    static func writeRoundedRare(_ value: Double, decimals: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var text = NumberFormatting.shortest(NumberFormatting.rounded(value, decimals: decimals))
        return text.withUTF8 { utf8 in
            precondition(utf8.count <= 24, "a double's shortest text has at most 24 bytes")
            out.update(from: utf8.baseAddress!, count: utf8.count)
            return utf8.count
        }
    }

    /// 10^k for k in 0…19 (a switch: the compiler keeps it as constant data).
    @inlinable @inline(__always)
    static func power(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

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
