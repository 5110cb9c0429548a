#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGDAL
import Synchronization

/// The first message of a failed transfer that a GDAL call gave on this thread: curl's and the
/// HTTP layer's errors, and a read that came back short ("Read error …; got 0 bytes, expected
/// …"), which is how a block read reports a server that stopped answering. GDAL says this
/// before the message a call ends with ("IReadBlock failed …"), which alone does not tell a
/// lost connection from a corrupt block; the funnel (``gdal(fallback:_:orThrow:)``) puts the two
/// together, so that ``TerrainError/isTemporary`` can tell.
///
/// Kept per thread (`pthread_setspecific`), as GDAL's own last error is, and cleared by the
/// funnel before each call (``begin()``). A call that hands its reads to GDAL's worker threads
/// (the warper's) and fails without a message of its own hears nothing on its own thread; for
/// it the latest message any thread noted since the call began stands in
/// (``message(since:anyThread:)``).
enum TransferFailure {
    /// The process's error handler: prints nothing, as `CPLQuietErrorHandler`, and notes a
    /// transfer failure.
    static let handler: CPLErrorHandler = { errorClass, number, message in
        guard errorClass.rawValue >= CE_Failure.rawValue, let message else { return }
        guard isTransfer(number: number, message: String(cString: message)) else { return }
        note(message)
    }

    /// True for GDAL's file and HTTP errors and for messages of a transfer that failed.
    static func isTransfer(number: CPLErrorNum, message: String) -> Bool {
        if number == CPLE_FileIO || number == CPLE_HttpResponse { return true }
        return TerrainError.mentions(message, TerrainError.transferReasons)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// Messages noted by any thread so far, numbering ``latest``.
    private static let count = Atomic<UInt64>(0)
    /// The latest message any thread noted, with its number.
    private static let latest = Mutex<(number: UInt64, message: String)?>(nil)

    /// Forgets this thread's message and returns the count of messages so far, for
    /// ``message(since:)``.
    static func begin() -> UInt64 {
        if let old = pthread_getspecific(key) {
            pthread_setspecific(key, nil)
            free(old)
        }
        return count.load(ordering: .acquiring)
    }

    /// Keeps `message` unless this thread has one already: the first says what went wrong.
    static func note(_ message: UnsafePointer<CChar>) {
        let text = String(cString: message).trimmingWhitespace.replacingNewlines
        let number = count.add(1, ordering: .acquiringAndReleasing).newValue
        latest.withLock { $0 = (number, text) }
        guard pthread_getspecific(key) == nil, let copy = strdup(message) else { return }
        pthread_setspecific(key, copy)
    }

    /// This thread's message, on one line; else, with `anyThread` (for a call that failed with
    /// no message on its own thread), the latest any thread noted after ``begin()`` returned
    /// `mark`; else nil.
    static func message(since mark: UInt64, anyThread: Bool) -> String? {
        if let pointer = pthread_getspecific(key) {
            return String(cString: pointer.assumingMemoryBound(to: CChar.self)).trimmingWhitespace.replacingNewlines
        }
        guard anyThread else { return nil }
        return latest.withLock { $0.flatMap { $0.number > mark ? $0.message : nil } }
    }
}
