import Testing
@testable import TransectSupport
import TransectTestSupport

/// Numbers read where their bytes lie must be `NumberText.double` (and so `Double(_:)`) bit for
/// bit, and refuse what it refuses.
@Suite("NumberText.double(bytes:): the grammar and Double(_:)'s rounding, from bytes")
struct NumberTextBytesTests {
    static func bytes(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { NumberText.double(bytes: $0) }
    }

    /// Both readings agree: the same bits, or both nil.
    static func agree(_ text: String) -> Bool {
        let expected = NumberText.double(text)
        let got = bytes(text)
        return expected?.bitPattern == got?.bitPattern
    }

    @Test(
        "hand-picked texts: signs, zeros, exponents, halfway and subnormal cases, long mantissas, refusals",
        arguments: [
            "0", "-0", "+0", "-0.0", "-0e999", "0e-999", "37.7", "-119.5329397", ".5", "5.", "1e3", "1E-3", "-2.5e+10",
            "9007199254740993", "9007199254740992", "9007199254740991", "18014398509481985", "0.1", "0.3", "2.2250738585072011e-308",
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "1.7976931348623157e308",
            "1.7976931348623158e308", "1e23", "8.98846567431158e307", "123456789012345678901234567890", "0.000000000000000000000001",
            "1e22", "1e-22", "123e20", "123e21", "999999999999999e22", "7.0e-10", "1234567890123456789", "12345678901234567890",
            "", "0x1p3", "nan", "inf", "1e400", "-1e309", " 1", "1 ", "1,5", "e5", ".", "-", "+", "1e", "1e+", "--1", "1.2.3",
            "1e5x", "5d", "١٢", "1e0000000000000000000000000000001", "1e-99999999999999999999",
        ])
    func handPicked(text: String) {
        #expect(Self.agree(text), "\(text)")
    }

    @Test("a seeded corpus of decimal texts: short and long mantissas, exponents near the fast path's edges and far beyond")
    func corpus() {
        var random = SeededRandom(seed: 0x5EED_0011)
        var disagreements: [String] = []
        for n in 0..<400_000 {
            var text = ""
            switch random.below(5) {
            case 0: text += "-"
            case 1: text += "+"
            default: break
            }
            let digits = n % 4 == 0 ? 1 + random.below(40) : 1 + random.below(19)
            let point = random.below(digits + 2) - 1  // -1: no point
            for k in 0..<digits {
                if k == point { text += "." }
                text += String(random.below(10))
            }
            if point == digits { text += "." }
            if random.below(3) == 0 {
                text += random.below(2) == 0 ? "e" : "E"
                if random.below(2) == 0 { text += random.below(2) == 0 ? "-" : "+" }
                text += String(random.below(random.below(4) == 0 ? 400 : 30))
            }
            if !Self.agree(text) { disagreements.append(text) }
        }
        // Doubles written shortest, and with digits added (long mantissas right beside a
        // double, where rounding is closest to a tie).
        for _ in 0..<200_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            var texts = [value.description]
            if !value.description.contains("e") {
                texts.append(value.description + (0..<(1 + random.below(12))).map { _ in String(random.below(10)) }.joined())
                texts.append(value.description + "5")
                texts.append(value.description + "49999999")
            }
            for text in texts where !Self.agree(text) { disagreements.append(text) }
        }
        // Fixed decimals as CSV files write them.
        for _ in 0..<200_000 {
            let value = random.uniform(-180, 180)
            let decimals = random.below(12)
            var text = String(Int64(value)) + "."
            if value < 0 && Int64(value) == 0 { text = "-" + text }
            for _ in 0..<decimals { text += String(random.below(10)) }
            if !Self.agree(text) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test("the powers of ten of the fast path are the doubles of their decimal texts", arguments: 0...22)
    func powersOfTen(k: Int) {
        #expect(NumberText.exactPowerOfTen(k) == Double("1e\(k)"))
    }
}
