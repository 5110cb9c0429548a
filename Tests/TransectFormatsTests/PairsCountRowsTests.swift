import Foundation
import Testing
import TransectCore
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
}
