import TransectCore
import TransectFormats

/// One option a subcommand accepts.
struct OptionSpec {
    /// Long name without dashes, for example `dem`.
    let name: String
    /// One-letter alias without the dash, if any.
    var short: Character? = nil
    /// False for a flag that takes no value.
    var takesValue = true
    /// True when the option may be given more than once (or takes several values, as `--path`).
    var repeatable = false
    /// Takes every following argument up to the next option (for `--path A B C`).
    var variadic = false
    /// Rewrites each value as it is parsed, from a scene or the command line alike, into the
    /// form every reader of the option expects (`--crs 32611` becomes `EPSG:32611`).
    var canonical: (@Sendable (String) -> String)? = nil
}

/// Parsed options: values in the order given, flags, and positional arguments.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    let command: String

    /// The single value of `name`, or nil when absent.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// Parses `arguments` (after the subcommand) against `specs`. `--name value`,
    /// `--name=value`, `-x value` and `--` (end of options) are understood. A value may begin
    /// with `-` (negative coordinates): an option that takes a value always takes the next
    /// argument.
    init(_ arguments: [String], specs: [OptionSpec], command: String) throws(CLIError) {
        self.command = command
        var byName: [String: OptionSpec] = [:]
        var byShort: [Character: OptionSpec] = [:]
        for spec in specs {
            byName[spec.name] = spec
            if let s = spec.short { byShort[s] = spec }
        }
        var k = 0
        var onlyPositionals = false
        while k < arguments.count {
            let arg = arguments[k]
            k += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" || Self.looksNumeric(arg) {
                positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name: String
            var inline: String? = nil
            let spec: OptionSpec
            if arg.hasPrefix("--") {
                name = String(arg.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard let s = byName[name] else {
                    throw .usage("unknown option '--\(name)'", command: command)
                }
                spec = s
            } else {
                guard arg.count == 2, let s = byShort[arg.last!] else {
                    throw .usage("unknown option '\(arg)'", command: command)
                }
                spec = s
                name = s.name
            }
            if !spec.takesValue {
                guard inline == nil else { throw .usage("option '--\(name)' takes no value", command: command) }
                flags.insert(name)
                continue
            }
            var given: [String] = []
            if let inline { given.append(inline) }
            else {
                // A value may begin with '-' (a negative coordinate, '-' for stdin), but not look
                // like another option: `--from --to 1,2` lacks the value of --from.
                guard k < arguments.count, !Self.looksLikeOption(arguments[k]) else {
                    throw .usage("option '--\(name)' needs a value", command: command)
                }
                given.append(arguments[k])
                k += 1
            }
            if spec.variadic {
                while k < arguments.count, !arguments[k].hasPrefix("-") || Self.looksNumeric(arguments[k]) {
                    given.append(arguments[k])
                    k += 1
                }
            }
            if values[name] != nil && !spec.repeatable {
                throw .usage("option '--\(name)' given more than once", command: command)
            }
            values[name, default: []] += spec.canonical.map { given.map($0) } ?? given
        }
    }

    /// `-119.5,37.7` or `-3` is a value, not an option.
    static func looksNumeric(_ arg: String) -> Bool {
        guard arg.hasPrefix("-"), let next = arg.dropFirst().first else { return false }
        return next.isNumber || next == "."
    }

    /// `--name` or `-x` (not `-`, not a negative number): another option, not a value.
    static func looksLikeOption(_ arg: String) -> Bool {
        arg.hasPrefix("-") && arg != "-" && !looksNumeric(arg)
    }

    /// These arguments with `other`'s values and flags taking precedence, option by option.
    func overridden(by other: ParsedArguments) -> ParsedArguments {
        var merged = self
        for (name, values) in other.values { merged.values[name] = values }
        merged.flags.formUnion(other.flags)
        merged.positionals += other.positionals
        return merged
    }

    /// Fails when positional arguments were given to a command that takes none.
    func expectNoPositionals() throws(CLIError) {
        if let first = positionals.first {
            throw .usage("unexpected argument '\(first)'", command: command)
        }
    }

    /// `--units`: metric (the default), imperial, or a unit by symbol or name (`ft`, `feet`).
    func units() throws(CLIError) -> UnitSystem {
        let name = value("units") ?? "metric"
        guard let units = UnitSystem(name: name) else {
            throw .usage("option '--units': '\(name.printable)' is not metric, imperial, m, km, ft, mi, yd or nmi (or metres, feet, … by name)", command: command)
        }
        return units
    }

    /// The value of `name` as a finite decimal number (``NumberText``), or nil when absent.
    func number(_ name: String) throws(CLIError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let v = NumberText.double(text.trimmingAsciiSpaces) else {
            throw .usage("option '--\(name)': '\(text.printable)' is not a finite decimal number", command: command)
        }
        return v
    }

    /// The value of `name` as a number in `range`, or nil when absent. `unit` follows the
    /// bounds in the message (`m`, `°`).
    func number(_ name: String, in range: ClosedRange<Double>, unit: String = "") throws(CLIError) -> Double? {
        guard let v = try number(name) else { return nil }
        guard range.contains(v) else {
            throw .usage("option '--\(name)': \(JSON.format(v))\(unit) is outside \(JSON.format(range.lowerBound))\(unit) … \(JSON.format(range.upperBound))\(unit)", command: command)
        }
        return v
    }

    /// The value of `name` as a number above 0 and at most `maximum`, or nil when absent.
    func positive(_ name: String, maximum: Double, unit: String) throws(CLIError) -> Double? {
        guard let v = try number(name) else { return nil }
        guard v > 0 else { throw .usage("option '--\(name)': must be above 0\(unit.isEmpty ? "" : " " + unit), not \(JSON.format(v))", command: command) }
        guard v <= maximum else {
            throw .usage("option '--\(name)': \(JSON.format(v))\(unit.isEmpty ? "" : " " + unit) is over the limit of \(JSON.format(maximum))\(unit.isEmpty ? "" : " " + unit)", command: command)
        }
        return v
    }

    /// The value of `name` as a whole number in `range`, or nil when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = NumberText.integer(text.trimmingAsciiSpaces), range.contains(v) else {
            throw .usage("option '--\(name)': '\(text.printable)' is not a whole number from \(NumberFormatting.grouped(Double(range.lowerBound), decimals: 0)) to \(NumberFormatting.grouped(Double(range.upperBound), decimals: 0))", command: command)
        }
        return v
    }
}
