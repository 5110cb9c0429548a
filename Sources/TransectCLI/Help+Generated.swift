/// The manual page and the shell completions `make install` puts in place, made from the same
/// command table and option declarations as the help, so none can name an option the command
/// line does not take. Printed by `transect --generate-manual` and
/// `transect --generate-completion-script bash|zsh` (as swift-argument-parser names them),
/// which the overview does not list: they are for installers.
extension Help {
    /// The shells ``completionScript(_:)`` writes for.
    static let completionShells = ["bash", "zsh"]

    /// `transect(1)` in roff (`man` macros): the overview's words, then each subcommand with
    /// its usage, description, options and notes.
    static var manualPage: String {
        var page = """
            .TH TRANSECT 1 "" "transect \(version)" "User Commands"
            .SH NAME
            transect \\- offline terrain measurement from DEM files
            .SH SYNOPSIS
            .B transect
            .I subcommand
            [\\fIoptions\\fR]

            """
        page += ".SH DESCRIPTION\n"
        page +=
            roff(
                "Transect measures distances between points with heights from DEM files (direct, horizontal and vertical), profiles and lines of sight, draws annotated maps, profile charts and perspective views, and reads tracks, offline. Coordinates are WGS84 LON,LAT in degrees unless --crs is given. Without --dem, heights come from ETOPO5, a 5-arc-minute global grid."
            ) + "\n"
        page += ".SH EXIT STATUS\n" + roff("0 success, 1 bad data, 2 bad usage, 75 a failure worth retrying (I/O, a network time-out).") + "\n"
        page += ".SH SUBCOMMANDS\n"
        for command in Commands.all {
            page += ".SS \(roff(command.name))\n" + roff(command.summary) + "\n.PP\n"
            for line in command.usage { page += ".nf\n" + roff(line) + "\n.fi\n" }
            page += ".PP\n" + roff(command.description.split(separator: "\n").joined(separator: " ")) + "\n"
            for spec in command.options {
                var help = spec.help
                if let fallback = spec.defaultText { help += " Default: \(fallback)." }
                page += ".TP\n.B \(roff(spec.label))\n" + roff(help) + "\n"
            }
            if !command.notes.isEmpty {
                page +=
                    ".PP\n"
                    + command.notes.components(separatedBy: "\n\n").map { roff($0.split(separator: "\n").joined(separator: " ")) }
                    .joined(separator: "\n.PP\n") + "\n"
            }
        }
        page += ".SH SEE ALSO\n" + roff("transect help SUBCOMMAND, gdalinfo(1), gdalwarp(1)") + "\n"
        return page
    }

    /// `text` safe as roff body text: backslashes doubled, hyphens as `\-` (a minus, which
    /// copies and searches as `-`), characters beyond ASCII as `\[uXXXX]` (so troff needs no
    /// input encoding), and a leading `.` or `'` (a request) guarded with `\&`.
    static func roff(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "-": out += "\\-"
            default:
                if c.isASCII {
                    out.unicodeScalars.append(c)
                } else {
                    let hex = String(c.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// The words an option takes on a command line: `--name` and `-s`.
    static func words(_ spec: OptionSpec) -> [String] { ["--" + spec.name] + (spec.short.map { ["-" + String($0)] } ?? []) }

    /// The completion script for `shell` (``completionShells``): subcommands first, then each
    /// subcommand's options, and file names for an option's value.
    static func completionScript(_ shell: String) -> String? {
        switch shell {
        case "bash": bashCompletion
        case "zsh": zshCompletion
        default: nil
        }
    }

    static var bashCompletion: String {
        var cases = ""
        for command in Commands.all {
            let words = command.options.flatMap(Self.words).joined(separator: " ")
            let valued = command.options.filter(\.takesValue).flatMap(Self.words).joined(separator: "|")
            cases += """
                        \(command.name))
                            options="\(words)"
                            valued="\(valued)"
                            ;;

                """
        }
        let names = (Commands.all.map(\.name) + ["help"]).joined(separator: " ")
        return """
            # bash completion for transect \(version), made from its option declarations
            # (transect --generate-completion-script bash).
            _transect() {
                local cur prev command options valued
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(names) --help --version" -- "$cur"))
                    return
                fi
                command="${COMP_WORDS[1]}"
                case "$command" in
            \(cases)        help)
                        COMPREPLY=($(compgen -W "\(names)" -- "$cur"))
                        return
                        ;;
                    *) return ;;
                esac
                if [ -n "$valued" ] && [[ "|$valued|" == *"|$prev|"* ]]; then
                    COMPREPLY=($(compgen -f -- "$cur"))
                    return
                fi
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }
            complete -o filenames -F _transect transect

            """
    }

    /// `text` inside a zsh `_arguments` description: brackets, colons and quotes escaped.
    static func zshEscaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "[", "]", ":", "\\": out += "\\" + String(c)
            case "'": out += "'\\''"
            default: out.append(c)
            }
        }
        return out
    }

    static var zshCompletion: String {
        var functions = ""
        for command in Commands.all {
            var specs: [String] = []
            for spec in command.options {
                let first = spec.help.split(separator: ".").first.map(String.init) ?? spec.help
                let help = zshEscaped(String(first.prefix(70)))
                let value = spec.takesValue ? ":\(zshEscaped(spec.valueName ?? "VALUE")):_files" : ""
                let repeatable = spec.repeatable ? "*" : ""
                for word in words(spec) { specs.append("'\(repeatable)\(word)[\(help)]\(value)'") }
            }
            functions +=
                "_transect_\(command.name.replacingAll("-", with: "_"))() {\n    _arguments -s \\\n        "
                + specs.joined(separator: " \\\n        ") + " \\\n        '*:file:_files'\n}\n\n"
        }
        let described = (Commands.all.map { ($0.name, $0.summary) } + [("help", "Show help for a subcommand")])
            .map { "        '\($0.0):\(zshEscaped($0.1))'" }.joined(separator: "\n")
        return """
            #compdef transect
            # zsh completion for transect \(version), made from its option declarations
            # (transect --generate-completion-script zsh).

            \(functions)_transect() {
                local -a subcommands
                subcommands=(
            \(described)
                )
                if (( CURRENT == 2 )); then
                    _describe 'subcommand' subcommands
                    return
                fi
                local name=${words[2]//-/_}
                if (( $+functions[_transect_$name] )); then
                    shift words
                    (( CURRENT-- ))
                    _transect_$name
                else
                    _files
                fi
            }

            _transect "$@"

            """
    }
}
