import TransectSupport

// `JSON` is TransectSupport's (the pure modules build and write JSON values); reading JSON text is
// a reader's job, with a reader's `FormatError`, so the parser extends it here, on purpose.

/// Reading JSON text (RFC 8259) into a `JSON` value: our own parser, so every JSON input
/// (GeoJSON and Esri JSON tracks, GeoJSON places, scene files) follows one strict grammar with
/// one nesting limit and one kind of error.
///
/// ```swift
/// let value = try JSON.parse(Array(#"{"type": "Point", "coordinates": [1, 2]}"#.utf8), path: "p.geojson")
/// value["type"]?.string   // "Point"
/// ```
///
/// Strict where RFC 8259 is strict: no comments, no trailing commas, no `NaN`/`Infinity`, no
/// single quotes, no leading `+`, no leading zeros (`01`), no bare `.5` or `5.`; strings must
/// be valid UTF-8 without raw control characters. Numbers are read through `NumberText`, so a
/// number that overflows a double (`1e400`) is refused rather than made infinite. A UTF-8 byte
/// order mark at the start is skipped. Beyond RFC 8259: a NUL character, raw or escaped as
/// `\u0000`, is refused (names end up in C strings, where a NUL would silently cut them), and
/// nesting deeper than `maximumDepth` is refused.
///
/// The parser is iterative (an explicit stack, not recursion), so nesting costs heap, not
/// call stack. Complexity: O(n) in the input's length.
extension JSON {
    /// The deepest nesting of arrays and objects accepted. Deep enough for any real document
    /// (GeoJSON's deepest, a MultiPolygon, needs 5; nested GeometryCollections 2 per level, so
    /// 800 of them need about 1,600). Parsing is iterative and so are our GeoJSON visitors, but
    /// Swift releases a nested value recursively, about 170 bytes of stack per level in a debug
    /// build (measured: 20,000 levels are released on a test thread, 50,000 overflow it). 4,000
    /// levels stay under 1 MiB of stack, an eighth of a default thread's.
    public static let maximumDepth = 4_000

    /// Parses one JSON text.
    ///
    /// - Parameters:
    ///   - bytes: the text, UTF-8 (optionally with a byte order mark).
    ///   - path: the file named in error messages.
    /// - Throws: `FormatError.malformed` naming the file, the line and what is wrong.
    public static func parse<C: Collection>(_ bytes: C, path: String) throws(FormatError) -> JSON where C.Element == UInt8 {
        // Contiguous bytes are parsed where they are (no copy of a large file's text).
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(FormatError) -> JSON in
                var parser = JSONParser(bytes: buffer, path: path)
                return try parser.document()
            }
        }
        if let parsed { return try parsed.get() }
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(FormatError) -> JSON in
            var parser = JSONParser(bytes: buffer, path: path)
            return try parser.document()
        }
    }

    /// Parses one JSON text in `bytes`, handing the values of the members `interceptor` asks
    /// for to it (``JSONInterceptor``), and telling `progress` every ``progressBytes`` how far
    /// the parse has come (a mapped file releases the pages behind it).
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, interceptor: (any JSONInterceptor)?, progress: ((Int) -> Void)? = nil
    ) throws(FormatError) -> JSON {
        var parser = JSONParser(bytes: bytes, path: path)
        parser.interceptor = interceptor
        parser.progress = progress
        return try parser.document()
    }

    /// How often ``parse(_:path:interceptor:progress:)`` reports its progress: every 4 MiB.
    package static let progressBytes = 4 << 20

    /// The member `key` of an object (the last one, should the key be repeated), or nil.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var number: Double? { if case .number(let v) = self { v } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var array: [JSON]? { if case .array(let a) = self { a } else { nil } }
    public var members: [(String, JSON)]? { if case .object(let m) = self { m } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }
    public var isObject: Bool { if case .object = self { true } else { false } }
}

/// Parses the values of some object members itself, in place of the parser's own values
/// (a long array of coordinates read straight into points, without a `JSON` value per number).
package protocol JSONInterceptor: AnyObject {
    /// True for the member names whose values ``value(for:_:)`` takes.
    func wants(_ key: String) -> Bool
    /// Reads the value of the member `key` from `parser`, which stands at the value's first
    /// byte, and returns what stands for it in the document; nil to leave the value to the
    /// parser (which then reads it again from the same byte, so an interceptor can give up on
    /// anything it does not expect and leave the errors to the document's reader).
    func value(for key: String, _ parser: inout JSONParser) throws(FormatError) -> JSON?
}

/// The parser behind `JSON.parse`: a cursor over the bytes and an explicit stack of open
/// containers.
package struct JSONParser {
    package let bytes: UnsafeBufferPointer<UInt8>
    package let path: String
    package var i = 0
    package var line = 1
    var interceptor: (any JSONInterceptor)?
    package var progress: ((Int) -> Void)?
    private var reported = 0

    package init(bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
    }

    /// An open array or object and, for an object, the key whose value is being parsed. What
    /// each holds so far lives apart, in stacks of their own (``document()``), so that adding
    /// an item appends in place: an array held in the frame itself was copied by every append
    /// (it had two owners, the frame popped and the binding), which made a long array quadratic.
    private enum Frame {
        case array
        case object(key: String)
    }

    /// Tells ``progress`` how far the parse has come, every ``JSON/progressBytes``; an
    /// ``JSONInterceptor`` reading a long value calls it as it goes.
    /// Tells ``progress`` that the bytes before `offset` have been read (a look ahead of the
    /// cursor, which reads them again later; the pages come back from the file).
    package func release(before offset: Int) { progress?(offset) }

    package mutating func reportProgress() {
        guard let progress, i - reported >= JSON.progressBytes else { return }
        reported = i
        progress(i)
    }

    package func fail(_ reason: String) -> FormatError {
        .malformed(path: path, reason: "line \(line): is not valid JSON (\(reason))")
    }

    /// What the byte at `i` is, for messages: never the raw byte when it is a control byte.
    package func describeHere() -> String {
        guard i < bytes.count else { return "the text ends early" }
        let b = bytes[i]
        if b == 0 { return "a NUL byte" }
        if b < 0x20 || b >= 0x7F { return "unexpected byte 0x" + String(b, radix: 16, uppercase: true) }
        return "unexpected '\(Character(Unicode.Scalar(b)))'"
    }

    package mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
            default: return
            }
        }
    }

    mutating func document() throws(FormatError) -> JSON {
        var stack: [Frame] = []
        var arrays: [[JSON]] = []
        var objects: [[(String, JSON)]] = []
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw fail(stack.isEmpty ? "it is empty" : "the text ends early") }
            reportProgress()
            var value: JSON
            var intercepted: JSON?
            if let interceptor, case .object(let key)? = stack.last, interceptor.wants(key) {
                let (start, startLine) = (i, line)
                intercepted = try interceptor.value(for: key, &self)
                if intercepted == nil { (i, line) = (start, startLine) }
            }
            if let intercepted {
                value = intercepted
            } else {
                switch bytes[i] {
                case UInt8(ascii: "["):
                    guard stack.count < JSON.maximumDepth else { throw nestingTooDeep() }
                    i += 1
                    skipWhitespace()
                    if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        value = .array([])
                        break
                    }
                    stack.append(.array)
                    arrays.append([])
                    continue
                case UInt8(ascii: "{"):
                    guard stack.count < JSON.maximumDepth else { throw nestingTooDeep() }
                    i += 1
                    skipWhitespace()
                    if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        value = .object([])
                        break
                    }
                    stack.append(.object(key: try memberName()))
                    objects.append([])
                    continue
                case UInt8(ascii: "\""):
                    value = .string(try string())
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = .number(try number())
                case UInt8(ascii: "t"):
                    try literal("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try literal("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try literal("null")
                    value = .null
                default:
                    throw fail(describeHere() + " where a value should be")
                }
            }
            // A value is complete: put it into its container, closing containers as they end.
            while true {
                guard let frame = stack.last else {
                    skipWhitespace()
                    guard i == bytes.count else { throw fail(describeHere() + " after the end of the document") }
                    return value
                }
                skipWhitespace()
                let next: UInt8? = i < bytes.count ? bytes[i] : nil
                switch frame {
                case .array:
                    arrays[arrays.count - 1].append(value)
                    if next == UInt8(ascii: ",") {
                        i += 1
                    } else if next == UInt8(ascii: "]") {
                        i += 1
                        stack.removeLast()
                        value = .array(arrays.removeLast())
                        continue
                    } else {
                        throw fail(describeHere() + " where ',' or ']' should be")
                    }
                case .object(let key):
                    objects[objects.count - 1].append((key, value))
                    if next == UInt8(ascii: ",") {
                        i += 1
                        skipWhitespace()
                        stack[stack.count - 1] = .object(key: try memberName())
                    } else if next == UInt8(ascii: "}") {
                        i += 1
                        stack.removeLast()
                        value = .object(objects.removeLast())
                        continue
                    } else {
                        throw fail(describeHere() + " where ',' or '}' should be")
                    }
                }
                break
            }
        }
    }

    func nestingTooDeep() -> FormatError {
        .malformed(path: path, reason: "line \(line): JSON nesting is deeper than \(JSON.maximumDepth) levels (the limit)")
    }

    /// An object key and the `:` after it.
    mutating func memberName() throws(FormatError) -> String {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
            throw fail(describeHere() + " where a member name in double quotes should be")
        }
        let k = try string()
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail(describeHere() + " where ':' should be") }
        i += 1
        return k
    }

    package mutating func literal(_ word: StaticString) throws(FormatError) {
        let count = word.utf8CodeUnitCount
        guard i + count <= bytes.count else { throw fail(describeHere() + " where a value should be") }
        for k in 0..<count where bytes[i + k] != word.utf8Start[k] {
            throw fail(describeHere() + " where a value should be")
        }
        i += count
    }

    /// A number of JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`,
    /// its value read by `NumberText`.
    package mutating func number() throws(FormatError) -> Double {
        let start = i
        func digit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "9") }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { throw fail("'-' without digits") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if digit(i) { throw fail("a number with a leading zero") }
        } else {
            while digit(i) { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { throw fail("a number with no digits after '.'") }
            while digit(i) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { throw fail("a number with no digits in its exponent") }
            while digit(i) { i += 1 }
        }
        // Read where it lies (bit for bit NumberText.double of the same text, without a String).
        if i - start <= NumberText.maxLength, let value = NumberText.double(bytes: UnsafeBufferPointer(rebasing: bytes[start..<i])) {
            return value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = NumberText.double(text) else {
            throw fail(
                text.utf8.count > NumberText.maxLength
                    ? "a number longer than \(NumberText.maxLength) characters"
                    : "\(text) is beyond the range of a double")
        }
        return value
    }

    /// A string: `i` is at its opening quote; on return, just past its closing quote.
    package mutating func string() throws(FormatError) -> String {
        i += 1
        var result = ""
        var runStart = i
        func flush(_ end: Int) throws(FormatError) {
            guard end > runStart else { return }
            guard let run = String(validating: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self) else {
                throw fail("a string that is not valid UTF-8")
            }
            result += run
        }
        while true {
            guard i < bytes.count else { throw fail("a string without its closing '\"'") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                try flush(i)
                i += 1
                return result
            }
            if b < 0x20 {
                throw fail(b == 0 ? "a NUL byte in a string" : b == 0x0A ? "a line break in a string" : "a control byte in a string")
            }
            if b != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            try flush(i)
            i += 1
            guard i < bytes.count else { throw fail("a string without its closing '\"'") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): result += "\""
            case UInt8(ascii: "\\"): result += "\\"
            case UInt8(ascii: "/"): result += "/"
            case UInt8(ascii: "b"): result += "\u{08}"
            case UInt8(ascii: "f"): result += "\u{0C}"
            case UInt8(ascii: "n"): result += "\n"
            case UInt8(ascii: "r"): result += "\r"
            case UInt8(ascii: "t"): result += "\t"
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("a \\u escape with a lone surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("a \\u escape with a lone surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw fail("a \\u escape with a lone surrogate")
                }
                guard code != 0 else { throw fail("a NUL character (\\u0000) in a string") }
                guard let scalar = Unicode.Scalar(code) else { throw fail("a \\u escape that is not a character") }
                result.unicodeScalars.append(scalar)
            default:
                i -= 1
                throw fail("an unknown escape '\\\(describeEscape(e))' in a string")
            }
            runStart = i
        }
    }

    func describeEscape(_ b: UInt8) -> String {
        b >= 0x21 && b < 0x7F ? String(Character(Unicode.Scalar(b))) : "0x" + String(b, radix: 16, uppercase: true)
    }

    /// Four hexadecimal digits of a `\u` escape.
    mutating func hex4() throws(FormatError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("a \\u escape without four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let v: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = b - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape without four hex digits")
            }
            code = code << 4 | UInt32(v)
            i += 1
        }
        return code
    }
}
