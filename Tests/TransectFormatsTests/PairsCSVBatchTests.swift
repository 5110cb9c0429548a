import Foundation
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectFormats
@testable import TransectGeodesy

/// Lines read by bytes and parsed as columns must give what the row-by-row reader gives: the
/// same rows, numbers bit for bit, ids, problems word for word, and the same line errors.
@Suite("pairs CSV by bytes: batches equal to the row reader")
struct PairsCSVBatchTests {
    /// One reading of a row: its number, id, coordinates (bits) and heights, or the problems.
    struct Reading: Equatable {
        var number: Int
        var id: String
        var coordinates: String
        var heights: String
    }

    static func bits(_ values: [Double?]) -> String {
        values.map { $0.map { String($0.bitPattern, radix: 16) } ?? "-" }.joined(separator: " ")
    }

    /// Row by row, through `next()`, `coordinates` and `heights`.
    static func byRows(_ data: Data) -> (rows: [Reading], error: FormatError?) {
        var rows: [Reading] = []
        do {
            let reader = try PairsReader(data: data, name: "p.csv")
            while let row = try reader.next() {
                let c = reader.coordinates(row.fields)
                let h = reader.heights(row.fields)
                rows.append(
                    Reading(
                        number: row.number, id: row.id,
                        coordinates: (try? c.get()).map { bits([$0.xs[0], $0.ys[0], $0.xs[1], $0.ys[1]]) } ?? "problem: \(c)",
                        heights: (try? h.get()).map { bits([$0.from, $0.to]) } ?? "problem: \(h)"))
            }
        } catch { return (rows, error) }
        return (rows, nil)
    }

    /// By batches of `size` lines, parsed as columns.
    static func byBatches(_ data: Data, size: Int) -> (rows: [Reading], error: FormatError?) {
        var rows: [Reading] = []
        do {
            let reader = try PairsReader(data: data, name: "p.csv")
            let layout = reader.layout
            while let lines = try reader.nextLines(rows: size) {
                let batch = layout.parse(lines)
                for k in 0..<batch.count {
                    let coordinates =
                        batch.coordinateProblems[k].map { "problem: \(Result<Int, PointError>.failure(.malformed($0)))" }
                        ?? bits([batch.xs[2 * k], batch.ys[2 * k], batch.xs[2 * k + 1], batch.ys[2 * k + 1]])
                    let z = [batch.heights[2 * k], batch.heights[2 * k + 1]].map { $0.isNaN ? nil : $0 }
                    let heights = batch.heightProblems[k].map { "problem: \(Result<Int, PointError>.failure(.malformed($0)))" } ?? bits(z)
                    rows.append(Reading(number: batch.number(k), id: batch.id(k), coordinates: coordinates, heights: heights))
                }
            }
        } catch { return (rows, error) }
        return (rows, nil)
    }

    /// The row reader's problems print as `failure(…)`; so do the batch's, through the same type.
    static func expectSame(_ data: Data, size: Int = 3, sourceLocation: SourceLocation = #_sourceLocation) {
        let a = byRows(data)
        let b = byBatches(data, size: size)
        // A line error drops the batch it falls in: compare the rows of whole batches before it.
        let kept = a.error == nil ? a.rows.count : (a.rows.count / size) * size
        #expect(Array(a.rows.prefix(kept)) == b.rows, sourceLocation: sourceLocation)
        #expect(a.error == b.error, sourceLocation: sourceLocation)
    }

    @Test("quotes, CRLF, BOMs, blank lines, spaces, missing and extra fields, bad values, heights, non-ASCII ids")
    func mixedLines() {
        let text = [
            "\u{FEFF} ID , from_lon,from_lat,to_lon,to_lat,from_z,to_z\r",
            "\"a,1\",1,2,3,4,5\r", "", "  \t", "\u{FEFF}", "b,-1e1,2.5,3,4,,", " c , 1 ,\t2\t, 3.25 ,4\r\r", "d,1,2,3",
            "e,0x1p3,2,3,4", "f,nan,2,3,4,1,2", "g,1,2,1e400,4", "h,1, ,3,4", "i,1,2,3,4,1e9,2", "j,1,2,3,4,x,", "k,1,2,3,4,,inf",
            "é,1,2,3,4", "\"q\"\"x\",1,2,3,4", "\"z\u{301}\",1,2,3,4", ",1,2,3,4", "m,1,2,3,4,5,6,7,8", "n", "o,1.7976931348623157e308,2,3,4",
            "p,-0,-0.0,+5.,.5", "r,12345678901234567890123,2,3,4", "s,\"1\",\"2\",3,4", "t,1,2,3,4\r",
        ].joined(separator: "\n")
        for size in [1, 2, 3, 7, 4096] { Self.expectSame(Data(text.utf8), size: size) }
        // Without an id column the row numbers are the ids.
        Self.expectSame(Data("from_lon,from_lat,to_lon,to_lat\n1,2,3,4\n\n5,6,7,8\nx,1,2,3".utf8), size: 2)
    }

    @Test("line errors: a NUL byte, an overlong line, at the same line and after the same rows")
    func lineErrors() {
        Self.expectSame(Data("from_lon,from_lat,to_lon,to_lat\n1,2,3,4\n5,6,7,8\n1,2,3,4\n37.7\u{0}5,2,3,4\n".utf8), size: 3)
        Self.expectSame(Data("from_lon,from_lat,to_lon,to_lat\n1,2,3,4\n5,6,7,8\n37.7\u{0}5,2,3,4\n".utf8), size: 2)
        let long = String(repeating: "1", count: PairsReader.maximumLineBytes + 2)
        Self.expectSame(Data(("from_lon,from_lat,to_lon,to_lat\n1,2,3,4\n" + long + "\n").utf8), size: 1)
    }

    @Test("the hostile pairs corpus, and a seeded corpus of number texts in every column")
    func corpora() throws {
        for file in HostileCorpusTests.files("pairs") {
            let data = try Data(contentsOf: file)
            for size in [1, 2, 4096] { Self.expectSame(data, size: size) }
        }
        var random = SeededRandom(seed: 0xBA7C4)
        var text = "id,from_lon,from_lat,to_lon,to_lat,from_z,to_z\n"
        let pieces = ["-", "+", ".", "e", "E", "0", "1", "5", "9", "7", " ", "x"]
        for k in 0..<20_000 {
            var fields = ["r\(k)"]
            for _ in 0..<6 {
                if random.below(4) == 0 {
                    fields.append((0..<random.below(8)).map { _ in pieces[random.below(pieces.count)] }.joined())
                } else {
                    fields.append(String(random.uniform(-200, 200)) + (random.below(3) == 0 ? "e\(random.below(30) - 15)" : ""))
                }
            }
            text += fields.joined(separator: ",") + "\n"
        }
        Self.expectSame(Data(text.utf8), size: 4096)
    }
}
