import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TransectAnalysis
import TransectGeodesy

// MARK: - GPX

/// GPX 1.0/1.1 through Foundation's `XMLParser`, fed through an `XMLScreen` (encodings
/// decoded to UTF-8; DOCTYPE, entities and NUL bytes refused) chunk by chunk: a file of any size
/// is read with bounded memory.
///
/// Why chunks: on Linux, `XMLParser(data:)` hands libxml2 the whole document as one push-parser
/// chunk, and libxml2 (without `XML_PARSE_HUGE`, which we do not want) refuses a chunk over its
/// 10,000,000-byte lookup limit ("huge input lookup", reported as a not-well-formed document).
/// `XMLParser(stream:)` feeds small chunks, which libxml2 takes at any total size.
enum GPXReader {
    /// Reads GPX from a file, streaming it.
    static func read(path: String) throws(FormatError) -> Track {
        try read(try FileChunks(path: path))
    }

    /// Reads GPX from an open file (a regular file, a pipe or a device), streaming it.
    static func read(_ source: FileChunks) throws(FormatError) -> Track {
        let input = ScreenedXMLStream(path: source.path) { () throws(FormatError) -> [UInt8]? in try source.next() }
        return try parse(input, path: source.path)
    }

    /// Reads GPX from bytes in memory.
    static func read(_ data: Data, path: String, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        var offset = data.startIndex
        let input = ScreenedXMLStream(path: path) { () throws(FormatError) -> [UInt8]? in
            guard offset < data.endIndex else { return nil }
            let end = data.index(offset, offsetBy: min(FileChunks.chunkBytes, data.endIndex - offset))
            defer { offset = end }
            return [UInt8](data[offset..<end])
        }
        return try parse(input, path: path, pointLimit: pointLimit)
    }

    /// The XML parser stage alone, without the screen (for tests of the parser's own defences).
    static func parse(_ data: Data, path: String) throws(FormatError) -> Track {
        try parse(InputStream(data: data), path: path, inputBytes: { data.count })
    }

    /// The most text one `name`, `ele` or `time` element may hold: 64 KiB. A longer one is
    /// refused, not cut: no GPX writer makes a name that long, and a cut one would be quietly
    /// wrong. Other elements' text is not kept, so it needs no limit of its own.
    static let maximumElementTextBytes = 64 * 1024

    /// libxml2's error codes (`xmlParserErrors`) that a broken GPX file is likely to meet.
    static func xmlErrorDescription(_ code: Int) -> String {
        switch code {
        case 4: "no content"
        case 5: "unexpected end or extra content"
        case 9: "invalid character"
        case 23: "unescaped '&'"
        case 26: "undeclared entity"
        case 38, 39, 40, 41: "bad attribute"
        case 68: "name expected"
        case 73: "'>' expected"
        case 76: "mismatched tag"
        case 77: "unclosed tag"
        case 89: "entity loop"
        case 111: "entity expands too much"
        default: "libxml2 error \(code)"
        }
    }

    /// Parses screened GPX.
    static func parse(_ stream: ScreenedXMLStream, path: String, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        try parse(stream, path: path, inputBytes: { [unowned stream] in stream.deliveredBytes }, pointLimit: pointLimit)
    }

    /// Parses GPX with `XMLParser` from a stream (external entities off; any entity or DTD
    /// declaration aborts). `inputBytes` says how many bytes the parser has been given so far.
    static func parse(
        _ stream: InputStream, path: String, inputBytes: @escaping () -> Int,
        pointLimit: Int = TrackFile.maximumPoints
    ) throws(FormatError) -> Track {
        let parser = XMLParser(stream: stream)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = true
        let handler = GPXHandler(path: path, inputBytes: inputBytes, pointLimit: pointLimit)
        handler.input = stream as? ScreenedXMLStream
        parser.delegate = handler
        let ok = parser.parse()
        if let screened = stream as? ScreenedXMLStream {
            if let error = screened.error { throw error }
            if !screened.reachedEnd && handler.error == nil && handler.xmlError == nil {
                throw .malformed(path: path, reason: "is not well-formed XML (the parser stopped early)")
            }
        }
        if let error = handler.error { throw error }
        // swift-corelibs-foundation's parser recovers from some errors and still returns true:
        // any error reported, at any point, makes the file malformed.
        if !ok || parser.parserError != nil || handler.xmlError != nil {
            let (code, line) = handler.xmlError ?? ((parser.parserError as NSError?)?.code ?? 0, parser.lineNumber)
            throw .malformed(path: path, reason: "line \(line): is not well-formed XML (\(xmlErrorDescription(code)))")
        }
        guard handler.sawRoot else { throw .malformed(path: path, reason: "is not GPX (no root element)") }
        guard handler.closedRoot else {
            throw .malformed(
                path: path, reason: "line \(parser.lineNumber): is not well-formed XML (it ends inside <\((handler.openElement ?? "gpx").printable)>)")
        }
        return Track(
            name: handler.trackName ?? handler.routeName ?? handler.fileName,
            segments: handler.segments, waypoints: handler.waypoints)
    }
}

/// The `XMLParser` delegate that builds a track from GPX elements.
private final class GPXHandler: NSObject, XMLParserDelegate {
    let path: String
    var error: FormatError?
    /// The first error libxml2 reported: its code and line.
    var xmlError: (code: Int, line: Int)?
    var sawRoot = false
    /// True once the root element's end tag was read (corelibs' stream parsing never tells
    /// libxml2 the input ended, so a truncated document must be caught here).
    var closedRoot = false
    var openElement: String? { stack.last }
    /// The screened input, stopped when the parse fails so the rest is not read for nothing.
    weak var input: ScreenedXMLStream?
    /// Text reported so far, in UTF-8 bytes. The parser reports only text it has read, and
    /// without entities text is never longer than the markup that holds it, so text beyond the
    /// bytes given to the parser (plus one chunk of slack) means entities are expanding: a
    /// guard behind the DOCTYPE refusal, should that ever be bypassed. Counting bytes read
    /// rather than the file's size holds for pipes too, whose size is 0.
    private var textBytes = 0
    private let inputBytes: () -> Int
    /// Track points and waypoints read so far, and the most allowed (`TrackFile.maximumPoints`).
    private var pointCount = 0
    private let pointLimit: Int

    var segments: [[TrackPoint]] = []
    var waypoints: [Waypoint] = []
    /// The first name of a track (`trk`) and of a route (`rte`) that has points, and the
    /// file's own (`metadata`, or `gpx` in GPX 1.0). A track without points gives no name: a
    /// logger's empty first `ACTIVE LOG` does not name the walk recorded after it.
    var trackName: String?, routeName: String?, fileName: String?
    /// The open `trk` or `rte`: its first name and whether a point was read in it.
    private var openName: String?
    private var openHasPoints = false

    /// Local names of the open elements.
    private var stack: [String] = []
    /// How many `<extensions>` elements are open: their content is skipped.
    private var extensionDepth = 0
    private var segment: [TrackPoint]?
    private var point: TrackPoint?
    private var waypointName: String?
    private var text = ""
    private var collecting = false

    init(path: String, inputBytes: @escaping () -> Int, pointLimit: Int) {
        self.path = path
        self.pointLimit = pointLimit
        self.inputBytes = inputBytes
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        guard error == nil else { return }
        error = .malformed(path: path, reason: "line \(parser.lineNumber): \(reason)")
        abort(parser)
    }

    private var parent: String? { stack.count >= 2 ? stack[stack.count - 2] : nil }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let name = elementName
        stack.append(name)
        guard error == nil else { return }
        if stack.count == 1 {
            sawRoot = true
            if name != "gpx" { fail(parser, "is not GPX (the root element is <\((qualifiedName ?? name).printable)>)") }
            return
        }
        if name == "extensions" || extensionDepth > 0 {
            if name == "extensions" { extensionDepth += 1 }
            return
        }
        switch (name, parent) {
        case ("trk", "gpx"):
            openName = nil
            openHasPoints = false
        case ("rte", "gpx"):
            openName = nil
            openHasPoints = false
            segment = []
        case ("trkseg", "trk"):
            segment = []
        case ("trkpt", "trkseg"), ("rtept", "rte"), ("wpt", "gpx"):
            guard let latText = attributes["lat"] else { return fail(parser, "\(name) has no lat") }
            guard let lonText = attributes["lon"] else { return fail(parser, "\(name) has no lon") }
            guard let lat = TrackFile.number(latText) else { return fail(parser, "\(name) lat '\(latText.printable)' is not a number") }
            guard let lon = TrackFile.number(lonText) else { return fail(parser, "\(name) lon '\(lonText.printable)' is not a number") }
            if let problem = TrackFile.rangeProblem(longitude: lon, latitude: lat) { return fail(parser, "\(name) \(problem)") }
            pointCount += 1
            if pointCount > pointLimit { return fail(parser, TrackFile.tooManyPoints(pointLimit)) }
            point = TrackPoint(longitude: lon, latitude: lat)
            waypointName = nil
        case ("ele", _), ("time", _), ("name", _):
            text = ""
            collecting = true
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            stack.removeLast()
            if stack.isEmpty { closedRoot = true }
        }
        guard error == nil else { return }
        if extensionDepth > 0 {
            if elementName == "extensions" { extensionDepth -= 1 }
            return
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        collecting = false
        switch (elementName, parent) {
        case ("trk", "gpx"):
            if trackName == nil, openHasPoints { trackName = openName }
        case ("trkseg", "trk"):
            if let segment, !segment.isEmpty { segments.append(segment) }
            segment = nil
        case ("rte", "gpx"):
            if let segment, !segment.isEmpty { segments.append(segment) }
            segment = nil
            if routeName == nil, openHasPoints { routeName = openName }
        case ("trkpt", "trkseg"), ("rtept", "rte"):
            if let point, segment != nil {
                segment?.append(point)
                openHasPoints = true
            }
            point = nil
        case ("wpt", "gpx"):
            if let point { waypoints.append(Waypoint(name: waypointName ?? "", point: point)) }
            point = nil
        case ("ele", "trkpt"), ("ele", "rtept"), ("ele", "wpt"):
            guard !value.isEmpty else { return }
            guard let ele = TrackFile.number(value) else { return fail(parser, "ele '\(value.printable)' is not a number") }
            if let problem = PointArgument.checkHeight(ele, name: "ele") { return fail(parser, problem.text) }
            point?.elevationMetres = ele
        case ("time", "trkpt"), ("time", "rtept"), ("time", "wpt"):
            guard !value.isEmpty else { return }
            guard let t = Timestamp.parseISO8601(value) else { return fail(parser, "time '\(value.printable)' is not an ISO 8601 time") }
            point?.time = t
            point?.timeMicroseconds = Timestamp.parseISO8601Microseconds(value)
        case ("name", "trk"), ("name", "rte"):
            if openName == nil, !value.isEmpty { openName = value }
        case ("name", "wpt"):
            waypointName = value
        case ("name", "metadata"), ("name", "gpx"):
            if fileName == nil, !value.isEmpty { fileName = value }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        collect(parser, string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        collect(parser, String(decoding: block, as: UTF8.self))
    }

    /// Counts text against the bytes read, and keeps it when inside `ele`, `time` or `name`.
    private func collect(_ parser: XMLParser, _ string: String) {
        guard error == nil else { return }
        let count = string.utf8.count
        textBytes += count
        if textBytes > inputBytes() + FileChunks.chunkBytes {
            return fail(parser, "text expands beyond the size of the file (entity expansion is refused)")
        }
        guard collecting else { return }
        if text.utf8.count + count > GPXReader.maximumElementTextBytes {
            return fail(parser, "<\(stack.last ?? "")> has more than \(TextInput.describe(bytes: GPXReader.maximumElementTextBytes)) of text (the limit)")
        }
        text += string
    }

    // Entities and DTDs: refused here too, should one get past the byte scan.

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, "entity declarations are refused (GPX needs none; entities can expand without bound or read local files)")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, "entity declarations are refused (GPX needs none; entities can expand without bound or read local files)")
    }

    func parser(
        _ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
        notationName: String?
    ) {
        fail(parser, "entity declarations are refused (GPX needs none; entities can expand without bound or read local files)")
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(parser, "external entities are refused")
        return nil
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        // Reported after parse() returns, with the line, unless a clearer error came first.
        if xmlError == nil { xmlError = ((parseError as NSError).code, parser.lineNumber) }
        abort(parser)
    }

    private var aborted = false
    /// Stops the parser once (aborting reports an error of its own, which comes back here).
    private func abort(_ parser: XMLParser) {
        guard !aborted else { return }
        aborted = true
        parser.abortParsing()
        input?.stop()
    }
}
