/// Text made safe for XML 1.0 element content and quoted attribute values: the one escaping
/// of every XML Transect writes (GPX track names, the CRS in a PNG's `.aux.xml`).
///
/// ```swift
/// XMLText.escaped("Tom & Jerry's <trail>")   // Tom &amp; Jerry&apos;s &lt;trail&gt;
/// ```
public enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` written as the entities `&amp;`, `&lt;`, `&gt;` and
    /// `&quot;`, `'` as `&apos;` when `apostrophes` is true, and the control characters XML
    /// 1.0 cannot carry (below U+0020 except tab, line feed and carriage return; not even as
    /// character references) left out. Everything else is kept as it is.
    ///
    /// The text is read scalar by scalar, so a mark combining with `&` or `<` cannot hide it.
    ///
    /// - Parameters:
    ///   - text: any text.
    ///   - apostrophes: whether `'` becomes `&apos;`; element content and attributes quoted
    ///     with `"` can carry it as is, and the `.aux.xml` beside a PNG always has.
    /// - Complexity: O(n) in the length of `text`.
    public static func escaped(_ text: String, apostrophes: Bool = true) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'" where apostrophes: out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            case _ where c.value < 0x20: continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
