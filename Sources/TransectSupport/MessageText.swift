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
            if count == limit {
                out += "…"
                break
            }
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

    /// Without leading and trailing ASCII spaces and tabs (and a trailing carriage return): the
    /// one trimming of numbers, coordinates and CSV fields, which never lets Unicode's other
    /// spaces pass for blanks.
    ///
    /// Example: `" 37.7\t\r".trimmingAsciiSpaces` is `37.7`.
    public var trimmingAsciiSpaces: String { trimmingAsciiSpaces(andByteOrderMarks: false) }

    /// Without leading and trailing whitespace of any kind, line breaks included: the trimming
    /// of text from libraries and file formats (GDAL's messages, an XML element's text, a
    /// band's unit), where a trailing newline or an indented value is layout, not content.
    /// Numbers, coordinates and CSV fields use ``trimmingAsciiSpaces`` instead.
    ///
    /// Example: `"\n  metre\r\n".trimmingWhitespace` is `metre`.
    public var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// ``trimmingAsciiSpaces``, and with `andByteOrderMarks` also without byte order marks
    /// (U+FEFF) among the leading spaces, as a CSV header's first field may carry one.
    ///
    /// Example: `"\u{FEFF} id ".trimmingAsciiSpaces(andByteOrderMarks: true)` is `id`.
    public func trimmingAsciiSpaces(andByteOrderMarks: Bool) -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || (andByteOrderMarks && c == "\u{FEFF}") { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
