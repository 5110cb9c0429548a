import TransectSupport

/// How an option takes its values.
package enum OptionKind: Sendable {
    /// No value: given or not (`--strict`).
    case flag
    /// One value, given at most once (`--format json`).
    case single
    /// One value each time, given any number of times (`--dem A --dem B`).
    case repeatable
    /// Every following argument up to the next option, any number of times (`--path A B C`).
    case variadic
}

/// What the parser and the help know of an option: the untyped half of an ``Option``, which
/// adds the parser and the default value.
package struct OptionSpec: Sendable {
    /// Long name without dashes, for example `dem`.
    package let name: String
    /// One-letter alias without the dash, if any.
    package var short: Character? = nil
    /// The value's placeholder in help and usage (`LON,LAT[,Z]`, `FILE|-`); nil for a flag.
    package var valueName: String? = nil
    /// What the option does, one paragraph; the help wraps it.
    package var help: String
    /// The default as the help states it, when there is one.
    package var defaultText: String? = nil
    package var kind: OptionKind = .single
    /// Rewrites each value as it is parsed, from a scene or the command line alike, into the
    /// form every reader of the option expects (`--crs 32611` becomes `EPSG:32611`).
    package var canonical: (@Sendable (String) -> String)? = nil

    package init(
        name: String, short: Character? = nil, valueName: String? = nil, help: String, defaultText: String? = nil,
        kind: OptionKind = .single, canonical: (@Sendable (String) -> String)? = nil
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultText = defaultText
        self.kind = kind
        self.canonical = canonical
    }

    /// False for a flag.
    package var takesValue: Bool { kind != .flag }
    /// True when the option may be given more than once.
    package var repeatable: Bool { kind == .repeatable || kind == .variadic }
    package var variadic: Bool { kind == .variadic }

    /// `-o, --out FILE`: the option as the help's left column shows it.
    package var label: String {
        (short.map { "-\($0), " } ?? "") + "--" + name + (valueName.map { " " + $0 } ?? "")
    }
}

/// Parsed options: values in the order given, flags, and positional arguments.
package struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    package private(set) var positionals: [String] = []
    package let command: String
    /// The options this command declares, by name.
    private let declared: [String: OptionSpec]

    /// Whether the command declares the option `name` (shared readers such as
    /// ``TerrainOptions`` read only what their command offers).
    package func declares(_ name: String) -> Bool { declared[name] != nil }

    /// The single value of `name` as given, or nil when absent.
    package func value(_ name: String) -> String? {
        assert(declares(name), "'\(command)' reads the undeclared option '--\(name)'")
        return values[name]?.last
    }
    /// Every value of a repeatable option, as given.
    package func all(_ name: String) -> [String] {
        assert(declares(name), "'\(command)' reads the undeclared option '--\(name)'")
        return values[name] ?? []
    }
    package func has(_ name: String) -> Bool {
        assert(declares(name), "'\(command)' reads the undeclared option '--\(name)'")
        return flags.contains(name) || values[name] != nil
    }

    /// The value of `option`: the one given, run through its parser, or else its default.
    package func value<Value>(_ option: Option<Value>) throws(CLIError) -> Value {
        if option.spec.kind == .flag {
            return has(option.name) ? try option.parse("", self) : try option.defaultValue(self)
        }
        guard let text = value(option.name) else { return try option.defaultValue(self) }
        return try option.parse(text, self)
    }

    /// Every value of a repeatable `option`, each run through its parser, in the order given.
    package func values<Value>(_ option: Option<Value>) throws(CLIError) -> [Value] {
        var parsed: [Value] = []
        for text in all(option.name) { parsed.append(try option.parse(text, self)) }
        return parsed
    }

    /// Every value of a repeatable `option` whose parser may give nil, those it gives.
    package func values<Value>(_ option: Option<Value?>) throws(CLIError) -> [Value] {
        var parsed: [Value] = []
        for text in all(option.name) { if let v = try option.parse(text, self) { parsed.append(v) } }
        return parsed
    }

    package func has<Value>(_ option: Option<Value>) -> Bool { has(option.name) }

    /// Parses `arguments` (after the subcommand) against `specs`. `--name value`,
    /// `--name=value`, `-x value` and `--` (end of options) are understood. A value may begin
    /// with `-` (negative coordinates): an option that takes a value always takes the next
    /// argument.
    package init(_ arguments: [String], specs: [OptionSpec], command: String) throws(CLIError) {
        self.command = command
        var byName: [String: OptionSpec] = [:]
        var byShort: [Character: OptionSpec] = [:]
        for spec in specs {
            byName[spec.name] = spec
            if let s = spec.short { byShort[s] = spec }
        }
        declared = byName
        var k = 0
        var onlyPositionals = false
        while k < arguments.count {
            let arg = arguments[k]
            k += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" || Self.looksNumeric(arg) {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
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
                    throw .usage("unknown option '--\(name)'" + NearestName.hint(for: name, among: specs.map(\.name), prefix: "--"), command: command)
                }
                spec = s
            } else {
                guard arg.count == 2, let letter = arg.last, let s = byShort[letter] else {
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
            if let inline {
                given.append(inline)
            } else {
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
    package static func looksNumeric(_ arg: String) -> Bool {
        guard arg.hasPrefix("-"), let next = arg.dropFirst().first else { return false }
        return next.isNumber || next == "."
    }

    /// `--name` or `-x` (not `-`, not a negative number): another option, not a value.
    package static func looksLikeOption(_ arg: String) -> Bool {
        arg.hasPrefix("-") && arg != "-" && !looksNumeric(arg)
    }

    /// These arguments with `other`'s values and flags taking precedence, option by option.
    package func overridden(by other: ParsedArguments) -> ParsedArguments {
        var merged = self
        for (name, values) in other.values { merged.values[name] = values }
        merged.flags.formUnion(other.flags)
        merged.positionals += other.positionals
        return merged
    }

    /// Fails when positional arguments were given to a command that takes none.
    package func expectNoPositionals() throws(CLIError) {
        if let first = positionals.first {
            throw .usage("unexpected argument '\(first)'", command: command)
        }
    }
}
