import TransectCore
import TransectGDAL

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

    /// Parses `--basemap`: a style name, or a path to an image (anything containing `/` or `.`).
    public static func parse(_ name: String, hillshade: HillshadeParameters) -> Basemap? {
        switch name {
        case "hillshade": .hillshade(hillshade)
        case "light-gray", "light-grey": .lightGray(hillshade)
        case "tint": .tint(hillshade)
        case "none": Basemap.none
        default: name.contains("/") || name.contains(".") ? .image(path: name) : nil
        }
    }

    var usesDEM: Bool {
        switch self {
        case .hillshade, .lightGray, .tint: true
        case .none, .image: false
        }
    }
}
