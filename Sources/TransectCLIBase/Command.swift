import TransectSupport

/// One subcommand: what the help says of it, the options it accepts, and what runs it. The
/// help, the usage line after a usage error and the accepted options all come from here.
package struct Command: Sendable {
    package let name: String
    /// One line in the overview's list of subcommands.
    package let summary: String
    /// Usage lines, each a whole command line (`transect measure …`); the first follows usage
    /// errors.
    package let usage: [String]
    /// The paragraphs before USAGE.
    package let description: String
    /// Every option the command accepts, in the order the help lists them.
    package let options: [OptionSpec]
    /// Paragraphs after OPTIONS, if any.
    package var notes: String = ""
    /// Runs the command on arguments parsed against `options` (help already handled).
    package let run: @Sendable (ParsedArguments, Console) throws -> Int32

    package init(
        name: String, summary: String, usage: [String], description: String, options: [OptionSpec], notes: String = "",
        run: @escaping @Sendable (ParsedArguments, Console) throws -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.description = description
        self.options = options
        self.notes = notes
        self.run = run
    }

    /// Parses `arguments` against the options; prints the help for `-h/--help`, else runs.
    package func execute(_ arguments: [String], console: Console) throws -> Int32 {
        let args = try ParsedArguments(arguments, specs: options, command: name)
        if args.has(CommonOptions.help) {
            console.out(Help.text(for: self))
            return 0
        }
        return try run(args, console)
    }
}
