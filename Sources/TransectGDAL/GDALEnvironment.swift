#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    ///
    /// Network reads are configured apart, only when a model is opened with
    /// ``DataAccess/allowNetwork`` (``networkConfiguration``); without it GDAL is never handed
    /// a network path.
    static let configuration: [(key: String, value: String)] = [
        ("GDAL_VRT_ENABLE_RAWRASTERBAND", "NO"),
        ("GDAL_VRT_ENABLE_PYTHON", "NO"),
    ]

    /// GDAL configuration for DEMs read over the network (`/vsis3/`, `/vsicurl/`, STAC item
    /// collections), set once, the first time a model is opened with `--allow-network`, and
    /// only for the options the user has not set in the environment:
    /// - `GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR`, but only while a network path opens
    ///   (``openingNetworkPath(_:_:)``): no directory listing of the bucket or server to look
    ///   for side files; a Cloud-Optimized GeoTIFF needs none.
    /// - `CPL_VSIL_CURL_ALLOWED_EXTENSIONS`: only names with a DEM's extension exist on the
    ///   server, so GDAL does not ask for `.aux.xml`, `.ovr` or `.msk` files that are not there.
    /// - `GDAL_HTTP_MERGE_CONSECUTIVE_RANGES=YES`: adjacent blocks in one request.
    /// - `GDAL_HTTP_TIMEOUT`, `GDAL_HTTP_CONNECTTIMEOUT`, `GDAL_HTTP_MAX_RETRY`,
    ///   `GDAL_HTTP_RETRY_DELAY`: set apart, from `--timeout` (``configureTimeouts(seconds:given:)``),
    ///   so that a request to a server that accepts and stays silent fails within it.
    /// - `CPL_VSIL_NETWORK_STATS_ENABLED=YES`: GDAL counts the requests and bytes, for
    ///   `transect info --stats` (``NetworkStatistics``).
    ///
    /// Local reads keep GDAL's default listing: it finds the `.aux.xml`, `.prj` and world files
    /// beside local rasters.
    static let networkConfiguration: [(key: String, value: String)] = [
        ("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", networkExtensions.joined(separator: ",")),
        ("GDAL_HTTP_MERGE_CONSECUTIVE_RANGES", "YES"),
        ("CPL_VSIL_NETWORK_STATS_ENABLED", "YES"),
    ]

    /// The file name endings a network DEM may have (GDAL compares them ignoring case): the
    /// rasters of ``DEMPaths/rasterSuffixes``, and `.json` for STAC item collections.
    static let networkExtensions = DEMPaths.rasterSuffixes + [".json"]

    private static let networkConfigured: Bool = {
        ensure()
        for (key, value) in networkConfiguration where getenv(key) == nil { CPLSetConfigOption(key, value) }
        return true
    }()

    /// Runs `body` (the open of `path`) with `GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR` on this
    /// thread when `path` is on the network and the user has not set it; local paths keep
    /// GDAL's listing, which finds their `.aux.xml`, `.prj` and world files.
    static func openingNetworkPath<T>(_ path: String, _ body: () throws(TerrainError) -> T) throws(TerrainError) -> T {
        let key = "GDAL_DISABLE_READDIR_ON_OPEN"
        guard SourceConfinement.isNetwork(path), getenv(key) == nil else { return try body() }
        CPLSetThreadLocalConfigOption(key, "EMPTY_DIR")
        defer { CPLSetThreadLocalConfigOption(key, nil) }
        return try body()
    }

    /// Runs `body` with `GTIFF_DIRECT_IO=YES` on this thread unless the user set it. The GeoTIFF
    /// driver reads the option when it opens a file, so it takes effect for the files `body`
    /// opens (a GeoTIFF opened again for a whole-raster read, the sources a VRT opens as it
    /// reads): GDAL then reads an uncompressed GeoTIFF's strips or tiles straight into the
    /// caller's buffer instead of through its block cache (the same values, without a copy of
    /// every cell, nor the cache's memory); other drivers and compressed files ignore it.
    static func withDirectReads<T>(_ body: () throws(TerrainError) -> T) throws(TerrainError) -> T {
        let key = "GTIFF_DIRECT_IO"
        guard CPLGetConfigOption(key, nil) == nil else { return try body() }
        CPLSetThreadLocalConfigOption(key, "YES")
        defer { CPLSetThreadLocalConfigOption(key, nil) }
        return try body()
    }

    /// Configures GDAL for network reads (``networkConfiguration``, and the time-outs of
    /// `access`); cheap after the first call.
    static func enableNetworkReads(_ access: DataAccess = DataAccess(allowNetwork: true)) {
        _ = networkConfigured
        configureTimeouts(seconds: access.timeoutSeconds ?? DataAccess.defaultTimeoutSeconds, given: access.timeoutSeconds != nil)
    }

    /// GDAL's HTTP options for requests that must fail within `seconds` however silent the
    /// server: each attempt's transfer time-out (curl's whole-transfer limit, which a server
    /// that accepts and never answers runs into), its connect time-out (at most 10 s), the
    /// retries (two, 1 s apart, when the budget leaves each attempt 2 s or more; none below
    /// 10 s), so that attempts × time-out + retries × delay ≤ `seconds`. GDAL 3.6 reads whole
    /// seconds.
    static func httpBudget(seconds: Int) -> (timeout: Int, connect: Int, retries: Int, delay: Int) {
        let retries = seconds >= 10 ? 2 : 0
        let delay = 1
        let timeout = max(1, (seconds - retries * delay) / (retries + 1))
        return (timeout, min(timeout, 10), retries, delay)
    }

    /// Sets GDAL's HTTP time-outs for a budget of `seconds` a request (``httpBudget(seconds:)``):
    /// over what the environment sets when `given` (`--timeout`), only where it sets nothing
    /// otherwise.
    static func configureTimeouts(seconds: Int, given: Bool) {
        let budget = httpBudget(seconds: seconds)
        for (key, value) in [
            ("GDAL_HTTP_TIMEOUT", budget.timeout), ("GDAL_HTTP_CONNECTTIMEOUT", budget.connect),
            ("GDAL_HTTP_MAX_RETRY", budget.retries), ("GDAL_HTTP_RETRY_DELAY", budget.delay),
        ] where given || getenv(key) == nil {
            CPLSetConfigOption(key, String(value))
        }
    }

    private static let initialised: Bool = {
        CPLSetErrorHandler(TransferFailure.handler)
        for (key, value) in configuration { CPLSetConfigOption(key, value) }
        GDALAllRegister()
        GDALSetCacheMax64(blockCacheBytes)
        // PROJ may fetch transformation grids from the network when a proj.ini or
        // PROJ_NETWORK=ON asks it to; off unless both --allow-network and PROJ_NETWORK=ON ask
        // (``enablePROJNetworkIfAsked()``).
        OSRSetPROJEnableNetwork(0)
        return true
    }()

    /// Call before any GDAL function; cheap after the first call.
    @inline(__always)
    static func ensure() { _ = initialised }

    /// Lets PROJ fetch transformation grids from the network, for a model opened with
    /// ``DataAccess/allowNetwork`` when the environment asks for PROJ's network as well
    /// (``projNetworkAsked(_:)``). `--allow-network` alone is for reading DEMs: with PROJ's
    /// network on, PROJ prefers an operation whose grid it would download (NAD83 → WGS84
    /// through NADCON5, say), and where that download fails every point fails with it; with it
    /// off PROJ uses the best operation whose grids are installed, as offline. Never turned off
    /// again in the process: a model that needed it may still be in use. The corresponding GDAL
    /// function is `OSRSetPROJEnableNetwork`.
    static func enablePROJNetworkIfAsked() {
        ensure()
        guard projNetworkAsked(getenv("PROJ_NETWORK").map { String(cString: $0) }) else { return }
        if OSRGetPROJEnableNetwork() == 0 { OSRSetPROJEnableNetwork(1) }
    }

    /// True when `PROJ_NETWORK` (its value, nil when unset) turns PROJ's network on, as PROJ
    /// reads it: `ON`, `YES` or `TRUE`, in any case.
    static func projNetworkAsked(_ value: String?) -> Bool {
        guard let value else { return false }
        return ["on", "yes", "true"].contains(value.lowercased())
    }
}
