import TransectGeodesy

/// A 3D distance measurement between two endpoints, as DESIGN.md defines it.
///
/// - Horizontal: the geodesic distance on the ellipsoid between the two positions (Karney).
/// - Vertical: `end.heightMetres − start.heightMetres`, signed (the label shows its magnitude).
/// - Direct: the Euclidean distance between the two points in ECEF, from latitude, longitude and
///   ellipsoidal height. No distance limit: the chord through the earth for far-apart points.
///
/// Endpoint heights are the elevations the user sees (DEM heights, orthometric, or given Z);
/// the ellipsoidal heights used for ECEF are those plus the geoid undulation when a geoid is
/// used, else the same values (the error is then the change of undulation between the ends,
/// metres at most over long lines, centimetres over a valley).
public struct Measurement: Sendable, Hashable {
    /// The start: longitude, latitude (degrees) and elevation (metres).
    public var start: GeoPoint
    /// The end: longitude, latitude (degrees) and elevation (metres).
    public var end: GeoPoint
    /// Ellipsoidal height of the start in metres, used for the direct distance.
    public var startEllipsoidalHeightMetres: Double
    /// Ellipsoidal height of the end in metres, used for the direct distance.
    public var endEllipsoidalHeightMetres: Double
    /// Geodesic distance on the ellipsoid, metres.
    public var horizontalMetres: Double
    /// Elevation of the end minus elevation of the start, metres.
    public var verticalMetres: Double
    /// Straight-line distance in ECEF, metres.
    public var directMetres: Double
    /// Azimuth of the geodesic at the start, degrees clockwise from north, in (−180, 180].
    public var azimuthStartDegrees: Double
    /// Forward azimuth of the geodesic at the end, degrees, in (−180, 180].
    public var azimuthEndDegrees: Double

    /// Measures from `start` to `end`, whose `heightMetres` must be set (elevations). The
    /// ellipsoidal heights default to the elevations (no geoid).
    public init(
        start: GeoPoint, end: GeoPoint,
        startEllipsoidalHeightMetres: Double? = nil, endEllipsoidalHeightMetres: Double? = nil,
        geodesic: Geodesic = .wgs84
    ) {
        self.init(
            start: start, end: end, startEllipsoidalHeightMetres: startEllipsoidalHeightMetres,
            endEllipsoidalHeightMetres: endEllipsoidalHeightMetres,
            inverse: geodesic.inverse(from: start, to: end), ellipsoid: geodesic.ellipsoid)
    }

    /// Measures from `start` to `end` with the geodesic between them already solved, for
    /// batches: `Geodesic.inverse(from:to:)` solves many pairs four at a time, bit for bit as
    /// one at a time, so a batch measures exactly as ``init(start:end:startEllipsoidalHeightMetres:endEllipsoidalHeightMetres:geodesic:)``.
    ///
    /// - Precondition: `inverse` is the inverse solution from `start` to `end` on `ellipsoid`,
    ///   and both endpoints have a height.
    public init(
        start: GeoPoint, end: GeoPoint,
        startEllipsoidalHeightMetres: Double? = nil, endEllipsoidalHeightMetres: Double? = nil,
        inverse: GeodesicInverseResult, ellipsoid: Ellipsoid = .wgs84
    ) {
        precondition(start.heightMetres != nil && end.heightMetres != nil, "both endpoints need a height")
        self.start = start
        self.end = end
        let h1 = startEllipsoidalHeightMetres ?? start.heightMetres!
        let h2 = endEllipsoidalHeightMetres ?? end.heightMetres!
        self.startEllipsoidalHeightMetres = h1
        self.endEllipsoidalHeightMetres = h2
        horizontalMetres = inverse.distanceMetres
        azimuthStartDegrees = inverse.azimuth1Degrees
        azimuthEndDegrees = inverse.azimuth2Degrees
        verticalMetres = end.heightMetres! - start.heightMetres!
        let p1 = ellipsoid.ecef(latitude: start.latitude, longitude: start.longitude, heightMetres: h1)
        let p2 = ellipsoid.ecef(latitude: end.latitude, longitude: end.longitude, heightMetres: h2)
        directMetres = p1.distance(to: p2)
    }

    /// The back azimuth: the direction from the end towards the start, degrees in (−180, 180].
    public var backAzimuthDegrees: Double {
        let back = azimuthEndDegrees + 180
        return back > 180 ? back - 360 : back
    }

    /// Slope angle of the straight rise over the horizontal distance, degrees in [−90, 90]
    /// (positive uphill from start to end; 0 for coincident endpoints).
    public var slopeDegrees: Double {
        guard horizontalMetres > 0 || verticalMetres != 0 else { return 0 }
        return GeoMath.atan2d(verticalMetres, horizontalMetres)
    }

    /// Grade in percent: 100 × vertical / horizontal (infinite for a vertical line).
    public var gradePercent: Double {
        guard horizontalMetres > 0 else { return verticalMetres == 0 ? 0 : (verticalMetres > 0 ? .infinity : -.infinity) }
        return 100 * verticalMetres / horizontalMetres
    }

    /// `Direct: 1,234.56 m | Horizontal: 1,200.00 m | Vertical: 290.12 m` in `units`.
    public func label(units: UnitSystem = .metric) -> String {
        "Direct: \(units.format(directMetres)) | Horizontal: \(units.format(horizontalMetres)) | Vertical: \(units.format(abs(verticalMetres)))"
    }
}
