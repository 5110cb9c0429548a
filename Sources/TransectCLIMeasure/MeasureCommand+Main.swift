import TransectSupport

extension MeasureCommand {
    /// The measure library's commands: `measure`, and `viewshed` without observers files (whose
    /// CSV and GeoJSON parsers need Foundation). Its errors are reported as the full command line
    /// reports them (the usage line is the command's, or the overview's for none).
    package static let table = CommandTable([command, ViewshedCommand.command(readObservers: nil)])

    /// Runs `transect measure …`, or `transect viewshed …` with no `--observers` (`arguments`
    /// with the program name first), on the process's stdout and stderr, as the full command
    /// line runs it, and returns the exit code; `MeasureEntry.notHandled` without a side effect
    /// for any other command line.
    package static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2, let subcommand = table.named(arguments[1]) else { return MeasureEntry.notHandled }
        let rest = Array(arguments.dropFirst(2))
        // An observers file (given in any spelling the parser takes) is the full command line's.
        if subcommand.name != command.name && rest.contains(where: { $0 == "--observers" || $0.hasPrefix("--observers=") }) {
            return MeasureEntry.notHandled
        }
        // Before anything starts a thread: interrupted writes are undone, not left behind.
        SignalCleanup.install()
        let console = Console.standard()
        let code = table.reporting(console: console, arguments: rest) { try subcommand.execute(rest, console: console) }
        console.flush()
        return code
    }
}
