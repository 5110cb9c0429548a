// libFuzzer harness: `SceneFile.arguments`, with the option names and flags that
// `transect render` passes (copied from RenderOptions.sceneSettings: keep them in step).
// Thrown `FormatError`s are the expected answer to bad input; only a crash, a trap or a
// sanitizer report is a finding. Built and run by scripts/fuzz.sh.
import Foundation
import TransectFormats

private let knownOptions: Set<String> = [
    "dem", "nodata", "interpolation", "geoid", "crs", "frame-crs", "layout",
    "size", "extent", "extent-crs", "out", "basemap", "azimuth", "altitude", "z-factor",
    "multidirectional", "measure", "places", "track", "max-segment", "frames", "every", "title",
    "decorations", "units", "dpi", "max-pixels", "margin", "no-dem", "png", "format", "font-scale", "viewshed", "observer",
    "observer-height",
]
private let flags: Set<String> = ["multidirectional", "no-dem"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? SceneFile.arguments(data: fuzzData(bytes, count), path: "scenes/fuzz.json", knownOptions: knownOptions, flags: flags)
    return 0
}
