import CGDAL

/// Prepares GDAL for direct use by code outside this module (tests, benchmarks): the same
/// one-time set-up every TransectGDAL entry point makes. GDAL's driver registration is not safe
/// to run from two threads at once, so nothing else may call `GDALAllRegister`.
public func prepareGDAL() { GDALEnvironment.ensure() }

/// GDAL's process-wide set-up, done once: drivers registered, a quiet error handler (GDAL's
/// messages become our typed errors instead of `ERROR 4: …` lines on stderr), a bounded
/// block cache, so memory does not grow with the size of a mosaic, and the configuration
/// that keeps GDAL to what the user named (``configuration``).
enum GDALEnvironment {
    /// Bytes GDAL may keep in its block cache.
    static let blockCacheBytes: Int64 = 128 << 20

    /// GDAL configuration options set once for the whole process, overriding the environment:
    /// - `GDAL_VRT_ENABLE_RAWRASTERBAND=NO`: a VRT may not read an arbitrary file's bytes as
    ///   a raster. GDAL honours it from 3.7; ``SourceConfinement`` refuses such a VRT before
    ///   GDAL sees it, with our own message, and is the only lock on GDAL 3.6.
    /// - `GDAL_VRT_ENABLE_PYTHON=NO`: no Python pixel functions in a VRT.
    /// - `GDAL_HTTP_*`: with `--allow-network`, a server that does not answer costs at most
    ///   a 10 s connect time-out and a 60 s transfer time-out per request, retried twice,
    ///   1 s apart; without it GDAL is never handed a network path.
    ///
    /// `GDAL_DISABLE_READDIR_ON_OPEN` stays at GDAL's default: setting it would hide the
    /// `.aux.xml`, `.prj` and world files beside local rasters, which GDAL finds by listing.
    static let configuration: [(key: String, value: String)] = [
        ("GDAL_VRT_ENABLE_RAWRASTERBAND", "NO"),
        ("GDAL_VRT_ENABLE_PYTHON", "NO"),
        ("GDAL_HTTP_CONNECTTIMEOUT", "10"),
        ("GDAL_HTTP_TIMEOUT", "60"),
        ("GDAL_HTTP_MAX_RETRY", "2"),
        ("GDAL_HTTP_RETRY_DELAY", "1"),
    ]

    private static let initialised: Bool = {
        CPLSetErrorHandler(CPLQuietErrorHandler)
        for (key, value) in configuration { CPLSetConfigOption(key, value) }
        GDALAllRegister()
        GDALSetCacheMax64(blockCacheBytes)
        // PROJ may fetch transformation grids from the network when a proj.ini or
        // PROJ_NETWORK=ON asks it to; off unless --allow-network (``enablePROJNetwork()``).
        OSRSetPROJEnableNetwork(0)
        return true
    }()

    /// Call before any GDAL function; cheap after the first call.
    @inline(__always)
    static func ensure() { _ = initialised }

    /// Lets PROJ fetch transformation grids from the network, for a model opened with
    /// ``DataAccess/allowNetwork``. Never turned off again in the process: a model that
    /// needed it may still be in use. The corresponding GDAL function is `OSRSetPROJEnableNetwork`.
    static func enablePROJNetwork() {
        ensure()
        if OSRGetPROJEnableNetwork() == 0 { OSRSetPROJEnableNetwork(1) }
    }
}
