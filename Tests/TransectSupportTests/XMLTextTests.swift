import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TransectSupport

@Suite struct XMLTextTests {
    @Test(
        "the five entities",
        arguments: [
            ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&apos;"),
            ("Tom & Jerry's <trail>", "Tom &amp; Jerry&apos;s &lt;trail&gt;"), ("&amp;", "&amp;amp;"),
            ("plain Half Dome", "plain Half Dome"), ("", ""), ("Côte d’Ivoire 😀", "Côte d’Ivoire 😀"),
        ])
    func entities(text: String, expected: String) {
        #expect(XMLText.escaped(text) == expected)
    }

    @Test("apostrophes kept when asked, every other escape the same")
    func keptApostrophes() {
        #expect(XMLText.escaped("Côte D'Ivoire \"a\" & <b>", apostrophes: false) == "Côte D'Ivoire &quot;a&quot; &amp; &lt;b&gt;")
        #expect(XMLText.escaped("'", apostrophes: false) == "'")
    }

    @Test("control characters XML 1.0 cannot carry are left out; tab, LF, CR and DEL stay")
    func controlCharacters() {
        for value in UInt32(0)..<0x20 {
            let c = String(Character(Unicode.Scalar(value)!))
            let kept = value == 0x09 || value == 0x0A || value == 0x0D
            #expect(XMLText.escaped("a" + c + "b") == (kept ? "a" + c + "b" : "ab"), "U+\(String(value, radix: 16))")
        }
        #expect(XMLText.escaped("a\u{7F}b\u{85}c") == "a\u{7F}b\u{85}c")
    }

    @Test("a combining mark after & or < does not hide it")
    func combiningMarks() {
        #expect(XMLText.escaped("&\u{301}<\u{301}\"\u{301}") == "&amp;\u{301}&lt;\u{301}&quot;\u{301}")
    }

    /// Foundation's XML parser is the oracle: the escaped text, as an element's content, reads
    /// back as the text itself, less the control characters left out.
    @Test("an XML parser reads the escaped text back")
    func parsedBack() throws {
        let text = "Tom & Jerry's <trail> \"quoted\" > ]]> &amp; tab\there\nline\u{1}\u{1B} é 😀"
        let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>" + XMLText.escaped(text) + "</a>"
        let parser = XMLParser(data: Data(document.utf8))
        let collector = TextCollector()
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.text == text.replacingOccurrences(of: "\u{1}", with: "").replacingOccurrences(of: "\u{1B}", with: ""))
    }
}

private final class TextCollector: NSObject, XMLParserDelegate {
    var text = ""
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
