import TransectAnalysis
import TransectGDAL
import TransectRaster

/// What an annotated map is made of, in typed values: a command loads its inputs (the DEM,
/// places, tracks, the lines to measure) into one of these and makes the map, measurements and
/// all, with ``AnnotatedMap/init(_:)``.
public struct MapRequest {
    /// The image size in pixels.
    public var width: Int
    public var height: Int
    /// The terrain under the map, when there is one.
    public var dem: ElevationModel?
    /// The lines to measure and label, with what measuring them needs; nil for none.
    public var measurements: MapMeasurements?
    /// Places to label (a track's waypoints are added after them).
    public var places: [Place]
    /// Location histories drawn as trails, one fix per vertex (densify them first, as
    /// `Track.densifiedChecked` does, for a smooth line); their waypoints become places.
    public var tracks: [Track]
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
    /// Text sizes relative to the rest.
    public var fontScale: Double
    /// How the DEM is resampled into the frame (`render -r`); nil chooses
    /// (``TransectGDAL/ElevationModel/resampling(for:)``).
    public var resampling: ElevationResampling?
    /// A viewshed to draw over the basemap (`render --viewshed`, `--observer`); nil for none.
    public var viewshed: ViewshedOverlay?

    public init(
        width: Int, height: Int, dem: ElevationModel? = nil, measurements: MapMeasurements? = nil,
        places: [Place] = [], tracks: [Track] = [], heightsSource: String? = nil,
        frameCRS: SpatialReference? = nil, extentLonLat: GeoExtent? = nil, extentInFrame: FrameBox? = nil,
        margin: Double = 0.12, basemap: Basemap = .none, title: String? = nil, decorations: Bool = true,
        units: UnitSystem = .metric, dpi: Double? = nil, fontScale: Double = 1, resampling: ElevationResampling? = nil,
        viewshed: ViewshedOverlay? = nil
    ) {
        self.viewshed = viewshed
        self.width = width
        self.height = height
        self.dem = dem
        self.measurements = measurements
        self.places = places
        self.tracks = tracks
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
        self.fontScale = fontScale
        self.resampling = resampling
    }
}

/// The lines a map measures and labels, and what measuring them needs: the heights of ends
/// given without one come from `heights` (the map's DEM, or a default surface when the map has
/// none), raised by nothing (a map measures from the ground); ellipsoidal heights through
/// `geoid` when given.
public struct MapMeasurements {
    public var pairs: [MeasurementPair]
    public var heights: ElevationModel
    public var geoid: Geoid?
    public var interpolation: Interpolation

    public init(pairs: [MeasurementPair], heights: ElevationModel, geoid: Geoid? = nil, interpolation: Interpolation = .bilinear) {
        self.pairs = pairs
        self.heights = heights
        self.geoid = geoid
        self.interpolation = interpolation
    }

    /// The lines measured and labelled in `units`.
    /// - Throws: the ``TerrainError`` of the first line that cannot be measured, or of a read.
    func overlays(units: UnitSystem) throws(TerrainError) -> [MeasurementOverlay] {
        guard !pairs.isEmpty else { return [] }
        let measurer = TerrainMeasurer(model: heights, geoid: geoid, aboveGroundMetres: 0, interpolation: interpolation)
        return try measurer.measure(pairs).map { (result) throws(TerrainError) -> MeasurementOverlay in
            let m = try result.get().measurement
            return MeasurementOverlay(start: m.start, end: m.end, label: m.label(units: units))
        }
    }
}
