import Foundation
import Testing
import TransectSupport
import TransectFormats
import TransectTestSupport

/// A shard's way to its first row: the survey's checkpoints, and a seek to one of them, land on
/// the row that reading every line before it reaches.
@Suite struct PairsSurveyTests {
    /// A file of 5,000 rows with blank lines, CRLF, a byte order mark line and rows of every
    /// length, written to `dir`.
    static func file(in dir: TemporaryDirectory) throws -> (path: String, rows: Int) {
        let path = dir.file("pairs.csv")
        var random = SeededRandom(seed: 31)
        var text = "id,from_lon,from_lat,to_lon,to_lat\r\n"
        var rows = 0
        while rows < 5_000 {
            switch Int.random(in: 0..<25, using: &random) {
            case 0: text += "\n"
            case 1: text += " \t\r\n"
            case 2: text += "\u{FEFF}\n"
            default:
                rows += 1
                text += "r\(rows),\(Int.random(in: 0...999_999, using: &random)),2,3,4\(rows % 7 == 0 ? "\r\n" : "\n")"
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, rows)
    }

    @Test("the survey counts the rows countRows counts, and each checkpoint is where reading that many rows ends")
    func checkpoints() throws {
        let dir = TemporaryDirectory()
        let (path, rows) = try Self.file(in: dir)
        let survey = try PairsReader.survey(path: path, checkpointRows: 700)
        #expect(survey.rows == rows)
        #expect(try PairsReader.countRows(path: path) == rows)
        #expect(survey.checkpoints.map(\.rows) == Array(stride(from: 700, through: rows, by: 700)))
        #expect(try PairsReader.survey(path: path).checkpoints.isEmpty)
        // Each checkpoint's next row is the one `next()` gives after that many rows.
        let reader = try PairsReader(path: path)
        var byRow: [Int: String] = [:]
        while let row = try reader.next() { byRow[row.number] = row.id }
        for checkpoint in survey.checkpoints {
            let seeking = try PairsReader(path: path)
            try seeking.skip(toRow: checkpoint.rows, survey: survey)
            let next = try #require(try seeking.next())
            #expect(next.number == checkpoint.rows + 1 && next.id == byRow[checkpoint.rows + 1])
        }
    }

    @Test("skip(toRow:) with a survey gives the rows that skipping line by line gives, line numbers included")
    func skipSameAsReading() throws {
        let dir = TemporaryDirectory()
        let (path, rows) = try Self.file(in: dir)
        let survey = try PairsReader.survey(path: path, checkpointRows: 512)
        for target in [0, 1, 511, 512, 513, 1_024, 2_999, rows - 1, rows] {
            let plain = try PairsReader(path: path)
            try plain.skipRows(target)
            let seeking = try PairsReader(path: path)
            try seeking.skip(toRow: target, survey: survey)
            for _ in 0..<3 {
                let a = try plain.next()
                let b = try seeking.next()
                #expect(a == b, "after \(target) rows")
            }
        }
    }
}
