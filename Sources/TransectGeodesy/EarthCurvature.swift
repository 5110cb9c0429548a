/// The sphere that curvature and refraction corrections use: how far the earth's surface falls
/// away below a level sight line. A sight line of length d over a sphere of radius R sinks
/// below the tangent plane by d²/(2R) (the first term of R(1 − cos(d/R)), within 1 mm up to
/// 50 km); refraction bends the line back by a fraction k of that, so line of sight, the
/// perspective view and (later) the viewshed all take (1 − k)·d²/(2R) with this one R.
public enum EarthCurvature {
    /// The radius of the curvature model, metres: the IUGG mean earth radius R₁ = (2a + b)/3 of
    /// WGS84, 6,371,008.8 m. The ellipsoid's own radii of curvature lie within 0.6 % of it (b²/a to
    /// a²/b), under 5 m of the 785 m drop over 100 km.
    public static let meanRadiusMetres = 6_371_008.8

    /// The curvature coefficient every sight line takes by default: cc = 1 − k with the
    /// standard refraction coefficient k ≈ 1/7, written 0.85714 as `gdal_viewshed -cc` and
    /// common viewshed tools write it (so k = 0.14286). Terrain at distance d is lowered by
    /// cc·d²/(2R) in `profile`'s line of sight, `view` and `viewshed` alike.
    public static let defaultCurvatureCoefficient = 0.85714
}
