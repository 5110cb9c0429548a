// make bench: Transect's hot paths timed against a peer measured in the same run, printed as
// ratios. Absolute times are shown for context only; they depend on the machine.
//
// `transect-bench --json` also prints, after the lines, a JSON list of
// {"name", "transect_ns", "peer", "peer_ns", "ratio"} with ratio = transect_ns / peer_ns.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

// Any other argument names the cases to run (a prefix is enough: `bilinear`); all by default.
let arguments = CommandLine.arguments.dropFirst()
let json = arguments.contains("--json")
let wanted = arguments.filter { $0 != "--json" }
guard wanted.allSatisfy({ !$0.hasPrefix("-") }) else {
    FileHandle.standardError.write("usage: transect-bench [--json] [CASE-NAME-PREFIX…]\n".data(using: .utf8) ?? Data())
    exit(2)
}

/// True when one of `names` is wanted.
func runs(_ names: String...) -> Bool {
    wanted.isEmpty || wanted.contains { prefix in names.contains { $0.hasPrefix(prefix) } }
}

let directory = NSTemporaryDirectory() + "transect-bench-\(getpid())"
do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
} catch {
    FileHandle.standardError.write("transect-bench: cannot create \(directory)\n".data(using: .utf8) ?? Data())
    exit(1)
}

if runs("geodesic-inverse-global", "geodesic-inverse-short", "geodesic-direct", "geodesic-positions") { geodesicCases() }
let surfaceSize = 8192
let surface = runs("bilinear-random-8192", "hillshade-8192", "png-encode-8000", "profile-1m") ? syntheticSurface(size: surfaceSize) : []
if runs("bilinear-random-8192", "bilinear-cache", "dem-sampling") { samplingCases(surface: surface, size: surfaceSize) }
if runs("hillshade-8192", "png-encode-8000") {
    let grey = hillshadeCase(surface: surface, size: surfaceSize)
    pngCase(grey: grey, greySize: surfaceSize, directory: directory)
}
if runs("render-4000", "render-8000") { renderCases(directory: directory) }
if runs("batch-1m") { batchCase(directory: directory) }
if runs("layers-1m-vs-csv", "layers-1m-vs-ogr2ogr") { layerCases(directory: directory) }
if runs("shards-2-1m", "shards-2-4m") { shardCases(directory: directory) }
if runs("profile-1m") { profileCase(surface: surface, size: surfaceSize, directory: directory) }
if runs("compare-1600x1000") { compareCase(directory: directory) }
if runs("track-geojson-2m", "track-geojson-vs-gpx-2m") { trackReaderCases(directory: directory) }
if runs("viewshed-4096", "viewshed-observers", "viewshed-agreement") { viewshedCases(directory: directory) }
if sink == 42 { print("") }

if json {
    print(resultsJSON())
}
try? FileManager.default.removeItem(atPath: directory)
