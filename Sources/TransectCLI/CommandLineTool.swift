import TransectSupport

/// The `transect` command line as a library: parse, run, print, and return the exit code.
public enum CommandLineTool {
    /// Runs with `arguments` (the first is the program name) on the process's stdout/stderr.
    public static func main(_ arguments: [String]) -> Int32 {
        // Before anything starts a thread: interrupted writes are undone, not left behind.
        SignalCleanup.install()
        let console = Console.standard()
        let code = run(Array(arguments.dropFirst()), console: console)
        console.flush()
        return code
    }

    /// Runs a command line (without the program name). Results go to `console.out`,
    /// diagnostics to `console.err`. Returns 0 on success, 1 for bad data, 2 for bad usage, 75
    /// (`EX_TEMPFAIL`) for a failure worth retrying (``UserFacingError/isTemporary``).
    public static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let command = arguments.first else {
            console.err("Error: missing subcommand\nUsage: \(Commands.table.usageLine(for: nil))\nSee 'transect --help'.\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        return Commands.table.reporting(console: console, arguments: rest) {
            switch command {
            case "-h", "--help":
                console.out(Help.overview)
                return 0
            case "--version":
                console.out("transect \(Help.version)\n")
                return 0
            // For installers (make install), as swift-argument-parser names them; not in the overview.
            case "--generate-manual":
                console.out(Help.manualPage)
                return 0
            case "--generate-completion-script":
                guard rest.count == 1, let script = Help.completionScript(rest[0]) else {
                    throw CLIError.usage(
                        "--generate-completion-script takes one shell: \(Help.completionShells.joined(separator: " or "))", command: nil)
                }
                console.out(script)
                return 0
            case "help":
                guard let topic = rest.first else {
                    console.out(Help.overview)
                    return 0
                }
                // `help help`: what help itself does is the overview's to say.
                if topic == "help" {
                    console.out(Help.overview)
                    return 0
                }
                guard let text = Help.text(for: topic) else {
                    throw CLIError.usage(
                        "no help for unknown subcommand '\(topic)'" + NearestName.hint(for: topic, among: Commands.names), command: nil)
                }
                console.out(text)
                return 0
            default:
                guard let subcommand = Commands.named(command) else {
                    throw CLIError.usage("unknown subcommand '\(command)'" + NearestName.hint(for: command, among: Commands.names), command: nil)
                }
                return try subcommand.execute(rest, console: console)
            }
        }
    }
}
