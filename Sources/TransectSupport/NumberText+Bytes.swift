extension NumberText {
    /// The finite value of the UTF-8 `bytes`, or nil when they are not a number of the grammar
    /// (``double(_:)`` on the same text, bit for bit): the batch readers' way to read a number
    /// where it lies in their read buffer, without a `String`.
    ///
    /// Most numbers people and programs write (at most 19 significant digits, a decimal
    /// exponent within ±22 of them) are converted exactly as Clinger's fast path (1990) shows
    /// it can be: the digits as a whole number below 2⁵³ and a power of ten up to 10²² are
    /// both exact doubles, so one multiplication or division rounds once, correctly, as
    /// `Double(_:)` (glibc's `strtod`) rounds. Any other text goes through ``double(_:)``.
    ///
    /// Example: the bytes of `-119.5` give −119.5; those of `1e400` nil.
    /// Complexity: O(n) in the number of bytes.
    @inlinable
    public static func double(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = exactDouble(bytes) { return value }
        return double(String(decoding: bytes, as: UTF8.self))
    }

    /// 10^k for k in 0…22: every one is an exact double (5²² < 2⁵³), written as a literal
    /// (a switch the compiler keeps as constant data, not a loop).
    @inlinable
    static func exactPowerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// The value of `bytes` when they follow the grammar and Clinger's fast path gives it
    /// exactly; nil when they do not follow it or need the general conversion (more than 19
    /// significant digits, digits above 2⁵³, a decimal exponent beyond ±22 after the digits
    /// are scaled, or more than ``maxLength`` bytes).
    @inlinable
    static func exactDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = bytes.count
        guard n > 0, n <= maxLength else { return nil }
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        var digits: UInt64 = 0
        var significant = 0  // digits counted from the first non-zero one
        var mantissaDigits = 0
        var exponent = 0  // the power of ten the whole number `digits` is scaled by
        while i < n, bytes[i] &- UInt8(ascii: "0") < 10 {
            let d = UInt64(bytes[i] &- UInt8(ascii: "0"))
            if significant > 0 || d != 0 {
                significant += 1
                if significant > 19 { return nil }
                digits = digits &* 10 &+ d
            }
            mantissaDigits += 1
            i += 1
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10 {
                let d = UInt64(bytes[i] &- UInt8(ascii: "0"))
                if significant > 0 || d != 0 {
                    significant += 1
                    if significant > 19 { return nil }
                    digits = digits &* 10 &+ d
                }
                exponent -= 1
                mantissaDigits += 1
                i += 1
            }
        }
        guard mantissaDigits > 0 else { return nil }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var negativeExponent = false
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                negativeExponent = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var written = 0
            var exponentDigits = 0
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10 {
                // Capped: beyond this the fast path gives up anyway, and the sum cannot overflow.
                if written < 100_000 { written = written * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                exponentDigits += 1
                i += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += negativeExponent ? -written : written
        }
        guard i == n else { return nil }
        if digits == 0 { return negative ? -0.0 : 0.0 }
        guard digits <= 1 << 53 else { return nil }
        var value: Double
        if exponent < 0 {
            guard exponent >= -22 else { return nil }
            value = Double(digits) / exactPowerOfTen(-exponent)
        } else if exponent <= 22 {
            value = Double(digits) * exactPowerOfTen(exponent)
        } else {
            // 12e30 is 12·10⁸ (exact while below 2⁵³) times 10²².
            var whole = digits
            for _ in 0..<(exponent - 22) {
                let (product, overflow) = whole.multipliedReportingOverflow(by: 10)
                guard !overflow, product <= 1 << 53 else { return nil }
                whole = product
            }
            value = Double(whole) * 1e22
        }
        return negative ? -value : value
    }
}
