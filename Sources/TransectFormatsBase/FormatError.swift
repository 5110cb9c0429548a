import TransectSupport

/// A track, place or scene file that cannot be read: names the file and the problem.
public enum FormatError: UserFacingError, Equatable {
    case cannotRead(path: String, reason: String)
    case malformed(path: String, reason: String)

    /// One line: `cannot read 'PATH': REASON` or `'PATH': REASON`. Readers quote file text
    /// through `printable` where they embed it; the path (which a scene file can supply) and
    /// the reason pass through it once more here, with limits no sound message reaches, so no
    /// control character reaches the terminal whatever a reader forgot.
    public var message: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read '\(path.printable(limit: 4096))': \(reason.printable(limit: 4096))"
        case .malformed(let path, let reason): "'\(path.printable(limit: 4096))': \(reason.printable(limit: 4096))"
        }
    }

    public var isUsageError: Bool { false }
}
