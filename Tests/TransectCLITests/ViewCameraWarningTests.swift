import Foundation
import Testing
import TransectCLITestSupport
import TransectGDAL
import TransectGeodesy
import TransectSupport
import TransectTestSupport

/// `view`: a camera under the terrain, or where the DEM has none, is a warning with the terrain
/// height there (the view is still drawn); `--look-at … --pitch 0 --heading H` looks straight
/// down with heading H.
@Suite("view: cameras under the terrain or off the DEM, and straight down with a heading")
struct ViewCameraWarningTests {
    @Test("a camera 100 m up in Yosemite Valley is under the terrain, by the DEM's height there; one east of the DEM stands over no terrain")
    func warnings() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let dir = TemporaryDirectory()
        let ground = try ElevationModel([dem]).elevations(at: [GeoPoint(longitude: -119.6, latitude: 37.72)])[0]
        let under = transect("view", "--dem", dem, "--camera", "-119.6,37.72,100", "--size", "200x120", "-o", dir.file("under.png"))
        #expect(under.code == 0, "\(under.err)")
        #expect(
            under.err.contains(
                "warning: the camera at -119.6,37.72 stands at 100.00 m, \(NumberFormatting.grouped(ground - 100)) m under the terrain there (\(NumberFormatting.grouped(ground)) m): the view looks out from inside the ground\n"
            ), "\(under.err)")
        let off = transect("view", "--dem", dem, "--camera", "-119.0,37.72,3000", "--heading", "270", "--size", "200x120", "-o", dir.file("off.png"))
        #expect(off.code == 0, "\(off.err)")
        #expect(off.err.contains("warning: the camera at -119,37.72 stands where the DEM '\(dem)' has no terrain"), "\(off.err)")
        // Above the ground, no warning.
        let above = transect("view", "--dem", dem, "--camera", "-119.6,37.72,4000", "--size", "200x120", "-o", dir.file("above.png"))
        #expect(above.code == 0 && !above.err.contains("warning:"), "\(above.err)")
    }

    @Test("--look-at … --pitch 0 --heading H records heading H in the anchors (it recorded −163.6° whatever H was)", arguments: [0.0, 90, 200])
    func straightDown(heading: Double) throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let dir = TemporaryDirectory()
        let r = transect(
            "view", "--dem", dem, "--look-at", "-119.6,37.72", "--distance", "4000", "--pitch", "0", "--heading", "\(Int(heading))", "--size",
            "200x120", "-o", dir.file("down.png"), "--anchors", dir.file("a.json"))
        #expect(r.code == 0, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("a.json")))) as? [String: Any])
        let camera = try #require(json["camera"] as? [String: Any])
        #expect(camera["heading"] as? Double == heading, "\(camera)")
        #expect(camera["pitch"] as? Double == 0, "\(camera)")
    }
}
