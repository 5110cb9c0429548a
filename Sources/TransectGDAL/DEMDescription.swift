import TransectSupport

/// What a DEM is, where it is, how fine, and its elevation range: everything `transect info`
/// reports, from one ``ElevationModel/describe()`` call.
public struct DEMDescription: Sendable {
    /// The DEM as messages name it, and its files (one per tile).
    public var label: String
    public var paths: [String]
    /// GDAL's driver (`VRT` for a mosaic of tiles).
    public var driverName: String
    /// Cells across and down, and the band's data type name (`Float32`, `Int16`, …).
    public var width: Int
    public var height: Int
    public var dataTypeName: String
    /// The CRS's label, and whether it was assumed because the file records none.
    public var crsLabel: String
    public var crsAssumed: Bool
    /// The extent in WGS84 longitude/latitude (``ElevationModel/extentLonLat()``).
    public var extentLonLat: GeoExtent
    /// One cell's size in metres at the centre (``ElevationModel/resolutionMetres()``).
    public var resolutionMetres: (x: Double, y: Double)
    /// The no-data value as stored, and as the band's type writes it; nil without one.
    public var noDataValue: Double?
    public var noDataText: String?
    /// True when the no-data value is `--nodata`'s, not the file's.
    public var noDataGiven: Bool
    /// The band's unit type as recorded (`m`, `ft`, empty when none is).
    public var unitType: String
    /// The elevation range in metres (``ElevationModel/elevationRange()``); nil when every
    /// cell is no data.
    public var elevationRange: (min: Double, max: Double, approximate: Bool)?
}

extension ElevationModel {
    /// The DEM described: its fields, then the extent, the resolution and the elevation range,
    /// computed in that order (the first failure throws). Every number is finite: an extent
    /// PROJ cannot bring to longitude/latitude, a cell size that overflows, or heights beyond
    /// any terrain are errors, so a description never holds `inf` or `nan`.
    public func describe() throws(TerrainError) -> DEMDescription {
        let extent = try extentLonLat()
        guard [extent.west, extent.south, extent.east, extent.north].allSatisfy(\.isFinite) else {
            throw .cannotTransform(from: crs.label, to: "EPSG:4326", reason: "the DEM's extent has no place in longitude and latitude")
        }
        let resolution = try resolutionMetres()
        guard resolution.x.isFinite, resolution.y.isFinite else {
            throw .unusableRaster(path: label, reason: "has cells whose size in metres overflows")
        }
        let range = try elevationRange()
        return DEMDescription(
            label: label, paths: paths, driverName: driverName, width: width, height: height, dataTypeName: dataTypeName,
            crsLabel: crs.label, crsAssumed: crsAssumed, extentLonLat: extent, resolutionMetres: resolution,
            noDataValue: noDataValue, noDataText: noDataText, noDataGiven: noDataGiven, unitType: unitType, elevationRange: range)
    }
}
