import TransectCore

/// A track, place or scene file that cannot be read: names the file and the problem.
public enum FormatError: UserFacingError, Equatable {
    case cannotRead(path: String, reason: String)
    case malformed(path: String, reason: String)

    public var message: String {
        switch self {
        case let .cannotRead(path, reason): "cannot read '\(path)': \(reason)"
        case let .malformed(path, reason): "'\(path)': \(reason)"
        }
    }

    public var isUsageError: Bool { false }
}
