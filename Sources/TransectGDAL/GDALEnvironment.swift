import CGDAL

/// Prepares GDAL for direct use by code outside this module (tests, benchmarks): the same
/// one-time set-up every TransectGDAL entry point makes. GDAL's driver registration is not safe
/// to run from two threads at once, so nothing else may call `GDALAllRegister`.
public func prepareGDAL() { GDALEnvironment.ensure() }

/// GDAL's process-wide set-up, done once: drivers registered, a quiet error handler (GDAL's
/// messages become our typed errors instead of `ERROR 4: …` lines on stderr) and a bounded
/// block cache, so memory does not grow with the size of a mosaic.
enum GDALEnvironment {
    /// Bytes GDAL may keep in its block cache.
    static let blockCacheBytes: Int64 = 128 << 20

    private static let initialised: Bool = {
        CPLSetErrorHandler(CPLQuietErrorHandler)
        GDALAllRegister()
        GDALSetCacheMax64(blockCacheBytes)
        return true
    }()

    /// Call before any GDAL function; cheap after the first call.
    @inline(__always)
    static func ensure() { _ = initialised }

    /// GDAL's last error message on this thread, or `fallback` when GDAL left none.
    static func lastMessage(or fallback: String = "unknown GDAL error") -> String {
        guard let cString = CPLGetLastErrorMsg() else { return fallback }
        let text = String(cString: cString).trimmingWhitespace
        return text.isEmpty ? fallback : text.replacingNewlines
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// One line: errors are printed on a single line of stderr.
    var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
