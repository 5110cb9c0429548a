// libFuzzer harness: coordinate text as `--from`, `--to`, `--path` and `--measure` take it
// (`LON,LAT[,Z]`), then the range checks every command applies. A failure is a `PointError`
// value; only a crash, a trap or a sanitizer report is a finding. Built and run by
// scripts/fuzz.sh.
import Foundation
import TransectGeodesy
import TransectFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: fuzzData(bytes, count), as: UTF8.self)
    if case .success(let p) = PointArgument.parse(text) {
        _ = PointArgument.checkGeographic(longitude: p.x, latitude: p.y)
    }
    return 0
}
