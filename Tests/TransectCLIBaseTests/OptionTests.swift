import Testing
import TransectSupport
import TransectFormats
@testable import TransectCLI

/// A value read through its declaration: the default when absent, the parser when given, and
/// the declaration's own wording when refused.
@Suite("option declarations: defaults, parsers and messages")
struct OptionTests {
    /// A closed choice, as every command's are: the cases are the names, in order.
    enum Format: String, OptionChoice {
        case text, json, csv
    }

    static let number = Option.number("gain", value: "M", help: "Gain.", in: 0...10, unit: " m", default: 3)
    static let optional = Option.positive("step", value: "M", help: "Step.", maximum: 100, unit: "m")
    static let whole = Option.integer("every", help: "Every.", in: 1...9, default: 1)
    static let choice = Option.choice("format", help: "Format.", default: Format.text)
    static let flag = Option.flag("strict", help: "Strict.")
    static let list = Option.text("dem", value: "PATH", help: "DEM.", kind: .repeatable)
    static let maxPixels = Option.integer("max-pixels", help: "Pixels.", in: 1...1_000_000_000, default: 100_000_000)
    static let size = Option.size("size", help: "Size.", default: "1600x1000", maxPixels: { args throws(CLIError) in try args.value(maxPixels) })
    static let all = [number.spec, optional.spec, whole.spec, choice.spec, flag.spec, list.spec, maxPixels.spec, size.spec]

    static func parse(_ arguments: String...) throws -> ParsedArguments {
        try ParsedArguments(arguments, specs: all, command: "test")
    }

    @Test("absent: the declared default; given: the parsed value")
    func defaults() throws {
        let none = try Self.parse()
        #expect(try none.value(Self.number) == 3)
        #expect(try none.value(Self.optional) == nil)
        #expect(try none.value(Self.whole) == 1)
        #expect(try none.value(Self.choice) == .text)
        #expect(try none.value(Self.flag) == false)
        #expect(try none.values(Self.list).isEmpty)
        #expect(try none.value(Self.size) == FigureSize(width: 1600, height: 1000))
        let given = try Self.parse(
            "--gain", "2.5", "--step=0.5", "--every", "7", "--format", "csv", "--strict",
            "--dem", "a.tif", "--dem", "b.tif", "--size", "30x20")
        #expect(try given.value(Self.number) == 2.5)
        #expect(try given.value(Self.optional) == 0.5)
        #expect(try given.value(Self.whole) == 7)
        #expect(try given.value(Self.choice) == .csv)
        #expect(try given.value(Self.flag))
        #expect(try given.values(Self.list) == ["a.tif", "b.tif"])
        #expect(try given.value(Self.size) == FigureSize(width: 30, height: 20))
    }

    @Test(
        "refused with the option's name and the declared range",
        arguments: [
            (["--gain", "11"], Self.number.name, "option '--gain': 11 m is outside 0 m … 10 m"),
            (["--gain", "x"], Self.number.name, "option '--gain': 'x' is not a finite decimal number"),
            (["--step", "0"], Self.optional.name, "option '--step': must be above 0 m, not 0"),
            (["--step", "101"], Self.optional.name, "option '--step': 101 m is over the limit of 100 m"),
            (["--every", "10"], Self.whole.name, "option '--every': '10' is not a whole number from 1 to 9"),
            (["--format", "xml"], Self.choice.name, "option '--format': 'xml' is not text, json or csv"),
            // The default size is checked against the limit as a given one is.
            (["--max-pixels", "1000"], Self.size.name, "option '--size': 1600x1000 is 1,600,000 pixels, over the limit of 1,000; raise --max-pixels"),
        ])
    func refused(arguments: [String], name: String, message: String) throws {
        let args = try ParsedArguments(arguments, specs: Self.all, command: "test")
        let error: CLIError
        switch name {
        case Self.number.name: error = try #require(throws: CLIError.self) { try args.value(Self.number) }
        case Self.optional.name: error = try #require(throws: CLIError.self) { try args.value(Self.optional) }
        case Self.whole.name: error = try #require(throws: CLIError.self) { try args.value(Self.whole) }
        case Self.choice.name: error = try #require(throws: CLIError.self) { try args.value(Self.choice) }
        default: error = try #require(throws: CLIError.self) { try args.value(Self.size) }
        }
        #expect(error == .usage(message, command: "test"))
    }

    @Test("the help row shows the value name and the default, wrapped beside the names")
    func helpRows() {
        let rows = Help.options([Self.number.spec, Self.flag.spec, CommonOptions.out.spec, Self.size.spec])
        #expect(
            rows == """
                  --gain M         Gain. Default: 3 m.
                  --strict         Strict.
                  -o, --out FILE   Write to FILE (atomically) instead of stdout.
                  --size WxH       Size. Default: 1600x1000.

                """)
        #expect(Help.wrap("aa bb cc dd", width: 5) == ["aa bb", "cc dd"])
        #expect(Help.wrap("abcdefgh ij", width: 5) == ["abcdefgh", "ij"])
    }
}
