import Testing
import TransectCore
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
