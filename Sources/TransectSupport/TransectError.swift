/// An error a user can cause, with a one-line message that names the input and the problem.
///
/// The CLI prints `message` on stderr and exits with 2 for a usage error (the command line
/// itself is wrong), 75 (EX_TEMPFAIL) for a failure worth retrying (``isTemporary``) and 1
/// otherwise (the data is bad, or reading it failed).
public protocol UserFacingError: Error, CustomStringConvertible {
    /// One line naming the input and what is wrong with it.
    var message: String { get }
    /// True when the command line is wrong, rather than the data.
    var isUsageError: Bool { get }
    /// True when trying again later may succeed (a server that did not answer); false unless
    /// the error says so.
    var isTemporary: Bool { get }
}

extension UserFacingError {
    public var isTemporary: Bool { false }
    public var description: String { message }
}
