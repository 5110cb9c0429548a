import Testing
import TransectGeodesy
import TransectAnalysis
import TransectGDAL
@testable import TransectRender
import TransectTestSupport

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

    /// The fixes as a track of one segment, with one waypoint.
    static let track = Track(
        segments: [fixes.map { TrackPoint(longitude: $0.longitude, latitude: $0.latitude) }],
        waypoints: [Waypoint(name: "W", point: TrackPoint(longitude: 10.5, latitude: 45.001))])

    @Test("frames show every n-th fix and then the whole trail; names have four digits at least")
    func frames() throws {
        let map = try AnnotatedMap(MapRequest(width: 400, height: 300, tracks: [Self.track]))
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
        let map = try AnnotatedMap(MapRequest(width: 400, height: 300, tracks: [Self.track]))
        // 1:10,000 at 96 dpi: 10,000 × 0.0254 m / 96 per pixel.
        let metresPerPixel = 10_000 * 0.0254 / 96
        #expect(abs((map.frame.maxX - map.frame.minX) - 400 * metresPerPixel) < 1e-6)  // spans of frame edges near 4e6 m (ulp 0.93 nm): 1 µm
        #expect(abs((map.frame.maxY - map.frame.minY) - 300 * metresPerPixel) < 1e-6)  // as the width
    }

    @Test("a track is a trail of every fix; its waypoints are labelled after the given places")
    func tracks() throws {
        let given = Place(name: "A", longitude: 10.501, latitude: 45)
        let map = try AnnotatedMap(MapRequest(width: 400, height: 300, places: [given], tracks: [Self.track]))
        #expect(map.spec.places.map(\.name) == ["A", "W"])
        #expect(map.spec.trails.count == 1)
        #expect(map.spec.trails[0].fixes == Self.fixes)
        #expect(map.spec.trails[0].segments == [Self.fixes])
    }

    @Test("the lines are measured over the heights given: a flat 1,000 m surface, 600 m apart")
    func measurements() throws {
        let dir = TemporaryDirectory()
        SyntheticDEM.write(
            path: dir.file("flat.tif"), width: 200, height: 200, geoTransform: [10.4, 0.001, 0, 45.1, 0, -0.001], crs: "EPSG:4326"
        ) { _, _ in 1000 }
        let heights = try ElevationModel([dir.file("flat.tif")])
        let pair = MeasurementPair(from: Self.fixes[0], to: Self.fixes[6], toZ: 1250)
        let map = try AnnotatedMap(
            MapRequest(width: 400, height: 300, measurements: MapMeasurements(pairs: [pair], heights: heights), heightsSource: "flat"))
        let line = try #require(map.spec.measurements.first)
        #expect(line.start.heightMetres == 1000)
        #expect(line.end.heightMetres == 1250)
        // 600 m along the geodesic (the fixes were placed by the direct problem), 250 m up.
        #expect(line.label.hasSuffix("| Horizontal: 600.00 m | Vertical: 250.00 m"))
        #expect(map.spec.attribution?.hasPrefix("Heights: flat · ") == true)
    }

    @Test("draw hands each frame over in order, its trails cut to the count, then the whole map when asked")
    func draw() throws {
        let map = try AnnotatedMap(MapRequest(width: 120, height: 90, tracks: [Self.track]))
        var seen: [Int] = []
        var pixels: [[UInt8]] = []
        let whole = try map.draw(frames: [3, 7], whole: true) { k, image in
            seen.append(k)
            pixels.append(image.rgb)
            #expect(image.width == 120 && image.height == 90)
        }
        #expect(seen == [0, 1])
        let image = try #require(whole)
        #expect(image.rgb.count == 3 * 120 * 90)
        // The last frame shows every fix, as the map does; the first shows fewer.
        #expect(pixels.count == 2 && pixels[1] == image.rgb && pixels[0] != image.rgb)
        let first = try map.draw(frames: [3], whole: false) { _, _ in }
        #expect(first == nil)
    }
}
