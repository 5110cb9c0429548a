/// Help texts, printed on stdout by `-h/--help` and `transect help <subcommand>`, made from
/// the ``Commands`` table and the options' declarations.
enum Help {
    static let version = "0.1.0"

    /// Help lines are wrapped to this many characters.
    static let width = 92
    /// An option whose left column (`-o, --out FILE`) is longer than this gets a line of its own,
    /// its help starting on the next.
    static let widestLabel = 24

    static var overview: String {
        let entries = Commands.all.map { ($0.name, $0.summary) } + [("help", "Show help for a subcommand")]
        let column = (entries.map(\.0.count).max() ?? 0) + 4
        let list = entries.map { "  " + $0.0.padded(to: column) + $0.1 }.joined(separator: "\n")
        return """
            transect \(version): offline terrain measurement from DEM files

            USAGE: transect <subcommand> [options]

            SUBCOMMANDS:
            \(list)

            OPTIONS:
              -h, --help     Show this help
              --version      Show the version

            Coordinates are WGS84 LON,LAT in degrees unless --crs is given. Distances are metres
            inside; --units picks how they are shown. Without --dem, heights come from ETOPO5, a
            5-arc-minute global grid. Exit codes: 0 success, 1 bad data, 2 bad usage, 75 a failure
            worth retrying (I/O). See 'transect help <subcommand>'.

            """
    }

    /// The line shown after a usage error: the command's first usage line, or the overview's.
    static func usageLine(for command: String?) -> String {
        command.flatMap(Commands.named)?.usage.first ?? "transect <subcommand> [options]"
    }

    /// The help of the subcommand `name`, or nil for an unknown one.
    static func text(for name: String) -> String? {
        Commands.named(name).map(text(for:))
    }

    /// DESCRIPTION, USAGE, OPTIONS (one row per declared option) and notes.
    static func text(for command: Command) -> String {
        var text = command.description + "\n\nUSAGE: " + command.usage.joined(separator: "\n       ") + "\n\nOPTIONS:\n"
        text += options(command.options)
        if !command.notes.isEmpty { text += "\n" + command.notes + "\n" }
        return text
    }

    /// The options' rows: label, then the help (with the default) wrapped in a column beside it.
    static func options(_ specs: [OptionSpec]) -> String {
        let column = 2 + (specs.map(\.label.count).filter { $0 <= widestLabel }.max() ?? 0) + 3
        var lines: [String] = []
        for spec in specs {
            var help = spec.help
            if let fallback = spec.defaultText { help += " Default: \(fallback)." }
            let wrapped = wrap(help, width: width - column)
            let label = "  " + spec.label
            var rows = wrapped.map { String(repeating: " ", count: column) + $0 }
            if label.count + 2 <= column, !rows.isEmpty {
                rows[0] = label.padded(to: column) + wrapped[0]
            } else {
                rows.insert(label, at: 0)
            }
            lines += rows
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word stands
    /// alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    /// The string followed by spaces up to `width` characters.
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
