import Testing
import TransectGeodesy
import TransectAnalysis
import TransectPerspective

@testable import TransectRender

/// The overlays of a perspective view: drawn where the anchors say, nowhere else, the same
/// bytes on any number of threads.
@Suite("perspective view overlays")
struct PerspectiveRendererTests {
    /// A plain at 500 m, 0.05° square with 0.0005° cells, around (10°E, 45°N).
    static func plain() -> TerrainGrid {
        let n = 101
        var lons: [Double] = []
        var lats: [Double] = []
        for j in 0..<n {
            for i in 0..<n {
                lons.append(10 + Double(i) * 0.0005)
                lats.append(45.05 - Double(j) * 0.0005)
            }
        }
        return TerrainGrid(
            width: n, height: n, longitudes: lons, latitudes: lats, heights: [Float](repeating: 500, count: n * n), cellWidthMetres: 39,
            cellHeightMetres: 55)
    }

    static let camera = ViewCamera(
        position: GeoPoint(longitude: 10.025, latitude: 44.985, heightMetres: 2500), headingDegrees: 0, pitchDegrees: 55, width: 800,
        height: 500)

    static func overlays() -> ViewOverlays {
        let start = GeoPoint(longitude: 10.018, latitude: 45.010, heightMetres: 500)
        let end = GeoPoint(longitude: 10.032, latitude: 45.014, heightMetres: 620)
        return ViewOverlays(
            measurement: Measurement(start: start, end: end),
            places: [("Hut", GeoPoint(longitude: 10.025, latitude: 45.004, heightMetres: 500))])
    }

    @Test("markers sit on their anchors; pixels far from every anchor are untouched")
    func overlaysWhereAnchorsSay() throws {
        let scene = PerspectiveRenderer.scene(Self.plain(), tint: false, threads: 1)
        let bare = try PerspectiveRenderer.draw(scene, camera: Self.camera, tint: false, overlays: ViewOverlays(), threads: 1)
        let drawn = try PerspectiveRenderer.draw(scene, camera: Self.camera, tint: false, overlays: Self.overlays(), threads: 1)
        let anchors = PerspectiveRenderer.anchors(drawn.view, Self.overlays())
        #expect(anchors.map(\.name) == ["start", "end", "corner", "Hut"])
        let w = 800
        func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(rgb[(y * w + x) * 3..<(y * w + x) * 3 + 3]) }
        for a in anchors where a.name != "corner" {
            #expect(a.visible, "\(a.name)")
            #expect(a.x > 100 && a.x < 700 && a.y > 100 && a.y < 400, "\(a.name) at \(a.x), \(a.y)")
        }
        // The ends' markers: white disks centred on the anchors (their white pixels' centroid
        // within 0.5 px).
        for a in anchors.prefix(2) {
            var sx = 0.0
            var sy = 0.0
            var count = 0.0
            for y in Int(a.y) - 7...Int(a.y) + 7 {
                for x in Int(a.x) - 7...Int(a.x) + 7 where pixel(drawn.image.rgb, x, y).allSatisfy({ $0 >= 250 }) {
                    sx += Double(x) + 0.5
                    sy += Double(y) + 0.5
                    count += 1
                }
            }
            try #require(count > 20, "\(a.name)")
            // Half a pixel: a pixel counts whole or not at all, so an anti-aliased disk's centroid moves
            // by up to half a pixel from its true centre.
            #expect(abs(sx / count - a.x) <= 0.5 && abs(sy / count - a.y) <= 0.5, "\(a.name): \(sx / count), \(sy / count) vs \(a.x), \(a.y)")
        }
        // The place's pin stands on its anchor: the stem's foot and the head above it are drawn.
        let hut = anchors[3]
        #expect(pixel(drawn.image.rgb, Int(hut.x), Int(hut.y - 20)) != pixel(bare.image.rgb, Int(hut.x), Int(hut.y - 20)))
        #expect(pixel(drawn.image.rgb, Int(hut.x), Int(hut.y - 10)) != pixel(bare.image.rgb, Int(hut.x), Int(hut.y - 10)))
        // Far from every anchor (the corners of the image, 80 px squares) nothing changes.
        for (x0, y0) in [(0, 0), (720, 0), (0, 420), (720, 420)] {
            for y in y0..<(y0 + 80) {
                for x in x0..<(x0 + 80) { #expect(pixel(drawn.image.rgb, x, y) == pixel(bare.image.rgb, x, y)) }
            }
        }
    }

    @Test("the same bytes on one thread and on two, overlays included")
    func threads() throws {
        let one = try PerspectiveRenderer.draw(
            PerspectiveRenderer.scene(Self.plain(), tint: true, threads: 1), camera: Self.camera, tint: true, overlays: Self.overlays(), threads: 1)
        let two = try PerspectiveRenderer.draw(
            PerspectiveRenderer.scene(Self.plain(), tint: true, threads: 2), camera: Self.camera, tint: true, overlays: Self.overlays(), threads: 2)
        #expect(one.image.rgb == two.image.rgb)
    }
}
