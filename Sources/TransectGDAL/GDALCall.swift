import CGDAL
import TransectSupport

// The one funnel for GDAL calls, as swift-system's `valueOrErrno` is for errno: GDAL's error
// state is cleared, the call runs, and a failure becomes a ``TerrainError`` carrying GDAL's own
// message for the call (never a stale one from an earlier call). Nothing else in the module calls
// `CPLErrorReset` or reads `CPLGetLastErrorMsg`.
//
// ```swift
// let handle = try gdal { GDALOpenEx(path, flags, nil, nil, nil) } orThrow: { .cannotOpen(path: path, reason: $0) }
// try gdal { GDALRasterIO(band, GF_Read, …) } orThrow: { .readFailed(path: label, reason: $0) }
// ```

/// Runs a GDAL call that returns nil on failure (an open, a warp, a new object) and returns
/// its value.
///
/// - Parameters:
///   - fallback: the reason given when GDAL fails without a message.
///   - body: the call.
///   - failure: makes the error from GDAL's message (or `fallback`).
func gdal<T>(
    fallback: String = GDALMessage.unknown, _ body: () -> T?,
    orThrow failure: (String) -> TerrainError
) throws(TerrainError) -> T {
    try GDALMessage.funnel(body, success: { $0 }, fallback: fallback, failure)
}

/// Runs a GDAL call that returns a `CPLErr` (`GDALRasterIO`, …): anything but `CE_None` is a
/// failure.
func gdal(
    fallback: String = GDALMessage.unknown, _ body: () -> CPLErr,
    orThrow failure: (String) -> TerrainError
) throws(TerrainError) {
    try GDALMessage.funnel(body, success: { $0 == CE_None ? () : nil }, fallback: fallback, failure)
}

/// Runs a GDAL call whose success the caller states as a `Bool`, for the functions that report
/// it in their own way (`OSRSetFromUserInput(…) == OGRERR_NONE`, `OCTTransformBounds(…) != 0`).
func gdal(
    fallback: String = GDALMessage.unknown, succeeds body: () -> Bool,
    orThrow failure: (String) -> TerrainError
) throws(TerrainError) {
    try GDALMessage.funnel(body, success: { $0 ? () : nil }, fallback: fallback, failure)
}

/// GDAL's per-thread error message, read only by the funnel above.
enum GDALMessage {
    /// The reason given when a call fails and GDAL says nothing.
    static let unknown = "unknown GDAL error"

    /// The funnel itself: clears GDAL's error state, runs `body`, and returns what `success`
    /// makes of its result, or throws `failure(GDAL's message)` when that is nil.
    fileprivate static func funnel<R, V>(
        _ body: () -> R, success: (R) -> V?, fallback: String,
        _ failure: (String) -> TerrainError
    ) throws(TerrainError) -> V {
        CPLErrorReset()
        let mark = TransferFailure.begin()
        guard let value = success(body()) else { throw failure(last(or: fallback, transferSince: mark)) }
        return value
    }

    /// GDAL's last error message on this thread, on one line, or `fallback` when GDAL left none.
    /// The corresponding GDAL function is `CPLGetLastErrorMsg`.
    /// A failed transfer GDAL reported during the call (``TransferFailure``) comes first.
    fileprivate static func last(or fallback: String, transferSince mark: UInt64) -> String {
        let text = CPLGetLastErrorMsg().map { String(cString: $0).trimmingWhitespace.replacingNewlines } ?? ""
        let last = text.isEmpty ? fallback : text
        guard let transfer = TransferFailure.message(since: mark, anyThread: text.isEmpty), !transfer.isEmpty, !last.contains(transfer) else { return last }
        return transfer + " (" + last + ")"
    }
}
