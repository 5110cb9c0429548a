#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// Errors of the command line itself and of the inputs it names.
public enum CLIError: UserFacingError, Equatable {
    /// The command line is wrong; `command` names the subcommand whose usage to show.
    case usage(String, command: String?)
    /// An input file or value is bad.
    case badInput(String)
    /// Writing an output failed.
    case cannotWrite(path: String, reason: String)
    /// A failure worth retrying as it is (an I/O error, a full disk): exit code 75
    /// (`EX_TEMPFAIL`), so job engines' retry policies can tell it from bad input.
    case retryable(String)

    public var message: String {
        switch self {
        case .usage(let text, _): text
        case .badInput(let text): text
        case .cannotWrite(let path, let reason): "cannot write '\(path)': \(reason)"
        case .retryable(let text): text
        }
    }

    /// The exit code of `EX_TEMPFAIL` (sysexits.h).
    public static let temporaryFailureExitCode: Int32 = 75

    /// The `errno` values of failures that may pass when the same command runs again: I/O
    /// errors, a full disk or quota, an interrupted or timed-out call, a stale network file.
    public static let retryableCodes: [Int32] = [EIO, ENOSPC, EDQUOT, EAGAIN, EINTR, ETIMEDOUT, ESTALE, ENOMEM]

    /// True for ``retryable(_:)``, and for a write that failed for one of ``retryableCodes``.
    public var isTemporary: Bool {
        switch self {
        case .retryable: true
        case .cannotWrite(_, let reason): Self.retryableCodes.contains { SystemError.text($0) == reason }
        default: false
        }
    }

    /// Reading or writing `path` failed with `error`: ``retryable(_:)`` for one of
    /// ``retryableCodes``, else bad input (reading) or ``cannotWrite(path:reason:)``.
    public static func ioFailure(path: String, reading: Bool, _ error: SystemError) -> CLIError {
        let message = "cannot \(reading ? "read" : "write") '\(path)': \(error.text)"
        if retryableCodes.contains(error.code) { return .retryable(message) }
        return reading ? .badInput(message) : .cannotWrite(path: path, reason: error.text)
    }

    public var isUsageError: Bool {
        if case .usage = self { return true }
        return false
    }
}
