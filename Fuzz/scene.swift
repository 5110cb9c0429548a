// libFuzzer harness: `SceneFile.arguments`, with the option names and flags that
// `transect render` passes (copied from RenderCommand and TerrainOptions: keep them in step).
// Thrown `FormatError`s are the expected answer to bad input; only a crash, a trap or a
// sanitizer report is a finding. Built and run by scripts/fuzz.sh.
//
// `SceneFile` reads from a path today, so each input is written to a scratch file in
// /dev/shm first (the scene's directory is then the base for relative paths). Once
// `SceneFile.arguments(data:path:knownOptions:flags:)` exists, the call below becomes
//     _ = try? SceneFile.arguments(data: fuzzData(bytes, count), path: "scenes/fuzz.json", knownOptions: knownOptions, flags: flags)
// and the scratch file can go.
import Foundation
import TransectFormats

private let scratch = ScratchFile(harness: "scene", fileName: "fuzz.json")

private let knownOptions: Set<String> = [
    "dem", "interpolation", "geoid", "crs",
    "size", "extent", "extent-crs", "fit", "out", "basemap", "azimuth", "altitude", "z-factor",
    "multidirectional", "measure", "places", "track", "max-segment", "frames", "every", "title",
    "decorations", "units", "dpi", "max-pixels", "margin", "no-dem",
]
private let flags: Set<String> = ["multidirectional", "no-dem", "fit"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? SceneFile.arguments(path: scratch.write(fuzzData(bytes, count)), knownOptions: knownOptions, flags: flags)
    return 0
}
