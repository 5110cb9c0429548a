#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: results to `out`, diagnostics to `err`. The standard console
/// writes to the process's stdout and stderr; tests use a capturing one.
public final class Console {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    private var captured: (out: String, err: String)?
    /// True for the process's own stdout and stderr (progress may be drawn there).
    package private(set) var isStandard = false

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        writeOut = out
        writeErr = err
    }

    /// The process's stdout and stderr.
    public static func standard() -> Console {
        // stdout is flushed before each diagnostic so the two interleave in the order written.
        let console = Console(
            out: { text in fputs(text, stdout) },
            err: { text in
                fflush(stdout)
                fputs(text, stderr)
            })
        console.isStandard = true
        return console
    }

    /// A console that keeps what is written, for tests.
    public static func capturing() -> Console {
        let console = Console(out: { _ in }, err: { _ in })
        console.captured = ("", "")
        return console
    }

    /// Everything written to `out` so far, when capturing.
    public var capturedOut: String { captured?.out ?? "" }
    /// Everything written to `err` so far, when capturing.
    public var capturedErr: String { captured?.err ?? "" }

    public func out(_ text: String) {
        if captured != nil { captured!.out += text } else { writeOut(text) }
    }

    public func err(_ text: String) {
        if captured != nil { captured!.err += text } else { writeErr(text) }
    }

    /// Flushes the process's streams (a no-op when capturing).
    public func flush() {
        if captured == nil {
            fflush(stdout)
            fflush(stderr)
        }
    }
}
