import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

@Suite("render --layers: what the map shows, as GeoPackage layers in its CRS")
struct RenderLayersTests {
    @Test("the layers hold the frame, the measurement, places, trail, fixes and every placed label; two runs give the same bytes")
    func layers() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let args = [
            "render", "--dem", dem, "--measure", "-119.5329397,37.7460363:-119.573056,37.730833", "--places", try SharedData.path("landmarks.csv"),
            "--track", try SharedData.path("location_history_sample.json"), "--size", "800x500",
        ]
        for run in 1...2 {
            let r = transect(args + ["-o", dir.file("m\(run).png"), "--layers", dir.file("m\(run).gpkg"), "--layout", dir.file("m\(run).json")])
            #expect(r.code == 0, "\(r.err)")
        }
        let bytes = try [1, 2].map { try Data(contentsOf: URL(fileURLWithPath: dir.file("m\($0).gpkg"))) }
        #expect(!bytes[0].isEmpty && bytes[0] == bytes[1])
        let names = try (0..<6).map { try ReadLayer(dir.file("m1.gpkg"), layer: Int32($0)).name }
        #expect(names == ["frame", "measurements", "places", "trails", "fixes", "labels"])

        // The frame is the PNG's georeferenced extent: the world file's pixel size and corner.
        let world = try String(contentsOfFile: dir.file("m1.pgw"), encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        let frame = try #require(try ReadLayer(dir.file("m1.gpkg"), layer: 0).features.first)
        let xs = frame.vertices.map(\.x)
        let ys = frame.vertices.map(\.y)
        // The world file names the centre of the top-left pixel: half a pixel in from the corner, to its printed decimals.
        #expect(abs((xs.min() ?? .nan) + world[0] / 2 - world[4]) < 1e-6 && abs((ys.max() ?? .nan) + world[3] / 2 - world[5]) < 1e-6)
        #expect(frame.fields["width_px"] == "800" && frame.fields["height_px"] == "500")

        let measurement = try ReadLayer(dir.file("m1.gpkg"), layer: 1).features
        #expect(measurement.count == 1 && measurement.first?.fields["label"]??.hasPrefix("Direct: ") == true)
        #expect((measurement.first?.vertices.count ?? 0) > 2, "densified along the geodesic")
        #expect(try ReadLayer(dir.file("m1.gpkg"), layer: 3).features.count == 1)
        #expect(try ReadLayer(dir.file("m1.gpkg"), layer: 4).features.count > 0)

        // One labels feature per element the layout records as placed.
        let layout = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("m1.json")))) as? [String: Any])
        let elements = try #require(layout["elements"] as? [[String: Any]])
        let labels = try ReadLayer(dir.file("m1.gpkg"), layer: 5).features
        #expect(labels.count == elements.count)
        #expect(zip(labels, elements).allSatisfy { $0.fields["kind"] == .some($1["kind"] as? String) })

        if ExternalTool.available("ogrinfo") {
            let info = try ExternalTool.run("ogrinfo", ["-so", dir.file("m1.gpkg"), "places"])
            #expect(info.out.contains(#"ID["EPSG",32611]"#), "the map's CRS (UTM 11N): \(info.out)")
        }
    }

    @Test("--layers is a GeoPackage beside -o")
    func usage() {
        expectUsageError(
            ["render", "-o", "m.png", "--layers", "m.shp"], "option '--layers': '.shp' is not a format render writes layers in: name the file .gpkg")
        expectUsageError(["render", "-o", "m.png", "--layers", "m"], "option '--layers': 'm' has no extension to say its format")
    }
}
