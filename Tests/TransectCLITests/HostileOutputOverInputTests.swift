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

/// `--skip-existing` trusts a recorded scene only through outputs it checked: regular files in
/// the scene's output directory, its `out` among them, each with the recorded SHA-256.
@Suite("hostile manifests: --skip-existing trusts only checked outputs")
struct HostileSkipExistingTests {
    @Test(
        "a forged manifest whose scene's outputs are elsewhere (/etc/hostname), missing or a link does not make the scene count as done",
        arguments: ["elsewhere", "link", "without-out"])
    func forged(kind: String) throws {
        let batch = try SceneBatchFixture(count: 3)
        #expect(batch.render(["--shard", "1/1"]).code == 0)
        let manifestPath = RenderScenesShardTests.manifestPath(batch, 1, 1)
        var manifest = try #require(try SceneShardManifest.read(manifestPath))
        let png = batch.out + "/scene-1.png"
        try FileManager.default.removeItem(atPath: png)
        switch kind {
        case "elsewhere":
            let hostname = try #require(["/etc/hostname", "/etc/passwd"].first { FileManager.default.isReadableFile(atPath: $0) })
            manifest.rendered[0].outputs = [.init(path: hostname, sha256: try SHA256.hexDigest(ofFile: hostname))]
        case "link":
            // A link in the output directory, named as the map, to a file elsewhere.
            try "x".write(toFile: batch.dir.file("other.png"), atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: png, withDestinationPath: batch.dir.file("other.png"))
            manifest.rendered[0].outputs = [.init(path: png, sha256: try SHA256.hexDigest(ofFile: batch.dir.file("other.png")))]
        default:
            // Only the world file, which is still there: the map itself is not recorded.
            manifest.rendered[0].outputs = manifest.rendered[0].outputs.filter { $0.path.hasSuffix(".pgw") }
        }
        try (manifest.json.serialized() + "\n").write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let r = batch.render(["--shard", "1/1", "--skip-existing"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("2 of 3 scenes already rendered"), "\(r.err)")
        var info = stat()
        #expect(lstat(png, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "scene 1's map is rendered again, as a file")
    }
}

/// `view` of a DEM with nothing to show is an error naming the DEM, never an empty image.
@Suite("hostile views: nothing to see")
struct HostileEmptyViewTests {
    @Test("a DEM all no data, all NaN, all infinite or lying beyond 90° exits 1 naming it, with no image", arguments: ["nodata", "nan", "inf", "pole"])
    func nothing(kind: String) throws {
        let dir = TemporaryDirectory()
        let dem = dir.file("\(kind).tif")
        // 0.001° cells over lon 10…10.05; the "pole" grid's rows lie from 90.5° to 90.55°.
        let top = kind == "pole" ? 90.55 : 45.05
        SyntheticDEM.write(
            path: dem, width: 50, height: 50, geoTransform: [10, 0.001, 0, top, 0, -0.001], crs: "EPSG:4326", noData: kind == "nodata" ? -9999 : nil
        ) { _, _ in
            switch kind {
            case "nodata": -9999
            case "nan": .nan
            case "inf": .infinity
            default: 100
            }
        }
        let r = transect("view", "--dem", dem, "-o", dir.file("v.png"))
        #expect(r.code == 1, "\(r.err)")
        #expect(r.err.hasPrefix("Error: DEM '\(dem)': "), "\(r.err)")
        #expect(r.err.filter { $0 == "\n" }.count == 1, "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("v.png")))
    }
}
