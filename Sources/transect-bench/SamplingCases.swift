// Bilinear sampling: Transect's kernel against a plain C loop on grids generated in memory, and
// DEM sampling end to end against GDALRasterIO.
#if canImport(Glibc)
import Glibc
#endif
import CBenchPeer
import CGDAL
import TransectGDAL
import TransectGeodesy
import TransectRaster
import TransectTestSupport

/// A `size`² Float32 surface: long waves across and down, up to 2.5 m of hashed roughness, and one
/// no-data cell in 1,009 (so both sides pay for their masks).
func syntheticSurface(size: Int) -> [Float] {
    let across = (0..<size).map { c in Float(800 * sin(Double(c) * 0.0031) + 300 * sin(Double(c) * 0.017)) }
    let down = (0..<size).map { r in Float(900 * cos(Double(r) * 0.0027) + 200 * sin(Double(r) * 0.021)) }
    var cells = [Float](repeating: 0, count: size * size)
    cells.withUnsafeMutableBufferPointer { out in
        for r in 0..<size {
            let row = r * size
            for c in 0..<size {
                let k = row + c
                let hash = UInt32(truncatingIfNeeded: k &* 2_654_435_761) >> 24
                out[k] = k % 1009 == 500 ? .nan : 2000 + across[c] + down[r] + Float(hash) * 0.01
            }
        }
    }
    return cells
}

/// 1,000,000 seeded random points over a `size`² grid, Transect's kernel against the C loop, each
/// writing into an output buffer it already has. The line's note adds the kernel's allocating
/// call, and what the hardware allows: the C loop with the kernel's prefetch (16 points ahead),
/// and the two cache lines per point alone, prefetched alike.
func bilinearCase(_ name: String, _ label: String, surface: [Float], size: Int, seed: UInt64) {
    let n = 1_000_000
    var rng = SeededRandom(seed: seed)
    let xs = (0..<n).map { _ in rng.uniform(0, Double(size)) }
    let ys = (0..<n).map { _ in rng.uniform(0, Double(size)) }
    let grid = Float32ElevationGrid(width: size, height: size, values: surface)
    // The kernel's distance: `prefetchGroups` groups of four points.
    let ahead = 16
    // Both sides write into an output buffer allocated once and reused by every repetition.
    var ours = [Double](repeating: 0, count: n)
    let oursTime = cpuTime(5) { grid.sample(columns: xs, rows: ys, interpolation: .bilinear, into: &ours) }
    var fresh: [Double] = []
    let freshTime = cpuTime(5) { fresh = grid.sample(columns: xs, rows: ys, interpolation: .bilinear) }
    var theirs = [Double](repeating: 0, count: n)
    var prefetched = [Double](repeating: 0, count: n)
    func peer(_ body: (UnsafePointer<Float>?, UnsafePointer<Double>?, UnsafePointer<Double>?) -> Void) -> Double {
        cpuTime(5) {
            surface.withUnsafeBufferPointer { g in
                xs.withUnsafeBufferPointer { x in
                    ys.withUnsafeBufferPointer { y in body(g.baseAddress, x.baseAddress, y.baseAddress) }
                }
            }
        }
    }
    let peerTime = peer { g, x, y in
        theirs.withUnsafeMutableBufferPointer { transect_peer_bilinear_f32(g, size, size, x, y, n, $0.baseAddress) }
    }
    let prefetchTime = peer { g, x, y in
        prefetched.withUnsafeMutableBufferPointer { transect_peer_bilinear_f32_prefetch(g, size, size, x, y, n, $0.baseAddress, ahead) }
    }
    let tapsTime = peer { g, x, y in sink += transect_peer_taps_only_f32(g, size, size, x, y, n, ahead) }
    let differing = (0..<n).filter {
        (!(ours[$0].bitPattern == theirs[$0].bitPattern && theirs[$0].bitPattern == prefetched[$0].bitPattern)
            && !(ours[$0].isNaN && theirs[$0].isNaN && prefetched[$0].isNaN)) || ours[$0].bitPattern != fresh[$0].bitPattern
    }.count
    let agreement = differing == 0 ? "; results equal bit for bit" : "; \(differing) results differ"
    let limits =
        "; into a fresh array \(fmt(freshTime * 1e9 / Double(n))) ns/op; C loop with the same prefetch \(fmt(prefetchTime * 1e9 / Double(n))) ns/op, "
        + "the two cache lines per point alone \(fmt(tapsTime * 1e9 / Double(n))) ns/op"
    report(name, label, ours: oursTime, peer: peerTime, peerName: "plain C loop", count: n, note: agreement + limits)
}

/// The bilinear cases over `surface` (8192²) and a 1024² one, then DEM sampling.
func samplingCases(surface: [Float], size: Int) {
    if runs("bilinear-random-\(size)") {
        bilinearCase(
            "bilinear-random-\(size)", "bilinear, 1,000,000 random points, \(size)² Float32 grid (\((size * size * 4) >> 20) MiB)",
            surface: surface, size: size, seed: 4)
    }
    let small = 1024
    if runs("bilinear-cache") {
        bilinearCase(
            "bilinear-cache", "bilinear, 1,000,000 random points, 1024² Float32 grid (4 MiB, in cache)", surface: syntheticSurface(size: small),
            size: small, seed: 5)
    }
    if runs("dem-sampling") { demSamplingCase() }
}

/// DEM sampling: batch bilinear against one GDALRasterIO of a 2 × 2 window per point.
func demSamplingCase() {
    var rng = SeededRandom(seed: 6)
    let demPath = access(sharedDEM, R_OK) == 0 ? sharedDEM : "/usr/share/ferret-vis/data/etopo5.cdf"
    do {
        let model = try ElevationModel([demPath])
        let ext = try model.extentLonLat()
        let k = 200_000
        let points = (0..<k).map { _ in
            GeoPoint(
                longitude: Double.random(in: (ext.west + 0.01)...(ext.east - 0.01), using: &rng),
                latitude: Double.random(in: (ext.south + 0.01)...(ext.north - 0.01), using: &rng))
        }
        let oursSample = cpuTime { sink += (try? model.elevations(at: points))?.first ?? 0 }
        let (cols, rows) = try model.pixelCoordinates(of: points)
        prepareGDAL()
        guard let ds = GDALOpen(demPath, GA_ReadOnly), let band = GDALGetRasterBand(ds, 1) else {
            print("DEM sampling: skipped (GDAL cannot open \(demPath))")
            return
        }
        defer { GDALClose(ds) }
        let peerSample = cpuTime {
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
        report(
            "dem-sampling", "DEM bilinear sampling (\(demPath.split(separator: "/").last ?? ""), 200,000 random points)", ours: oursSample,
            peer: peerSample, peerName: "GDALRasterIO 2×2 per point", count: k)
    } catch {
        print("DEM sampling: skipped (\(error))")
    }
}
