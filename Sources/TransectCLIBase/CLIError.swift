import TransectCore

/// Errors of the command line itself and of the inputs it names.
public enum CLIError: UserFacingError, Equatable {
    /// The command line is wrong; `command` names the subcommand whose usage to show.
    case usage(String, command: String?)
    /// An input file or value is bad.
    case badInput(String)
    /// Writing an output failed.
    case cannotWrite(path: String, reason: String)

    public var message: String {
        switch self {
        case .usage(let text, _): text
        case .badInput(let text): text
        case .cannotWrite(let path, let reason): "cannot write '\(path)': \(reason)"
        }
    }

    public var isUsageError: Bool {
        if case .usage = self { return true }
        return false
    }
}
