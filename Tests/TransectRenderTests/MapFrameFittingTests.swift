import Testing
import TransectGeodesy
import TransectGDAL
@testable import TransectRender

/// Frame fitting from typed inputs. Expected frames are closed forms over coordinates that
/// PROJ (through CoordinateTransformer) gives for single points.
@Suite("map frame fitting")
struct MapFrameFittingTests {
    static func utm11() throws -> SpatialReference { try SpatialReference("EPSG:32611") }

    /// UTM 11N easting/northing of lon/lat points, by PROJ one point at a time.
    static func toUTM(_ points: [(Double, Double)]) throws -> [(x: Double, y: Double)] {
        let t = try CoordinateTransformer(from: .wgs84(), to: utm11())
        return try points.map { p in try #require(try t.transform(x: p.0, y: p.1)) }
    }

    /// Lon/lat points at UTM 11N coordinates.
    static func fromUTM(_ points: [(Double, Double)]) throws -> [GeoPoint] {
        let t = try CoordinateTransformer(from: utm11(), to: .wgs84())
        return try points.map { p in
            let g = try #require(try t.transform(x: p.0, y: p.1))
            return GeoPoint(longitude: g.x, latitude: g.y)
        }
    }

    /// `MapFrame.fitting(crs:…)` written out: centred, one axis grown for square pixels.
    static func expectFrame(
        // 1 µm on projected edges up to ~4.2e6 m (ulp 0.93 nm): centre ± half-span, rounded a few times.
        _ f: MapFrame, centre: (Double, Double), pixel: Double, tolerance: Double = 1e-6,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let hx = pixel * Double(f.width) / 2
        let hy = pixel * Double(f.height) / 2
        #expect(
            abs(f.minX - (centre.0 - hx)) <= tolerance && abs(f.maxX - (centre.0 + hx)) <= tolerance,
            "x \(f.minX)…\(f.maxX)", sourceLocation: sourceLocation)
        #expect(
            abs(f.minY - (centre.1 - hy)) <= tolerance && abs(f.maxY - (centre.1 + hy)) <= tolerance,
            "y \(f.minY)…\(f.maxY)", sourceLocation: sourceLocation)
    }

    @Test("a box in the frame CRS is kept exactly when its aspect is the image's, and grown along one axis otherwise")
    func exactFrameBox() throws {
        let box = FrameBox(minX: 500_000, minY: 4_190_000, maxX: 510_000, maxY: 4_195_000)
        // Other content and a margin do not move a box given in the frame CRS.
        let request = MapFrameRequest(
            width: 1000, height: 500, frameCRS: try Self.utm11(), extentInFrame: box,
            content: [GeoPoint(longitude: -100, latitude: 10)], margin: 0.3)
        let f = try MapFrame.fitting(request)
        #expect(f.minX == 500_000 && f.minY == 4_190_000 && f.maxX == 510_000 && f.maxY == 4_195_000)
        #expect(f.width == 1000 && f.height == 500 && f.crs.authorityCode == "EPSG:32611")
        // A square box in a 2:1 image: 20 m pixels, the x span doubled about its centre.
        var square = request
        square.extentInFrame = FrameBox(minX: 500_000, minY: 4_190_000, maxX: 510_000, maxY: 4_200_000)
        Self.expectFrame(try MapFrame.fitting(square), centre: (505_000, 4_195_000), pixel: 20, tolerance: 0)  // exact: whole-metre edges, 20 m pixels
    }

    @Test("content is fitted with the margin on every side, grown along the shorter axis for square pixels")
    func marginAndAspect() throws {
        let content = try Self.fromUTM([(500_000, 4_190_000), (503_000, 4_191_000), (501_000, 4_190_500)])
        let request = MapFrameRequest(width: 800, height: 600, frameCRS: try Self.utm11(), content: content, margin: 0.1)
        // Spans 3,000 × 1,000 m, times 1 + 2 × 0.1: 3,600 × 1,200 m; x decides: 4.5 m a pixel.
        Self.expectFrame(try MapFrame.fitting(request), centre: (501_500, 4_190_500), pixel: 3600.0 / 800)
        // A taller image: y decides, 1,200 m over 1,000 pixels.
        var tall = request
        tall.width = 100
        tall.height = 1000
        Self.expectFrame(try MapFrame.fitting(tall), centre: (501_500, 4_190_500), pixel: 3600.0 / 100)
        tall.width = 3000
        Self.expectFrame(try MapFrame.fitting(tall), centre: (501_500, 4_190_500), pixel: 1200.0 / 1000)
    }

    @Test("a preferred 1:10,000 holds at the dpi, centred on the content, when the content fits at it", arguments: [96.0, 300])
    func preferredScale(dpi: Double) throws {
        let content = try Self.fromUTM([(500_000, 4_190_000), (500_400, 4_190_300)])
        let request = MapFrameRequest(
            width: 1600, height: 1000, frameCRS: try Self.utm11(), content: content, margin: 0.12,
            preferredScale: 10_000, dpi: dpi)
        let metresPerPixel = 10_000 * 0.0254 / dpi
        let f = try MapFrame.fitting(request)
        Self.expectFrame(f, centre: (500_200, 4_190_150), pixel: metresPerPixel)
        // The scale's arithmetic in another order: a few ulp of a pixel under 2.7 m (≤ 4.4e−16 m).
        #expect(abs(f.pixelSizeX - metresPerPixel) < 1e-12 && abs(f.pixelSizeY - metresPerPixel) < 1e-12)
        // Content too wide for the scale: fitted with the margin instead (20 km × 1.24 over 1,600 pixels).
        var wide = request
        wide.content = try Self.fromUTM([(500_000, 4_190_000), (520_000, 4_190_300)])
        Self.expectFrame(try MapFrame.fitting(wide), centre: (510_000, 4_190_150), pixel: 20_000 * 1.24 / 1600)
    }

    @Test("a lon/lat extent is framed by its edges: the parallels bow away from the central meridian")
    func lonLatExtent() throws {
        // Symmetric about −117°, zone 11's central meridian: the south edge is lowest there,
        // the north corners highest, the south corners widest.
        let extent = GeoExtent(west: -118, south: 37, east: -116, north: 38)
        let p = try Self.toUTM([(-118, 37), (-117, 37), (-116, 37), (-118, 38)])
        let request = MapFrameRequest(
            width: 1000, height: 1000, extentLonLat: extent,
            content: [GeoPoint(longitude: 10, latitude: 10)], margin: 0.5)
        let f = try MapFrame.fitting(request)
        #expect(f.crs.authorityCode == "EPSG:32611")
        let spanX = p[2].x - p[0].x
        let spanY = p[3].y - p[1].y
        Self.expectFrame(f, centre: ((p[0].x + p[2].x) / 2, (p[1].y + p[3].y) / 2), pixel: max(spanX, spanY) / 1000)
    }

    @Test("a measurement line is covered along its geodesic, not only at its ends")
    func linesCovered() throws {
        // Along the 60th parallel, symmetric about −117°: the geodesic's northernmost point is
        // its middle, which the 65 samples include.
        let a = GeoPoint(longitude: -122, latitude: 60)
        let b = GeoPoint(longitude: -112, latitude: 60)
        let line = Geodesic.wgs84.inverseLine(from: a, to: b)
        let middle = line.position(atDistance: (line.distanceMetres ?? 0) / 2)
        let p = try Self.toUTM([(a.longitude, a.latitude), (middle.longitude, middle.latitude)])
        let request = MapFrameRequest(
            width: 1000, height: 1000, frameCRS: try Self.utm11(), content: [a, b], lines: [[a, b]],
            margin: 0)
        let f = try MapFrame.fitting(request)
        #expect(abs((f.minY + f.maxY) / 2 - (p[0].y + p[1].y) / 2) < 1e-6)  // 1 µm, the frame bound above
        #expect(abs((f.minX + f.maxX) / 2 - 500_000) < 1e-6)  // 1 µm, the frame bound above
        // The ends alone would centre lower.
        var endsOnly = request
        endsOnly.lines = []
        let g = try MapFrame.fitting(endsOnly)
        #expect(abs((g.minY + g.maxY) / 2 - p[0].y) < 1e-6)  // 1 µm, the frame bound above
    }

    @Test(
        "the frame CRS: the UTM zone of what is shown, by longitude and hemisphere",
        arguments: [
            (-119.5, 37.7, "EPSG:32611"), (2.35, 48.85, "EPSG:32631"), (151.2, -33.9, "EPSG:32756"),
            (179.9, 10, "EPSG:32660"), (-180, -10, "EPSG:32701"), (-123, 0, "EPSG:32610"), (-116.99, -0.01, "EPSG:32711"),
        ])
    func utmZone(lon: Double, lat: Double, code: String) throws {
        let request = MapFrameRequest(width: 100, height: 100, content: [GeoPoint(longitude: lon, latitude: lat)])
        #expect(try MapFrame.crs(for: request).authorityCode == code)
        #expect(try MapFrame.fitting(request).crs.authorityCode == code)
    }

    @Test("the frame CRS: given wins, then a projected DEM's; a geographic DEM gives the content's zone, or its own centre's")
    func crsRule() throws {
        let content = [GeoPoint(longitude: -119.5, latitude: 37.7), GeoPoint(longitude: -119.4, latitude: 37.8)]
        let extent = GeoExtent(west: -120, south: 37, east: -119, north: 38)
        let projected = DEMFootprint(crs: try SpatialReference("EPSG:32610"), extentLonLat: extent)
        var request = MapFrameRequest(width: 100, height: 100, content: content, dem: projected)
        #expect(try MapFrame.fitting(request).crs.authorityCode == "EPSG:32610")
        request.frameCRS = try SpatialReference("EPSG:3310")
        #expect(try MapFrame.fitting(request).crs.authorityCode == "EPSG:3310")
        let geographic = DEMFootprint(crs: try SpatialReference("EPSG:4326"), extentLonLat: GeoExtent(west: 8, south: 45, east: 10, north: 46))
        request = MapFrameRequest(width: 100, height: 100, content: content, dem: geographic)
        #expect(try MapFrame.fitting(request).crs.authorityCode == "EPSG:32611")
        // No content: the DEM's centre (9° E: zone 32), framed by its extent.
        request.content = []
        #expect(try MapFrame.fitting(request).crs.authorityCode == "EPSG:32632")
    }

    @Test("a DEM's extent is read only when the frame needs it")
    func lazyExtent() throws {
        let failing = DEMFootprint(crs: try SpatialReference("EPSG:32611")) { () throws(TerrainError) -> GeoExtent in
            throw .cannotTransform(from: "EPSG:32611", to: "EPSG:4326", reason: "test")
        }
        let request = MapFrameRequest(width: 100, height: 100, content: [GeoPoint(longitude: -119.5, latitude: 37.7)], dem: failing)
        #expect(try MapFrame.fitting(request).crs.authorityCode == "EPSG:32611")
        var empty = request
        empty.content = []
        #expect(throws: TerrainError.cannotTransform(from: "EPSG:32611", to: "EPSG:4326", reason: "test")) { try MapFrame.fitting(empty) }
    }

    @Test("nothing to show, and a frame CRS that is not projected, are usage errors")
    func errors() throws {
        #expect(throws: MapFrameError.nothingToShow) { try MapFrame.fitting(MapFrameRequest(width: 100, height: 100)) }
        let wgs84 = try SpatialReference("EPSG:4326")
        let request = MapFrameRequest(width: 100, height: 100, frameCRS: wgs84, content: [GeoPoint(longitude: 1, latitude: 2)])
        #expect(throws: MapFrameError.frameCRSNotProjected(label: wgs84.label)) { try MapFrame.fitting(request) }
        #expect(MapFrameError.frameCRSNotProjected(label: "EPSG:4326 (WGS 84)").message == "the map frame needs a projected CRS, not EPSG:4326 (WGS 84)")
        #expect(MapFrameError.nothingToShow.isUsageError && MapFrameError.nothingToShow.message == "nothing to show")
    }
}
