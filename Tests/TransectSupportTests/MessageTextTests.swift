import Testing
import TransectSupport

@Suite struct MessageTextTests {
    @Test(
        "ASCII spaces and tabs go from both ends, a carriage return from the end only",
        arguments: [
            (" 37.7", "37.7"), ("37.7 ", "37.7"), ("\t -119.5 \t\r", "-119.5"), ("a b", "a b"), (" a \t b ", "a \t b"),
            ("", ""), (" \t ", ""), ("\r", ""), ("\r5", "\r5"), ("5\r\r", "5"),
            // Unicode's other spaces, line feeds and byte order marks are text here.
            ("\u{A0}5\u{A0}", "\u{A0}5\u{A0}"), ("\u{2003}5", "\u{2003}5"), ("5\n", "5\n"), ("\u{FEFF}id", "\u{FEFF}id"),
        ])
    func trimming(text: String, expected: String) {
        #expect(text.trimmingAsciiSpaces == expected)
        #expect(text[...].trimmingAsciiSpaces == expected)
        #expect(text.trimmingAsciiSpaces(andByteOrderMarks: false) == expected)
    }

    @Test(
        "with byte order marks, those among the leading spaces go too, and only those",
        arguments: [
            ("\u{FEFF}id", "id"), (" \u{FEFF} id ", "id"), ("\u{FEFF}\u{FEFF}from_lon", "from_lon"), ("\u{FEFF}", ""),
            ("id\u{FEFF}", "id\u{FEFF}"), ("i\u{FEFF}d", "i\u{FEFF}d"), ("\u{A0}\u{FEFF}id", "\u{A0}\u{FEFF}id"),
        ])
    func byteOrderMarks(text: String, expected: String) {
        #expect(text.trimmingAsciiSpaces(andByteOrderMarks: true) == expected)
    }

    @Test(
        "trimmingWhitespace takes every kind of whitespace from both ends, line breaks included",
        arguments: [
            ("\n  metre\r\n", "metre"), (" ROOT_PATH ", "ROOT_PATH"), ("\tft\u{A0}", "ft"), ("a \n b", "a \n b"),
            ("", ""), (" \r\n\t", ""), ("\u{2003}5\u{2028}", "5"), ("\u{FEFF}id", "\u{FEFF}id"),
        ])
    func trimmingWhitespace(text: String, expected: String) {
        #expect(text.trimmingWhitespace == expected)
        #expect(text[...].trimmingWhitespace == expected)
    }
}
