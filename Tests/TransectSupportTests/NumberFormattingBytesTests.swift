import Testing
@testable import TransectSupport
import TransectTestSupport

/// The batch writers' numbers must be the bytes `NumberFormatting.shortest(rounded(…))` (what
/// `Fixed.format` writes) gives, for every value.
@Suite("OutputBytes.appendRounded: rounded-then-shortest numbers as bytes")
struct NumberFormattingBytesTests {
    /// The oracle: the text the CSV and JSON writers wrote before, nothing for what is not finite.
    static func expected(_ value: Double, _ decimals: Int) -> String {
        value.isFinite ? NumberFormatting.shortest(NumberFormatting.rounded(value, decimals: decimals)) : ""
    }

    static func bytes(_ value: Double, _ decimals: Int) -> String {
        var out = OutputBytes()
        out.appendRounded(value, decimals: decimals)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test(
        "closed forms: zeros, negative zero, halfway cases, exponent forms, whole numbers, large values, non-finite",
        arguments: [
            (0.0, 6, "0"), (-0.0, 6, "0"), (-0.0000004, 6, "0"), (-0.0000005, 6, "-1e-06"), (2.5, 0, "3"), (-2.5, 0, "-3"),
            (0.125, 2, "0.13"), (1.005, 2, "1"), (1200.0, 6, "1200"), (-119.5234567, 4, "-119.5235"), (0.0001, 9, "0.0001"),
            (0.00001234, 9, "1.234e-05"), (0.00009, 6, "9e-05"), (123456.789, 9, "123456.789"), (4.4e14, 0, "440000000000000"),
            (1e15, 0, "1000000000000000.0"), (4.6e15, 1, "4600000000000000.0"), (1e300, 6, "1e+300"), (.nan, 6, ""), (.infinity, 9, ""),
            (-.infinity, 2, ""),
        ] as [(Double, Int, String)])
    func closedForms(value: Double, decimals: Int, text: String) {
        #expect(Self.bytes(value, decimals) == text)
        #expect(Self.expected(value, decimals) == text)
    }

    @Test("millions of seeded values at every decimal count: coordinates, lengths, tiny and huge magnitudes, ties")
    func seeded() {
        var random = SeededRandom(seed: 0xF0_4A77)
        var mismatches: [String] = []
        var out = OutputBytes()
        func check(_ value: Double, _ decimals: Int) {
            out.removeAll()
            out.appendRounded(value, decimals: decimals)
            let got = String(decoding: out.bytes, as: UTF8.self)
            let want = Self.expected(value, decimals)
            if got != want { mismatches.append("\(value) at \(decimals): \(got) ≠ \(want)") }
        }
        for n in 0..<2_000_000 {
            let decimals = n % 10
            let value: Double
            switch n % 8 {
            case 0: value = random.uniform(-180, 180)
            case 1: value = random.uniform(-20_000_000, 20_000_000)
            case 2: value = random.tiny(0, 12)
            case 3: value = Double(bitPattern: random.next())
            case 4:
                // A tie at this decimal count, written in binary as near as it goes.
                value = (Double(random.below(2_000_000_000)) + 0.5) / [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][decimals]
            case 5: value = random.sign() * random.uniform(1e12, 1e16)
            case 6: value = Double(random.below(1 << 20)) * random.sign()
            default: value = random.uniform(-5000, 9000)
            }
            check(value, decimals)
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(8))")
    }

    @Test("a buffer that grows many times keeps every byte written before")
    func growth() {
        var out = OutputBytes(capacity: 3)
        var text = ""
        for k in 0..<50_000 {
            out.append(integer: k * 7919 - 100_000)
            out.append(",")
            text += "\(k * 7919 - 100_000),"
        }
        #expect(out.bytes == Array(text.utf8))
    }

    @Test("integers and raw text append as their decimal digits")
    func integers() {
        var out = OutputBytes()
        for v in [0, 7, -7, 1_234_567_890, Int.max, Int.min] {
            out.append(integer: v)
            out.append(",")
        }
        #expect(String(decoding: out.bytes, as: UTF8.self) == "0,7,-7,1234567890,\(Int.max),\(Int.min),")
        out.truncate(to: 2)
        #expect(out.bytes == Array("0,".utf8))
    }
}

/// The byte writer against the one it replaced (kept as `referenceAppendRounded`), which the
/// suite above holds to `NumberFormatting`: the same bytes for every value.
@Suite("OutputBytes.appendRounded against its reference writer")
struct NumberFormattingBytesReferenceTests {
    /// Both writers' texts of `value` at `decimals`, each appended after a marker into one buffer
    /// (so that the scratch bytes a writer leaves past its text are seen to be overwritten).
    static func texts(_ value: Double, _ decimals: Int, into fast: inout OutputBytes, _ reference: inout OutputBytes) -> (String, String) {
        fast.append(UInt8(ascii: "|"))
        fast.appendRounded(value, decimals: decimals)
        reference.append(UInt8(ascii: "|"))
        reference.referenceAppendRounded(value, decimals: decimals)
        return (String(decoding: fast.bytes, as: UTF8.self), String(decoding: reference.bytes, as: UTF8.self))
    }

    /// Checks each value at each decimal count, both writers appending to one buffer each
    /// (numbers separated by commas, so the texts must also concatenate the same), and returns
    /// the first mismatches.
    static func mismatches(_ values: [Double], decimals: ClosedRange<Int> = 0...9) -> [String] {
        var found: [String] = []
        var fast = OutputBytes()
        var reference = OutputBytes()
        func compare(_ chunk: ArraySlice<Double>) {
            fast.removeAll()
            reference.removeAll()
            for value in chunk {
                for d in decimals {
                    fast.appendRounded(value, decimals: d)
                    fast.append(UInt8(ascii: ","))
                    reference.referenceAppendRounded(value, decimals: d)
                    reference.append(UInt8(ascii: ","))
                }
            }
            guard fast.bytes != reference.bytes else { return }
            // Find the values, one at a time.
            for value in chunk {
                for d in decimals where found.count < 8 {
                    var (a, b) = (OutputBytes(), OutputBytes())
                    a.appendRounded(value, decimals: d)
                    b.referenceAppendRounded(value, decimals: d)
                    let (x, y) = (String(decoding: a.bytes, as: UTF8.self), String(decoding: b.bytes, as: UTF8.self))
                    if x != y { found.append("\(value) (bits \(value.bitPattern)) at \(d): \(x) ≠ \(y)") }
                }
            }
            if found.isEmpty { found.append("the concatenated bytes differ near \(chunk.first ?? 0)") }
        }
        var start = 0
        while start < values.count && found.isEmpty {
            let end = min(values.count, start + 10_000)
            compare(values[start..<end])
            start = end
        }
        return found
    }

    @Test(
        "closed forms: zero, negative zero, ties, the 10⁻⁴ exponent boundary, 10¹⁵, non-finite",
        arguments: [
            (0.0, 6, "0"), (-0.0, 9, "0"), (-0.0000004, 6, "0"), (-0.0000005, 6, "-1e-06"), (0.0001, 8, "0.0001"), (0.00009, 8, "9e-05"),
            (0.5, 0, "1"), (-0.5, 0, "-1"), (0.125, 2, "0.13"), (-0.375, 2, "-0.38"), (1.005, 2, "1"), (-119.5234567, 9, "-119.5234567"),
            (37.000000001, 9, "37.000000001"), (12345678.9, 1, "12345678.9"), (123456789012.5, 2, "123456789012.5"),
            (999_999_999_999_998.0, 0, "999999999999998"), (999_999_999_999_999.0, 0, "999999999999999"), (1e15, 0, "1000000000000000.0"),
            (1e15, 6, "1000000000000000.0"), (9.87654321e8, 6, "987654321"), (.nan, 6, ""), (-.infinity, 0, ""), (.infinity, 9, ""),
        ] as [(Double, Int, String)])
    func closedForms(value: Double, decimals: Int, text: String) {
        var fast = OutputBytes()
        var reference = OutputBytes()
        let (a, b) = Self.texts(value, decimals, into: &fast, &reference)
        #expect(a == "|" + text)
        #expect(b == "|" + text)
    }

    @Test("exact ties in binary (k + ½ once scaled) and their neighbours, at every decimal count")
    func ties() {
        var random = SeededRandom(seed: 0x71E5)
        var values: [Double] = []
        for n in 0..<150_000 {
            // A dyadic value: k / 2^j is exact, and at d decimals k·10^d / 2^j is a tie for many k, j.
            let j = 1 + n % 12
            let k = Double(random.below(1 << 40)) * random.sign()
            let tie = k / Double(1 << j) / [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][n % 10]
            let dyadic = (Double(random.below(1 << 30)) + 0.5) / Double(1 << j) * random.sign()
            values += [dyadic, dyadic.nextUp, dyadic.nextDown, tie, tie.nextUp, tie.nextDown]
        }
        let found = Self.mismatches(values)
        #expect(found.isEmpty, "\(found)")
    }

    @Test("seeded values: coordinates, lengths, raw bit patterns, tiny, huge, boundaries of the fast path")
    func seeded() {
        var random = SeededRandom(seed: 0xB17E5)
        var values: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .nan, .infinity]
        for e in -12...16 {
            // 10^e and its neighbours: the exponent boundary (10⁻⁴), digit-count steps, 10¹⁵.
            let p =
                (e < 0
                    ? 1 / [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12][-e]
                    : [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16][e])
            for scale in [0.5, 0.95, 0.99999, 1, 1.00001, 4.5, 9.99999] {
                let v = p * scale
                values += [v, -v, v.nextUp, v.nextDown]
            }
        }
        for n in 0..<300_000 {
            switch n % 6 {
            case 0: values.append(random.uniform(-180, 180))
            case 1: values.append(random.uniform(-20_000_000, 20_000_000))
            case 2: values.append(random.tiny(0, 14) * random.sign())
            case 3: values.append(Double(bitPattern: random.next()))
            case 4: values.append(random.sign() * random.uniform(1e8, 1.2e15))
            default: values.append(Double(random.below(100_000_000)) / [1, 1e3, 1e6, 1e9][n % 4] * random.sign())
            }
        }
        let found = Self.mismatches(values)
        #expect(found.isEmpty, "\(found)")
    }

    @Test("eight digits at once are the digits of the number, for every group of the digits")
    func eightDigits() {
        var random = SeededRandom(seed: 8)
        var found: [UInt64] = []
        let edges: [UInt64] = [0, 1, 9, 10, 99, 100, 9999, 10_000, 10_001, 99_999_999, 12_345_678, 10_000_000, 90_000_009]
        for x in edges + (0..<200_000).map({ _ in UInt64(random.below(100_000_000)) }) {
            let digits = OutputBytes.eightDigits(x)
            let text = String(decoding: withUnsafeBytes(of: (digits | 0x3030_3030_3030_3030).littleEndian) { Array($0) }, as: UTF8.self)
            let want = String(repeating: "0", count: 8 - String(x).count) + String(x)
            if text != want { found.append(x) }
        }
        #expect(found.isEmpty, "\(found.prefix(8))")
    }
}
