// `transect profile --samples 1000000 --format csv` over an 8192² Float32 GeoTIFF, end to end,
// against scripts/bench-profile-peer.py (pyproj Geod.inv + fwd, GDAL's Python bindings, scipy's
// map_coordinates, pandas' to_csv).
#if canImport(Glibc)
import Glibc
#endif
import CGDAL
import TransectGDAL
import TransectSupport

/// The bench's synthetic surface as a GeoTIFF at `path`: geographic (EPSG:4326), one arc-second
/// cells (an SRTM-like DEM, 2.28° across, over the Sierra Nevada), Float32, tiled 256², NaN as
/// no data. False when GDAL refuses.
func writeProfileDEM(surface: [Float], size: Int, path: String) -> Bool {
    prepareGDAL()
    guard surface.count == size * size, let driver = GDALGetDriverByName("GTiff") else { return false }
    let options = ["TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256"]
    let ds: GDALDatasetH? = withArguments(options) { GDALCreate(driver, path, Int32(size), Int32(size), 1, GDT_Float32, $0) }
    guard let ds else { return false }
    var gt = [-120.5, 1.0 / 3600, 0, 38.5, 0, -1.0 / 3600]
    GDALSetGeoTransform(ds, &gt)
    let srs = OSRNewSpatialReference(nil)
    OSRSetFromUserInput(srs, "EPSG:4326")
    OSRSetAxisMappingStrategy(srs, OAMS_TRADITIONAL_GIS_ORDER)
    GDALSetSpatialRef(ds, srs)
    OSRDestroySpatialReference(srs)
    let band = GDALGetRasterBand(ds, 1)
    GDALSetRasterNoDataValue(band, .nan)
    let err = surface.withUnsafeBytes {
        GDALRasterIO(
            band, GF_Write, 0, 0, Int32(size), Int32(size), UnsafeMutableRawPointer(mutating: $0.baseAddress), Int32(size),
            Int32(size), GDT_Float32, 0, 0)
    }
    GDALClose(ds)
    return err == CE_None
}

/// CPU seconds of the finished children of this process (user and system).
func childrenCPUTime() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Best wall time and best CPU time (children's) of `runs` runs of a command; nil when it fails.
func timeCommand(_ runs: Int, _ body: () -> Bool) -> (wall: Double, cpu: Double)? {
    var wall = Double.infinity
    var cpu = Double.infinity
    for _ in 0..<runs {
        let c0 = childrenCPUTime()
        let t0 = now()
        guard body() else { return nil }
        wall = min(wall, now() - t0)
        cpu = min(cpu, childrenCPUTime() - c0)
    }
    return (wall, cpu)
}

/// profile-1m: the profile of 1,000,000 samples along a 290 km diagonal of the 8192² surface,
/// as CSV, against the Python pipeline. The ratio is of wall times (best of three, both cores
/// free for either); the CPU times of both are in the note.
func profileCase(surface: [Float], size: Int, directory tmp: String) {
    let script = "scripts/bench-profile-peer.py"
    guard access(script, R_OK) == 0 else {
        print("profile-1m: skipped (needs \(script), run from the repository)")
        return
    }
    guard let python = pythonWithPeerModules() else {
        print("profile-1m: skipped (no python3 here imports pyproj, pandas, numpy, scipy and GDAL's bindings or rasterio)")
        return
    }
    let dem = tmp + "/surface-8192.tif"
    guard writeProfileDEM(surface: surface, size: size, path: dem) else {
        print("profile-1m: skipped (GDAL could not write the 8192² GeoTIFF)")
        return
    }
    let (from, to, samples) = ("-120.45,38.45", "-118.28,36.28", "1000000")
    let ours = timeCommand(3) {
        runTool(
            transectExecutable,
            ["profile", "--dem", dem, "--from", from, "--to", to, "--samples", samples, "--format", "csv", "-o", tmp + "/profile-ours.csv"])
    }
    let peer = timeCommand(3) { runTool(python, [script, dem, from, to, samples, tmp + "/profile-peer.csv"]) }
    guard let ours, let peer else {
        print("profile-1m: a command failed (is .build/release/transect built?); no figures")
        return
    }
    let note = "; CPU \(fmt(ours.cpu)) s and \(fmt(peer.cpu)) s, CPU ratio \(NumberFormatting.grouped(ours.cpu / peer.cpu, decimals: 3))"
    report(
        "profile-1m", "profile --samples 1000000 --format csv, 8192² Float32 GeoTIFF, end to end", ours: ours.wall, peer: peer.wall,
        peerName: "pyproj + scipy + pandas (\(python))", count: 1, note: note)
}
