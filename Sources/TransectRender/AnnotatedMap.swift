import TransectCore
import TransectGDAL

/// What an annotated map is made of, in typed values: a command loads its inputs into one of
/// these and makes the map with ``AnnotatedMap/init(_:)``.
public struct MapRequest {
    /// The image size in pixels.
    public var width: Int
    public var height: Int
    /// The terrain under the map, when there is one.
    public var dem: ElevationModel?
    public var measurements: [MeasurementOverlay]
    public var places: [Place]
    public var trails: [TrailOverlay]
    /// Where measurement heights came from when the map has no DEM (`ETOPO5 5′ global
    /// relief`), for the attribution; nil when nothing took heights from a surface.
    public var heightsSource: String?
    /// The frame's projected CRS; nil to choose one (see ``MapFrame/crs(for:)``).
    public var frameCRS: SpatialReference?
    /// A longitude/latitude box to show.
    public var extentLonLat: GeoExtent?
    /// A box to show exactly, in the frame CRS.
    public var extentInFrame: FrameBox?
    /// Space around fitted content, a fraction of its span.
    public var margin: Double
    public var basemap: Basemap
    public var title: String?
    /// Scale bar, north arrow, title, attribution and legend.
    public var decorations: Bool
    public var units: UnitSystem
    /// The resolution recorded in the PNG, if any; drawing sizes and the trail scale assume 96
    /// without one.
    public var dpi: Double?

    public init(
        width: Int, height: Int, dem: ElevationModel? = nil, measurements: [MeasurementOverlay] = [],
        places: [Place] = [], trails: [TrailOverlay] = [], heightsSource: String? = nil,
        frameCRS: SpatialReference? = nil, extentLonLat: GeoExtent? = nil, extentInFrame: FrameBox? = nil,
        margin: Double = 0.12, basemap: Basemap = .none, title: String? = nil, decorations: Bool = true,
        units: UnitSystem = .metric, dpi: Double? = nil
    ) {
        self.width = width
        self.height = height
        self.dem = dem
        self.measurements = measurements
        self.places = places
        self.trails = trails
        self.heightsSource = heightsSource
        self.frameCRS = frameCRS
        self.extentLonLat = extentLonLat
        self.extentInFrame = extentInFrame
        self.margin = margin
        self.basemap = basemap
        self.title = title
        self.decorations = decorations
        self.units = units
        self.dpi = dpi
    }
}

/// A map made from a ``MapRequest``: its frame fitted, its attribution written, ready to draw
/// as one image or as frames of its trails growing fix by fix.
public struct AnnotatedMap {
    /// The scale a map with trails opens at, where its size allows (1:10,000, as location
    /// history is first looked at).
    public static let trailScale = 10_000.0

    /// Everything the map shows, its frame included.
    public let spec: MapSpec
    /// The terrain under it.
    public let dem: ElevationModel?

    /// Fits the frame (``MapFrame/fitting(_:)``) to the measurements (their geodesics), the
    /// places and the trails' fixes, at ``trailScale`` when there are trails, and writes the
    /// attribution: the DEM's file name (or where heights came from, or "No terrain"), the
    /// frame's CRS, and the program.
    ///
    /// - Throws: ``MapFrameError``, or the ``TerrainError`` of PROJ or the DEM.
    public init(_ request: MapRequest) throws {
        let content =
            request.measurements.flatMap { [$0.start, $0.end] }
            + request.places.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) }
            + request.trails.flatMap(\.fixes)
        let frame = try MapFrame.fitting(
            MapFrameRequest(
                width: request.width, height: request.height, frameCRS: request.frameCRS, extentLonLat: request.extentLonLat,
                extentInFrame: request.extentInFrame, content: content, lines: request.measurements.map { [$0.start, $0.end] },
                margin: request.margin, preferredScale: request.trails.isEmpty ? nil : Self.trailScale, dpi: request.dpi ?? MapSpec.defaultDPI,
                dem: request.dem.map(DEMFootprint.init)))
        var spec = MapSpec(frame: frame, basemap: request.basemap)
        spec.measurements = request.measurements
        spec.places = request.places
        spec.trails = request.trails
        spec.title = request.title
        spec.decorations = request.decorations
        spec.units = request.units
        spec.dpi = request.dpi ?? MapSpec.defaultDPI
        if let dem = request.dem {
            spec.attribution = "Elevation: \(dem.label.split(separator: "/").last.map(String.init) ?? dem.label) · \(frame.crs.label) · Transect"
        } else {
            spec.attribution = "\(request.heightsSource.map { "Heights: " + $0 } ?? "No terrain") · \(frame.crs.label) · Transect"
        }
        self.spec = spec
        dem = request.dem
    }

    public var frame: MapFrame { spec.frame }

    /// The PNG's text chunks: the software (`transect 1.0`), the DEM's files, the CRS and the
    /// title.
    public func pngTexts(software: String) -> [(String, String)] {
        [("Software", software), ("Source", dem?.paths.joined(separator: ", ") ?? "none"), ("CRS", frame.crs.label)]
            + (spec.title.map { [("Title", $0)] } ?? [])
    }

    /// Where the image lies, for its world file and `.aux.xml`.
    public var georeference: PNGFile.Georeference {
        get throws(TerrainError) {
            PNGFile.Georeference(geoTransform: frame.geoTransform, wkt: try frame.crs.wkt, axisMapping: frame.crs.dataAxisMapping)
        }
    }

    /// How many fixes each animation frame shows: every `every`-th fix of the longest trail,
    /// and the last one (every trail whole).
    public func frameFixCounts(every: Int) -> [Int] {
        let total = spec.trails.map(\.fixes.count).max() ?? 0
        var counts = Array(stride(from: every, through: total, by: every))
        if counts.last != total { counts.append(total) }
        return counts
    }

    /// The file name of animation frame `index` (from 0): `frame_0001.png`, four digits at least.
    public static func frameFileName(_ index: Int) -> String {
        let number = String(index + 1)
        return "frame_" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".png"
    }

    /// The PNG text saying which frame an image is: `3 of 40: 150 fixes`.
    public static func frameText(_ index: Int, of frames: Int, fixes: Int) -> String {
        "\(index + 1) of \(frames): \(NumberFormatting.count(fixes, "fix", plural: "fixes"))"
    }

    /// Paints the basemap once, for the map and all its frames.
    public func paintBasemap() throws -> MapRenderer.PaintedBasemap {
        try MapRenderer.basemap(spec, dem: dem)
    }

    /// The whole map over a painted basemap.
    public func render(over basemap: MapRenderer.PaintedBasemap) throws -> RenderedImage {
        try MapRenderer.render(spec, basemap: basemap)
    }

    /// The map with each trail cut to its first `fixes` fixes, over a painted basemap.
    public func renderFrame(showingFixes fixes: Int, over basemap: MapRenderer.PaintedBasemap) throws -> RenderedImage {
        var frameSpec = spec
        frameSpec.trails = spec.trails.map { $0.prefix(fixes) }
        return try MapRenderer.render(frameSpec, basemap: basemap)
    }
}
