import Foundation
import Testing
import TransectSupport
@testable import TransectFormats

@Suite("scene lists")
struct SceneListTests {
    static func list(_ bytes: [UInt8], path: String = "jobs/list.txt") throws(FormatError) -> SceneList {
        try SceneList(data: Data(bytes), path: path)
    }

    static func list(_ text: String, path: String = "jobs/list.txt") throws(FormatError) -> SceneList {
        try list(Array(text.utf8), path: path)
    }

    @Test("one scene a line, relative to the list; blank and # lines skipped but counted; CRLF, spaces and a BOM trimmed")
    func lines() throws {
        let list = try Self.list("\u{FEFF}a.json\r\n\n# figures\n  ../b.json  \n\t\n/abs/c.json\nsub/./d.json\n#e.json\n")
        #expect(list.entries.map(\.line) == [1, 4, 6, 7])
        #expect(list.entries.map(\.scene) == ["jobs/a.json", "b.json", "/abs/c.json", "jobs/sub/d.json"])
        #expect(list.entries.allSatisfy { $0.problem == nil })
        // A list in the current directory names its scenes as written.
        #expect(try Self.list("a.json\nx/../b.json", path: "list.txt").entries.map(\.scene) == ["a.json", "b.json"])
    }

    @Test("the SHA-256 is of the list's bytes (FIPS 180-4's 'abc' vector)")
    func digest() throws {
        #expect(try Self.list("abc").sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("a line that is not UTF-8 or holds control characters is a scene that names no file, at its place")
    func badLines() throws {
        let list = try Self.list(Array("a.json\n".utf8) + [0xFF, 0xFE] + Array(".json\nb\u{1B}[2J.json\nc.json\n".utf8))
        #expect(list.entries.map(\.line) == [1, 2, 3, 4])
        #expect(list.entries.map(\.scene) == ["jobs/a.json", nil, nil, "jobs/c.json"])
        #expect(list.entries[1].problem == "is not UTF-8 text")
        #expect(list.entries[2].problem?.contains("control characters") == true)
    }

    @Test("a NUL byte refuses the whole list, naming its line")
    func nul() {
        #expect(throws: FormatError.malformed(path: "jobs/list.txt", reason: "line 2: contains a NUL byte; not a list of scene files")) {
            try Self.list([UInt8]("a.json\nb".utf8) + [0] + [UInt8]("\n".utf8))
        }
    }

    @Test("shards hold contiguous runs of scenes that cover the list once, in order", arguments: [1, 2, 3, 7, 12])
    func shards(n: Int) throws {
        let text = (1...10).map { "# scene \($0)\n\nscene-\($0).json" }.joined(separator: "\n")
        let list = try Self.list(text)
        var joined: [SceneList.Entry] = []
        for k in 1...n {
            let (ordinals, entries) = list.entries(of: Shard(index: k, count: n))
            #expect(ordinals.map { Array($0) } ?? [] == Array(joined.count + 1..<joined.count + 1 + entries.count))
            // Scene s of S in shard ⌊(s − 1)·N/S⌋ + 1.
            for s in ordinals.map(Array.init) ?? [] { #expect((s - 1) * n / 10 + 1 == k) }
            joined += entries
        }
        #expect(joined == list.entries)
        #expect(joined.map(\.line) == (1...10).map { 3 * $0 })
    }
}
