import TransectSupport

extension MeasureCommand {
    /// The measure library's commands: `measure` alone. Its errors are reported as the full
    /// command line reports them (the usage line is measure's, or the overview's for none).
    package static let table = CommandTable([command])

    /// Runs `transect measure …` (`arguments` with the program name first) on the process's
    /// stdout and stderr, as the full command line runs it, and returns the exit code;
    /// `MeasureEntry.notMeasure` without a side effect when the second argument is not `measure`.
    package static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2, arguments[1] == command.name else { return MeasureEntry.notMeasure }
        // Before anything starts a thread: interrupted writes are undone, not left behind.
        SignalCleanup.install()
        let console = Console.standard()
        let rest = Array(arguments.dropFirst(2))
        let code = table.reporting(console: console, arguments: rest) { try command.execute(rest, console: console) }
        console.flush()
        return code
    }
}
