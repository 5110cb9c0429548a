// libFuzzer harness: `PlaceFile.read`, CSV or GeoJSON as the content decides (the scratch
// name's `.txt` extension names neither). Thrown `FormatError`s are the expected answer to bad
// input; only a crash, a trap or a sanitizer report is a finding. Built and run by
// scripts/fuzz.sh.
//
// `PlaceFile` reads from a path today, so each input is written to a scratch file in
// /dev/shm first. Once `PlaceFile.read(data:path:)` exists, the call below becomes
//     _ = try? PlaceFile.read(data: fuzzData(bytes, count), path: "fuzz-input.txt")
// and the scratch file can go.
import Foundation
import TransectFormats

private let scratch = ScratchFile(harness: "places", fileName: "fuzz-input.txt")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? PlaceFile.read(path: scratch.write(fuzzData(bytes, count)))
    return 0
}
