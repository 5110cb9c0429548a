import TransectAnalysis
import TransectGDAL

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
    public var dpi: Double = Self.defaultDPI
    /// Text sizes relative to the rest (`--font-scale`).
    public var fontScale = 1.0
    /// How the DEM is resampled into the frame; nil chooses (``TransectGDAL/ElevationModel/resampling(for:)``).
    public var resampling: ElevationResampling?
    /// A viewshed drawn over the basemap, with its legend; nil for none.
    public var viewshed: ViewshedOverlay?
    /// Drawing sizes relative to 96 dpi.
    public var scale: Double { dpi.isFinite && dpi > 0 ? dpi / Self.defaultDPI : 1 }
    /// The resolution a figure has unless one is asked for (the screen's 96 dpi), and the one
    /// its drawing sizes are given at.
    public static let defaultDPI = 96.0

    public init(frame: MapFrame, basemap: Basemap) {
        self.frame = frame
        self.basemap = basemap
    }
}
