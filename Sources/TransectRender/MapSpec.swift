import TransectCore

/// Everything a map shows.
public struct MapSpec {
    public var frame: MapFrame
    public var basemap: Basemap
    public var measurements: [MeasurementOverlay] = []
    public var places: [Place] = []
    public var trails: [TrailOverlay] = []
    public var title: String?
    /// The attribution line (usually naming the DEM).
    public var attribution: String?
    /// Scale bar, north arrow, title, attribution and legend; off for bare basemaps.
    public var decorations = true
    public var units: UnitSystem = .metric
    /// The figure's resolution: text, lines and symbols are drawn `dpi / 96` times their
    /// 96-dpi size, so a 300-dpi figure looks, printed, as the 96-dpi one does on screen.
    public var dpi: Double = 96
    /// Drawing sizes relative to 96 dpi.
    public var scale: Double { dpi.isFinite && dpi > 0 ? dpi / 96 : 1 }

    public init(frame: MapFrame, basemap: Basemap) {
        self.frame = frame
        self.basemap = basemap
    }
}
