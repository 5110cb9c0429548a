import Foundation
import Testing
import TransectSupport
@testable import TransectFormats

@Suite("JSON parsing (RFC 8259, strict)")
struct JSONParsingTests {
    func parse(_ text: String) throws(FormatError) -> JSON { try JSON.parse(Array(text.utf8), path: "t.json") }

    func reason(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            if case .malformed(_, let r) = error { return r }
            return nil
        }
    }

    @Test("objects keep member order; strings, escapes and surrogate pairs; numbers; literals")
    func values() throws {
        let v = try parse(#" {"b": [1, -2.5e3, 0, 0.125, true, false, null], "a": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00y", "": {}} "#)
        #expect(v.members?.map(\.0) == ["b", "a", ""])
        #expect(v["b"]?.array?.compactMap(\.number) == [1, -2500, 0, 0.125])
        #expect(v["b"]?.array?[4].bool == true && v["b"]?.array?[6].isNull == true)
        #expect(v["a"]?.string == "x\"\\/\u{08}\u{0C}\n\r\té😀y")
        #expect(v[""]?.members?.isEmpty == true)
        #expect(try parse("\u{FEFF}[]").array?.isEmpty == true)  // a UTF-8 byte order mark is skipped
        #expect(try parse("\"h\u{E9}llo\"").string == "héllo")  // raw UTF-8
        #expect(try parse("1E+2").number == 100)
    }

    @Test(
        "what RFC 8259 refuses is refused, with the line",
        arguments: [
            ("[NaN]", "line 1: is not valid JSON (unexpected 'N' where a value should be)"),
            ("[Infinity]", "line 1: is not valid JSON (unexpected 'I' where a value should be)"),
            ("[-Infinity]", "line 1: is not valid JSON ('-' without digits)"),
            ("[1,]", "line 1: is not valid JSON (unexpected ']' where a value should be)"),
            ("{\"a\": 1,}", "line 1: is not valid JSON (unexpected '}' where a member name in double quotes should be)"),
            ("[1]\n// c", "line 2: is not valid JSON (unexpected '/' after the end of the document)"),
            ("[+1]", "line 1: is not valid JSON (unexpected '+' where a value should be)"),
            ("[01]", "line 1: is not valid JSON (a number with a leading zero)"),
            ("[.5]", "line 1: is not valid JSON (unexpected '.' where a value should be)"),
            ("[5.]", "line 1: is not valid JSON (a number with no digits after '.')"),
            ("[1e]", "line 1: is not valid JSON (a number with no digits in its exponent)"),
            ("[0x1p3]", "line 1: is not valid JSON (unexpected 'x' where ',' or ']' should be)"),
            ("[1e400]", "line 1: is not valid JSON (1e400 is beyond the range of a double)"),
            ("['a']", "line 1: is not valid JSON (unexpected ''' where a value should be)"),
            ("{a: 1}", "line 1: is not valid JSON (unexpected 'a' where a member name in double quotes should be)"),
            ("[\"\\ud800\"]", "line 1: is not valid JSON (a \\u escape with a lone surrogate)"),
            ("[\"\\udc00x\"]", "line 1: is not valid JSON (a \\u escape with a lone surrogate)"),
            ("[\"\\u12\"]", "line 1: is not valid JSON (a \\u escape without four hex digits)"),
            ("[\"\\x\"]", "line 1: is not valid JSON (an unknown escape '\\x' in a string)"),
            ("[\"a\nb\"]", "line 1: is not valid JSON (a line break in a string)"),
            ("[\"\\u0000\"]", "line 1: is not valid JSON (a NUL character (\\u0000) in a string)"),
            ("[\"abc", "line 1: is not valid JSON (a string without its closing '\"')"),
            ("[1 2]", "line 1: is not valid JSON (unexpected '2' where ',' or ']' should be)"),
            ("", "line 1: is not valid JSON (it is empty)"),
            ("[\n[\n", "line 3: is not valid JSON (the text ends early)"),
            ("[tru]", "line 1: is not valid JSON (unexpected 't' where a value should be)"),
        ])
    func refused(text: String, expected: String) {
        #expect(reason(text) == expected)
    }

    @Test("NUL bytes, raw control bytes and invalid UTF-8 are refused and named, never cut at")
    func bytes() {
        #expect(reason("[1,\n\u{0}2]") == "line 2: is not valid JSON (a NUL byte where a value should be)")
        #expect(reason("[\"a\u{0}b\"]") == "line 1: is not valid JSON (a NUL byte in a string)")
        #expect(reason("[\"a\u{1}b\"]") == "line 1: is not valid JSON (a control byte in a string)")
        for bad: [UInt8] in [[0xC3], [0xFF], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            var doc = Array("[\"a".utf8)
            doc += bad + Array("\"]".utf8)
            #expect(throws: FormatError.malformed(path: "u.json", reason: "line 1: is not valid JSON (a string that is not valid UTF-8)")) {
                try JSON.parse(doc, path: "u.json")
            }
        }
        #expect(reason("\u{FEFF}\u{FEFF}[]") == "line 1: is not valid JSON (unexpected byte 0xEF where a value should be)")
    }

    @Test("nesting: the limit itself parses (and is released without exhausting the stack); one more is refused by name")
    func nesting() throws {
        let depth = JSON.maximumDepth
        let atLimit = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value: JSON? = try parse(atLimit)
        var levels = 0
        var cursor = value
        while let items = cursor?.array {
            levels += 1
            cursor = items.first
        }
        #expect(levels == depth)
        cursor = nil
        value = nil
        #expect(value == nil)
        let over = String(repeating: "{\"a\":", count: depth) + "[1]" + String(repeating: "}", count: depth)
        #expect(throws: FormatError.malformed(path: "t.json", reason: "line 1: JSON nesting is deeper than \(depth) levels (the limit)")) {
            try parse(over)
        }
    }

    @Test("long arrays and objects are built in place: 1,000,000 items and 200,000 members, nested, read whole")
    func longContainers() throws {
        // Copying a container on every append, as the parser once did, makes these quadratic
        // (about 10^12 element copies): the run would not end, where now it reads them whole.
        var text = "{\"a\": [" + Array(repeating: "0", count: 1_000_000).joined(separator: ",") + "], \"o\": {"
        text += (0..<200_000).map { "\"k\($0)\": [\($0)]" }.joined(separator: ",") + "}}"
        let json = try parse(text)
        #expect(json["a"]?.array?.count == 1_000_000)
        let members = try #require(json["o"]?.members)
        #expect(members.count == 200_000)
        #expect(members.last?.0 == "k199999" && members.last?.1.array?.first?.number == 199_999)
    }
}
