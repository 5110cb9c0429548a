// libFuzzer harness: a scene shard's journal as `render --scenes --skip-existing` reads it
// (`SceneShardJournal.contents`), for the shard whose journals Tests/Hostile/journal/ holds;
// each input read as it is and again after that shard's header line, so the records are
// reached whatever the input's first line. It never throws: a journal is trusted up to its
// first bad line or ignored; only a crash, a trap or a sanitizer report is a finding. Built
// and run by scripts/fuzz.sh, with Sources/TransectCLI/SceneShardManifest.swift and
// Sources/TransectCLI/SceneShardJournal.swift compiled into the harness.
@_exported import TransectCLIBase
import TransectSupport

/// Shard 1/1 of a two-scene `scenes.txt` (HostileDoorCorpusTests.journalPlan: keep them in step).
private let plan = SceneShardManifest(
    list: "scenes.txt", listSHA256: "eb36cf14b6983af21a694689b68108a199216cf7ac14a5030bf9eb6f0076405b", shard: Shard(index: 1, count: 1),
    totalScenes: 2, scenes: 1...2, lines: 1...2, options: [], rendered: [])
private let header = Array((SceneShardJournal.header(plan) + "\n").utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    for journal in [input, header + input] {
        if case .records(let scenes) = SceneShardJournal.contents(journal, path: "fuzz.journal", plan: plan) {
            for scene in scenes { _ = SceneShardJournal.record(scene) }
        }
    }
    return 0
}
