#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: its `errno` code, and the one place an `errno` becomes text.
///
/// Every reader, writer and command that makes a system call (`open`, `stat`, `read`, `mkdir`,
/// `rename`…) and reports its failure makes it through one of the `SystemError.call` functions,
/// which return the call's value or throw a `SystemError` holding the `errno` the call set, read
/// right after it. The caller maps that to its own error (`cannot read walk.gpx: permission
/// denied`), so nothing else reads `errno` and a reason reads the same wherever it comes from.
///
/// ```swift
/// do throws(SystemError) {
///     let fd = try SystemError.call { open(path, O_RDONLY) }
///     …
/// } catch {
///     throw .cannotRead(path: path, reason: error.text)
/// }
/// ```
///
/// The text is the C function `strerror`'s, lower-cased to sit after a path and a colon.
public struct SystemError: Error, Equatable, Sendable {
    /// The `errno` value the failed call set.
    public let code: Int32
    /// What to say instead of the C library's text, for a failure no call reported but a check
    /// after it found (``RegularFile``: `is a FIFO (named pipe), not a regular file`).
    public let detail: String?

    /// The failure with `errno` value `code`.
    public init(code: Int32) {
        self.code = code
        detail = nil
    }

    /// A failure found by a check after a call, with `code` for callers that test it and
    /// `detail` as its text.
    public init(code: Int32, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The C library's description of ``code``, lower-cased: `no such file or directory`; or
    /// the ``detail`` of a failed check.
    public var text: String { detail ?? Self.text(code) }

    /// The shorter wording the track-file readers give for the two failures met most when
    /// opening a named file: `no such file` for `ENOENT`, `not readable` for `EACCES`; any other
    /// code reads as ``text``. Error messages of track files are pinned to these words; every
    /// other reader and writer uses ``text``.
    public var briefText: String {
        if let detail { return detail }
        return switch code {
        case ENOENT: "no such file"
        case EACCES: "not readable"
        default: text
        }
    }

    /// The C library's description of `code`, lower-cased.
    ///
    /// Example: `SystemError.text(ENOENT)` is `no such file or directory` (glibc's wording).
    ///
    /// - Parameter code: an `errno` value (a failed call's is in ``code``; nothing reads the
    ///   current `errno` but the `call` functions and ``check(_:)``).
    public static func text(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// Runs a system call that returns -1 on failure and sets `errno` (`open`, `stat`, `mkdir`,
    /// `rename`, `fsync`, `fclose`, `fputs`…), and returns its value.
    ///
    /// - Parameters:
    ///   - retryingInterrupts: run the call again while it fails with `EINTR` (a signal arrived
    ///     before it did anything).
    ///   - body: the call.
    /// - Throws: a `SystemError` with the `errno` the call set.
    @discardableResult
    public static func call(retryingInterrupts: Bool = false, _ body: () -> Int32) throws(SystemError) -> Int32 {
        try valueOrErrno(retryingInterrupts, body) { $0 == -1 }
    }

    /// Runs a system call that returns a byte count, or -1 on failure (`read`, `write`), and
    /// returns the count.
    ///
    /// - Parameters:
    ///   - retryingInterrupts: run the call again while it fails with `EINTR`.
    ///   - body: the call.
    /// - Throws: a `SystemError` with the `errno` the call set.
    @discardableResult
    public static func call(retryingInterrupts: Bool = false, _ body: () -> Int) throws(SystemError) -> Int {
        try valueOrErrno(retryingInterrupts, body) { $0 == -1 }
    }

    /// Runs a call that returns nil on failure and sets `errno` (`fopen`, `realpath`, `opendir`),
    /// and returns its value.
    ///
    /// - Throws: a `SystemError` with the `errno` the call set.
    public static func call<T>(_ body: () -> T?) throws(SystemError) -> T {
        guard let value = body() else { throw SystemError(code: errno) }
        return value
    }

    /// Runs a test whose failure the caller states as a `Bool` and that leaves the reason in
    /// `errno`: a stream's error flag after `fread` or `fflush` (`ferror(file) == 0`).
    ///
    /// - Throws: a `SystemError` with the current `errno` when `body` is false.
    public static func check(_ body: () -> Bool) throws(SystemError) {
        guard body() else { throw SystemError(code: errno) }
    }

    private static func valueOrErrno<T>(_ retrying: Bool, _ body: () -> T, failed: (T) -> Bool) throws(SystemError) -> T {
        while true {
            let value = body()
            guard failed(value) else { return value }
            let code = errno
            if retrying && code == EINTR { continue }
            throw SystemError(code: code)
        }
    }
}
