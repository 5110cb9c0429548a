import TransectAnalysis
import TransectGDAL
import TransectGeodesy

/// Frames whose content is more than a UTM zone can show: a measurement from Mont Blanc to
/// Everest, a flight's track, places across an ocean, a DEM of a continent.
///
/// A UTM zone is 6° of longitude and its scale grows as k₀(1 + x²/2R²) away from its central
/// meridian: 1.2 % too large 1,000 km off it, 5 % at 2,000 km, 22 % at 4,000 km, with the
/// zone's meridians bent further the further the content goes. Content that reaches further
/// than ``MapFrame/continentalReachMetres`` from its centre is drawn instead in the azimuthal
/// equidistant projection centred on it (``SpatialReference/azimuthalEquidistant(longitude:latitude:)``):
/// every distance and direction from the map's centre is true, and the scale elsewhere is off
/// across the centre's direction only (c / sin c: 1.2 % at 1,000 km, 5 % at 2,000 km). Where
/// the scale varies over the frame by more than 2 %, the scale bar says it holds at the centre
/// (``MapFrame/scaleVariation``).
extension MapFrame {
    /// How far content may reach from its centre (on the ellipsoid) and still be drawn in a UTM
    /// zone: 1,000 km, where UTM's scale at the content's edge is 1.2 % off however the zone is
    /// placed, and past which a zone's 6° no longer hold the content at middle latitudes.
    public static let continentalReachMetres = 1_000_000.0

    /// The latitudes UTM is defined for (80° S to 84° N); content beyond them is polar and is
    /// framed azimuthal equidistant whatever its reach, as UPS would frame it.
    public static let utmLatitudes = -80.0...84.0

    /// The centre of `points` on the sphere: the direction of the mean of their unit vectors,
    /// so content on both sides of the antimeridian is centred on it, not near 0°. Points
    /// spread so evenly that their mean is the earth's centre have no centre; the first stands
    /// for it. Nil for no finite point.
    static func centre(of points: [GeoPoint]) -> GeoPoint? {
        var sum = SIMD3<Double>.zero
        var first: SIMD3<Double>?
        for p in points where p.longitude.isFinite && p.latitude.isFinite {
            let (sinLat, cosLat) = GeoMath.sincosd(p.latitude)
            let (sinLon, cosLon) = GeoMath.sincosd(p.longitude)
            let u = SIMD3(cosLat * cosLon, cosLat * sinLon, sinLat)
            if first == nil { first = u }
            sum += u
        }
        guard let first else { return nil }
        // 1e-9 of a unit vector: far below any content's own spread, far above rounding.
        let v = (sum * sum).sum() > 1e-18 ? sum : first
        return GeoPoint(
            longitude: GeoMath.atan2d(v.y, v.x),
            latitude: GeoMath.atan2d(v.z, (v.x * v.x + v.y * v.y).squareRoot()))
    }

    /// The azimuthal equidistant CRS for `points` (what the frame shows, WGS84), or nil when a
    /// UTM zone shows them well: they reach no further than ``continentalReachMetres`` from
    /// their ``centre(of:)`` and lie within ``utmLatitudes``.
    ///
    /// The projection is centred where the points' box in it is centred, found from their
    /// centre on the sphere in at most ``centringPasses`` passes, each moving the centre to
    /// the middle of the box the points fill in the projection about the last, so the map's
    /// centre is the projection's, where its scale is true. Each pass leaves about a tenth of
    /// the last one's miss: Mont Blanc to Everest's midpoint is missed by 1.6 km from the
    /// sphere, then by 119 m, 14 m and 1.3 m.
    static func continentalCRS(for points: [GeoPoint]) throws(TerrainError) -> SpatialReference? {
        let finite = points.filter { $0.longitude.isFinite && $0.latitude.isFinite }
        guard let centre = centre(of: finite) else { return nil }
        let polar = finite.contains { !utmLatitudes.contains($0.latitude) }
        if !polar {
            let reach = Geodesic.wgs84.inverse(from: Array(repeating: centre, count: finite.count), to: finite).map(\.distanceMetres).max() ?? 0
            guard reach > continentalReachMetres else { return nil }
        }
        var crs = try SpatialReference.azimuthalEquidistant(longitude: centre.longitude, latitude: centre.latitude)
        for _ in 0..<centringPasses {
            var xs = finite.map(\.longitude)
            var ys = finite.map(\.latitude)
            try CoordinateTransformer(from: try .wgs84(), to: crs).transform(x: &xs, y: &ys)
            let fx = xs.filter(\.isFinite)
            let fy = ys.filter(\.isFinite)
            guard let minX = fx.min(), let maxX = fx.max(), let minY = fy.min(), let maxY = fy.max(),
                let middle = try CoordinateTransformer(from: crs, to: try .wgs84()).transform(x: (minX + maxX) / 2, y: (minY + maxY) / 2),
                middle.x.isFinite, middle.y.isFinite
            else { break }
            let next = try SpatialReference.azimuthalEquidistant(longitude: middle.x, latitude: middle.y)
            // The same four decimals: the centre has stopped moving.
            if next.name == crs.name { break }
            crs = next
        }
        return crs
    }

    /// The most centring passes ``continentalCRS(for:)`` makes: three, the first that bring a
    /// continent's centre within the 11 m its four decimals hold it to.
    static let centringPasses = 3
}
