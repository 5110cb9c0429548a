import Foundation
import Testing
import TransectSupport
import TransectFormats
import TransectTestSupport

/// The shard planner's first pass: the rows counted and, in the same read, every byte of the
/// file seen in order.
@Suite struct PairsCountRowsTests {
    @Test("countRows counts the data rows and its observer sees the file's bytes: the same SHA-256 as a separate read")
    func countAndHashInOnePass() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("pairs.csv")
        // Over 64 KiB, so the reader refills (and grows) its buffer several times; blank lines
        // and CRLF are not rows.
        var text = "from_lon,from_lat,to_lon,to_lat\r\n"
        var rows = 0
        var random = SeededRandom(seed: 7)
        for k in 0..<6_000 {
            if k % 97 == 0 { text += "\n" }
            let a = Double.random(in: -180...180, using: &random)
            let b = Double.random(in: -90...90, using: &random)
            text += "\(a),\(b),\(b / 2),\(a / 2)\(k % 3 == 0 ? "\r\n" : "\n")"
            rows += 1
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        var hash = SHA256()
        var seen = 0
        let counted = try PairsReader.countRows(path: path) { bytes in
            hash.update(bytes)
            seen += bytes.count
        }
        #expect(counted == rows)
        #expect(seen == text.utf8.count)
        #expect(hash.hexDigest == (try SHA256.hexDigest(ofFile: path)))
        #expect(try PairsReader.countRows(path: path) == rows)
    }

    /// The rows `next()` reads, or the error it stops with: what counting must give.
    static func reference(_ path: String) -> Result<Int, FormatError> {
        Result { () throws(FormatError) -> Int in
            let reader = try PairsReader(path: path)
            var rows = 0
            while try reader.next() != nil { rows += 1 }
            return rows
        }
    }

    static func counted(_ path: String) -> Result<Int, FormatError> {
        Result { () throws(FormatError) -> Int in try PairsReader.countRows(path: path) }
    }

    static let header = "from_lon,from_lat,to_lon,to_lat\n"
    static let row = "1,2,3,4"
    static let longest = String(repeating: "9", count: PairsReader.maximumLineBytes)

    /// Bodies after the header: blank lines of every kind, lines whose first byte is not
    /// ASCII, lines at and past the length limit (with and without CRs), NUL bytes early and
    /// late, a last line without a break.
    static let bodies: [(name: String, text: String)] = [
        ("plain rows", String(repeating: row + "\n", count: 5)),
        ("no break after the last row", row + "\n" + row),
        ("blank kinds", "\n \n\t\n\r\n\r\r\n \t \r\n" + row + "\n\u{FEFF}\n\u{FEFF} \t\n\u{A0}\n é\n"),
        ("a last line of CRs", row + "\n\r\r"),
        ("the longest line", longest + "\n" + row + "\n"),
        ("the longest line and CRs", longest + "\r\r\n" + row + "\n"),
        ("a line one byte too long", row + "\n" + longest + "9\n" + row + "\n"),
        ("a last line too long without a break", row + "\n" + longest + "99"),
        ("a NUL in a later row", row + "\n" + row + "\n1,\u{0}2,3,4\n" + row + "\n"),
        ("a NUL in a blank line", row + "\n \u{0}\n"),
        ("a NUL at the end", row + "\n" + row + "\u{0}"),
    ]

    @Test("countRows gives next()'s row count, or its error at the same line", arguments: bodies.indices)
    func sameAsNext(_ index: Int) throws {
        let (name, body) = Self.bodies[index]
        let dir = TemporaryDirectory()
        let path = dir.file("pairs.csv")
        try Data((Self.header + body).utf8).write(to: URL(fileURLWithPath: path))
        #expect(Self.counted(path) == Self.reference(path), "\(name)")
    }

    @Test("countRows over several reads: lines cut by the buffer's edge, a NUL in the third MiB")
    func acrossReads() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("pairs.csv")
        var random = SeededRandom(seed: 11)
        var text = Self.header
        while text.utf8.count < 3_500_000 {
            switch Int.random(in: 0..<20, using: &random) {
            case 0: text += " \r\n"
            case 1: text += "\u{FEFF}\n"
            case 2: text += String(repeating: "7", count: Int.random(in: 1...PairsReader.maximumLineBytes, using: &random)) + "\n"
            default: text += "\(Int.random(in: 0...999_999, using: &random)),2,3,4\n"
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let clean = Self.reference(path)
        #expect(Self.counted(path) == clean)
        let total = try #require(try? clean.get())
        #expect(total > 1000)
        var withNUL = Array(text.utf8)
        withNUL[2_500_001] = 0
        try Data(withNUL).write(to: URL(fileURLWithPath: path))
        #expect(Self.counted(path) == Self.reference(path))
    }
}
