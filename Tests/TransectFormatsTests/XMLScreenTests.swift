import Foundation
import Testing
import TransectAnalysis
import TransectTestSupport
@testable import TransectFormats

@Suite("XML screen: encodings decoded, DTDs, entities and NUL bytes refused anywhere")
struct XMLScreenTests {
    static let body =
        "<gpx version=\"1.1\" creator=\"t\"><trk><name>Caf\u{E9} \u{1F600}</name><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>3</ele></trkpt>\n</trkseg></trk></gpx>\n"
    static let expected = Track(name: "Caf\u{E9} \u{1F600}", segments: [[TrackPoint(longitude: 2, latitude: 1, elevationMetres: 3)]])

    func reason(_ data: Data, path: String = "s.gpx") -> String? {
        do {
            _ = try TrackFile.read(data: data, path: path)
            return nil
        } catch {
            if case .malformed(_, let r) = error { return r }
            return error.message
        }
    }

    @Test("UTF-8 with and without a byte order mark, UTF-16 LE and BE with one: the same track")
    func encodings() throws {
        let utf8 = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + Self.body
        #expect(try TrackFile.read(data: Data(utf8.utf8), path: "a.gpx") == Self.expected)
        #expect(try TrackFile.read(data: Data([0xEF, 0xBB, 0xBF]) + Data(utf8.utf8), path: "a.gpx") == Self.expected)
        let utf16 = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + Self.body
        #expect(try TrackFile.read(data: Data([0xFF, 0xFE]) + utf16.data(using: .utf16LittleEndian)!, path: "le.gpx") == Self.expected)
        #expect(try TrackFile.read(data: Data([0xFE, 0xFF]) + utf16.data(using: .utf16BigEndian)!, path: "be.gpx") == Self.expected)
        // No declaration at all in UTF-16: the byte order mark says it.
        #expect(try TrackFile.read(data: Data([0xFE, 0xFF]) + Self.body.data(using: .utf16BigEndian)!, path: "be.gpx") == Self.expected)
    }

    @Test("ISO-8859-1 is transcoded; US-ASCII is checked byte by byte")
    func singleByte() throws {
        var latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx><trk><name>Caf".utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: "</name><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>".utf8)
        #expect(try TrackFile.read(data: latin1, path: "l.gpx").name == "Caf\u{E9}")
        let ascii = Data(
            "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<gpx><trk><name>Cafe</name><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>".utf8)
        #expect(try TrackFile.read(data: ascii, path: "a.gpx").name == "Cafe")
        var notASCII = Data("<?xml version=\"1.0\" encoding=\"ascii\"?>\n\n<gpx><name>".utf8)
        notASCII.append(0xE9)
        #expect(reason(notASCII) == "line 3: declares encoding US-ASCII but has a byte above 0x7F")
    }

    @Test(
        "a declaration padded past 200 bytes still has its encoding read and refused by name",
        arguments: ["UTF-7", "UTF-32", "EBCDIC-US", "windows-1252", "latin2"])
    func paddedDeclaration(encoding: String) {
        let doc =
            "<?xml version=\"1.0\"" + String(repeating: " ", count: 500) + "\n encoding=\"\(encoding)\"?>\n"
            + "+ADw-!DOCTYPE gpx +AFs- +ADw-!ENTITY x SYSTEM +ACI-file:///etc/passwd+ACI- +AD4- +AF0- +AD4-\n" + Self.body
        #expect(
            reason(Data(doc.utf8)) == "line 1: declares encoding '\(encoding)'; GPX is read as UTF-8, UTF-16 (with a byte order mark), US-ASCII or ISO-8859-1")
    }

    @Test("UTF-16 without a byte order mark, UTF-32, and UTF-16 declaring another encoding are refused")
    func refusedEncodings() {
        #expect(reason("<?xml version=\"1.0\"?><gpx/>".data(using: .utf16LittleEndian)!) == "is UTF-16 XML without a byte order mark; GPX in UTF-16 needs one")
        #expect(reason(Data([0xFF, 0xFE, 0, 0]) + "<gpx/>".data(using: .utf32LittleEndian)!) == "is UTF-32 XML; GPX is read as UTF-8 or UTF-16")
        #expect(reason(Data([0, 0, 0xFE, 0xFF]) + "<gpx/>".data(using: .utf32BigEndian)!) == "is UTF-32 XML; GPX is read as UTF-8 or UTF-16")
        let wrong = Data([0xFF, 0xFE]) + "<?xml version=\"1.0\" encoding=\"UTF-8\"?><gpx/>".data(using: .utf16LittleEndian)!
        #expect(reason(wrong) == "line 1: is UTF-16 (by its byte order mark) but declares encoding 'UTF-8'")
        #expect(reason(Data([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8])) == "is not valid UTF-16 (it ends inside a character)")
        #expect(reason(Data([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xDC])) == "is not valid UTF-16 (a lone surrogate)")
    }

    @Test("DOCTYPE and ENTITY anywhere, in any case, across chunk boundaries, in UTF-16 too, are refused with their line")
    func declarationsAnywhere() {
        let entity = "entity declarations are refused (GPX needs none; entities can expand without bound or read local files)"
        // Far past the start: behind 200 KB of comment, split over the screen's chunks.
        for pad in [FileChunks.chunkBytes - 4, FileChunks.chunkBytes - 1, 3 * FileChunks.chunkBytes] {
            let doc = "<?xml version=\"1.0\"?>\n<!--" + String(repeating: "x", count: pad) + "-->\n<!doctype gpx [\n<!EnTiTy x \"y\">]>\n" + Self.body
            #expect(reason(Data(doc.utf8)) == "line 4: \(entity)")
        }
        let doctype = "<?xml version=\"1.0\"?>\n" + Self.body + "<!-- <!DOCTYPE x> -->\n"
        #expect(reason(Data(doctype.utf8)) == "line 5: DOCTYPE declarations are refused (GPX needs none)")
        let utf16 = Data([0xFE, 0xFF]) + ("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY x \"y\">]>\n" + Self.body).data(using: .utf16BigEndian)!
        #expect(reason(utf16) == "line 2: \(entity)")
    }

    @Test("a NUL byte is refused with its line, in UTF-8 and UTF-16, and the message is whole")
    func nulBytes() {
        let doc = "<?xml version=\"1.0\"?>\n<gpx><trk><trkseg>\n<trkpt lat=\"1\u{0}5\" lon=\"2\"/></trkseg></trk></gpx>"
        #expect(reason(Data(doc.utf8)) == "line 3: contains a NUL byte")
        #expect(reason(Data([0xFF, 0xFE]) + doc.data(using: .utf16LittleEndian)!) == "line 3: contains a NUL byte")
    }

    @Test("a GPX over 10 MB (libxml2's single-chunk limit) streams from a file", .timeLimit(.minutes(1)))
    func largeGPX() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("big.gpx")
        let file = try #require(fopen(path, "w"))
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n", file)
        var points = 0
        var bytes = 0
        while bytes < 10_500_000 {
            let line = "<trkpt lat=\"\(points % 90).5\" lon=\"\(points % 180).25\"/>\n"
            fputs(line, file)
            bytes += line.utf8.count
            points += 1
        }
        fputs("</trkseg></trk></gpx>\n", file)
        fclose(file)
        let track = try TrackFile.read(path: path)
        #expect(track.pointCount == points)
        #expect(track.points.last == TrackPoint(longitude: Double((points - 1) % 180) + 0.25, latitude: Double((points - 1) % 90) + 0.5))
    }

    @Test("a directory and a missing file cannot be read, by name")
    func unreadable() {
        let dir = TemporaryDirectory()
        #expect(throws: FormatError.cannotRead(path: dir.path + "/x.gpx", reason: "no such file")) { try TrackFile.read(path: dir.path + "/x.gpx") }
        try? FileManager.default.createDirectory(atPath: dir.file("d.gpx"), withIntermediateDirectories: false)
        #expect(throws: FormatError.cannotRead(path: dir.file("d.gpx"), reason: "is a directory")) { try TrackFile.read(path: dir.file("d.gpx")) }
    }
}
