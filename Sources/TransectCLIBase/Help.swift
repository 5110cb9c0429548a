/// Help texts, printed on stdout by `-h/--help` and `transect help <subcommand>`, made from
/// a ``Command`` and its options' declarations. The overview, made from the whole command
/// table, is the full command line's (`Help+Overview.swift` in `TransectCLI`).
package enum Help {
    /// Help lines are wrapped to this many characters.
    package static let width = 92
    /// An option whose left column (`-o, --out FILE`) is longer than this gets a line of its own,
    /// its help starting on the next.
    package static let widestLabel = 24

    /// DESCRIPTION, USAGE, OPTIONS (one row per declared option) and notes.
    package static func text(for command: Command) -> String {
        var text = command.description + "\n\nUSAGE: " + command.usage.joined(separator: "\n       ") + "\n\nOPTIONS:\n"
        text += options(command.options)
        if !command.notes.isEmpty { text += "\n" + command.notes + "\n" }
        return text
    }

    /// The options' rows: label, then the help (with the default) wrapped in a column beside it.
    package static func options(_ specs: [OptionSpec]) -> String {
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
    package static func wrap(_ text: String, width: Int) -> [String] {
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
    package func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
