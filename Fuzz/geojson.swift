// libFuzzer harness: `TrackFile.read(data:path:format:)` with the format fixed to GeoJSON.
// Thrown `FormatError`s are the expected answer to bad input; only a crash, a trap or a
// sanitizer report is a finding. Built and run by scripts/fuzz.sh.
import Foundation
import TransectFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? TrackFile.read(data: fuzzData(bytes, count), path: "fuzz-input", format: .geojson)
    return 0
}
