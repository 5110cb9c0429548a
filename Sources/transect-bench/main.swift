// make bench: Transect's hot paths timed against a peer measured in the same run, printed as
// ratios. Absolute times are shown for context only; they depend on the machine.
#if canImport(Glibc)
import Glibc
#endif
import CGDAL
import CPROJ
import TransectCore
import TransectGDAL
import TransectTestSupport

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Best of `runs` timings of `body`, in seconds.
func time(_ runs: Int = 3, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let t0 = now()
        body()
        best = min(best, now() - t0)
    }
    return best
}

func report(_ name: String, ours: Double, peer: Double, peerName: String, count: Int) {
    let ratio = peer / ours
    let line =
        "\(name): Transect \(fmt(ours * 1e9 / Double(count))) ns/op, \(peerName) \(fmt(peer * 1e9 / Double(count))) ns/op, "
        + "ratio \(fmt(ratio))× (\(ratio >= 1 ? "Transect faster" : "peer faster"))"
    print(line)
}

func fmt(_ v: Double) -> String { NumberFormatting.grouped(v, decimals: 2) }

var rng = SeededRandom(seed: 1)
let n = 200_000
let lat1 = (0..<n).map { _ in Double.random(in: -90...90, using: &rng) }
let lon1 = (0..<n).map { _ in Double.random(in: -180...180, using: &rng) }
let lat2 = (0..<n).map { _ in Double.random(in: -90...90, using: &rng) }
let lon2 = (0..<n).map { _ in Double.random(in: -180...180, using: &rng) }

// 1. Geodesic inverse against PROJ's geod_inverse (GeographicLib's C port).
var sink = 0.0
let geodesic = Geodesic.wgs84
let ours = time {
    for k in 0..<n { sink += geodesic.inverse(latitude1: lat1[k], longitude1: lon1[k], latitude2: lat2[k], longitude2: lon2[k]).distanceMetres }
}
var g = geod_geodesic()
geod_init(&g, 6_378_137, 1 / 298.257223563)
let peer = time {
    var s12 = 0.0
    var a1 = 0.0
    var a2 = 0.0
    for k in 0..<n {
        geod_inverse(&g, lat1[k], lon1[k], lat2[k], lon2[k], &s12, &a1, &a2)
        sink += s12
    }
}
report("geodesic inverse (random global pairs)", ours: ours, peer: peer, peerName: "PROJ geod_inverse", count: n)

// 2. Positions along one geodesic line, batch, against geod_position on a geod_geodesicline.
let m = 1_000_000
let distances = (0..<m).map { Double($0) * 10 }
let line = geodesic.inverseLine(latitude1: 37.7, longitude1: -119.5, latitude2: 48.8, longitude2: 2.3)
let oursLine = time { sink += line.positions(atDistances: distances).last!.latitude }
var pl = geod_geodesicline()
geod_inverseline(&pl, &g, 37.7, -119.5, 48.8, 2.3, 0)
let peerLine = time {
    var la = 0.0
    var lo = 0.0
    var az = 0.0
    for s in distances {
        geod_position(&pl, s, &la, &lo, &az)
        sink += la
    }
}
report("positions along a geodesic (1,000,000)", ours: oursLine, peer: peerLine, peerName: "PROJ geod_position", count: m)

// 3. DEM sampling: batch bilinear against one GDALRasterIO of a 2 × 2 window per point.
let shared = "../shared/data/yosemite_valley_ned1as.tif"
let demPath = access(shared, R_OK) == 0 ? shared : "/usr/share/ferret-vis/data/etopo5.cdf"
do {
    let model = try ElevationModel([demPath])
    let ext = try model.extentLonLat()
    let k = 200_000
    let points = (0..<k).map { _ in
        GeoPoint(
            longitude: Double.random(in: (ext.west + 0.01)...(ext.east - 0.01), using: &rng),
            latitude: Double.random(in: (ext.south + 0.01)...(ext.north - 0.01), using: &rng))
    }
    let oursSample = time { sink += (try? model.elevations(at: points))?.first ?? 0 }
    let (cols, rows) = model.pixelCoordinates(of: points)
    prepareGDAL()
    let ds = GDALOpen(demPath, GA_ReadOnly)!
    let band = GDALGetRasterBand(ds, 1)!
    let peerSample = time {
        var window = [Double](repeating: 0, count: 4)
        for i in 0..<k {
            let u = cols[i] - 0.5
            let v = rows[i] - 0.5
            let c = Int(u.rounded(.down))
            let r = Int(v.rounded(.down))
            _ = window.withUnsafeMutableBytes {
                GDALRasterIO(band, GF_Read, Int32(c), Int32(r), 2, 2, $0.baseAddress, 2, 2, GDT_Float64, 0, 0)
            }
            let fx = u - Double(c)
            let fy = v - Double(r)
            sink += (1 - fy) * ((1 - fx) * window[0] + fx * window[1]) + fy * ((1 - fx) * window[2] + fx * window[3])
        }
    }
    GDALClose(ds)
    report(
        "DEM bilinear sampling (\(demPath.split(separator: "/").last!), 200,000 random points)", ours: oursSample, peer: peerSample,
        peerName: "GDALRasterIO 2×2 per point", count: k)
} catch {
    print("DEM sampling: skipped (\(error))")
}
if sink == 42 { print("") }

// 4. A 4000 × 4000 hillshade map, end to end (warp, shade, PNG), against gdaldem hillshade on the
//    frame already warped plus gdal_translate to PNG: the tools a user would otherwise script.
import Foundation

func runTool(_ path: String, _ arguments: [String]) -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
}

if access(shared, R_OK) == 0, access("/usr/bin/gdaldem", X_OK) == 0 {
    let tmp = NSTemporaryDirectory() + "transect-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let transect = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("transect").path
    let extent = ["262000", "4170000", "288000", "4196000"]
    _ = runTool(
        "/usr/bin/gdalwarp",
        ["-q", "-t_srs", "EPSG:32611", "-te"] + extent + ["-ts", "4000", "4000", "-r", "bilinear", "-ot", "Float32", shared, tmp + "/frame.tif"])
    var ok = true
    let oursMap = time(3) {
        ok =
            ok
            && runTool(
                transect,
                [
                    "render", "--dem", shared, "--size", "4000x4000", "--extent-crs", extent.joined(separator: ","),
                    "--decorations", "none", "-o", tmp + "/ours.png",
                ])
    }
    let peerMap = time(3) {
        ok = ok && runTool("/usr/bin/gdaldem", ["hillshade", "-q", "-compute_edges", tmp + "/frame.tif", tmp + "/hs.tif"])
        ok = ok && runTool("/usr/bin/gdal_translate", ["-q", "-of", "PNG", tmp + "/hs.tif", tmp + "/hs.png"])
    }
    if !ok {
        print("4000 × 4000 hillshade map: a command failed (is .build/release/transect built?); no figures")
    } else {
        print(
            "4000 × 4000 hillshade map: transect render \(fmt(oursMap)) s (warp included), gdaldem hillshade + gdal_translate PNG \(fmt(peerMap)) s, ratio \(fmt(peerMap / oursMap))×"
        )
    }
} else {
    print("4000 × 4000 hillshade map: skipped (needs ../shared/data and gdaldem)")
}
