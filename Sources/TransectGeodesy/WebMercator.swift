/// Spherical Web Mercator, EPSG:3857 (also Esri's wkid 102100 and 102113): WGS84 longitude and
/// latitude projected as if on a sphere of radius R = 6 378 137 m, the WGS84 semi-major axis.
///
/// Forward: x = R·λ, y = R·ln tan(π/4 + φ/2). Inverse: λ = x/R, φ = π/2 − 2·atan(exp(−y/R)).
///
/// Both directions are written in forms that are accurate to a few ulps everywhere:
/// - the inverse latitude is the Gudermannian φ = atan(sinh(y/R)), identical to
///   π/2 − 2·atan(exp(−y/R)) but without its cancellation near the equator (there the latter
///   subtracts two numbers close to π/2 and loses all relative accuracy of small latitudes);
/// - the forward northing is y = R·atanh(sin φ), identical to R·ln tan(π/4 + φ/2), with sin φ from
///   the exactly reduced `GeoMath.sincosd`, so φ = 0 gives exactly 0.
///
/// These are the same formulas PROJ's `merc` uses on a sphere; tests compare every vertex of
/// the location-history sample against PROJ's EPSG:3857 → EPSG:4326 transformation.
public enum WebMercator {
    /// The sphere's radius in metres (the WGS84 semi-major axis).
    public static let radiusMetres = 6_378_137.0

    /// Web Mercator x, y in metres to WGS84 longitude, latitude in degrees.
    ///
    /// - Parameters:
    ///   - x: easting in metres; ±π·R (±20 037 508.34 m) is the antimeridian.
    ///   - y: northing in metres, any finite value (latitude tends to ±90° as |y| grows).
    /// - Returns: longitude reduced to [−180, 180] (an easting past the antimeridian wraps round,
    ///   as PROJ does), latitude in (−90, 90) for finite y.
    public static func geographic(x: Double, y: Double) -> (longitude: Double, latitude: Double) {
        let longitude = GeoMath.angNormalize(x / radiusMetres / GeoMath.degree)
        // atan2d confines the libm call to [−45°, 45°] and is exact at ±45° and ±90°.
        let latitude = GeoMath.atan2d(libmSinh(y / radiusMetres), 1)
        return (longitude, latitude)
    }

    /// WGS84 longitude, latitude in degrees to Web Mercator x, y in metres.
    ///
    /// - Parameters:
    ///   - longitude: degrees, any value (reduced exactly to [−180, 180] first).
    ///   - latitude: degrees in [−90, 90]; ±90 gives ±infinity. Web maps clip at ±85.0511°,
    ///     where |y| = π·R.
    public static func projected(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        let x = radiusMetres * (GeoMath.angNormalize(longitude) * GeoMath.degree)
        let y = radiusMetres * libmAtanh(GeoMath.sincosd(latitude).sin)
        return (x, y)
    }
}
