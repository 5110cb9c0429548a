import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectFormats
import TransectTestSupport
@testable import TransectCLI

/// The demo's data files stand on the terrain they name: Glacier Point is the overlook, not
/// the cliff face 350 m below it where the gazetteer's point falls.
@Suite("demo data")
struct DemoDataTests {
    static func dataFile(_ name: String) -> String { SharedData.packageRoot.appendingPathComponent("data/" + name).path }

    @Test("Glacier Point in the places, the scene, the routes and the hotspots is one point: the overlook")
    func oneGlacierPoint() throws {
        let places = try PlaceFile.read(path: Self.dataFile("yosemite_places.csv"))
        let glacier = try #require(places.first { $0.name == "Glacier Point" }).point
        let hotspots = try PlaceFile.read(path: Self.dataFile("hotspots.csv"))
        #expect(hotspots.first { $0.name == "Glacier Point" }?.point == glacier)
        let routes = try String(contentsOfFile: Self.dataFile("routes.csv"), encoding: .utf8)
        #expect(routes.contains("half-dome-glacier-point,-119.5329397,37.7460363,\(glacier.longitude),\(glacier.latitude)\n"))
        let scene = try String(contentsOfFile: Self.dataFile("yosemite.scene.json"), encoding: .utf8)
        #expect(scene.contains("\"to\": [\(glacier.longitude), \(glacier.latitude)]"))
    }

    @Test(
        "measured on the Yosemite DEM, the demo's places lie within 25 m of their published heights",
        arguments: ["Half Dome", "Glacier Point", "Basket Dome", "Sentinel Dome", "Clouds Rest"])
    func publishedHeights(name: String) throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let landmarks = try String(contentsOfFile: try SharedData.path("landmarks.csv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let published = try #require(landmarks.first { $0[0] == name }.flatMap { Double($0[3]) })
        let place = try #require(try PlaceFile.read(path: Self.dataFile("yosemite_places.csv")).first { $0.name == name }).point
        let at = "\(place.longitude),\(place.latitude)"
        let result = transect("measure", "--dem", dem, "--from", at, "--to", at, "--format", "json")
        #expect(result.code == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let start = try #require(object["start"] as? [String: Any])
        let height = try #require(start["elevation_m"] as? Double)
        // A 30 m cell averages a summit with its slopes, and bilinear sampling averages four
        // cells: Half Dome reads 2,678.47 m against 2,696 m published. The cliff face under
        // Glacier Point's published point reads 1,850.89 m, 348 m below the overlook.
        #expect(abs(height - published) < 25, "\(name): \(height) m in the DEM, \(published) m published")
    }
}
