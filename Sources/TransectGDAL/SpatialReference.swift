#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGDAL

/// A coordinate reference system, owned. Axis order is always the traditional GIS order
/// (longitude/easting first), whatever the authority says.
/// The corresponding GDAL functions are `OSRNewSpatialReference` and `OSRSetFromUserInput`.
public final class SpatialReference {
    let handle: OGRSpatialReferenceH

    /// A CRS from anything GDAL's `OSRSetFromUserInput` takes: `EPSG:32611`, WKT, PROJ strings.
    /// A definition that names a file (WKT, PROJJSON) is read from it, and a failure names the
    /// file. URLs are refused (GDAL would fetch them), except OGC's `opengis.net/def/crs`
    /// names, which PROJ resolves offline.
    public init(_ definition: String) throws(TerrainError) {
        GDALEnvironment.ensure()
        let lower = definition.lowercased()
        if SourceConfinement.networkSchemes.contains(where: { lower.hasPrefix($0) }),
            !lower.hasPrefix("http://www.opengis.net/def/crs/"), !lower.hasPrefix("http://opengis.net/def/crs/")
        {
            throw .badCRS(definition, reason: "Transect does not fetch CRS definitions from the network; give EPSG:CODE, WKT or a file")
        }
        guard let h = OSRNewSpatialReference(nil) else {
            throw .badCRS(definition, reason: "cannot allocate a spatial reference")
        }
        do {
            try gdal(fallback: "not a CRS that PROJ knows") {
                OSRSetFromUserInput(h, definition) == OGRERR_NONE
            } orThrow: { reason in
                // No database, no CRS of any kind: say so, rather than blame the definition.
                if reason.contains("proj.db") { return Self.missingDatabase(reason) }
                guard SourceConfinement.isRegularFile(definition) else { return .badCRS(definition, reason: reason) }
                return .badCRS(definition, reason: "the file is not a CRS PROJ can read (WKT or PROJJSON): \(reason)")
            }
        } catch {
            OSRDestroySpatialReference(h)
            throw error
        }
        OSRSetAxisMappingStrategy(h, OAMS_TRADITIONAL_GIS_ORDER)
        handle = h
    }

    /// Takes ownership of `handle` (a clone the caller made).
    init(owning handle: OGRSpatialReferenceH) {
        OSRSetAxisMappingStrategy(handle, OAMS_TRADITIONAL_GIS_ORDER)
        self.handle = handle
    }

    deinit { OSRDestroySpatialReference(handle) }

    /// WGS84 geographic (EPSG:4326), longitude first: a new object each call, since GDAL does
    /// not promise that one spatial reference may be used from several threads at once.
    public static func wgs84() throws(TerrainError) -> SpatialReference {
        do {
            return try SpatialReference("EPSG:4326")
        } catch {
            // EPSG:4326 is in every PROJ database; failing here means PROJ's database is missing
            // or unreadable, and no coordinate can be transformed.
            if case .missingPROJDatabase = error { throw error }
            throw missingDatabase(error.message)
        }
    }

    /// The error for PROJ's database missing, from PROJ's `reason`, naming where PROJ looked.
    static func missingDatabase(_ reason: String) -> TerrainError {
        var reason = reason
        for noise in ["CRS 'EPSG:4326': ", "PROJ: ", "proj_create_from_database: "] where reason.hasPrefix(noise) {
            reason.removeFirst(noise.count)
        }
        for name in ["PROJ_DATA", "PROJ_LIB"] {
            if let value = getenv(name) { reason += "; \(name)='\(String(cString: value).printable)'" }
        }
        return .missingPROJDatabase(reason: reason)
    }

    /// True for a geographic (longitude/latitude) CRS.
    public var isGeographic: Bool { OSRIsGeographic(handle) != 0 }

    /// True for a projected CRS.
    public var isProjected: Bool { OSRIsProjected(handle) != 0 }

    /// True for a CRS whose positions are horizontal (geographic or projected): the only
    /// kind points and DEMs may be given in. A geocentric (ECEF), vertical-only or
    /// engineering CRS has no longitude and latitude to measure with.
    public var isHorizontal: Bool { isGeographic || isProjected }

    /// What kind of CRS this is, for messages: `geocentric`, `vertical`, `engineering`, …
    public var kind: String {
        if isProjected { return "projected" }
        if isGeographic { return "geographic" }
        if OSRIsGeocentric(handle) != 0 { return "geocentric" }
        if OSRIsVertical(handle) != 0 { return "vertical" }
        if OSRIsLocal(handle) != 0 { return "engineering" }
        return "neither geographic nor projected"
    }

    /// The CRS's name, for example `NAD83` or `WGS 84 / UTM zone 11N`.
    public var name: String {
        guard let cName = OSRGetName(handle) else { return "unnamed CRS" }
        return String(cString: cName)
    }

    /// `EPSG:code` when the CRS is identified by an authority, else nil.
    public var authorityCode: String? {
        let key: String? = isProjected ? "PROJCS" : (isGeographic ? "GEOGCS" : (OSRIsGeocentric(handle) != 0 ? "GEOCCS" : nil))
        guard let authority = OSRGetAuthorityName(handle, key), let code = OSRGetAuthorityCode(handle, key)
        else { return nil }
        return String(cString: authority) + ":" + String(cString: code)
    }

    /// GDAL's data axis to CRS axis mapping (1-based) under the traditional GIS order this type
    /// sets: `[1, 2]` for most CRSs, `[2, 1]` for one that lists northing or latitude first
    /// (EPSG:2193, EPSG:4326), so that x is always the easting or longitude.
    /// The corresponding GDAL function is `OSRGetDataAxisToSRSAxisMapping`.
    public var dataAxisMapping: [Int] {
        var count: Int32 = 0
        guard let values = OSRGetDataAxisToSRSAxisMapping(handle, &count), count > 0 else { return [1, 2] }
        return (0..<Int(count)).map { Int(values[$0]) }
    }

    /// The CRS as WKT2 (2019), for metadata and round trips (`-t_srs`, a map's `.aux.xml`);
    /// a CRS that WKT2 cannot state is an error, never empty text.
    /// The corresponding GDAL function is `OSRExportToWktEx`.
    public var wkt: String {
        get throws(TerrainError) {
            let text = try gdal { () -> UnsafeMutablePointer<CChar>? in
                var text: UnsafeMutablePointer<CChar>?
                let err = withCStringList(["FORMAT=WKT2_2019"]) { OSRExportToWktEx(handle, &text, constList($0)) }
                guard err == OGRERR_NONE else {
                    VSIFree(text)
                    return nil
                }
                return text
            } orThrow: {
                .badCRS(label, reason: "cannot be written as WKT2: " + $0)
            }
            defer { VSIFree(text) }
            return String(cString: text)
        }
    }

    /// A short human label: `EPSG:32611 (WGS 84 / UTM zone 11N)` or the name alone.
    public var label: String {
        if let code = authorityCode { return "\(code) (\(name))" }
        return name
    }

    /// Metres per unit of the horizontal axes of a projected CRS.
    public var linearUnitMetres: Double { OSRGetLinearUnits(handle, nil) }

    /// Metres per unit of the vertical axis of a compound or vertical CRS, when it has one.
    public var verticalUnitMetres: Double? {
        guard OSRIsCompound(handle) != 0 || OSRIsVertical(handle) != 0 else { return nil }
        let metres = OSRGetTargetLinearUnits(handle, "VERT_CS", nil)
        return metres > 0 ? metres : nil
    }

    /// True when both describe the same CRS, ignoring axis order and data axis mapping.
    public func isSame(as other: SpatialReference) -> Bool {
        withCStringList(["IGNORE_DATA_AXIS_TO_SRS_AXIS_MAPPING=YES", "CRITERION=EQUIVALENT"]) { list in
            withExtendedLifetime(other) { OSRIsSameEx(handle, other.handle, constList(list)) != 0 }
        }
    }
}
