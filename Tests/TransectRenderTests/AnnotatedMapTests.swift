import Testing
import TransectCore
import TransectGDAL
@testable import TransectRender

/// What `AnnotatedMap` adds to the frame fitting: the attribution, the PNG texts, and the
/// animation frames' counts, names and texts.
@Suite("annotated map")
struct AnnotatedMapTests {
    /// Seven fixes 100 m apart eastwards from 10.5° E, 45° N (UTM zone 32N).
    static let fixes = (0..<7).map { k in
        Geodesic.wgs84.direct(latitude1: 45, longitude1: 10.5, azimuth1Degrees: 90, distanceMetres: 100 * Double(k)).point
    }

    @Test("the attribution names the terrain, or where heights came from, and the frame's CRS")
    func attribution() throws {
        let utm32 = try SpatialReference("EPSG:32632").label
        let place = Place(name: "A", longitude: 10.5, latitude: 45)
        let bare = try AnnotatedMap(MapRequest(width: 400, height: 300, places: [place], title: "T"))
        #expect(bare.spec.attribution == "No terrain · \(utm32) · Transect")
        let texts = bare.pngTexts(software: "transect 9")
        #expect(texts.map(\.0) == ["Software", "Source", "CRS", "Title"])
        #expect(texts.map(\.1) == ["transect 9", "none", utm32, "T"])
        let measured = try AnnotatedMap(MapRequest(width: 400, height: 300, places: [place], heightsSource: "a surface"))
        #expect(measured.spec.attribution == "Heights: a surface · \(utm32) · Transect")
        #expect(measured.pngTexts(software: "s").count == 3)
    }

    @Test("frames show every n-th fix and then the whole trail; names have four digits at least")
    func frames() throws {
        let trail = TrailOverlay(segments: [Self.fixes], fixes: Self.fixes)
        let map = try AnnotatedMap(MapRequest(width: 400, height: 300, trails: [trail]))
        #expect(map.frameFixCounts(every: 3) == [3, 6, 7])
        #expect(map.frameFixCounts(every: 7) == [7])
        #expect(map.frameFixCounts(every: 10) == [7])
        #expect(AnnotatedMap.frameFileName(0) == "frame_0001.png")
        #expect(AnnotatedMap.frameFileName(9998) == "frame_9999.png")
        #expect(AnnotatedMap.frameFileName(9999) == "frame_10000.png")
        #expect(AnnotatedMap.frameText(2, of: 40, fixes: 1) == "3 of 40: 1 fix")
        #expect(AnnotatedMap.frameText(0, of: 1, fixes: 1234) == "1 of 1: 1,234 fixes")
    }

    @Test("a map with trails opens at 1:10,000 at 96 dpi when they fit")
    func trailScale() throws {
        let trail = TrailOverlay(segments: [Self.fixes], fixes: Self.fixes)
        let map = try AnnotatedMap(MapRequest(width: 400, height: 300, trails: [trail]))
        // 1:10,000 at 96 dpi: 10,000 × 0.0254 m / 96 per pixel.
        let metresPerPixel = 10_000 * 0.0254 / 96
        #expect(abs((map.frame.maxX - map.frame.minX) - 400 * metresPerPixel) < 1e-6)
        #expect(abs((map.frame.maxY - map.frame.minY) - 300 * metresPerPixel) < 1e-6)
    }
}
