import Foundation
import Testing
import TransectCLIMeasure
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// The hostile corpus of the newer doors: `Tests/Hostile/manifest/` (pairs and scene shard
/// manifests), `Tests/Hostile/journal/` (scene shard journals) and `Tests/Hostile/gdalname/`
/// (DEM names and VRTs with GDAL's special names). As in the readers' corpus
/// (`HostileCorpusTests`), a file whose name starts with `bad-` must be refused, any other read,
/// and none may crash or hang; the manifest and journal files are also the seeds of their
/// fuzz harnesses (`make fuzz`).
@Suite("the hostile corpus of manifests, journals and GDAL names")
struct HostileDoorCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Hostile")

    static func files(_ door: String) -> [URL] {
        let directory = root.appendingPathComponent(door)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    /// One line, no C0 control, DEL or C1 control: what a message may write to a terminal.
    static func isPrintableLine(_ message: Substring) -> Bool {
        !message.isEmpty && !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    static func expectBothKinds(_ files: [URL], _ door: String) {
        #expect(files.contains { $0.lastPathComponent.hasPrefix("bad-") }, "Tests/Hostile/\(door) holds no hostile file")
        #expect(files.contains { !$0.lastPathComponent.hasPrefix("bad-") }, "Tests/Hostile/\(door) holds no valid file")
    }

    /// Reads a manifest as `merge` and `--skip-existing` do: a scene shard's when it says it is
    /// one, a pairs shard's otherwise, with the rows its shard holds of its total worked out as
    /// `merge` works them out.
    static func readManifest(_ bytes: [UInt8], path: String) throws(CLIError) {
        if (try? JSON.parse(bytes, path: path))?["format"]?.string == SceneShardManifest.format {
            let manifest = try SceneShardManifest.parse(bytes, path: path)
            _ = manifest.shard.rows(of: manifest.totalScenes)
        } else {
            let manifest = try ShardManifest.parse(bytes, path: path)
            _ = manifest.shard.rows(of: manifest.totalRows) == manifest.rows
        }
    }

    @Test("manifests: bad- files are refused with one printable line, the others are read")
    func manifests() throws {
        let files = Self.files("manifest")
        Self.expectBothKinds(files, "manifest")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let name = file.lastPathComponent
            var refusal: String?
            do throws(CLIError) { try Self.readManifest(bytes, path: name) } catch { refusal = error.message }
            #expect((refusal != nil) == name.hasPrefix("bad-"), "manifest/\(name): \(refusal ?? "read")")
            if let refusal {
                #expect(Self.isPrintableLine(refusal[...]), "manifest/\(name): \(refusal.debugDescription)")
                #expect(refusal.hasPrefix("shard manifest '\(name)': "), "manifest/\(name): \(refusal)")
            }
        }
    }

    @Test("the corpus's shard counts near Int.max and 10^12 are refused by the shard grammar's range, not worked through")
    func manifestShardCounts() throws {
        for name in ["bad-shard-int-max.json", "bad-shard-one-of-int-max.json", "bad-shard-one-of-10e12.json"] {
            let bytes = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("manifest/" + name)))
            do throws(CLIError) {
                try Self.readManifest(bytes, path: name)
                Issue.record("manifest/\(name): read")
            } catch {
                #expect(error.message.hasSuffix("', not K/N with 1 ≤ K ≤ N ≤ 10,000,000"), "manifest/\(name): \(error.message)")
            }
        }
    }

    /// The shard whose journals `Tests/Hostile/journal/` holds: shard 1/1 of a list
    /// `scenes.txt` of two scenes, with no options over them (the header its journal starts with).
    static let journalPlan = SceneShardManifest(
        list: "scenes.txt", listSHA256: "eb36cf14b6983af21a694689b68108a199216cf7ac14a5030bf9eb6f0076405b", shard: Shard(index: 1, count: 1),
        totalScenes: 2, scenes: 1...2, lines: 1...2, options: [], rendered: [])

    @Test("journals: bad- files are ignored or trusted only up to their first bad line, the others are trusted whole")
    func journals() throws {
        let files = Self.files("journal")
        Self.expectBothKinds(files, "journal")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let name = file.lastPathComponent
            // Lines ending in a newline after the header: the records a journal claims to hold.
            let claimed = max(bytes.filter { $0 == 0x0A }.count - 1, 0)
            switch SceneShardJournal.contents(bytes, path: name, plan: Self.journalPlan) {
            case .ignored(let why):
                #expect(name.hasPrefix("bad-"), "journal/\(name): ignored: \(why)")
                #expect(Self.isPrintableLine(why[...]), "journal/\(name): \(why.debugDescription)")
            case .records(let records):
                let whole = records.count == claimed && bytes.last == 0x0A
                #expect(whole != name.hasPrefix("bad-"), "journal/\(name): \(records.count) of \(claimed) records trusted")
                #expect(records.allSatisfy { $0.line >= 1 && $0.line <= 2 }, "journal/\(name): \(records.map(\.line))")
            }
        }
    }

    @Test("the good journal's header is the one this shard writes, so its records are reached")
    func journalHeader() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("journal/journal.jsonl")))
        let first = bytes.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) }
        #expect(first == SceneShardJournal.header(Self.journalPlan))
    }

    /// The DEM a corpus file names: a `.name` file holds the name (one line), any other file is
    /// itself the DEM.
    static func demName(_ file: URL) throws -> String {
        guard file.pathExtension == "name" else { return file.lastPathComponent }
        return try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .newlines)
    }

    @Test("GDAL names: `info` on each bad- name or VRT exits 1 or 2 with one Error: line, within a minute; the others are described")
    func gdalNames() throws {
        let files = Self.files("gdalname")
        Self.expectBothKinds(files, "gdalname")
        // A copy, so that nothing GDAL might leave beside a raster lands in the repository.
        let dir = TemporaryDirectory()
        for file in files { try FileManager.default.copyItem(atPath: file.path, toPath: dir.file(file.lastPathComponent)) }
        for file in files {
            let name = file.lastPathComponent
            let dem = try Self.demName(file)
            // The process is killed after 60 s (code 1009): a name that makes GDAL wait is a finding.
            let r = try TransectExecutable.run(["info", dem], directory: dir.path, timeout: 60)
            if name.hasPrefix("bad-") {
                #expect(r.code == 1 || r.code == 2, "gdalname/\(name) (\(dem)): exit \(r.code): \(r.err)")
                let errors = r.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
                #expect(errors.count == 1 && Self.isPrintableLine(errors[0]), "gdalname/\(name): \(r.err)")
                #expect(r.out.isEmpty, "gdalname/\(name): \(r.out)")
            } else {
                #expect(r.code == 0, "gdalname/\(name) (\(dem)): exit \(r.code): \(r.err)")
                #expect(r.out.contains("Elevation:   100.00 m … 122.00 m"), "gdalname/\(name): \(r.out)")
            }
        }
    }
}
