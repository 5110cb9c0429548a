// Extended across modules on purpose: `Help` (TransectCLIBase) lays out one command's help, so
// measure's library prints its own; the overview lists every command of `Commands`, which only
// this module holds.
/// The full command line's help: the overview of every command, and a command's help by name.
extension Help {
    static let version = "0.1.0"

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

    /// The help of the subcommand `name`, or nil for an unknown one.
    static func text(for name: String) -> String? {
        Commands.named(name).map(text(for:))
    }
}
