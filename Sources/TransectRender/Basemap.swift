import TransectGDAL
import TransectRaster

/// How the terrain under a map is drawn.
public enum Basemap: Sendable, Hashable {
    /// Grey Horn hillshade, as `gdaldem hillshade` computes it, of the elevations warped into the
    /// frame: on the DEM's own grid it is gdaldem's, pixel for pixel; in a frame finer than the
    /// DEM it shades the cubic-spline surface (``TransectGDAL/ElevationResampling``), without
    /// steps at the cell edges.
    case hillshade(HillshadeParameters)
    /// A quiet, light hillshade for overlays.
    case lightGray(HillshadeParameters)
    /// Hypsometric colours blended with hillshade, with a legend.
    case tint(HillshadeParameters)
    /// A plain canvas.
    case none
    /// A georeferenced image (PNG with world file, GeoTIFF…).
    case image(path: String)

    /// The styles by name, in the order help and messages list them; declared here once.
    public enum Style: String, CaseIterable, Sendable {
        case hillshade
        case lightGray = "light-gray"
        case tint
        case none

        /// The basemap of this style, shaded with `hillshade` where it shades.
        public func basemap(hillshade: HillshadeParameters) -> Basemap {
            switch self {
            case .hillshade: .hillshade(hillshade)
            case .lightGray: .lightGray(hillshade)
            case .tint: .tint(hillshade)
            case .none: Basemap.none
            }
        }
    }

    /// The style names (`hillshade`, `light-gray`, `tint`, `none`), for help and messages.
    public static var styleNames: [String] { Style.allCases.map(\.rawValue) }

    /// Parses `--basemap`: a style name (`light-grey` too), or a path to an image (anything
    /// containing `/` or `.`).
    public static func parse(_ name: String, hillshade: HillshadeParameters) -> Basemap? {
        if let style = Style(rawValue: name == "light-grey" ? Style.lightGray.rawValue : name) { return style.basemap(hillshade: hillshade) }
        return name.contains("/") || name.contains(".") ? .image(path: name) : nil
    }

    var usesDEM: Bool {
        switch self {
        case .hillshade, .lightGray, .tint: true
        case .none, .image: false
        }
    }
}
