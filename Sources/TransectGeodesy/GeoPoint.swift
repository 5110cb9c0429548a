import TransectSupport

/// A position on or above the WGS84 ellipsoid.
///
/// Longitude and latitude are geodetic, in degrees; `heightMetres` is a height in metres whose
/// datum (orthometric or ellipsoidal) is stated by whoever produced it. Longitudes are not
/// reduced on construction: callers may hold 0–360 values and reduce where they need to.
public struct GeoPoint: Sendable, Hashable {
    /// Longitude in degrees, east positive.
    public var longitude: Double
    /// Latitude in degrees, north positive, in [−90, 90].
    public var latitude: Double
    /// Height in metres; `nil` when not known (for example, not yet sampled from a DEM).
    public var heightMetres: Double?

    /// Heights beyond ±100,000 km (far past geostationary orbit, 35,786 km) describe no place:
    /// every reader and the DEM refuse them, so 3D distances stay finite.
    public static let heightLimitMetres = 1e8
    /// The limit as messages state it: `±100,000 km`.
    public static let heightLimitText = "±" + NumberFormatting.grouped(heightLimitMetres / 1000, decimals: 0) + " km"

    @inlinable
    public init(longitude: Double, latitude: Double, heightMetres: Double? = nil) {
        self.longitude = longitude
        self.latitude = latitude
        self.heightMetres = heightMetres
    }
}

extension GeoPoint {
    /// A longitude in degrees reduced exactly to [−180, 180]: the one longitude reduction
    /// (GeographicLib's `AngNormalize`). ±180 keeps the sign of `degrees` (`540` → `180`,
    /// `-180` → `-180`), and so does zero (`-360` → `-0.0`); NaN and infinities give NaN.
    ///
    /// Example: `GeoPoint.reducedLongitude(190)` is `-170`, and `reducedLongitude(-119.5 + 720)`
    /// is exactly `-119.5`.
    @inlinable
    public static func reducedLongitude(_ degrees: Double) -> Double {
        GeoMath.angNormalize(degrees)
    }
}
