import TransectAnalysis
import TransectGDAL
import TransectGeodesy
import TransectSupport

/// What a map frame is fitted to, in typed values: a command parses its options into one of
/// these and calls ``MapFrame/fitting(_:)``.
public struct MapFrameRequest {
    /// The image size in pixels.
    public var width: Int
    public var height: Int
    /// The frame's projected CRS; nil to choose one (see ``MapFrame/crs(for:)``).
    public var frameCRS: SpatialReference?
    /// A longitude/latitude box to show (west < east, south < north, degrees).
    public var extentLonLat: GeoExtent?
    /// A box to show exactly, in the frame CRS (wins over ``extentLonLat``).
    public var extentInFrame: FrameBox?
    /// Points that must be on the map (measurement ends, places, track fixes), WGS84.
    public var content: [GeoPoint]
    /// Lines drawn as geodesics through their vertices (measurements): the frame covers each
    /// line's curve, not only its ends.
    public var lines: [[GeoPoint]]
    /// Space around the content on every side, as a fraction of its span.
    public var margin: Double
    /// A scale denominator (10,000 for 1:10,000) the frame keeps when the content fits at it.
    public var preferredScale: Double?
    /// Dots per inch at which ``preferredScale`` holds.
    public var dpi: Double
    /// The DEM under the map, when there is one.
    public var dem: DEMFootprint?

    public init(
        width: Int, height: Int, frameCRS: SpatialReference? = nil, extentLonLat: GeoExtent? = nil,
        extentInFrame: FrameBox? = nil, content: [GeoPoint] = [], lines: [[GeoPoint]] = [], margin: Double = 0.12,
        preferredScale: Double? = nil, dpi: Double = 96, dem: DEMFootprint? = nil
    ) {
        self.width = width
        self.height = height
        self.frameCRS = frameCRS
        self.extentLonLat = extentLonLat
        self.extentInFrame = extentInFrame
        self.content = content
        self.lines = lines
        self.margin = margin
        self.preferredScale = preferredScale
        self.dpi = dpi
        self.dem = dem
    }
}

/// A box in a projected CRS: minimum and maximum easting and northing.
public struct FrameBox: Sendable, Hashable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
}

/// What frame fitting needs of a DEM: its CRS, and its longitude/latitude extent, computed only
/// when the frame needs it (a DEM whose extent cannot be transformed still serves a map that
/// is framed by other content).
public struct DEMFootprint {
    public let crs: SpatialReference
    private let extent: () throws(TerrainError) -> GeoExtent

    public init(crs: SpatialReference, extentLonLat: @escaping () throws(TerrainError) -> GeoExtent) {
        self.crs = crs
        extent = extentLonLat
    }

    public init(crs: SpatialReference, extentLonLat: GeoExtent) {
        self.init(crs: crs) { () throws(TerrainError) -> GeoExtent in extentLonLat }
    }

    /// The footprint of an opened DEM.
    public init(_ model: ElevationModel) {
        self.init(crs: model.crs) { () throws(TerrainError) -> GeoExtent in try model.extentLonLat() }
    }

    public func extentLonLat() throws(TerrainError) -> GeoExtent { try extent() }
}

/// Why no frame can be fitted.
public enum MapFrameError: UserFacingError, Equatable {
    /// The frame CRS given is not projected; `label` names it.
    case frameCRSNotProjected(label: String)
    /// No DEM, content or extent: nothing to frame.
    case nothingToShow

    public var message: String {
        switch self {
        case .frameCRSNotProjected(let label): "the map frame needs a projected CRS, not \(label)"
        case .nothingToShow: "nothing to show"
        }
    }

    /// Both follow from what the command line gave.
    public var isUsageError: Bool { true }
}

extension MapFrame {
    /// Samples along each line, as the frame covers it: 65 points on its geodesic legs.
    static let lineSamples = 65

    /// The frame CRS: the one given (which must be projected), else the DEM's if projected,
    /// else for what is shown (the lon/lat extent's edges, else the content points and the
    /// lines' geodesics, else the DEM extent's edges) the azimuthal equidistant projection
    /// centred on it when it is more than a UTM zone can show (``continentalCRS(for:)``: more
    /// than 1,000 km from its centre, or polar), else the UTM zone (WGS84) of its centre: the
    /// lon/lat extent's centre, else the content points' centre on the sphere (``centre(of:)``,
    /// which holds across the antimeridian), else the DEM extent's centre.
    ///
    /// - Throws: ``MapFrameError``, or the ``TerrainError`` of building the CRS or of the
    ///   DEM's extent.
    public static func crs(for request: MapFrameRequest) throws -> SpatialReference {
        if let given = request.frameCRS {
            guard given.isProjected else { throw MapFrameError.frameCRSNotProjected(label: given.label) }
            return given
        }
        if let dem = request.dem, dem.crs.isProjected { return dem.crs }
        if let continental = try continentalCRS(for: try shownPoints(request)) { return continental }
        let centre: GeoPoint
        if let box = request.extentLonLat {
            centre = GeoPoint(longitude: (box.west + box.east) / 2, latitude: (box.south + box.north) / 2)
        } else if let middle = MapFrame.centre(of: request.content) {
            centre = middle
        } else if let dem = request.dem {
            let e = try dem.extentLonLat()
            centre = GeoPoint(longitude: (e.west + e.east) / 2, latitude: (e.south + e.north) / 2)
        } else {
            throw MapFrameError.nothingToShow
        }
        return try SpatialReference(utmCRS(longitude: centre.longitude, latitude: centre.latitude))
    }

    /// The frame for a request, in the frame CRS of ``crs(for:)``, in this order:
    /// 1. ``MapFrameRequest/extentInFrame``: that box, grown along one axis for square
    ///    pixels, no margin;
    /// 2. ``MapFrameRequest/extentLonLat``: the box around its edges (33 points a side)
    ///    in the frame CRS, likewise;
    /// 3. the content points and the lines' geodesics (65 samples each): at the preferred
    ///    scale, centred on them, when they fit at it with the margin; else fitted with the
    ///    margin (at least 200 map units a side);
    /// 4. nothing else: the DEM's extent (33 points a side), no margin.
    ///
    /// - Throws: ``MapFrameError/nothingToShow`` when there is nothing to frame (or nothing
    ///   PROJ can put in the frame CRS), ``MapFrameError/frameCRSNotProjected(label:)``, or a
    ///   ``TerrainError`` from PROJ or the DEM.
    public static func fitting(_ request: MapFrameRequest) throws -> MapFrame {
        let crs = try crs(for: request)
        let width = request.width
        let height = request.height
        let toFrame = try CoordinateTransformer(from: try .wgs84(), to: crs)
        func bbox(_ points: [GeoPoint]) throws(TerrainError) -> FrameBox? {
            var xs = points.map(\.longitude)
            var ys = points.map(\.latitude)
            try toFrame.transform(x: &xs, y: &ys)
            let fx = xs.filter(\.isFinite)
            let fy = ys.filter(\.isFinite)
            guard let a = fx.min(), let b = fy.min(), let c = fx.max(), let d = fy.max() else { return nil }
            return FrameBox(minX: a, minY: b, maxX: c, maxY: d)
        }
        func fitted(_ b: FrameBox, margin: Double) -> MapFrame {
            fitting(crs: crs, minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, width: width, height: height, margin: margin)
        }
        if let box = request.extentInFrame { return fitted(box, margin: 0) }
        if let e = request.extentLonLat, let b = try bbox(boundary(e)) { return fitted(b, margin: 0) }
        var points = request.content + lineSamplePoints(request.lines)
        if points.isEmpty, let dem = request.dem {
            points = boundary(try dem.extentLonLat())
            if let b = try bbox(points) { return fitted(b, margin: 0) }
        }
        guard let b = try bbox(points) else { throw MapFrameError.nothingToShow }
        if let scale = request.preferredScale {
            let metresPerPixel = scale * 0.0254 / request.dpi
            let spanX = (b.maxX - b.minX) * (1 + 2 * request.margin)
            let spanY = (b.maxY - b.minY) * (1 + 2 * request.margin)
            if spanX <= Double(width) * metresPerPixel && spanY <= Double(height) * metresPerPixel {
                let cx = (b.minX + b.maxX) / 2
                let cy = (b.minY + b.maxY) / 2
                let hx = Double(width) * metresPerPixel / 2
                let hy = Double(height) * metresPerPixel / 2
                return MapFrame(crs: crs, minX: cx - hx, minY: cy - hy, maxX: cx + hx, maxY: cy + hy, width: width, height: height)
            }
        }
        return fitted(b, margin: request.margin)
    }

    /// The points along each line's geodesic legs that the frame covers (``lineSamples`` a line).
    static func lineSamplePoints(_ lines: [[GeoPoint]]) -> [GeoPoint] {
        lines.filter { !$0.isEmpty }.flatMap { line in
            let plan = ProfilePlan(vertices: line, spacing: .count(lineSamples))
            return (0..<plan.longitudes.count).map { GeoPoint(longitude: plan.longitudes[$0], latitude: plan.latitudes[$0]) }
        }
    }

    /// What the frame shows, in WGS84: the lon/lat extent's edges, else the content points and
    /// the lines' geodesics, else the DEM extent's edges (read only then), else nothing.
    static func shownPoints(_ request: MapFrameRequest) throws(TerrainError) -> [GeoPoint] {
        if let e = request.extentLonLat { return boundary(e) }
        let points = request.content + lineSamplePoints(request.lines)
        if points.isEmpty, let dem = request.dem { return boundary(try dem.extentLonLat()) }
        return points
    }

    /// 33 points along each edge of a longitude/latitude box (corners included), so a
    /// projected frame covers the edges' curves.
    static func boundary(_ e: GeoExtent) -> [GeoPoint] {
        let w = e.west
        let s = e.south
        let east = e.east
        let n = e.north
        return (0...32).flatMap { k -> [GeoPoint] in
            let t = Double(k) / 32
            return [
                GeoPoint(longitude: w + (east - w) * t, latitude: s), GeoPoint(longitude: w + (east - w) * t, latitude: n),
                GeoPoint(longitude: w, latitude: s + (n - s) * t), GeoPoint(longitude: east, latitude: s + (n - s) * t),
            ]
        }
    }
}
