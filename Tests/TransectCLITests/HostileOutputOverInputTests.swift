import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

/// No output over an input, whichever door either came through: a shard's manifest over the
/// pairs file, a scene's map over a later scene's DEM or over a scene file of the list.
@Suite("hostile outputs over inputs: manifests and later scenes")
struct HostileOutputOverInputTests {
    @Test("a shard whose manifest would replace the pairs file is refused, and the file is kept")
    func manifestOverPairs() throws {
        let s = try MeasureShardTests.Setup()
        let pairs = s.dir.file("z.csv.manifest.json")
        try FileManager.default.copyItem(atPath: s.pairs, toPath: pairs)
        let before = try MeasureShardTests.bytes(pairs)
        let r = transect("measure", "--dem", s.dem, "--pairs", pairs, "--shard", "1/2", "-o", s.dir.file("z.csv"))
        #expect(r.code == 2, "\(r.err)")
        #expect(r.err.hasPrefix("Error: option '-o': '\(pairs)' is the input '\(pairs)' (--pairs); refusing to write over it"), "\(r.err)")
        #expect(try MeasureShardTests.bytes(pairs) == before)
        #expect(!FileManager.default.fileExists(atPath: s.dir.file("z.csv")))
    }

    @Test("a scene whose map is a later scene's DEM or a scene file of the list fails, and leaves them as they were")
    func sceneOverLaterInputs() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        try FileManager.default.copyItem(atPath: dem, toPath: dir.file("dem2.tif"))
        func scene(_ name: String, dem: String, out: String, format: String? = nil) throws {
            var text = #"{"dem": "\#(dem)", "size": [100, 80], "out": "\#(out)", "extent": [-119.6, 37.7, -119.5, 37.78]"#
            if let format { text += #", "format": "\#(format)""# }
            try (text + "}\n").write(toFile: dir.file(name), atomically: true, encoding: .utf8)
        }
        try scene("s1.json", dem: dem, out: "dem2.tif")
        try scene("s2.json", dem: "dem2.tif", out: "o2.png")
        try scene("s3.json", dem: dem, out: "s4.json", format: "png")
        try scene("s4.json", dem: dem, out: "o4.png")
        try "s1.json\ns2.json\ns3.json\ns4.json\n".write(toFile: dir.file("list.txt"), atomically: true, encoding: .utf8)
        let s4 = try MeasureShardTests.bytes(dir.file("s4.json"))
        let r = transect("render", "--scenes", dir.file("list.txt"))
        #expect(r.code == 1)
        #expect(r.err.contains("scene '\(dir.file("s1.json"))': option '-o': '\(dir.file("dem2.tif"))' is the input"), "\(r.err)")
        #expect(r.err.contains("scene '\(dir.file("s3.json"))': option '-o': '\(dir.file("s4.json"))' is the input"), "\(r.err)")
        #expect(try MeasureShardTests.bytes(dir.file("dem2.tif")) == MeasureShardTests.bytes(dem))
        #expect(try MeasureShardTests.bytes(dir.file("s4.json")) == s4)
        #expect(FileManager.default.fileExists(atPath: dir.file("o2.png")) && FileManager.default.fileExists(atPath: dir.file("o4.png")))
    }
}
