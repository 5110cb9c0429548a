/// The one number grammar of every input Transect reads: flags, coordinates, CSV fields,
/// GPX elements, scene values.
///
/// ```
/// number   = [sign] (digits ["." [digits]] | "." digits) [exponent]
/// exponent = ("e" | "E") [sign] digits
/// sign     = "+" | "-"
/// ```
///
/// Decimal only: no hexadecimal floats (`0x1p3`), no `nan`, no `inf`/`infinity`, no digit
/// separators, no surrounding white space (callers trim where their format allows it), no NUL
/// or other byte. A number that overflows to infinity (`1e400`) is refused; one that
/// underflows becomes a subnormal or zero, as IEEE 754 rounding gives.
///
/// Swift's `Double(_:)` alone would accept `nan`, `inf` and hexadecimal floats, so each reader
/// used to screen its own way: this is the screen they share.
public enum NumberText {
    /// Longest text accepted: well beyond any double's shortest round-trip form (at most 24
    /// characters), and short enough that no input can make parsing expensive.
    public static let maxLength = 400

    /// The finite value of `text`, or nil when `text` is not a number of the grammar above.
    ///
    /// Example: `NumberText.double("-119.5")` is −119.5; `NumberText.double("0x1p3")` is nil.
    /// Complexity: O(n) in the length of `text`.
    public static func double<S: StringProtocol>(_ text: S) -> Double? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength, isDecimal(utf8) else { return nil }
        guard let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// The value of `text` as a whole number (optional sign, decimal digits), or nil when it is
    /// not one or does not fit in an `Int`.
    public static func integer<S: StringProtocol>(_ text: S) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength else { return nil }
        var digits = 0
        for (k, byte) in utf8.enumerated() {
            if k == 0 && (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) { continue }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            digits += 1
        }
        guard digits > 0 else { return nil }
        return Int(String(text))
    }

    /// True when `bytes` follow the grammar.
    static func isDecimal<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.startIndex
        func peek() -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        if let b = peek(), b == UInt8(ascii: "+") || b == UInt8(ascii: "-") { i = bytes.index(after: i) }
        var mantissaDigits = 0
        while isDigit(peek()) {
            mantissaDigits += 1
            i = bytes.index(after: i)
        }
        if peek() == UInt8(ascii: ".") {
            i = bytes.index(after: i)
            while isDigit(peek()) {
                mantissaDigits += 1
                i = bytes.index(after: i)
            }
        }
        guard mantissaDigits > 0 else { return false }
        if let b = peek(), b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            i = bytes.index(after: i)
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i = bytes.index(after: i) }
            var exponentDigits = 0
            while isDigit(peek()) {
                exponentDigits += 1
                i = bytes.index(after: i)
            }
            guard exponentDigits > 0 else { return false }
        }
        return i == bytes.endIndex
    }
}
