extension StringProtocol {
    /// The text as an error message may quote it: control characters (NUL above all, which
    /// would end a C string and cut the message) written as `\0`, `\t`, `\u{1B}`…, and at most
    /// `limit` characters, the rest replaced by `…`, so one line of stderr stays one line.
    ///
    /// Example: `"37.7\u{0}5".printable` is `37.7\0 5` without the space.
    public func printable(limit: Int = 80) -> String {
        var out = ""
        var count = 0
        for scalar in unicodeScalars {
            if count == limit { out += "…"; break }
            count += 1
            switch scalar.value {
            case 0: out += "\\0"
            case 9: out += "\\t"
            case 10: out += "\\n"
            case 13: out += "\\r"
            case 0..<32, 127, 0x80..<0xA0, 0x2028, 0x2029:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The quoted-text form of ``printable(limit:)`` with the default limit.
    public var printable: String { printable() }

    /// Without leading and trailing ASCII spaces and tabs (and a trailing carriage return).
    public var trimmingAsciiSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
