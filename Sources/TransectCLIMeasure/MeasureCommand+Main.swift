import TransectCore

extension MeasureCommand {
    /// What ``main(_:)`` returns for a command line that is not a measure: no exit code (those
    /// are 0…255), so the launcher hands the command line to the full command line instead.
    package static let notMeasure: Int32 = -1

    /// The measure library's commands: `measure` alone. Its errors are reported as the full
    /// command line reports them (the usage line is measure's, or the overview's for none).
    package static let table = CommandTable([command])

    /// Runs `transect measure …` (`arguments` with the program name first) on the process's
    /// stdout and stderr, as the full command line runs it, and returns the exit code;
    /// ``notMeasure`` without a side effect when the second argument is not `measure`.
    package static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2, arguments[1] == command.name else { return notMeasure }
        // Before anything starts a thread: interrupted writes are undone, not left behind.
        SignalCleanup.install()
        let console = Console.standard()
        let code = table.reporting(console: console) { try command.execute(Array(arguments.dropFirst(2)), console: console) }
        console.flush()
        return code
    }
}
