import Testing
@testable import TransectFormats

@Suite("CSV lines: one splitter, one quoting")
struct CSVLineTests {
    /// Every field a writer may hand over: the characters that force quoting (comma, quote,
    /// LF, CR, CRLF) alone, at either end and in the middle, beside plain and empty text.
    static let awkwardFields = [
        "", "plain", " padded ", ",", "\"", "\"\"", "a,b", "say \"hi\"", "\"quoted\"", "line\nbreak", "cr\rhere",
        "crlf\r\nhere", "\n", ",\"\n\r", "trailing,", ",leading", "é, ü", "Half Dome \"the\" dome, CA", "😀,👍",
    ]

    @Test("a field is quoted exactly when it holds a comma, a quote, LF or CR", arguments: awkwardFields)
    func quoting(field: String) {
        let needsQuotes = field.contains(",") || field.contains("\"") || field.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
        let expected = needsQuotes ? "\"" + field.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" : field
        #expect(CSVLine.field(field) == expected)
    }

    @Test("quoted fields split back to the fields written, in every pairing")
    func roundTrip() {
        for a in Self.awkwardFields {
            for b in Self.awkwardFields {
                let fields = [a, b, "z"]
                #expect(CSVLine.split(fields.map(CSVLine.field).joined(separator: ",")) == fields, "\(fields)")
            }
        }
        #expect(CSVLine.split(CSVLine.field("")) == [""])
    }

    @Test(
        "splitting, field by field",
        arguments: [
            ("a,b,c", ["a", "b", "c"]),
            ("a,,b", ["a", "", "b"]),
            ("a,", ["a", ""]),
            (",", ["", ""]),
            ("", [""]),
            ("\"\"", [""]),
            ("\"a\"\"b\",c", ["a\"b", "c"]),
            ("\"a,b\",c", ["a,b", "c"]),
            // A quote that does not open a field is text, and so is text after a closing quote.
            ("x\"y\",z", ["x\"y\"", "z"]),
            ("\"ab\"cd,e", ["abcd", "e"]),
            // An unterminated quote runs to the end of the line.
            ("\"ab,c", ["ab,c"]),
            (" \"a\",b", [" \"a\"", "b"]),
            ("lon,lat\u{FEFF}", ["lon", "lat\u{FEFF}"]),
        ])
    func splitting(line: String, fields: [String]) {
        #expect(CSVLine.split(line) == fields)
    }

    @Test("a line without quotes splits the same on its bytes as through the quote-aware path")
    func fastPathAgrees() {
        for line in ["a,b,c", "-119.5,37.7,,1200", ",,", "é,ü,😀", " a , b ", "x"] {
            // A trailing quoted empty field sends the line through the character-by-character path.
            #expect(CSVLine.split(line) + [""] == CSVLine.split(line + ",\"\""), "\(line)")
        }
    }
}
