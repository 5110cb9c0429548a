import TransectAnalysis
import TransectGeodesy
import TransectSupport

/// One option, declared once: its name, short name, value name, help and default (``spec``,
/// which the parser and the help read) and how its text becomes a value (`parse`). Commands
/// read it with `ParsedArguments.value(_:)`, so a range, a unit or a default
/// is written here and nowhere else.
///
/// ```swift
/// static let aboveGround = Option.number("above-ground", value: "M", help: "Metres added …",
///                                        in: InputLimits.heightMetres, unit: " m", default: 0)
/// let offset = try args.value(aboveGround)   // 0 when absent; refused outside the range
/// ```
package struct Option<Value>: Sendable {
    package var spec: OptionSpec
    /// The value when the option is absent (it may read other options, or fail as they do).
    package let defaultValue: @Sendable (ParsedArguments) throws(CLIError) -> Value
    /// The value a given text denotes, or a usage error naming the option.
    package let parse: @Sendable (String, ParsedArguments) throws(CLIError) -> Value

    package init(
        spec: OptionSpec, defaultValue: @escaping @Sendable (ParsedArguments) throws(CLIError) -> Value,
        parse: @escaping @Sendable (String, ParsedArguments) throws(CLIError) -> Value
    ) {
        self.spec = spec
        self.defaultValue = defaultValue
        self.parse = parse
    }

    package var name: String { spec.name }

    /// The same option (name, parser, default) described for another command.
    package func help(_ text: String) -> Option {
        var copy = self
        copy.spec.help = text
        return copy
    }

    /// The same option with another placeholder for its value (`FILE.png` for `FILE`).
    package func valueName(_ name: String) -> Option {
        var copy = self
        copy.spec.valueName = name
        return copy
    }

    /// A usage error about this option: `option '--name': problem`.
    package static func refuse(_ name: String, _ problem: String, _ args: ParsedArguments) -> CLIError {
        .usage("option '--\(name)': \(problem)", command: args.command)
    }
}

extension Option where Value == Bool {
    /// A flag: true when given.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
        Option(
            spec: OptionSpec(name: name, short: short, help: help, kind: .flag),
            defaultValue: { _ in false }, parse: { _, _ in true })
    }
}

extension Option where Value == String? {
    /// Free text (a path, a title), as given; nil when absent.
    package static func text(
        _ name: String, short: Character? = nil, value: String, help: String, kind: OptionKind = .single,
        canonical: (@Sendable (String) -> String)? = nil
    ) -> Option {
        Option(
            spec: OptionSpec(name: name, short: short, valueName: value, help: help, kind: kind, canonical: canonical),
            defaultValue: { _ in nil }, parse: { text, _ in text })
    }
}

extension Option where Value == String {
    /// Free text with a default.
    package static func text(_ name: String, value: String, help: String, default fallback: String) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help, defaultText: fallback),
            defaultValue: { _ in fallback }, parse: { text, _ in text })
    }

    /// `text` when it is one of `names`: "'x' is not a, b or c" otherwise. Closed choices are
    /// enums (``OptionChoice``), whose parser calls this with their cases' names.
    package static func pick(_ name: String, _ names: [String], _ text: String, _ args: ParsedArguments) throws(CLIError) -> String {
        guard names.contains(text) else {
            let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names.joined()
            throw refuse(name, "'\(text)' is not \(list)", args)
        }
        return text
    }
}

/// A closed choice: an option whose values are the cases of an enum, parsed once into the case.
/// Its names and its refusal come from the enum (`CaseIterable`, raw values), so the help, the
/// parser and the command cannot disagree about what it accepts.
package protocol OptionChoice: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension Option where Value: OptionChoice {
    /// One of `Value`'s cases by its raw value; `fallback` when absent.
    package static func choice(_ name: String, value: String = "F", help: String, default fallback: Value) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help, defaultText: fallback.rawValue),
            defaultValue: { _ in fallback }, parse: { text, args throws(CLIError) in try pick(name, text, args) })
    }

    /// The case named `text`: "'x' is not a, b or c" (the cases in their order) otherwise.
    package static func pick(_ name: String, _ text: String, _ args: ParsedArguments) throws(CLIError) -> Value {
        let names = Value.allCases.map(\.rawValue)
        return Value(rawValue: try Option<String>.pick(name, names, text, args))!
    }
}

extension Option where Value == Double? {
    /// A finite decimal number in `range`; nil when absent. `unit` follows the bounds in the
    /// message (` m`, `°`).
    package static func number(_ name: String, value: String, help: String, in range: ClosedRange<Double>, unit: String = "") -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help),
            defaultValue: { _ in nil }, parse: { text, args throws(CLIError) in try Option<Double>.decimal(name, text, in: range, unit: unit, args) })
    }

    /// A number above 0 and at most `maximum`; nil when absent. `unit` (`m`, `m/s`) follows
    /// numbers in the message.
    package static func positive(_ name: String, value: String, help: String, maximum: Double, unit: String) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help),
            defaultValue: { _ in nil }, parse: { text, args throws(CLIError) in try Option<Double>.positive(name, text, maximum: maximum, unit: unit, args) })
    }
}

extension Option where Value == Double {
    /// A finite decimal number in `range`, `fallback` when absent.
    package static func number(
        _ name: String, value: String, help: String, in range: ClosedRange<Double>, unit: String = "",
        default fallback: Double
    ) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help, defaultText: JSON.format(fallback) + unit),
            defaultValue: { _ in fallback }, parse: { text, args throws(CLIError) in try decimal(name, text, in: range, unit: unit, args) })
    }

    /// A number above 0 and at most `maximum`, `fallback` when absent.
    package static func positive(_ name: String, value: String, help: String, maximum: Double, unit: String, default fallback: Double) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help, defaultText: JSON.format(fallback) + " " + unit),
            defaultValue: { _ in fallback }, parse: { text, args throws(CLIError) in try positive(name, text, maximum: maximum, unit: unit, args) })
    }

    /// `text` as a finite decimal number (``NumberText``).
    package static func decimal(_ name: String, _ text: String, _ args: ParsedArguments) throws(CLIError) -> Double {
        guard let v = NumberText.double(text.trimmingAsciiSpaces) else {
            throw refuse(name, "'\(text.printable)' is not a finite decimal number", args)
        }
        return v
    }

    package static func decimal(
        _ name: String, _ text: String, in range: ClosedRange<Double>, unit: String,
        _ args: ParsedArguments
    ) throws(CLIError) -> Double {
        let v = try decimal(name, text, args)
        guard range.contains(v) else {
            throw refuse(name, "\(JSON.format(v))\(unit) is outside \(JSON.format(range.lowerBound))\(unit) … \(JSON.format(range.upperBound))\(unit)", args)
        }
        return v
    }

    package static func positive(_ name: String, _ text: String, maximum: Double, unit: String, _ args: ParsedArguments) throws(CLIError) -> Double {
        let v = try decimal(name, text, args)
        let spaced = unit.isEmpty ? "" : " " + unit
        guard v > 0 else { throw refuse(name, "must be above 0\(spaced), not \(JSON.format(v))", args) }
        guard v <= maximum else { throw refuse(name, "\(JSON.format(v))\(spaced) is over the limit of \(JSON.format(maximum))\(spaced)", args) }
        return v
    }
}

extension Option where Value == Int? {
    /// A whole number in `range`; nil when absent.
    package static func integer(_ name: String, value: String = "N", help: String, in range: ClosedRange<Int>) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help),
            defaultValue: { _ in nil }, parse: { text, args throws(CLIError) in try Option<Int>.whole(name, text, in: range, args) })
    }
}

extension Option where Value == Int {
    /// A whole number in `range`, `fallback` when absent.
    package static func integer(_ name: String, value: String = "N", help: String, in range: ClosedRange<Int>, default fallback: Int) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help, defaultText: NumberFormatting.grouped(Double(fallback), decimals: 0)),
            defaultValue: { _ in fallback }, parse: { text, args throws(CLIError) in try whole(name, text, in: range, args) })
    }

    package static func whole(_ name: String, _ text: String, in range: ClosedRange<Int>, _ args: ParsedArguments) throws(CLIError) -> Int {
        guard let v = NumberText.integer(text.trimmingAsciiSpaces), range.contains(v) else {
            throw refuse(
                name,
                "'\(text.printable)' is not a whole number from \(NumberFormatting.grouped(Double(range.lowerBound), decimals: 0)) to \(NumberFormatting.grouped(Double(range.upperBound), decimals: 0))",
                args)
        }
        return v
    }
}

extension Option where Value == UnitSystem {
    /// `--units`: metric (the default), imperial, or a unit by symbol or name (`ft`, `feet`).
    package static func units(help: String) -> Option {
        Option(
            spec: OptionSpec(name: "units", valueName: "U", help: help, defaultText: "metric"),
            defaultValue: { _ in .metric },
            parse: { text, args throws(CLIError) in
                guard let units = UnitSystem(name: text) else {
                    throw refuse("units", "'\(text.printable)' is not metric, imperial, m, km, ft, mi, yd or nmi (or metres, feet, … by name)", args)
                }
                return units
            })
    }
}

extension Option where Value == PointArgument {
    /// A point `LON,LAT[,Z]` (X,Y in `--crs`), required: "missing --name LON,LAT[,Z]" when
    /// absent. Ranges are checked once the point is in WGS84.
    package static func point(_ name: String, value: String = "LON,LAT[,Z]", help: String) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: value, help: help),
            defaultValue: { args throws(CLIError) in throw .usage("missing --\(name) \(value)", command: args.command) },
            parse: { text, args throws(CLIError) in
                switch PointArgument.parse(text) {
                case .success(let p): return p
                case .failure(let e): throw refuse(name, e.text, args)
                }
            })
    }
}

extension Option where Value == Double {
    /// An ISO 8601 time as seconds since 1970, `fallback` when absent.
    package static func time(_ name: String, help: String, default fallback: Double) -> Option {
        Option(
            spec: OptionSpec(name: name, valueName: "T", help: help, defaultText: Timestamp.iso8601(fallback)),
            defaultValue: { _ in fallback },
            parse: { text, args throws(CLIError) in
                guard let t = Timestamp.parseISO8601(text) else {
                    throw refuse(name, "'\(text)' is not an ISO 8601 time such as 2000-01-01T00:00:00Z", args)
                }
                return t
            })
    }
}

/// A figure's size in pixels, and whether it was given as a physical size (`160x100mm`),
/// which makes its default resolution ``FigureSize/physicalDPI`` instead of 96 dpi.
package struct FigureSize: Sendable, Equatable {
    package var width: Int
    package var height: Int
    /// The physical size asked for, in points (1/72 in), when one was: a document's page is
    /// exactly this, whatever the rounding to pixels.
    package var points: PagePoints?
    package var isPhysical: Bool { points != nil }

    package struct PagePoints: Sendable, Equatable {
        package var width: Double
        package var height: Double
    }

    package init(width: Int, height: Int, points: PagePoints? = nil) {
        self.width = width
        self.height = height
        self.points = points
    }

    /// The resolution of a figure given in millimetres or inches without `--dpi`: print's.
    package static let physicalDPI = 300.0
    /// A physical unit's length in inches.
    package static let units: [(suffix: String, inches: Double)] = [("mm", 1 / 25.4), ("cm", 1 / 2.54), ("in", 1), ("pt", 1 / 72)]

    /// The resolution the figure has: `--dpi` when given, else 300 for a physical size and
    /// nil (96, unrecorded) for pixels.
    package func dpi(given: Double?) -> Double? { given ?? (isPhysical ? Self.physicalDPI : nil) }
}

extension Option where Value == FigureSize {
    /// `WIDTHxHEIGHT` in pixels, or a physical size (`160x100mm`, `6.5x4in`, also `cm` and
    /// `pt`) made pixels at the `dpi` option's resolution (300 when absent); `fallback`
    /// (checked the same way) when absent: at least `minimum` pixels (refused with
    /// `tooSmall`), at most cairo's side and `maxPixels` pixels.
    package static func size(
        _ name: String, help: String, default fallback: String, minimum: (width: Int, height: Int) = (1, 1),
        tooSmall: String = "", dpi: Option<Double?>? = nil, maxPixels: @escaping @Sendable (ParsedArguments) throws(CLIError) -> Int
    ) -> Option {
        let parse: @Sendable (String, ParsedArguments) throws(CLIError) -> FigureSize = { text, args throws(CLIError) in
            let resolution = try dpi.map { (option: Option<Double?>) throws(CLIError) in try args.value(option) } ?? nil
            let size = try Option<(width: Int, height: Int)>.pixels(
                name, text, maxPixels: maxPixels(args), dpi: resolution ?? FigureSize.physicalDPI, physical: dpi != nil, args)
            guard size.width >= minimum.width, size.height >= minimum.height else { throw refuse(name, tooSmall, args) }
            return size
        }
        return Option(
            spec: OptionSpec(name: name, valueName: "WxH", help: help, defaultText: fallback),
            defaultValue: { args throws(CLIError) in try parse(fallback, args) }, parse: parse)
    }
}

extension Option where Value == (width: Int, height: Int) {
    /// `1600x1000` → 1600 × 1000 pixels, or with `physical`, `160x100mm` → its pixels at `dpi`
    /// (rounded), refusing zero and frames over the pixel limit.
    package static func pixels(
        _ name: String, _ text: String, maxPixels: Int, dpi: Double, physical: Bool, _ args: ParsedArguments
    ) throws(CLIError) -> FigureSize {
        let lower = text.lowercased()
        if physical, let unit = FigureSize.units.first(where: { lower.hasSuffix($0.suffix) }) {
            let parts = lower.dropLast(unit.suffix.count).split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = NumberText.double(parts[0]), let h = NumberText.double(parts[1]), w.isFinite, h.isFinite else {
                throw refuse(name, "'\(text)' is not WIDTHxHEIGHT\(unit.suffix)", args)
            }
            guard w > 0, h > 0 else { throw refuse(name, "'\(text)' must be larger than 0", args) }
            let side = Double(InputLimits.maxImageSide)
            let pixels = (w * unit.inches * dpi, h * unit.inches * dpi)
            guard pixels.0 <= side, pixels.1 <= side else {
                throw refuse(
                    name,
                    "\(text) at \(NumberFormatting.shortest(dpi)) dpi: cairo cannot draw more than \(NumberFormatting.grouped(side, decimals: 0)) pixels a side",
                    args)
            }
            let size = try Self.pixels(name, "\(max(1, Int(pixels.0.rounded())))x\(max(1, Int(pixels.1.rounded())))", maxPixels: maxPixels, args, shown: text)
            return FigureSize(width: size.width, height: size.height, points: .init(width: w * unit.inches * 72, height: h * unit.inches * 72))
        }
        let size = try Self.pixels(name, text, maxPixels: maxPixels, args, shown: text)
        return FigureSize(width: size.width, height: size.height)
    }

    /// `1600x1000` → (1600, 1000), refusing zero and frames over the pixel limit.
    package static func pixels(
        _ name: String, _ text: String, maxPixels: Int, _ args: ParsedArguments, shown: String? = nil
    ) throws(CLIError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = NumberText.integer(parts[0]), let h = NumberText.integer(parts[1]) else {
            throw refuse(name, "'\(text)' is not WIDTHxHEIGHT (pixels, or with mm, cm, in or pt)", args)
        }
        let text = shown.map { $0 == text ? text : "\($0) (\(text) pixels)" } ?? text
        guard w > 0, h > 0 else { throw refuse(name, "'\(text)' must be at least 1 × 1 pixels", args) }
        guard w <= InputLimits.maxImageSide, h <= InputLimits.maxImageSide else {
            throw refuse(
                name, "\(text): cairo cannot draw more than \(NumberFormatting.grouped(Double(InputLimits.maxImageSide), decimals: 0)) pixels a side", args)
        }
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, pixels <= maxPixels else {
            throw refuse(
                name,
                "\(text) is \(overflow ? "too many" : NumberFormatting.grouped(Double(pixels), decimals: 0)) pixels, over the limit of \(NumberFormatting.grouped(Double(maxPixels), decimals: 0))\(args.declares("max-pixels") ? "; raise --max-pixels" : "")",
                args)
        }
        return (w, h)
    }
}
