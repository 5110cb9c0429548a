import CGDAL
import Foundation
import Testing
import TransectRaster
import TransectAnalysis
import TransectGDAL
import TransectTestSupport
@testable import TransectRender

/// Small synthetic scenes compared with golden images kept in `Golden/`. Set
/// `TRANSECT_UPDATE_GOLDEN=1` to rewrite them after a deliberate change, then look at them.
///
/// Tolerance: at most 0.5 % of pixels may differ by more than 8 grey levels in any channel, and
/// none by more than that share allows. Basemap pixels are exact on one machine; the slack is
/// for glyph antialiasing, which can move by a level or two between FreeType and cairo releases.
@Suite("golden images")
struct GoldenImageTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func compare(_ image: RenderedImage, name: String) throws {
        let path = golden.appendingPathComponent(name).path
        if ProcessInfo.processInfo.environment["TRANSECT_UPDATE_GOLDEN"] == "1" {
            try PNGFile.encode(path: path, rgb: image.rgb, width: image.width, height: image.height, texts: [])
            return
        }
        let expected = try PNGFile.readRGBA(path: path)
        #expect(expected.width == image.width && expected.height == image.height)
        guard expected.width == image.width && expected.height == image.height else { return }
        var off = 0
        for k in 0..<(image.width * image.height) {
            let worst = (0..<3).map { abs(Int(image.rgb[3 * k + $0]) - Int(expected.pixels[4 * k + $0])) }.max()!
            if worst > 8 { off += 1 }
        }
        let share = Double(off) / Double(image.width * image.height)
        #expect(share <= 0.005, "\(name): \(off) pixels (\(share * 100) %) differ by more than 8 levels")
    }

    static func dem(_ dir: TemporaryDirectory) throws -> ElevationModel {
        SyntheticDEM.write(
            path: dir.file("dem.tif"), width: 120, height: 80, geoTransform: [500_000, 50, 0, 4_200_000, 0, -50],
            crs: "EPSG:32611", type: GDT_Float32
        ) { c, r in
            let x = Double(c)
            let y = Double(r)
            return 1500 + 500 * exp(-((x - 60) * (x - 60) + (y - 40) * (y - 40)) / 400) + 3 * x
        }
        return try ElevationModel([dir.file("dem.tif")])
    }

    static func frame() throws -> MapFrame {
        MapFrame(
            crs: try SpatialReference("EPSG:32611"), minX: 500_000, minY: 4_196_000, maxX: 506_000, maxY: 4_200_000,
            width: 640, height: 400)
    }

    @Test("a hillshade map with a measurement, places and decorations")
    func hillshadeMap() throws {
        let dir = TemporaryDirectory()
        let model = try Self.dem(dir)
        var spec = MapSpec(frame: try Self.frame(), basemap: .hillshade(HillshadeParameters()))
        let corners = try spec.frame.geographic(of: [(120, 300), (500, 90), (320, 200)])
        spec.measurements = [MeasurementOverlay(start: corners[0], end: corners[1], label: "Direct: 4.01 km | Horizontal: 3.92 km | Vertical: 827.58 m")]
        spec.places = [Place(name: "Summit", longitude: corners[2].longitude, latitude: corners[2].latitude)]
        spec.title = "Golden"
        spec.attribution = "synthetic"
        try Self.compare(MapRenderer.render(spec, dem: model), name: "hillshade_map.png")
    }

    @Test("a tint map with its legend")
    func tintMap() throws {
        let dir = TemporaryDirectory()
        var spec = MapSpec(frame: try Self.frame(), basemap: .tint(HillshadeParameters(multidirectional: true)))
        spec.decorations = true
        try Self.compare(MapRenderer.render(spec, dem: try Self.dem(dir)), name: "tint_map.png")
    }

    @Test("a canvas with a graticule when there is no DEM")
    func graticule() throws {
        var spec = MapSpec(frame: try Self.frame(), basemap: .hillshade(HillshadeParameters()))
        spec.decorations = false
        try Self.compare(MapRenderer.render(spec, dem: nil), name: "graticule.png")
    }

    @Test("a profile chart with a gap and an obstruction")
    func chart() throws {
        let d = (0...200).map { Double($0) * 10 }
        let z = d.map { x -> Double in (900...1100).contains(x) ? .nan : 100 + 60 * sin(x / 300) + (abs(x - 500) < 40 ? 80 : 0) }
        let p = Profile(distancesMetres: d, longitudes: d.map { _ in 0 }, latitudes: d.map { _ in 0 }, elevationsMetres: z)
        let chart = ProfileChart(
            profile: p, statistics: ProfileStatistics(p),
            lineOfSight: LineOfSight(profile: p, observerHeightMetres: 2, targetHeightMetres: 0),
            title: "Golden profile", subtitle: "a subtitle",
            units: .metric, width: 480, height: 260)
        try Self.compare(chart.render(), name: "profile_chart.png")
    }
}
