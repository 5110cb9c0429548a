import Testing
import TransectSupport

@Suite("the one number grammar")
struct NumberTextTests {
    @Test(
        "decimal numbers with an optional exponent are read as Double(_:) reads them",
        arguments: ["0", "-0", "+3", "37.7", "-119.5329397", ".5", "5.", "1e3", "1E-3", "-2.5e+10", "1e-400", "1.7976931348623157e308"])
    func accepted(text: String) throws {
        let v = try #require(NumberText.double(text))
        #expect(v == Double(text)!)
    }

    @Test(
        "hexadecimal, nan, inf, overflow, white space, NUL and stray characters are refused",
        arguments: [
            "", "0x1p3", "0X10", "nan", "NaN", "inf", "-infinity", "1e400", "-1e309", " 1", "1 ", "37.7\u{0}5",
            "1,5", "1_000", "e5", ".", "-", "+", "1e", "1e+", "--1", "1.2.3", "١٢", "1e5x", "5d",
        ])
    func refused(text: String) {
        #expect(NumberText.double(text) == nil)
    }

    @Test("a text longer than the limit is refused, however many digits it holds")
    func tooLong() {
        #expect(NumberText.double(String(repeating: "1", count: NumberText.maxLength + 1)) == nil)
        #expect(NumberText.double("0." + String(repeating: "1", count: NumberText.maxLength - 2)) != nil)
    }

    @Test("whole numbers: decimal digits with an optional sign, within Int")
    func integers() {
        #expect(NumberText.integer("42") == 42)
        #expect(NumberText.integer("-7") == -7)
        #expect(NumberText.integer("+7") == 7)
        #expect(NumberText.integer("9223372036854775807") == Int.max)
        #expect(NumberText.integer("9223372036854775808") == nil)
        for bad in ["", "1.0", "1e3", "0x10", " 1", "+", "4\u{0}2"] { #expect(NumberText.integer(bad) == nil) }
    }
}
