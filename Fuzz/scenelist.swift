// libFuzzer harness: `SceneList(data:path:)`, a `render --scenes` list, with the shards of its
// scenes taken as a batch takes them. Thrown `FormatError`s are the expected answer to bad
// input; only a crash, a trap or a sanitizer report is a finding. Built and run by scripts/fuzz.sh.
import Foundation
import TransectFormats
import TransectSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let list = try? SceneList(data: fuzzData(bytes, count), path: "lists/fuzz.txt") else { return 0 }
    for shard in [Shard(index: 1, count: 1), Shard(index: 2, count: 3), Shard(index: 10_000_000, count: 10_000_000)] {
        _ = list.entries(of: shard)
    }
    return 0
}
