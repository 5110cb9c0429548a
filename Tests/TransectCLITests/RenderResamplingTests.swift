import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

/// `render -r`: how the DEM is resampled into the map, as gdalwarp's `-r` (nearest, bilinear,
/// cubic, cubicspline), and how `--measure` heights are sampled; without it the frame chooses
/// (cubicspline where a pixel is finer than a DEM cell, bilinear elsewhere).
@Suite("render -r: the map's resampling, cubicspline among them")
struct RenderResamplingTests {
    static func render(_ dem: String, _ extent: String, _ more: [String], _ out: String) throws -> Data {
        let r = transect(["render", "--dem", dem, "--extent", extent, "--size", "240x160", "--decorations", "none", "-o", out] + more)
        #expect(r.code == 0, "\(more): \(r.err)")
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    @Test("-r cubicspline is the default's choice on a frame finer than the DEM, and -r bilinear on a coarser one; each differs from the other")
    func choices() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let dir = TemporaryDirectory()
        // About 2 km across 240 pixels: ~8 m a pixel, finer than the DEM's ~30 m cells.
        let fine = "-119.60,37.72,-119.58,37.735"
        // The whole valley across 240 pixels: ~80 m a pixel, coarser.
        let coarse = "-119.70,37.65,-119.45,37.80"
        let fineDefault = try Self.render(dem, fine, [], dir.file("a.png"))
        #expect(try Self.render(dem, fine, ["-r", "cubicspline"], dir.file("b.png")) == fineDefault)
        #expect(try Self.render(dem, fine, ["-r", "bilinear"], dir.file("c.png")) != fineDefault)
        let coarseDefault = try Self.render(dem, coarse, [], dir.file("d.png"))
        #expect(try Self.render(dem, coarse, ["-r", "bilinear"], dir.file("e.png")) == coarseDefault)
        let spline = try Self.render(dem, coarse, ["-r", "cubicspline"], dir.file("f.png"))
        #expect(spline != coarseDefault)
        for method in ["nearest", "cubic"] {
            #expect(try Self.render(dem, coarse, ["-r", method], dir.file("\(method).png")) != coarseDefault, "\(method)")
        }
    }

    @Test("-r needs no --measure in render; cubicspline is render's alone")
    func usage() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        expectUsageError(
            ["render", "--dem", dem, "-r", "lanczos", "-o", "/tmp/never.png"],
            "option '--interpolation': 'lanczos' is not nearest (near), bilinear, cubic or cubicspline")
        expectUsageError(
            ["measure", "--dem", dem, "--from", "-119.6,37.7", "--to", "-119.5,37.75", "-r", "cubicspline"],
            "option '--interpolation': 'cubicspline' is not nearest (near), bilinear or cubic")
    }
}
