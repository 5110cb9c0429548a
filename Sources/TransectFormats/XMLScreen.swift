/// The screen every XML byte passes before an XML parser sees it: it decodes the document to
/// UTF-8 and refuses what GPX never needs and an attacker does.
///
/// - **Encoding.** Decided from the byte order mark, then checked against the XML declaration:
///   UTF-8 (with or without a byte order mark, declared `UTF-8` or not at all), UTF-16 little-
///   or big-endian with a byte order mark (declared `UTF-16`, `UTF-16LE`/`BE` or not at all),
///   US-ASCII (every byte checked) and ISO-8859-1 (transcoded byte by byte). Every other
///   declared encoding (UTF-7, UTF-32, EBCDIC, Windows code pages, …) is refused by name, as
///   are UTF-32 and UTF-16 without a byte order mark: the scan below is only sound on text it
///   has decoded itself. The declaration handed on says `UTF-8`, with its line breaks kept, so
///   line numbers stay those of the file.
/// - **DTDs and entities.** `<!DOCTYPE` and `<!ENTITY` (any case) anywhere in the decoded
///   document, even inside a comment, refuse it: an "entity bomb" expands a few hundred bytes
///   to gigabytes, an external entity reads a local file. A DOCTYPE that declares an entity is
///   reported as the entity declaration, at its line.
/// - **Processing instructions without data** (`<?name?>`), which crash Foundation's XMLParser
///   on Linux (it hands libxml2's NULL data to `strlen`): refused with their line.
/// - **NUL bytes**, which XML forbids and C strings would cut at, refuse the document with
///   their line.
///
/// The screen is incremental (`feed` chunk by chunk, then `finish`), so a document of any size
/// passes with memory bounded by the chunk size. Complexity: O(n) in the input's length.
struct XMLScreen {
    let path: String
    /// The longest XML declaration accepted (a declaration padded with white space is still
    /// read to its end, never just its first bytes).
    static let maximumDeclarationBytes = 64 * 1024
    /// How far past a DOCTYPE the screen looks for an entity declaration to name.
    static let doctypeLookahead = 1 << 20

    enum Encoding { case utf8, ascii, latin1, utf16LE, utf16BE }

    private var encoding: Encoding?
    /// Raw bytes held back until the encoding and the declaration are settled.
    private var head: [UInt8] = []
    private var settled = false
    /// UTF-16: an odd byte and a high surrogate carried from one chunk to the next.
    private var oddByte: UInt8?
    private var highSurrogate: UInt16?

    private(set) var line = 1
    private var doctypeMatched = 0
    private var entityMatched = 0
    private var doctypeLine: Int?
    private var scannedSinceDoctype = 0
    /// Where a processing instruction's start stands: 0 outside, 1 after `<`, 2 after `<?`,
    /// 3 in its target, 4 after a target followed straight by `?`.
    private var instruction = 0

    init(path: String) { self.path = path }

    private func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }

    /// The UTF-8 text of `chunk` (possibly empty while the screen holds bytes back).
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) throws(FormatError) -> [UInt8] {
        if settled { return try scan(try decode(chunk)) }
        head.append(contentsOf: chunk)
        return try settle(final: false)
    }

    /// The text still held back, at the end of the input; throws what the end reveals.
    mutating func finish() throws(FormatError) -> [UInt8] {
        var out: [UInt8] = []
        if !settled {
            if head.isEmpty { throw fail("is empty") }
            out = try settle(final: true)
        }
        if oddByte != nil || highSurrogate != nil { throw fail("is not valid UTF-16 (it ends inside a character)") }
        if let doctypeLine { throw fail("line \(doctypeLine): DOCTYPE declarations are refused (GPX needs none)") }
        return out
    }

    // MARK: Encoding and declaration

    private mutating func settle(final: Bool) throws(FormatError) -> [UInt8] {
        if encoding == nil {
            guard head.count >= 4 || final else { return [] }
            try detectEncoding()
        }
        // The decoded head, to read the declaration from (the head is small: at most the
        // declaration's length plus a chunk).
        var decoder = self
        decoder.oddByte = nil
        decoder.highSurrogate = nil
        let text = try head.withUnsafeBufferPointer { (b) throws(FormatError) -> [UInt8] in try decoder.decode(b) }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }) else {
            if final { throw fail("is empty") }
            return []
        }
        guard text[first] == UInt8(ascii: "<") else { throw fail("is not XML (it does not start with '<')") }
        var declaration: Range<Int>? = nil
        let opening = Array("<?xml".utf8)
        if text.count < opening.count + 1 && !final && opening.starts(with: text) { return [] }
        if text.starts(with: opening), text.count > opening.count, text[opening.count].isWhitespace {
            guard let end = Self.find(Array("?>".utf8), in: text) else {
                if text.count > Self.maximumDeclarationBytes {
                    throw fail("line 1: the XML declaration is longer than \(Self.maximumDeclarationBytes) bytes")
                }
                if final { throw fail("line 1: the XML declaration has no end ('?>')") }
                return []
            }
            declaration = 0..<(end + 2)
        }
        if let declaration {
            try check(declared: Self.encodingValue(Array(text[declaration])))
        }
        // Decode the head for real (by the declared encoding, carrying UTF-16 state on), name
        // UTF-8 in the declaration, and hand it on.
        let raw = head
        head = []
        settled = true
        var decoded = try raw.withUnsafeBufferPointer { (b) throws(FormatError) -> [UInt8] in try decode(b) }
        if let declaration, let range = Self.encodingValue(Array(decoded[declaration]))?.range {
            decoded.replaceSubrange(range, with: Array("UTF-8".utf8))
        }
        return try scan(decoded)
    }

    private mutating func detectEncoding() throws(FormatError) {
        let b = head + [UInt8](repeating: 0xAA, count: max(0, 4 - head.count))
        if b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
            head.removeFirst(3)
            encoding = .utf8
        } else if (b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) || (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF)
            || (b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0x3C) || (b[0] == 0x3C && b[1] == 0 && b[2] == 0 && b[3] == 0)
        {
            throw fail("is UTF-32 XML; GPX is read as UTF-8 or UTF-16")
        } else if b[0] == 0xFE && b[1] == 0xFF {
            head.removeFirst(2)
            encoding = .utf16BE
        } else if b[0] == 0xFF && b[1] == 0xFE {
            head.removeFirst(2)
            encoding = .utf16LE
        } else if (b[0] == 0 && b[1] == 0x3C) || (b[0] == 0x3C && b[1] == 0) {
            throw fail("is UTF-16 XML without a byte order mark; GPX in UTF-16 needs one")
        } else {
            encoding = .utf8
        }
    }

    /// Accepts the declared encoding for the detected one, or says why not.
    private mutating func check(declared: (name: String, range: Range<Int>)?) throws(FormatError) {
        guard let declared else { return }
        let name = declared.name.lowercased()
        let supported = "GPX is read as UTF-8, UTF-16 (with a byte order mark), US-ASCII or ISO-8859-1"
        switch encoding {
        case .utf16LE, .utf16BE:
            let le = encoding == .utf16LE
            guard name == "utf-16" || name == (le ? "utf-16le" : "utf-16be") else {
                throw fail("line 1: is UTF-16 (by its byte order mark) but declares encoding '\(declared.name.printable)'")
            }
        default:
            switch name {
            case "utf-8", "utf8": break
            case "us-ascii", "ascii": encoding = .ascii
            case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
                encoding = .latin1
            default:
                throw fail("line 1: declares encoding '\(declared.name.printable)'; \(supported)")
            }
        }
    }

    /// The value of the declaration's `encoding` pseudo-attribute and where it lies, or nil.
    /// A value without quotes is returned as text up to the next white space (and so refused).
    static func encodingValue(_ declaration: [UInt8]) -> (name: String, range: Range<Int>)? {
        guard let at = find(Array("encoding".utf8), in: declaration) else { return nil }
        var i = at + 8
        while i < declaration.count && (declaration[i].isWhitespace || declaration[i] == UInt8(ascii: "=")) { i += 1 }
        guard i < declaration.count else { return ("", i..<i) }
        let quote = declaration[i]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            var j = i + 1
            while j < declaration.count && declaration[j] != quote { j += 1 }
            return (String(decoding: declaration[(i + 1)..<j], as: UTF8.self), (i + 1)..<j)
        }
        var j = i
        while j < declaration.count && !declaration[j].isWhitespace && declaration[j] != UInt8(ascii: "?") { j += 1 }
        return (String(decoding: declaration[i..<j], as: UTF8.self), i..<j)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for k in 0...(haystack.count - needle.count) where haystack[k] == needle[0] {
            if haystack[k..<(k + needle.count)].elementsEqual(needle) { return k }
        }
        return nil
    }

    // MARK: Decoding

    /// `bytes` in the document's encoding as UTF-8.
    private mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(FormatError) -> [UInt8] {
        switch encoding ?? .utf8 {
        case .utf8:
            return Array(bytes)
        case .ascii:
            if let k = bytes.firstIndex(where: { $0 >= 0x80 }) {
                let l = line + bytes[..<k].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                throw fail("line \(l): declares encoding US-ASCII but has a byte above 0x7F")
            }
            return Array(bytes)
        case .latin1:
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            for b in bytes {
                if b < 0x80 {
                    out.append(b)
                } else {
                    out.append(0xC0 | b >> 6)
                    out.append(0x80 | b & 0x3F)
                }
            }
            return out
        case .utf16LE, .utf16BE:
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var k = 0
            let little = encoding == .utf16LE
            while k < bytes.count {
                let first: UInt8
                if let odd = oddByte {
                    first = odd
                    oddByte = nil
                } else {
                    first = bytes[k]
                    k += 1
                }
                guard k < bytes.count else {
                    oddByte = first
                    break
                }
                let second = bytes[k]
                k += 1
                let unit = little ? UInt16(second) << 8 | UInt16(first) : UInt16(first) << 8 | UInt16(second)
                var scalar: UInt32
                if let high = highSurrogate {
                    guard (0xDC00...0xDFFF).contains(unit) else { throw fail("is not valid UTF-16 (a lone surrogate)") }
                    highSurrogate = nil
                    scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                } else if (0xD800...0xDBFF).contains(unit) {
                    highSurrogate = unit
                    continue
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw fail("is not valid UTF-16 (a lone surrogate)")
                } else {
                    scalar = UInt32(unit)
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            }
            return out
        }
    }

    // MARK: Scanning

    /// Counts lines and refuses NUL bytes, DOCTYPE and ENTITY declarations in decoded text.
    private mutating func scan(_ text: [UInt8]) throws(FormatError) -> [UInt8] {
        let doctype = Array("<!DOCTYPE".utf8)
        let entity = Array("<!ENTITY".utf8)
        for b in text {
            if b == 0x0A { line += 1 }
            if b == 0 { throw fail("line \(line): contains a NUL byte") }
            switch (instruction, b) {
            case (_, UInt8(ascii: "<")): instruction = 1
            case (1, UInt8(ascii: "?")): instruction = 2
            case (3, UInt8(ascii: "?")): instruction = 4
            case (4, UInt8(ascii: ">")):
                throw fail("line \(line): a processing instruction without data is refused (GPX needs none)")
            case (2, _), (3, _):
                // A target runs to white space (then data follows) or to `?`.
                let space = b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
                instruction = space || b == UInt8(ascii: "?") ? 0 : 3
            default: instruction = 0
            }
            let upper = b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") ? b - 32 : b
            doctypeMatched = upper == doctype[doctypeMatched] ? doctypeMatched + 1 : (b == UInt8(ascii: "<") ? 1 : 0)
            entityMatched = upper == entity[entityMatched] ? entityMatched + 1 : (b == UInt8(ascii: "<") ? 1 : 0)
            if entityMatched == entity.count {
                throw fail("line \(line): entity declarations are refused (GPX needs none; entities can expand without bound or read local files)")
            }
            if doctypeMatched == doctype.count {
                doctypeMatched = 0
                if doctypeLine == nil { doctypeLine = line }
            }
        }
        guard let doctypeLine else { return text }
        // Past a DOCTYPE nothing is handed on: look a little further for an entity to name.
        scannedSinceDoctype += text.count
        if scannedSinceDoctype > Self.doctypeLookahead {
            throw fail("line \(doctypeLine): DOCTYPE declarations are refused (GPX needs none)")
        }
        return []
    }
}
