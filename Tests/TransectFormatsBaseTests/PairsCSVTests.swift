import Foundation
import Testing
import TransectGeodesy
import TransectTestSupport
@testable import TransectFormats
@testable import TransectFormatsBase

@Suite("pairs CSV: streamed rows, bounded lines, NUL bytes refused")
struct PairsCSVTests {
    func rows(_ text: String) throws(FormatError) -> [PairsReader.Row] {
        let reader = try PairsReader(data: Data(text.utf8), name: "p.csv")
        var out: [PairsReader.Row] = []
        while let row = try reader.next() { out.append(row) }
        return out
    }

    @Test("header with BOM and spaces, ids or row numbers, blank lines skipped, CRLF, quoted fields")
    func rowsAndIds() throws {
        let reader = try PairsReader(
            data: Data("\u{FEFF} ID , from_lon,from_lat,to_lon,to_lat,from_z\r\n\"a,1\",1,2,3,4,5\r\n\n  \nb,-1e1,2.5,3,4,\r\n".utf8), name: "p.csv")
        #expect(reader.required == [1, 2, 3, 4] && reader.idColumn == 0 && reader.fromZColumn == 5 && reader.toZColumn == nil)
        let a = try #require(try reader.next())
        #expect(a == PairsReader.Row(line: 2, number: 1, id: "a,1", fields: ["a,1", "1", "2", "3", "4", "5"]))
        let coordinates = try reader.coordinates(a.fields).get()
        #expect(coordinates.xs == [1, 3] && coordinates.ys == [2, 4])
        #expect(try reader.heights(a.fields).get() == (5, nil))
        let b = try #require(try reader.next())
        #expect(b.line == 5 && b.number == 2 && b.id == "b")
        #expect(try reader.coordinates(b.fields).get().xs == [-10, 3])
        #expect(try reader.heights(b.fields).get() == (nil, nil))
        #expect(try reader.next() == nil)
        let unnamed = try rows("from_lon,from_lat,to_lon,to_lat\n1,2,3,4\n5,6,7,8")
        #expect(unnamed.map(\.id) == ["1", "2"])
    }

    @Test(
        "bad values are row problems, by the one number grammar",
        arguments: [
            ("0x1p3,2,3,4", "from_lon '0x1p3' is not a number"),
            ("nan,2,3,4", "from_lon 'nan' is not a finite number"),
            ("1,2,1e400,4", "to_lon '1e400' is not a finite number"),
            ("1,2,3", "missing to_lat"),
            ("1, ,3,4", "from_lat '' is not a number"),
        ])
    func rowProblems(line: String, problem: String) throws {
        let reader = try PairsReader(data: Data("from_lon,from_lat,to_lon,to_lat\n\(line)\n".utf8), name: "p.csv")
        let row = try #require(try reader.next())
        #expect(throws: PointError.malformed(problem)) { try reader.coordinates(row.fields).get() }
    }

    @Test("no header, a header without the columns, a NUL byte, an overlong line: errors naming the input and line")
    func errors() {
        #expect(throws: FormatError.malformed(path: "p.csv", reason: "empty file, expected a header")) { try rows("") }
        #expect(throws: FormatError.malformed(path: "p.csv", reason: "header lacks 'to_lat' (needs from_lon,from_lat,to_lon,to_lat)")) {
            try rows("from_lon,from_lat,to_lon\n")
        }
        // "37.7\0 5" must never be read as 37.7.
        #expect(throws: FormatError.malformed(path: "p.csv", reason: "line 3 contains a NUL byte")) {
            try rows("from_lon,from_lat,to_lon,to_lat\n1,2,3,4\n37.7\u{0} 5,2,3,4\n")
        }
        let long = String(repeating: "1", count: PairsReader.maximumLineBytes + 2)
        #expect(throws: FormatError.malformed(path: "p.csv", reason: "line 2 is longer than \(PairsReader.maximumLineBytes) bytes")) {
            try rows("from_lon,from_lat,to_lon,to_lat\n" + long + "\n")
        }
        // Exactly at the limit is fine.
        let atLimit = "1,2,3," + String(repeating: "4", count: PairsReader.maximumLineBytes - 6)
        #expect((try? rows("from_lon,from_lat,to_lon,to_lat\n" + atLimit + "\r\n"))?.count == 1)
    }

    @Test("files: read in chunks across buffer boundaries; a directory, a missing file; /dev/zero fails at its first line")
    func files() throws {
        let dir = TemporaryDirectory()
        var text = "id,from_lon,from_lat,to_lon,to_lat\n"
        for k in 0..<20_000 { text += "row\(k),\(k % 180).125,\(k % 90).5,1,2\n" }
        try text.write(toFile: dir.file("p.csv"), atomically: true, encoding: .utf8)
        let reader = try PairsReader(path: dir.file("p.csv"))
        var count = 0
        var last: PairsReader.Row?
        while let row = try reader.next() {
            count += 1
            #expect(row.fields.count == 5)
            last = row
        }
        #expect(count == 20_000 && last?.id == "row19999" && last?.line == 20_001)
        #expect(throws: FormatError.cannotRead(path: dir.path, reason: "is a directory")) { try PairsReader(path: dir.path) }
        #expect(throws: FormatError.cannotRead(path: dir.file("none.csv"), reason: "no such file or directory")) {
            try PairsReader(path: dir.file("none.csv"))
        }
        // A device is refused before it is read (it would never end), and so is a FIFO (whose
        // open waits for a writer); an endless first line in a regular file fails at that line.
        #expect(throws: FormatError.cannotRead(path: "/dev/zero", reason: "is a character device, not a regular file")) {
            try PairsReader(path: "/dev/zero")
        }
        #expect(mkfifo(dir.file("fifo.csv"), 0o600) == 0)
        #expect(throws: FormatError.cannotRead(path: dir.file("fifo.csv"), reason: "is a FIFO (named pipe), not a regular file")) {
            try PairsReader(path: dir.file("fifo.csv"))
        }
        try Data(repeating: UInt8(ascii: "a"), count: PairsReader.maximumLineBytes + 10).write(to: URL(fileURLWithPath: dir.file("long.csv")))
        #expect(throws: FormatError.malformed(path: dir.file("long.csv"), reason: "line 1 is longer than \(PairsReader.maximumLineBytes) bytes")) {
            try PairsReader(path: dir.file("long.csv"))
        }
    }

    @Test("CSV fields are quoted only when they must be")
    func fields() {
        #expect(CSVLine.field("plain") == "plain")
        #expect(CSVLine.field("a,b") == "\"a,b\"" && CSVLine.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVLine.split(CSVLine.field("x,\"y\"") + ",z") == ["x,\"y\"", "z"])
    }
}
