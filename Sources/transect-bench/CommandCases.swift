// Whole commands against the tools a user would otherwise script: `render` against gdalwarp +
// gdaldem + gdal_translate, `measure --pairs` against a pandas + pyproj + numpy/scipy pipeline.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TransectGDAL
import TransectSupport
import TransectTestSupport

let sharedDEM = "../shared/data/yosemite_valley_ned1as.tif"

/// Runs a program and waits; true when it exits 0. Its stderr is discarded.
func runTool(_ path: String, _ arguments: [String]) -> Bool {
    runTogether([(path, arguments)])
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// The `transect` executable built beside this one.
let transectExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("transect").path

/// The 4000² and 8000² hillshade maps of Yosemite Valley, end to end (warp, shade, PNG). At
/// 4000² the peer starts from the frame already warped, as before; at 8000² it warps too.
func renderCases(directory tmp: String) {
    guard access(sharedDEM, R_OK) == 0, access("/usr/bin/gdaldem", X_OK) == 0 else {
        print("4000 × 4000 hillshade map: skipped (needs ../shared/data and gdaldem)")
        print("render-8000: skipped (needs ../shared/data and gdaldem)")
        return
    }
    let extent = ["262000", "4170000", "288000", "4196000"]
    func warp(_ size: Int) -> Bool {
        runTool(
            "/usr/bin/gdalwarp",
            ["-q", "-overwrite", "-t_srs", "EPSG:32611", "-te"] + extent
                + ["-ts", "\(size)", "\(size)", "-r", "bilinear", "-ot", "Float32", sharedDEM, tmp + "/frame.tif"])
    }
    func render(_ size: Int) -> Bool {
        runTool(
            transectExecutable,
            [
                "render", "--dem", sharedDEM, "--size", "\(size)x\(size)", "--frame-crs", "EPSG:32611", "--extent-crs",
                extent.joined(separator: ","),
                "--decorations", "none", "-o", tmp + "/ours.png",
            ])
    }
    func shadeAndTranslate() -> Bool {
        runTool("/usr/bin/gdaldem", ["hillshade", "-q", "-compute_edges", tmp + "/frame.tif", tmp + "/hs.tif"])
            && runTool("/usr/bin/gdal_translate", ["-q", "-of", "PNG", tmp + "/hs.tif", tmp + "/hs.png"])
    }
    var ok = warp(4000)
    let oursMap = time(2) { ok = ok && render(4000) }
    let peerMap = time(2) { ok = ok && shadeAndTranslate() }
    if !ok {
        print("4000 × 4000 hillshade map: a command failed (is .build/release/transect built?); no figures")
    } else {
        print(
            "4000 × 4000 hillshade map: transect render \(fmt(oursMap)) s (warp included), gdaldem hillshade + gdal_translate PNG \(fmt(peerMap)) s, ratio \(fmt(peerMap / oursMap))×"
        )
    }

    ok = true
    let ours8000 = time(1) { ok = ok && render(8000) }
    let peer8000 = time(1) { ok = ok && warp(8000) && shadeAndTranslate() }
    if !ok {
        print("render-8000: a command failed (is .build/release/transect built?); no figures")
    } else {
        let sizes = "; PNGs \(fmt(Double(fileSize(tmp + "/ours.png")) / 1e6)) MB and \(fmt(Double(fileSize(tmp + "/hs.png")) / 1e6)) MB"
        report(
            "render-8000", "8000 × 8000 hillshade map, end to end", ours: ours8000, peer: peer8000,
            peerName: "gdalwarp + gdaldem hillshade + gdal_translate PNG", count: 1, note: sizes)
    }
}

/// The first python3 (`python3` on the PATH, then /usr/bin/python3) that imports everything
/// the peer pipeline needs, or nil.
func pythonWithPeerModules() -> String? {
    let check = "import pyproj, pandas, numpy, scipy\ntry:\n    from osgeo import gdal\nexcept ImportError:\n    import rasterio"
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let onPath = path.split(separator: ":").map { (dir: Substring) -> String in dir + "/python3" }.first { (file: String) in access(file, X_OK) == 0 }
    var candidates: [String] = []
    if let onPath { candidates.append(onPath) }
    candidates.append("/usr/bin/python3")
    for candidate in candidates where runTool(candidate, ["-c", check]) {
        return candidate
    }
    return nil
}

/// `transect measure --pairs` over 1,000,000 seeded pairs on the Yosemite DEM, end to end,
/// against scripts/bench-pairs-peer.py (pandas read_csv, pyproj, scipy bilinear, to_csv).
func batchCase(directory tmp: String) {
    let script = "scripts/bench-pairs-peer.py"
    guard access(sharedDEM, R_OK) == 0, access(script, R_OK) == 0 else {
        print("batch-1m: skipped (needs ../shared/data and \(script), run from the repository)")
        return
    }
    guard let python = pythonWithPeerModules() else {
        print("batch-1m: skipped (no python3 here imports pyproj, pandas, numpy, scipy and GDAL's bindings or rasterio)")
        return
    }
    let pairs = 1_000_000
    let input = tmp + "/pairs.csv"
    do { try writeSeededPairs(pairs, to: input) } catch {
        print("batch-1m: skipped (\(error))")
        return
    }
    var ok = true
    let ours = time(1) { ok = ok && runTool(transectExecutable, ["measure", "--dem", sharedDEM, "--pairs", input, "-o", tmp + "/ours.csv"]) }
    let peer = time(1) { ok = ok && runTool(python, [script, sharedDEM, input, tmp + "/peer.csv"]) }
    guard ok else {
        print("batch-1m: a command failed (is .build/release/transect built?); no figures")
        return
    }
    report(
        "batch-1m", "measure --pairs, 1,000,000 pairs on the Yosemite DEM, end to end (per pair)", ours: ours, peer: peer,
        peerName: "pandas + pyproj + scipy (\(python))", count: pairs)
}

/// Writes `count` pairs drawn uniformly over the Yosemite DEM (seed 7, six decimals) to `path`,
/// under a `from_lon,from_lat,to_lon,to_lat` header.
func writeSeededPairs(_ count: Int, to path: String) throws {
    let ext = try ElevationModel([sharedDEM]).extentLonLat()
    var rng = SeededRandom(seed: 7)
    var text = "from_lon,from_lat,to_lon,to_lat\n"
    text.reserveCapacity(count * 48)
    func coordinate(_ lo: Double, _ hi: Double) -> String { NumberFormatting.fixed(rng.uniform(lo + 0.001, hi - 0.001), decimals: 6) }
    for _ in 0..<count {
        let a = coordinate(ext.west, ext.east)
        let b = coordinate(ext.south, ext.north)
        let c = coordinate(ext.west, ext.east)
        let d = coordinate(ext.south, ext.north)
        text += "\(a),\(b),\(c),\(d)\n"
    }
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}
