import TransectGDAL
import TransectGeodesy

/// What a map shows: an extent in a projected CRS and a size in pixels, with square pixels.
public struct MapFrame {
    public let crs: SpatialReference
    public let minX: Double, minY: Double, maxX: Double, maxY: Double
    public let width: Int, height: Int

    /// WGS84 ↔ frame transformers, built once per frame rather than once per overlay or
    /// graticule line (building one makes PROJ search its database).
    private let transformers = Transformers()

    final class Transformers {
        var toFrame: CoordinateTransformer?
        var fromFrame: CoordinateTransformer?
    }

    /// Largest frame accepted unless the caller raises the limit.
    public static let defaultMaxPixels = 100_000_000

    /// A frame over exactly this extent (the caller keeps pixels square).
    public init(crs: SpatialReference, minX: Double, minY: Double, maxX: Double, maxY: Double, width: Int, height: Int) {
        self.crs = crs
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.width = width
        self.height = height
    }

    /// A frame of `width × height` pixels centred on the box, grown along one axis so pixels
    /// are square, with `margin` (a fraction of the span) added on every side.
    public static func fitting(
        crs: SpatialReference, minX: Double, minY: Double, maxX: Double, maxY: Double,
        width: Int, height: Int, margin: Double, minimumSpan: Double = 200
    ) -> MapFrame {
        var spanX = max(maxX - minX, 0)
        var spanY = max(maxY - minY, 0)
        let cx = (minX + maxX) / 2
        let cy = (minY + maxY) / 2
        spanX = max(spanX * (1 + 2 * margin), minimumSpan)
        spanY = max(spanY * (1 + 2 * margin), minimumSpan)
        let pixel = max(spanX / Double(width), spanY / Double(height))
        let halfX = pixel * Double(width) / 2
        let halfY = pixel * Double(height) / 2
        return MapFrame(crs: crs, minX: cx - halfX, minY: cy - halfY, maxX: cx + halfX, maxY: cy + halfY, width: width, height: height)
    }

    /// Map units per pixel along x and y.
    public var pixelSizeX: Double { (maxX - minX) / Double(width) }
    public var pixelSizeY: Double { (maxY - minY) / Double(height) }

    /// The geotransform of the frame (north-up).
    public var geoTransform: [Double] { [minX, pixelSizeX, 0, maxY, 0, -pixelSizeY] }

    /// The frame as a GDAL warp target.
    public var grid: FrameGrid { FrameGrid(crs: crs, geoTransform: geoTransform, width: width, height: height) }

    /// Pixel coordinates (x right, y down; pixel centres at +½) of a point in the frame's CRS.
    @inlinable
    public func pixel(x: Double, y: Double) -> (Double, Double) {
        ((x - minX) / pixelSizeX, (maxY - y) / pixelSizeY)
    }

    /// The frame's CRS coordinates of a pixel position.
    public func map(px: Double, py: Double) -> (x: Double, y: Double) {
        (minX + px * pixelSizeX, maxY - py * pixelSizeY)
    }

    /// WGS84 longitude/latitude to pixel positions (`nan` where PROJ cannot transform).
    public func pixels(of points: [GeoPoint]) throws(TerrainError) -> [(Double, Double)] {
        if transformers.toFrame == nil { transformers.toFrame = try CoordinateTransformer(from: try .wgs84(), to: crs) }
        let t = transformers.toFrame!
        var xs = points.map(\.longitude)
        var ys = points.map(\.latitude)
        try t.transform(x: &xs, y: &ys)
        return (0..<points.count).map { pixel(x: xs[$0], y: ys[$0]) }
    }

    /// Pixel positions back to WGS84.
    public func geographic(of pixels: [(Double, Double)]) throws(TerrainError) -> [GeoPoint] {
        if transformers.fromFrame == nil { transformers.fromFrame = try CoordinateTransformer(from: crs, to: try .wgs84()) }
        let t = transformers.fromFrame!
        var xs = pixels.map { map(px: $0.0, py: $0.1).x }
        var ys = pixels.map { map(px: $0.0, py: $0.1).y }
        try t.transform(x: &xs, y: &ys)
        return (0..<pixels.count).map { GeoPoint(longitude: xs[$0], latitude: ys[$0]) }
    }

    /// The UTM zone CRS (WGS84) for a longitude/latitude: EPSG:326zz north, 327zz south.
    public static func utmCRS(longitude: Double, latitude: Double) -> String {
        // Zones run over [−180, 180): 180° is −180°, in zone 1.
        var lon = GeoPoint.reducedLongitude(longitude)
        if lon == 180 { lon = -180 }
        let zone = min(60, max(1, Int(((lon + 180) / 6).rounded(.down)) + 1))
        return "EPSG:\((latitude >= 0 ? 32600 : 32700) + zone)"
    }
}
