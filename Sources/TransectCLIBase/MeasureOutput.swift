import TransectAnalysis
import TransectGeodesy
import TransectSupport

/// The JSON object of `transect measure --format json`.
package enum MeasureOutput {
    /// The measurement, both endpoints with where their heights came from, and the DEM and
    /// geoid that gave them (`geoid` is the `--geoid` path as given).
    package static func json(_ m: MeasuredPair, units: UnitSystem, dem: String?, geoid: String?) -> JSON {
        let r = m.measurement
        func endpoint(_ p: GeoPoint, _ source: HeightSource, _ h: Double) -> JSON {
            var members: [(String, JSON)] = [
                ("lon", .number(p.longitude, decimals: 9)), ("lat", .number(p.latitude, decimals: 9)),
                ("elevation_m", .number(p.heightMetres, decimals: 6)), ("height_source", .string(source.rawValue)),
            ]
            if geoid != nil { members.append(("ellipsoidal_height_m", .number(h, decimals: 6))) }
            return .object(members)
        }
        return .object([
            ("start", endpoint(r.start, m.startSource, r.startEllipsoidalHeightMetres)),
            ("end", endpoint(r.end, m.endSource, r.endEllipsoidalHeightMetres)),
            ("horizontal_m", .number(r.horizontalMetres, decimals: 9)),
            ("vertical_m", .number(r.verticalMetres, decimals: 6)),
            ("direct_m", .number(r.directMetres, decimals: 9)),
            ("azimuth_start_deg", .number(r.azimuthStartDegrees, decimals: 10)),
            ("azimuth_end_deg", .number(r.azimuthEndDegrees, decimals: 10)),
            ("back_azimuth_deg", .number(r.backAzimuthDegrees, decimals: 10)),
            ("slope_deg", .number(r.slopeDegrees, decimals: 10)),
            ("grade_pct", .number(r.gradePercent, decimals: 8)),
            ("units", .string(unitsName(units))),
            ("label", .string(r.label(units: units))),
            ("dem", dem.map { .string($0) } ?? .null),
            ("geoid", geoid.map { .string($0) } ?? .null),
        ])
    }

    /// What one measurement prints: its label (`text`) or ``json(_:units:dem:geoid:)``
    /// (`json`), with the newline.
    package static func document(_ m: MeasuredPair, format: MeasureFormat, units: UnitSystem, dem: String?, geoid: String?) -> String {
        format == .json ? json(m, units: units, dem: dem, geoid: geoid).serialized() + "\n" : m.measurement.label(units: units) + "\n"
    }

    /// The units' name as `--units` takes it.
    package static func unitsName(_ units: UnitSystem) -> String {
        switch units {
        case .metric: "metric"
        case .imperial: "imperial"
        case .fixed(let u): u.rawValue
        }
    }
}
