/// One CSV line into fields, and fields into a CSV line (RFC 4180 quoting, on one line): the
/// one splitter and the one quoting of every CSV Transect reads (tracks, places, point pairs)
/// or writes.
///
/// ```swift
/// CSVLine.split("a,\"b,c\",d")      // ["a", "b,c", "d"]
/// CSVLine.field("say \"hi\"")        // "\"say \"\"hi\"\"\""
/// ```
public enum CSVLine {
    /// Splits one line (without its line break) into fields.
    ///
    /// A field that starts with `"` is quoted: commas inside it are text, and `""` is one
    /// quote; the closing quote ends the quoting and any text after it joins the field. A
    /// quote anywhere else is text. A line without quotes is split on its comma bytes.
    ///
    /// - Complexity: O(n) in the length of `line`.
    public static func split(_ line: String) -> [String] {
        // Most lines hold no quotes: split their bytes directly.
        if !line.utf8.contains(34) {
            return line.utf8.split(separator: 44, omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        var fields: [String] = []
        var field = ""
        var quoted = false
        var iterator = line.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let n = iterator.next() {
                        if n == "\"" {
                            field.append("\"")
                        } else {
                            quoted = false
                            pending = n
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }

    /// A field, quoted when it holds a comma, quote or line break.
    public static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return text }
        var out = "\""
        for c in text { if c == "\"" { out += "\"\"" } else { out.append(c) } }
        return out + "\""
    }
}
