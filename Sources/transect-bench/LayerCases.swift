// A 1,000,000-pair batch to a GeoPackage: against the same batch to CSV, and against ogr2ogr
// converting that CSV to a GeoPackage of points (GDAL's own way to turn the CSV into a layer).
import Foundation

/// `layers-1m-vs-csv` and `layers-1m-vs-ogr2ogr`: `measure --pairs` of 1,000,000 seeded pairs on
/// the Yosemite DEM to `.gpkg` (lines densified to 1 km, a spatial index), end to end, against
/// the same command to `.csv`, and against `ogr2ogr -f GPKG` of that CSV with
/// `-oo X_POSSIBLE_NAMES=from_lon -oo Y_POSSIBLE_NAMES=from_lat` (points at the starts).
func layerCases(directory tmp: String) {
    guard access(sharedDEM, R_OK) == 0 else {
        print("layers-1m: skipped (needs ../shared/data, run from the repository)")
        return
    }
    let pairs = 1_000_000
    let input = tmp + "/layer-pairs.csv"
    do { try writeSeededPairs(pairs, to: input) } catch {
        print("layers-1m: skipped (\(error))")
        return
    }
    let csv = tmp + "/layers.csv"
    let gpkg = tmp + "/layers.gpkg"
    var ok = true
    let oursCSV = time(1) { ok = ok && runTool(transectExecutable, ["measure", "--dem", sharedDEM, "--pairs", input, "-o", csv]) }
    let oursGPKG = time(1) { ok = ok && runTool(transectExecutable, ["measure", "--dem", sharedDEM, "--pairs", input, "-o", gpkg]) }
    guard ok else {
        print("layers-1m: a command failed (is .build/release/transect built?); no figures")
        return
    }
    report(
        "layers-1m-vs-csv", "measure --pairs, 1,000,000 pairs to a GeoPackage (per pair)", ours: oursGPKG, peer: oursCSV,
        peerName: "the same batch to CSV", count: pairs, note: "; the issue's target: 0.5× or more")
    guard let ogr2ogr = ([String])(["/usr/bin/ogr2ogr", "/usr/local/bin/ogr2ogr"]).first(where: { access($0, X_OK) == 0 }) else {
        print("layers-1m-vs-ogr2ogr: skipped (no ogr2ogr; install gdal-bin)")
        return
    }
    let converted = tmp + "/ogr2ogr.gpkg"
    let peer = time(1) {
        ok = runTool(
            ogr2ogr,
            [
                "-f", "GPKG", converted, csv, "-oo", "X_POSSIBLE_NAMES=from_lon", "-oo", "Y_POSSIBLE_NAMES=from_lat", "-oo", "AUTODETECT_TYPE=YES",
                "-a_srs", "EPSG:4326",
            ])
    }
    guard ok else {
        print("layers-1m-vs-ogr2ogr: ogr2ogr failed; no figures")
        return
    }
    report(
        "layers-1m-vs-ogr2ogr", "measure --pairs, 1,000,000 pairs to a GeoPackage (per pair)", ours: oursGPKG, peer: peer,
        peerName: "ogr2ogr CSV to GeoPackage points", count: pairs, note: "; the issue's target: above 1×")
}
