import CGDAL
import TransectGeodesy
import TransectSupport

extension SpatialReference {
    /// The azimuthal equidistant projection (WGS84, metres) centred on a longitude and latitude
    /// in degrees, named for its centre: `WGS 84 / Azimuthal equidistant at 36.9123°N 46.8951°E`.
    ///
    /// Distances and directions from the centre are true everywhere in it, and its scale at the
    /// centre is true in every direction; across the centre's direction it grows as c / sin c
    /// (c the angular distance from the centre: 1.2 % at 1,000 km, 5 % at 2,000 km). That is
    /// why a map of a continent's worth of content is drawn in it rather than in one UTM zone,
    /// whose scale is off by 1 % 900 km from its meridian and by far more beyond.
    ///
    /// The centre is written with four decimals (11 m at most), so the CRS's text stays short
    /// and the same content always gives the same bytes.
    /// The corresponding GDAL functions are `OSRSetFromUserInput` (for the PROJ string
    /// `+proj=aeqd +lat_0=… +lon_0=… +datum=WGS84 +units=m`) and `OSRSetProjCS`.
    ///
    /// - Parameters:
    ///   - longitude: the centre's longitude in degrees, reduced to (−180, 180].
    ///   - latitude: the centre's latitude in degrees, in [−90, 90].
    public static func azimuthalEquidistant(longitude: Double, latitude: Double) throws(TerrainError) -> SpatialReference {
        let lon = NumberFormatting.fixed(GeoPoint.reducedLongitude(longitude), decimals: 4)
        let lat = NumberFormatting.fixed(min(max(latitude, -90), 90), decimals: 4)
        let reference = try SpatialReference("+proj=aeqd +lat_0=\(lat) +lon_0=\(lon) +datum=WGS84 +units=m +no_defs")
        let north = lat.hasPrefix("-") ? String(lat.dropFirst()) + "°S" : lat + "°N"
        let east = lon.hasPrefix("-") ? String(lon.dropFirst()) + "°W" : lon + "°E"
        let name = "WGS 84 / Azimuthal equidistant at \(north) \(east)"
        try gdal(succeeds: { OSRSetProjCS(reference.handle, name) == OGRERR_NONE }, orThrow: { .badCRS(name, reason: $0) })
        return reference
    }
}
