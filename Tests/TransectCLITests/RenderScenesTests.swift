import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// A folder with a synthetic DEM, `count` small scene files (200×150; some over the DEM, some
/// over no DEM, two in a subfolder, one with a layout) writing into `out/`, and `scenes.txt`
/// listing them between comments and blank lines.
struct SceneBatchFixture {
    let dir = TemporaryDirectory()
    let count: Int
    /// The list's line of each scene, in order.
    private(set) var lines: [Int] = []

    var list: String { dir.file("scenes.txt") }
    var out: String { dir.file("out") }

    init(count: Int = 8) throws {
        self.count = count
        RenderCommandTests.writeTerrain(dir.file("dem.tif"))
        for folder in ["out", "sub"] { try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true) }
        var listText = "# scenes of the test batch\n\n"
        for k in 1...count {
            let inSub = k % 4 == 3
            let up = inSub ? "../" : ""
            var scene = #""size": [200, 150], "title": "Scene \#(k)", "out": "\#(up)out/scene-\#(k).png""#
            if k % 3 == 0 {
                scene += #", "extent": [-119.6, 37.7, -119.5, 37.78], "places": ["\#(up)places.csv"]"#
            } else {
                scene += #", "dem": "\#(up)dem.tif", "extent_crs": [500000, 4195200, 507200, 4200000], "azimuth": \#(280 + 5 * k)"#
            }
            // A layout path is not resolved against the scene file (as out is), so it is absolute.
            if k == 2 { scene += #", "layout": "\#(dir.file("out/scene-2.layout.json"))", "basemap": "tint""# }
            let name = (inSub ? "sub/" : "") + "scene-\(k).json"
            try ("{" + scene + "}\n").write(toFile: dir.file(name), atomically: true, encoding: .utf8)
            lines.append(listText.split(separator: "\n", omittingEmptySubsequences: false).count)
            listText += name + "\n" + (k % 2 == 0 ? "# next\n" : "")
        }
        try "name,lon,lat\nCamp,-119.55,37.74\nPeak,-119.52,37.76\n".write(toFile: dir.file("places.csv"), atomically: true, encoding: .utf8)
        try listText.write(toFile: list, atomically: true, encoding: .utf8)
    }

    /// Every file in `out/` but hidden ones (a killed run's temporaries), with its bytes (none for
    /// a directory).
    func outputs() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out) where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: out + "/" + name, isDirectory: &isDirectory)
            files[name] = isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
        }
        return files
    }

    /// Empties `out/`.
    func clear() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: out) { try FileManager.default.removeItem(atPath: out + "/" + name) }
    }

    /// The scene file of scene `k` (from 1).
    func scene(_ k: Int) -> String { dir.file((k % 4 == 3 ? "sub/" : "") + "scene-\(k).json") }

    /// `render --scenes LIST` with `extra`, in process.
    func render(_ extra: [String] = []) -> (code: Int32, out: String, err: String) {
        transect(["render", "--scenes", list] + extra)
    }

    /// The files each scene writes when rendered alone with `render --scene FILE`, each in a
    /// process of its own: in one process, GDAL's CRS cache (one per thread) would let one
    /// render's CRS text depend on what the thread did before.
    func reference(_ extra: [String] = []) throws -> [String: Data] {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        try clear()
        for k in 1...count {
            let r = try TransectExecutable.run(["render", "--scene", scene(k)] + extra, directory: dir.path, executable: executable)
            #expect(r.code == 0, "\(r.err)")
        }
        defer { try? clear() }
        return try outputs()
    }
}

@Suite("render --scenes: every scene of a list, as --scene renders it")
struct RenderScenesTests {
    @Test("each scene of the list is written where it says, the bytes --scene writes; options on the command line apply to all")
    func sameAsScene() throws {
        let batch = try SceneBatchFixture()
        let reference = try batch.reference()
        #expect(reference.count == 8 * 3 + 1)  // a PNG, its world file and .aux.xml each, and one layout
        let r = batch.render()
        #expect(r.code == 0 && r.out.isEmpty, "\(r.err)")
        #expect(try batch.outputs() == reference)
        // Without --shard, nothing but the scenes' files is written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: batch.dir.path).filter { $0.contains("manifest") }.isEmpty)

        let hot = try batch.reference(["--azimuth", "90", "--png", "fast"])
        #expect(hot != reference)
        try batch.clear()
        #expect(batch.render(["--azimuth", "90", "--png", "fast", "--threads", "1"]).code == 0)
        #expect(try batch.outputs() == hot)
    }

    @Test("a scene's bytes do not depend on the scenes drawn before it in the same process (a GeoTIFF's CRS, then a UTM zone)")
    func orderFree() throws {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let batch = try SceneBatchFixture(count: 4)
        let reference = try batch.reference()
        for order in [[1, 3], [3, 1], [4, 3, 2, 1]] {
            try order.map { batch.scene($0) }.joined(separator: "\n").write(toFile: batch.list, atomically: true, encoding: .utf8)
            let r = try TransectExecutable.run(["render", "--scenes", batch.list], directory: batch.dir.path, executable: executable)
            #expect(r.code == 0, "\(r.err)")
            let written = try batch.outputs()
            #expect(written.count == order.count * 3 + (order.contains(2) ? 1 : 0))
            for (name, bytes) in written { #expect(bytes == reference[name], "\(order): \(name)") }
            try batch.clear()
        }
    }

    @Test("a failing scene is one line naming LIST:line and its file; the others are still written; exit 1")
    func failures() throws {
        let batch = try SceneBatchFixture(count: 4)
        try #"{"size": [200, 150], "extent": [-119.6, 37.7, -119.5, 37.78]}"#.write(toFile: batch.scene(2), atomically: true, encoding: .utf8)
        var list = try String(contentsOfFile: batch.list, encoding: .utf8)
        list += "missing.json\n"
        list += "bad\u{7}bell.json\n"
        try list.write(toFile: batch.list, atomically: true, encoding: .utf8)
        let missingLine = batch.lines[3] + 2
        let r = batch.render()
        #expect(r.code == 1)
        let errors = r.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(
            errors == [
                "Error: \(batch.list):\(batch.lines[1]): scene '\(batch.scene(2))': has no \"out\"; each scene of a --scenes list says where its map goes",
                "Error: \(batch.list):\(missingLine): scene '\(batch.dir.file("missing.json"))': cannot read '\(batch.dir.file("missing.json"))': no such file",
                "Error: \(batch.list):\(missingLine + 1): the line holds control characters, so it names no scene file",
            ], "\(r.err)")
        #expect(r.err.contains("note: 3 of 6 scenes in '\(batch.list)' failed\n"), "\(r.err)")
        #expect(try batch.outputs().keys.sorted().filter { $0.hasSuffix(".png") } == ["scene-1.png", "scene-3.png", "scene-4.png"])
    }

    @Test("a scene that cannot be drawn leaves none of its files behind")
    func noPartialFiles() throws {
        let batch = try SceneBatchFixture(count: 2)
        // The map's world file would be a directory: refused before anything of scene 2 is written.
        try FileManager.default.createDirectory(atPath: batch.dir.file("out/scene-2.pgw"), withIntermediateDirectories: false)
        let r = batch.render()
        #expect(r.code == 1, "\(r.err)")
        let errors = r.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && errors[0].hasPrefix("Error: \(batch.list):\(batch.lines[1]): scene '\(batch.scene(2))': option '-o': "), "\(r.err)")
        #expect(try batch.outputs().keys.sorted() == ["scene-1.pgw", "scene-1.png", "scene-1.png.aux.xml", "scene-2.pgw"])
    }

    @Test("two scenes of one run writing one file: the second is refused")
    func sameOutputTwice() throws {
        let batch = try SceneBatchFixture(count: 2)
        try #"{"size": [200, 150], "extent": [-119.6, 37.7, -119.5, 37.78], "out": "out/scene-1.png"}"#.write(
            toFile: batch.scene(2), atomically: true, encoding: .utf8)
        let r = batch.render()
        #expect(r.code == 1)
        #expect(
            r.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") } == [
                "Error: \(batch.list):\(batch.lines[1]): scene '\(batch.scene(2))': writes '\(batch.dir.file("out/scene-1.png"))', which the scene on line \(batch.lines[0]) of '\(batch.list)' wrote in this run"
            ], "\(r.err)")
    }

    @Test("usage errors: -o, --scene, --layout, --frames with --scenes; batch options without it; a list on stdin")
    func usage() throws {
        let batch = try SceneBatchFixture(count: 1)
        let list = batch.list
        expectUsageError(
            ["render", "--scenes", list, "-o", "x.png"],
            "option '-o': each scene of a --scenes list is written where its own out says; give out in the scene files", exactLine: true)
        expectUsageError(["render", "--scenes", list, "--out=x.png"], "option '-o': each scene")
        expectUsageError(["render", "--scenes", list, "--scene", batch.scene(1)], "option '--scene': --scenes names the scene files")
        expectUsageError(["render", "--scenes", list, "--layout", "l.json"], "option '--layout': would write every scene's layout to one file")
        expectUsageError(["render", "--scenes", list, "--frames", "f"], "option '--frames': would write every scene's frames")
        expectUsageError(["render", "--scenes", "-"], "option '--scenes': give a LIST file")
        for option in [["--shard", "1/2"], ["--skip-existing"], ["--manifest", "m.json"]] {
            expectUsageError(
                ["render", "-o", "x.png", "--extent=-1,-1,1,1"] + option, "option '\(option[0])': belongs to a batch of scenes; give --scenes LIST")
        }
        expectUsageError(["render", "--scenes", list, "--skip-existing"], "option '--skip-existing': skips a finished shard; give --shard (1/1")
        expectUsageError(["render", "--scenes", list, "--manifest", "m.json"], "option '--manifest': says where a shard's manifest goes; give --shard")
        expectUsageError(["render", "--scenes", list, "--shard", "3/2"], "option '--shard': '3/2' gives shard 3/2")
        expectUsageError(["render", "--scenes", list, "--shard", "1/2", "--manifest", list], "option '--manifest': '\(list)' is the input")
        #expect(try batch.outputs().isEmpty)
        // A list that is not there, or binary: exit 1, one line.
        let missing = transect("render", "--scenes", batch.dir.file("nope.txt"))
        #expect(missing.code == 1 && missing.err == "Error: cannot read '\(batch.dir.file("nope.txt"))': no such file\n", "\(missing.err)")
        try Data([0x61, 0x0A, 0x00]).write(to: URL(fileURLWithPath: batch.dir.file("binary.txt")))
        let binary = transect("render", "--scenes", batch.dir.file("binary.txt"))
        #expect(binary.code == 1 && binary.err == "Error: '\(batch.dir.file("binary.txt"))': line 2: contains a NUL byte; not a list of scene files\n")
    }
}
