import Testing
import TransectGDAL
import TransectGeodesy
import TransectTestSupport

@testable import TransectRender

/// Frames whose content is more than a UTM zone can show are azimuthal equidistant, centred on
/// it; and a frame whose scale varies says so. Oracles: PROJ's geodesic (GeographicLib) and the
/// defining property of the projection, each point at its geodesic distance and azimuth from
/// the centre.
@Suite("continental map frames")
struct MapFrameContinentalTests {
    static let montBlanc = GeoPoint(longitude: 6.8652, latitude: 45.8326)
    static let everest = GeoPoint(longitude: 86.9250, latitude: 27.9881)
    static let halfDome = GeoPoint(longitude: -119.5332, latitude: 37.7459)
    static let glacierPoint = GeoPoint(longitude: -119.5737, latitude: 37.7306)

    /// The frame's CRS origin (0, 0) in WGS84: the centre of an azimuthal projection.
    static func origin(_ frame: MapFrame) throws -> GeoPoint {
        let p = try #require(try CoordinateTransformer(from: frame.crs, to: .wgs84()).transform(x: 0, y: 0))
        return GeoPoint(longitude: p.x, latitude: p.y)
    }

    @Test("Mont Blanc to Everest: azimuthal equidistant about the geodesic's midpoint, every point at its distance and azimuth from it")
    func montBlancEverest() throws {
        let request = MapFrameRequest(
            width: 800, height: 500, content: [Self.montBlanc, Self.everest], lines: [[Self.montBlanc, Self.everest]])
        let frame = try MapFrame.fitting(request)
        #expect(frame.crs.name.hasPrefix("WGS 84 / Azimuthal equidistant at "), "\(frame.crs.name)")
        #expect(try frame.crs.wkt.contains("Azimuthal Equidistant"))
        let centre = try Self.origin(frame)
        let oracle = ProjGeodesic.wgs84
        let t = try CoordinateTransformer(from: .wgs84(), to: frame.crs)
        for p in [Self.montBlanc, Self.everest] {
            let xy = try #require(try t.transform(x: p.longitude, y: p.latitude))
            let g = oracle.inverse(centre.latitude, centre.longitude, p.latitude, p.longitude)
            // 1 mm over 3,500 km: PROJ's aeqd solves the same geodesic (GeographicLib), to µm.
            #expect(abs((xy.x * xy.x + xy.y * xy.y).squareRoot() - g.s12) < 1e-3, "\(xy) \(g)")
            // 1e-9° of azimuth is 0.06 mm at 3,500 km, the same bound.
            #expect(angleError(GeoMath.atan2d(xy.x, xy.y), g.azi1) < 1e-9, "\(xy) \(g)")
        }
        // A geodesic through an azimuthal equidistant projection's centre is straight and its
        // length true, so centring the line's box centres the projection on the line's midpoint.
        let line = oracle.inverse(Self.montBlanc.latitude, Self.montBlanc.longitude, Self.everest.latitude, Self.everest.longitude)
        let middle = oracle.direct(Self.montBlanc.latitude, Self.montBlanc.longitude, line.azi1, line.s12 / 2)
        let offset = oracle.inverse(centre.latitude, centre.longitude, middle.lat2, middle.lon2).s12
        // 10 m: the centre is written with 4 decimals, 0.00005° or at most 5.6 m north and 4 m
        // east here (7 m together), once the centring passes have stopped moving it.
        #expect(offset < 10, "the centre \(centre) is \(offset) m from the midpoint (\(middle.lat2), \(middle.lon2))")
        // The frame is centred on the projection's centre: within a pixel of it.
        #expect(abs((frame.minX + frame.maxX) / 2) < frame.pixelSizeX && abs((frame.minY + frame.maxY) / 2) < frame.pixelSizeY)
        // And its scale varies (c / sin c − 1 at the corners, about 10 % here): the bar says where it holds.
        let variation = try #require(frame.scaleVariation)
        #expect(variation > MapFrame.noteworthyScaleVariation && variation < 0.2, "\(variation)")
    }

    @Test("a Yosemite-sized map stays in its UTM zone, and its scale varies by less than the 2 % a bar would note")
    func local() throws {
        let request = MapFrameRequest(
            width: 800, height: 500, content: [Self.halfDome, Self.glacierPoint], lines: [[Self.halfDome, Self.glacierPoint]])
        let frame = try MapFrame.fitting(request)
        #expect(frame.crs.authorityCode == "EPSG:32611")
        let variation = try #require(frame.scaleVariation)
        // UTM's scale over a 5 km frame 250 km from the central meridian: under 0.01 %.
        #expect(variation < 1e-4, "\(variation)")
    }

    @Test(
        "the reach that turns a frame azimuthal equidistant: along the equator, 946 km each way stays UTM, 1,058 km does not",
        arguments: [(8.5, false), (9.5, true)])
    func reach(halfSpanDegrees: Double, continental: Bool) throws {
        // On the equator the geodesic is the equator, a·Δλ long: 6,378,137 m × 8.5° = 946 km.
        let request = MapFrameRequest(
            width: 400, height: 300,
            content: [GeoPoint(longitude: -halfSpanDegrees, latitude: 0), GeoPoint(longitude: halfSpanDegrees, latitude: 0)])
        let crs = try MapFrame.crs(for: request)
        #expect((crs.authorityCode == "EPSG:32631") == !continental, "\(crs.label)")
        #expect(crs.name.hasPrefix("WGS 84 / Azimuthal equidistant at 0.0000°N 0.0000°E") == continental, "\(crs.label)")
    }

    @Test("a lon/lat extent, and a DEM's extent when it is all there is, are what is shown")
    func extents() throws {
        let wide = GeoExtent(west: -10, south: 35, east: 30, north: 60)
        #expect(try MapFrame.crs(for: MapFrameRequest(width: 400, height: 300, extentLonLat: wide)).name.contains("Azimuthal equidistant"))
        let dem = DEMFootprint(crs: try SpatialReference("EPSG:4326"), extentLonLat: wide)
        #expect(try MapFrame.crs(for: MapFrameRequest(width: 400, height: 300, dem: dem)).name.contains("Azimuthal equidistant"))
        // Content wins over the DEM: a local measurement on a continental DEM is UTM.
        let local = MapFrameRequest(width: 400, height: 300, content: [GeoPoint(longitude: 2.35, latitude: 48.85)], dem: dem)
        #expect(try MapFrame.crs(for: local).authorityCode == "EPSG:32631")
    }

    @Test("polar content, beyond UTM's 84° N, is azimuthal equidistant however small")
    func polar() throws {
        let request = MapFrameRequest(
            width: 400, height: 300, content: [GeoPoint(longitude: 10, latitude: 85), GeoPoint(longitude: 11, latitude: 85.1)])
        #expect(try MapFrame.crs(for: request).name.hasPrefix("WGS 84 / Azimuthal equidistant at 85.0"))
    }

    @Test("content across the antimeridian is centred on it: Fiji's zone 60, not the zone of longitude 0")
    func antimeridian() throws {
        let request = MapFrameRequest(
            width: 400, height: 300, content: [GeoPoint(longitude: 179.8, latitude: -17), GeoPoint(longitude: -179.9, latitude: -17.1)])
        #expect(try MapFrame.crs(for: request).authorityCode == "EPSG:32760")
    }

    @Test("the centre on the sphere: of one point, the point; of points all round the equator, the first")
    func centre() throws {
        let one = try #require(MapFrame.centre(of: [GeoPoint(longitude: 12, latitude: -34)]))
        // The unit vector's round trip: a few ulps of 34°.
        #expect(abs(one.longitude - 12) < 1e-12 && abs(one.latitude + 34) < 1e-12, "\(one)")
        let round = [0.0, 90, 180, -90].map { GeoPoint(longitude: $0, latitude: 0) }
        #expect(MapFrame.centre(of: round) == GeoPoint(longitude: 0, latitude: 0))
        #expect(MapFrame.centre(of: [GeoPoint(longitude: .nan, latitude: 0)]) == nil)
    }
}
