// libFuzzer harness: the `measure --pairs` CSV reader over bytes in memory, every row read and
// its coordinates and heights parsed as the command does. Thrown `FormatError`s and row
// `PointError`s are the expected answers to bad input; only a crash, a trap or a sanitizer
// report is a finding. Built and run by scripts/fuzz.sh.
import Foundation
import TransectGeodesy
import TransectFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let reader = try? PairsReader(data: fuzzData(bytes, count), name: "fuzz-input.csv") else { return 0 }
    while let row = try? reader.next() {
        if case .success(let c) = reader.coordinates(row.fields) {
            for k in 0..<2 { _ = PointArgument.checkGeographic(longitude: c.xs[k], latitude: c.ys[k]) }
        }
        _ = reader.heights(row.fields)
    }
    return 0
}
