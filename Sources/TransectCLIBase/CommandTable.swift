import TransectSupport

/// The subcommands one library serves, looked up by name, and how a command's errors are
/// reported: one line on stderr, then for a usage error the command's first usage line and
/// where its help is. The full command line's table holds every command; the measure library's
/// holds `measure` and `viewshed`, and reports their errors with the same bytes.
package struct CommandTable: Sendable {
    package let commands: [Command]

    package init(_ commands: [Command]) {
        self.commands = commands
    }

    package func named(_ name: String) -> Command? { commands.first { $0.name == name } }

    /// The line shown after a usage error: of the command's usage lines, the one that names
    /// the most of the options in `arguments` (its first on a tie: `measure --pairs` gets the
    /// batch's line, `render --scenes` the list's), or the overview's for no command.
    package func usageLine(for command: String?, arguments: [String] = []) -> String {
        guard let lines = command.flatMap(named)?.usage, let first = lines.first else { return "transect <subcommand> [options]" }
        let given = Set(arguments.filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) })
        func score(_ line: String) -> Int {
            Set(line.split { " []()|…".contains($0) }.map(String.init).filter { $0.hasPrefix("--") }).intersection(given).count
        }
        var best = (line: first, score: score(first))
        for line in lines.dropFirst() where score(line) > best.score { best = (line, score(line)) }
        return best.line
    }

    /// Runs `body` and returns its exit code, or reports what it throws and returns that
    /// error's: 2 for bad usage, 75 (`EX_TEMPFAIL`) for a failure worth retrying
    /// (``UserFacingError/isTemporary``), else 1.
    /// `arguments`, the command's, choose its usage line (``usageLine(for:arguments:)``).
    package func reporting(console: Console, arguments: [String] = [], _ body: () throws -> Int32) -> Int32 {
        do {
            return try body()
        } catch let error as CLIError {
            return report(error, console: console, arguments: arguments)
        } catch let error as any UserFacingError {
            return report(error, console: console, arguments: arguments)
        } catch {
            console.err("Error: \(String(describing: error).printable(limit: 4000))\n")
            return 1
        }
    }

    /// Writes `error` on stderr (with the usage line after a usage error) and returns its exit
    /// code.
    package func report(_ error: any UserFacingError, console: Console, arguments: [String] = []) -> Int32 {
        // One line, whatever the message quotes from a file: control characters escaped.
        console.err("Error: \(error.message.printable(limit: 4000))\n")
        guard error.isUsageError else { return error.isTemporary ? CLIError.temporaryFailureExitCode : 1 }
        var command: String? = nil
        if case CLIError.usage(_, let c)? = error as? CLIError { command = c }
        console.err("Usage: \(usageLine(for: command, arguments: arguments))\n")
        console.err("See 'transect help\(command.map { " " + $0 } ?? "")'.\n")
        return 2
    }
}
