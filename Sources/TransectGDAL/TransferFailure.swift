#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGDAL

/// The first message of a failed transfer that a GDAL call gave on this thread: curl's and the
/// HTTP layer's errors, and a read that came back short ("Read error …; got 0 bytes, expected
/// …"), which is how a block read reports a server that stopped answering. GDAL says this
/// before the message a call ends with ("IReadBlock failed …"), which alone does not tell a
/// lost connection from a corrupt block; the funnel (``gdal(fallback:_:orThrow:)``) puts the two
/// together, so that ``TerrainError/isTemporary`` can tell.
///
/// Kept per thread (`pthread_setspecific`), as GDAL's own last error is; cleared by the funnel
/// before each call.
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
        let lower = message.lowercased()
        return (TerrainError.temporaryNetworkReasons + TerrainError.shortReadReasons).contains { lower.contains($0) }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// Forgets this thread's message.
    static func reset() {
        guard let old = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        free(old)
    }

    /// Keeps `message` unless this thread has one already: the first says what went wrong.
    static func note(_ message: UnsafePointer<CChar>) {
        guard pthread_getspecific(key) == nil, let copy = strdup(message) else { return }
        pthread_setspecific(key, copy)
    }

    /// This thread's message, on one line, or nil.
    static var message: String? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return String(cString: pointer.assumingMemoryBound(to: CChar.self)).trimmingWhitespace.replacingNewlines
    }
}
