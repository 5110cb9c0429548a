#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectFormats

/// Reading files whole, with a bound: the JSON, CSV, places and scene readers.
@Suite("bounded file reads")
struct TextInputTests {
    /// A sparse file of `size` bytes starting with `head`: large on paper, nothing on disk.
    static func sparse(_ path: String, head: String, size: Int) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(head.utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    /// Writes `data` into the FIFO at `path` from another thread (opening a FIFO for writing
    /// waits for its reader).
    static func feed(fifo path: String, _ data: Data) {
        DispatchQueue.global().async {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            try? handle.write(contentsOf: data)
            try? handle.close()
        }
    }

    @Test("the limits are named constants: 256 MiB for tracks and places, 1 MiB for scenes")
    func limits() {
        #expect(TextInput.maximumDataFileBytes == 256 << 20)
        #expect(TextInput.maximumSceneFileBytes == 1 << 20)
        #expect(TextInput.describe(bytes: 256 << 20) == "256 MiB")
        #expect(TextInput.describe(bytes: 64 << 10) == "64 KiB")
        #expect(TextInput.describe(bytes: 1000) == "1000 bytes")
    }

    @Test("a regular file over the limit is refused by size, naming the file and the limit")
    func oversizedFiles() throws {
        let dir = TemporaryDirectory()
        let track = dir.file("big.csv")
        let places = dir.file("big-places.csv")
        let scene = dir.file("big.json")
        try Self.sparse(track, head: "lon,lat\n1,2\n", size: TextInput.maximumDataFileBytes + 1)
        try Self.sparse(places, head: "name,lon,lat\na,1,2\n", size: TextInput.maximumDataFileBytes + 1)
        try Self.sparse(scene, head: "{}", size: TextInput.maximumSceneFileBytes + 1)
        #expect(throws: FormatError.cannotRead(path: track, reason: "is larger than 256 MiB, the limit for track files")) {
            try TrackFile.read(path: track)
        }
        #expect(throws: FormatError.cannotRead(path: places, reason: "is larger than 256 MiB, the limit for places files")) {
            try PlaceFile.read(path: places)
        }
        #expect(throws: FormatError.cannotRead(path: scene, reason: "is larger than 1 MiB, the limit for scene files")) {
            try SceneFile.arguments(path: scene, knownOptions: [], flags: [])
        }
        // At the limit exactly, a scene is read (and its spaces are JSON white space).
        #expect(FileManager.default.createFile(atPath: scene, contents: Data("{}".utf8)))
        try Data(repeating: UInt8(ascii: " "), count: TextInput.maximumSceneFileBytes - 2).append(to: scene)
        #expect(try SceneFile.arguments(path: scene, knownOptions: [], flags: []) == [])
    }

    @Test("/dev/zero is refused at its first chunk, not read until memory runs out")
    func devZero() throws {
        // As a track, its first byte (0, as UTF-16/32 XML begins) sends it to the GPX screen.
        let track = try #require(throws: FormatError.self) { try TrackFile.read(path: "/dev/zero") }
        #expect(track == .malformed(path: "/dev/zero", reason: "is not XML (it does not start with '<')"))
        let error = try #require(throws: FormatError.self) { try PlaceFile.read(path: "/dev/zero") }
        #expect(error.message.contains("NUL"), "\(error.message)")
        // A scene file must be a regular file: a device is refused before it is read.
        #expect(throws: FormatError.cannotRead(path: "/dev/zero", reason: "is a character device, not a regular file")) {
            try SceneFile.arguments(path: "/dev/zero", knownOptions: [], flags: [])
        }
    }

    @Test("a device or pipe is read in chunks up to the limit and then refused")
    func deviceOverLimit() {
        #expect(throws: FormatError.cannotRead(path: "/dev/zero", reason: "is larger than 1000 bytes, the limit for tests")) {
            try TextInput.contents(path: "/dev/zero", limit: 1000, kind: "tests")
        }
    }

    @Test("a directory and a missing file are refused by name, by every reader")
    func directories() {
        let dir = TemporaryDirectory()
        for path in [dir.path, dir.file("none")] {
            let reason = path == dir.path ? "is a directory" : "no such file"
            #expect(throws: FormatError.cannotRead(path: path, reason: reason)) { try TrackFile.read(path: path) }
            #expect(throws: FormatError.cannotRead(path: path + ".gpx", reason: reason == "is a directory" ? "no such file" : reason)) {
                try TrackFile.read(path: path + ".gpx")
            }
            #expect(throws: FormatError.cannotRead(path: path, reason: reason)) { try PlaceFile.read(path: path) }
            #expect(throws: FormatError.cannotRead(path: path, reason: reason)) { try SceneFile.arguments(path: path, knownOptions: [], flags: []) }
        }
    }

    @Test("GPX found by its content (no .gpx extension) is streamed like a .gpx file, not read whole")
    func sniffedGPXIsStreamed() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("track.dat")
        let gpx = #"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#
        try gpx.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try TrackFile.read(path: path).pointCount == 1)
        // Past the limit for files read whole: streamed, the screen meets the NUL bytes after
        // the document in its second chunk and refuses them; read whole, the size would be refused.
        try Self.sparse(path, head: gpx, size: TextInput.maximumDataFileBytes + 1)
        let error = try #require(throws: FormatError.self) { try TrackFile.read(path: path) }
        #expect(error.message.contains("NUL"), "\(error.message)")
        #expect(!error.message.contains("larger than"), "\(error.message)")
    }

    @Test("GPX from a FIFO (size 0) with more than 4 KiB of text is read: the text bound counts bytes read, not st_size")
    func gpxFromFIFO() throws {
        let dir = TemporaryDirectory()
        let description = String(repeating: "A walk along the river. ", count: 1000)  // 24 KB of text
        var gpx = #"<?xml version="1.0"?><gpx version="1.1"><metadata><desc>\#(description)</desc></metadata><trk><trkseg>"#
        for k in 0..<2000 { gpx += #"<trkpt lat="\#(Double(k) / 1000)" lon="2"><ele>\#(k)</ele></trkpt>"# + "\n" }
        gpx += "</trkseg></trk></gpx>\n"
        for name in ["t.gpx", "t.dat"] {
            let fifo = dir.file(name)
            #expect(mkfifo(fifo, 0o600) == 0)
            Self.feed(fifo: fifo, Data(gpx.utf8))
            let track = try TrackFile.read(path: fifo)
            #expect(track.pointCount == 2000, "\(name)")
            #expect(track.segments.first?.last?.elevationMetres == 1999, "\(name)")
        }
    }

    @Test("a CSV track from a FIFO is read whole, like a file")
    func csvFromFIFO() throws {
        let dir = TemporaryDirectory()
        let fifo = dir.file("t.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        Self.feed(fifo: fifo, Data("lon,lat,ele\n1,2,3\n4,5,6\n".utf8))
        #expect(try TrackFile.read(path: fifo).pointCount == 2)
    }

    @Test("head(_:) hands its bytes out again, then the rest of the file")
    func head() throws {
        let dir = TemporaryDirectory()
        let bytes = (0..<(FileChunks.chunkBytes * 2 + 5)).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("b")))
        let source = try FileChunks(path: dir.file("b"))
        let head = try source.head(FileChunks.chunkBytes + 1)
        #expect(head == Array(bytes.prefix(2 * FileChunks.chunkBytes)))
        #expect(try source.head(10) == head)
        var all: [UInt8] = []
        while let chunk = try source.next() { all += chunk }
        #expect(all == bytes)
    }
}

extension Data {
    /// Appends to the file at `path`.
    func append(to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
        try handle.close()
    }
}
