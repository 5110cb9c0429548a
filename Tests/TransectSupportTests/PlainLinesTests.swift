import Testing
import TransectSupport
import TransectTestSupport

/// The bulk line scan against the rule it implements, checked one line at a time.
@Suite struct PlainLinesTests {
    /// The plain lines at the start of `bytes`, line by line: each must end with an LF before
    /// the last whole 32 bytes end, hold no NUL, be at most `maxLineBytes` bytes (the scan may
    /// stop earlier on a long line, never later) and begin with a byte below 0x80 that is not
    /// LF, CR, space or tab.
    static func reference(_ bytes: [UInt8], maxLines: Int, maxLineBytes: Int) -> (lines: Int, bytes: Int) {
        let limit = bytes.count / 32 * 32
        var lines = 0
        var position = 0
        while lines < maxLines && position < limit {
            let first = bytes[position]
            if first == 0x0A || first == 0x0D || first == 0x20 || first == 0x09 || first >= 0x80 { break }
            guard let nl = bytes[position..<limit].firstIndex(of: 0x0A) else { break }
            if bytes[position..<nl].contains(0) || nl - position > maxLineBytes { break }
            lines += 1
            position = nl + 1
        }
        return (lines, position)
    }

    static func scan(_ bytes: [UInt8], maxLines: Int, maxLineBytes: Int) -> (lines: Int, bytes: Int) {
        bytes.withUnsafeBufferPointer { PlainLines.scan($0, maxLines: maxLines, maxLineBytes: maxLineBytes) }
    }

    @Test("random text of every byte class: the scan counts what the line-by-line rule counts, or stops sooner only on a long line")
    func randomText() {
        var random = SeededRandom(seed: 23)
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x20, 0x09, 0x00, 0x80, 0xEF, 0xFF, 0x31, 0x2C, 0x2E, 0x2D, 0x61]
        for trial in 0..<4_000 {
            // Mostly short plain lines, with a rare odd byte, so runs of many lines happen.
            var bytes: [UInt8] = []
            let count = Int.random(in: 0...600, using: &random)
            let oddness = [0, 50, 400][trial % 3]
            while bytes.count < count {
                let length = Int.random(in: 0...40, using: &random)
                for _ in 0..<length {
                    bytes.append(
                        oddness > 0 && Int.random(in: 0..<oddness, using: &random) == 0
                            ? alphabet.randomElement(using: &random) ?? 0x31 : UInt8(Int.random(in: 0x30...0x39, using: &random)))
                }
                bytes.append(0x0A)
            }
            let maxLines = [Int.max, 1, 3, 17][trial % 4]
            let maxLineBytes = [65_536, 60, 33, 20][trial / 4 % 4]
            let got = Self.scan(bytes, maxLines: maxLines, maxLineBytes: maxLineBytes)
            let want = Self.reference(bytes, maxLines: maxLines, maxLineBytes: maxLineBytes)
            if maxLineBytes == 65_536 {
                #expect(got == want, "trial \(trial)")
            } else {
                // With a short limit the scan may stop at a line start before the rule does.
                #expect(got.lines <= want.lines && Self.reference(bytes, maxLines: got.lines, maxLineBytes: maxLineBytes) == got, "trial \(trial)")
            }
        }
    }

    @Test("a line feed in a block's last byte begins the next block's line; each odd first byte stops the scan")
    func blockEdges() {
        // 31 digits and an LF: every block ends a line.
        let line = [UInt8](repeating: 0x35, count: 31) + [0x0A]
        let blocks = Array([[UInt8]](repeating: line, count: 4).joined())
        #expect(Self.scan(blocks, maxLines: .max, maxLineBytes: 65_536) == (4, 128))
        for odd: UInt8 in [0x0A, 0x0D, 0x20, 0x09, 0xC2, 0xEF] {
            var bytes = blocks
            bytes[64] = odd
            #expect(Self.scan(bytes, maxLines: .max, maxLineBytes: 65_536) == (2, 64), "first byte \(odd)")
        }
        var withNUL = blocks
        withNUL[100] = 0
        #expect(Self.scan(withNUL, maxLines: .max, maxLineBytes: 65_536) == (3, 96))
        // Fewer than 32 bytes: nothing is scanned in bulk.
        #expect(Self.scan(Array(line.prefix(16)) + [0x0A], maxLines: .max, maxLineBytes: 65_536) == (0, 0))
        #expect(Self.scan(blocks, maxLines: 3, maxLineBytes: 65_536) == (3, 96))
        #expect(Self.scan(blocks, maxLines: 0, maxLineBytes: 65_536) == (0, 0))
    }
}
