// libFuzzer harness: `PlaceFile.read(data:path:)`, CSV or GeoJSON as the content decides (the
// name's `.txt` extension names neither). Thrown `FormatError`s are the expected answer to bad
// input; only a crash, a trap or a sanitizer report is a finding. Built and run by
// scripts/fuzz.sh.
import Foundation
import TransectFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? PlaceFile.read(data: fuzzData(bytes, count), path: "fuzz-input.txt")
    return 0
}
