// libFuzzer harness: shard manifests as `merge` and `render --skip-existing` read them
// (`ShardManifest.parse`, `SceneShardManifest.parse`), each input read as both kinds, and the
// rows its shard holds worked out as `merge` works them out. Thrown `CLIError`s are the
// expected answer to bad input; only a crash, a trap or a sanitizer report is a finding.
// Built and run by scripts/fuzz.sh, with Sources/TransectCLIMeasure/ShardManifest.swift and
// Sources/TransectCLI/SceneShardManifest.swift compiled into the harness.
@_exported import TransectCLIBase
import TransectSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if let manifest = try? ShardManifest.parse(input, path: "fuzz.manifest.json") {
        _ = manifest.shard.rows(of: manifest.totalRows) == manifest.rows
        _ = manifest.json.serialized()
    }
    if let manifest = try? SceneShardManifest.parse(input, path: "fuzz.manifest.json") {
        _ = manifest.shard.rows(of: manifest.totalScenes)
        _ = manifest.json.serialized()
    }
    return 0
}
