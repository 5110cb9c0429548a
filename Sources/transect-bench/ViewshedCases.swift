// `transect viewshed` against `gdal_viewshed`: whole commands on a 4096² DEM (one observer),
// many observers over Yosemite, and both tools' disagreement with the brute force of every
// sight line on the same cells.
#if canImport(Glibc)
import Glibc
#endif
import CGDAL
import Foundation
import TransectGDAL
import TransectGeodesy
import TransectSupport
import TransectTestSupport

/// The viewshed cases: `viewshed-4096` (one observer at the middle of a 4096² UTM DEM of
/// rolling hills, exact against gdal_viewshed's interpolation, both on every core they use),
/// `viewshed-observers` (20 observers over Yosemite, cumulative, per observer against
/// gdal_viewshed run once per observer) and `viewshed-agreement` (how many of 3,000 random
/// Yosemite cells each tool judges unlike their own sight lines).
func viewshedCases(directory tmp: String) {
    guard access("/usr/bin/gdal_viewshed", X_OK) == 0 else {
        print("viewshed: skipped (needs gdal_viewshed, from gdal-bin)")
        return
    }
    if runs("viewshed-4096") {
        let dem = tmp + "/hills4096.tif"
        let n = 4096
        SyntheticDEM.write(
            path: dem, width: n, height: n, geoTransform: [500_000, 30, 0, 4_200_000, 0, -30], crs: "EPSG:32611", type: GDT_Float32
        ) { c, r in
            let x = Double(c)
            let y = Double(r)
            return 1500 + 300 * sin(x / 150) * cos(y / 210) + 80 * sin((x + 2 * y) / 37) + 20 * cos(x / 9 - y / 13)
        }
        let x = 500_000 + 30 * Double(n) / 2 + 15
        let y = 4_200_000 - 30 * Double(n) / 2 - 15
        let wgs = try? CoordinateTransformer(from: SpatialReference("EPSG:32611"), to: SpatialReference.wgs84()).transform(x: x, y: y)
        guard let wgs else {
            print("viewshed-4096: cannot place the observer; skipped")
            return
        }
        var ok = true
        let ours = time(2) {
            ok =
                ok
                && runTool(transectExecutable, ["viewshed", "--dem", dem, "--observer", "\(wgs.x),\(wgs.y)", "-o", tmp + "/ours4096.tif"])
        }
        let peer = time(2) {
            ok =
                ok
                && runTool(
                    "/usr/bin/gdal_viewshed",
                    ["-q", "-ox", "\(x)", "-oy", "\(y)", "-oz", "1.7", "-cc", "0.85714", dem, tmp + "/gdal4096.tif"])
        }
        if ok {
            report(
                "viewshed-4096", "viewshed, 4096² DEM, one observer (exact sight lines against gdal_viewshed's interpolation)", ours: ours,
                peer: peer, peerName: "gdal_viewshed", count: 1)
        } else {
            print("viewshed-4096: a command failed (is .build/release/transect built?); no figures")
        }
    }
    guard access(sharedDEM, R_OK) == 0 else {
        print("viewshed-observers, viewshed-agreement: skipped (needs ../shared/data)")
        return
    }
    if runs("viewshed-observers") {
        // 20 observers on a grid over the valley, 1.7 m above the ground.
        var lines = ["lon,lat"]
        var peerRuns: [[String]] = []
        for i in 0..<20 {
            let lon = -119.64 + 0.22 * Double(i % 5) / 4
            let lat = 37.65 + 0.18 * Double(i / 5) / 3
            lines.append("\(lon),\(lat)")
            peerRuns.append(["-q", "-ox", "\(lon)", "-oy", "\(lat)", "-oz", "1.7", "-cc", "0.85714", sharedDEM, tmp + "/gv\(i).tif"])
        }
        try? (lines.joined(separator: "\n") + "\n").write(toFile: tmp + "/observers.csv", atomically: true, encoding: .utf8)
        var ok = true
        let ours = time(1) {
            ok = ok && runTool(transectExecutable, ["viewshed", "--dem", sharedDEM, "--observers", tmp + "/observers.csv", "-o", tmp + "/count.tif"])
        }
        let peer = time(1) { for args in peerRuns { ok = ok && runTool("/usr/bin/gdal_viewshed", args) } }
        if ok {
            report(
                "viewshed-observers", "viewshed, 20 observers over Yosemite, cumulative (per observer; gdal_viewshed once each, no sum)",
                ours: ours, peer: peer, peerName: "gdal_viewshed", count: 20)
        } else {
            print("viewshed-observers: a command failed; no figures")
        }
    }
    if runs("viewshed-agreement") {
        let halfDome = "-119.533333,37.745833"
        guard runTool(transectExecutable, ["viewshed", "--dem", sharedDEM, "--observer", halfDome, "-o", tmp + "/hd_ours.tif"]),
            runTool(
                "/usr/bin/gdal_viewshed",
                ["-q", "-ox", "-119.533333", "-oy", "37.745833", "-oz", "1.7", "-cc", "0.85714", sharedDEM, tmp + "/hd_gdal.tif"]),
            let model = try? ElevationModel([sharedDEM])
        else {
            print("viewshed-agreement: a command failed; no figures")
            return
        }
        let ours = SyntheticDEM.readAll(path: tmp + "/hd_ours.tif")
        let gdal = SyntheticDEM.readAll(path: tmp + "/hd_gdal.tif")
        let observer = GeoPoint(longitude: -119.533333, latitude: 37.745833)
        let cell = model.resolutionMetres(at: observer)
        guard let ground = try? model.elevations(at: [observer]).first else { return }
        let brute = SightLineBruteForce(model: model, observer: observer, eyeMetres: ground + 1.7, cellMetres: min(cell.x, cell.y))
        var random = SeededRandom(seed: 3000)
        var oursDiffer = 0
        var gdalDiffer = 0
        let count = 3000
        for _ in 0..<count {
            let c = random.below(ours.width)
            let r = random.below(ours.height)
            guard let verdict = try? brute.verdict(column: c, row: r) else { continue }
            let visible = verdict == .visible
            if (ours.values[r * ours.width + c] == 255) != visible { oursDiffer += 1 }
            if (gdal.values[r * gdal.width + c] == 255) != visible { gdalDiffer += 1 }
        }
        print(
            "viewshed-agreement: of \(count) random Yosemite cells seen from Half Dome, Transect judges \(oursDiffer) "
                + "(\(fmt(100 * Double(oursDiffer) / Double(count))) %) and gdal_viewshed \(gdalDiffer) "
                + "(\(fmt(100 * Double(gdalDiffer) / Double(count))) %) unlike their own sight lines sampled every half cell")
    }
}
