#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place an `errno` becomes text: every reader, writer and command that reports a
/// failed system call (`open`, `stat`, `read`, `mkdir`, `rename`…) words it through here, so a
/// reason reads the same wherever it comes from.
///
/// The corresponding C function is `strerror`; its text is lower-cased to sit after a path and
/// a colon: `cannot read walk.gpx: permission denied`.
public enum SystemError {
    /// The C library's description of `code`, lower-cased.
    ///
    /// Example: `SystemError.text(ENOENT)` is `no such file or directory` (glibc's wording).
    ///
    /// - Parameter code: an `errno` value; the current `errno` when left out. Read it right
    ///   after the failed call, before anything else can change it.
    public static func text(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
