import TransectAnalysis
import TransectCLIMeasure
import TransectGDAL
import TransectSupport

extension ProfileOutput {
    /// The statistics and line-of-sight fields of the `profile` layer's one feature: the JSON's
    /// numbers by the JSON's names (Reals, but the counts), the verdict and why there is none.
    static let profileFields: [LayerWriter.Field] = [
        .init("dem", .string), .init("samples", .integer), .init("valid_samples", .integer), .init("step_m", .real),
        .init("min_elevation_m", .real), .init("min_distance_m", .real), .init("max_elevation_m", .real), .init("max_distance_m", .real),
        .init("avg_elevation_m", .real), .init("elevation_gain_m", .real), .init("elevation_loss_m", .real),
        .init("max_positive_slope_pct", .real), .init("max_negative_slope_pct", .real), .init("avg_positive_slope_pct", .real),
        .init("avg_negative_slope_pct", .real), .init("horizontal_length_m", .real), .init("horizontal_length_with_data_m", .real),
        .init("surface_length_with_data_m", .real), .init("gap_count", .integer), .init("gap_length_m", .real),
        .init("segment_break_count", .integer),
        .init("line_of_sight", .string), .init("line_of_sight_reason", .string), .init("observer_height_m", .real),
        .init("target_height_m", .real), .init("curvature_coefficient", .real), .init("min_clearance_m", .real),
        .init("min_clearance_distance_m", .real),
    ]

    static let sampleFields: [LayerWriter.Field] = [
        .init("distance_m", .real), .init("lon", .real), .init("lat", .real), .init("elevation_m", .real),
    ]

    static let obstructionFields: [LayerWriter.Field] = [
        .init("distance_m", .real), .init("terrain_m", .real), .init("sight_line_m", .real), .init("clearance_m", .real),
    ]

    /// Writes the profile as three layers of `output`: `profile`, the path as one 3D
    /// multi-line string split wherever a sample has no data or a track's segment ends (no gap
    /// is bridged), with the statistics and the line of sight as its fields; `samples`, one 3D
    /// point a sample with its distance and elevation (a gap keeps its fields and has no
    /// geometry); `obstruction`, the first obstruction as a 3D point on the terrain (no feature
    /// when the target is visible or there is no verdict). Numbers are rounded to the decimals
    /// of the JSON output; features are numbered from 1.
    static func writeLayers(_ r: TerrainProfile, to output: LayerOutput) throws(CLIError) {
        let p = r.profile
        let s = r.statistics
        func round(_ v: Double, _ decimals: Int) -> LayerWriter.Value {
            v.isFinite ? .real(MeasurementsLayer.rounded(v, decimals)) : .null
        }
        func finite(_ i: Int) -> Bool { p.longitudes[i].isFinite && p.latitudes[i].isFinite && p.elevationsMetres[i].isFinite }

        let profile = try output.createLayer("profile", geometry: .multiLineString, fields: profileFields)
        var parts: [(x: [Double], y: [Double], z: [Double])] = []
        var k = 0
        while k < p.count {
            guard finite(k) else {
                k += 1
                continue
            }
            var part: (x: [Double], y: [Double], z: [Double]) = ([], [], [])
            while k < p.count && finite(k) {
                part.x.append(MeasurementsLayer.rounded(p.longitudes[k], 9))
                part.y.append(MeasurementsLayer.rounded(p.latitudes[k], 9))
                part.z.append(MeasurementsLayer.rounded(p.elevationsMetres[k], 6))
                k += 1
            }
            // A lone sample between gaps is no line: it stays a point of the samples layer.
            if part.x.count > 1 { parts.append(part) }
        }
        let reason = lineOfSightReason(r) { Fixed.format($0, decimals: 3) + " m" }
        let los = reason == nil ? r.lineOfSight : nil
        let verdict = reason == nil ? (los?.verdict ?? .unknown).rawValue : nil
        var values: [LayerWriter.Value] = [.string(r.dem), .integer(p.count), .integer(s.validCount), round(r.stepMetres ?? .nan, 6)]
        for extreme in [s.minimum, s.maximum] {
            values.append(round(extreme?.elevationMetres ?? .nan, 6))
            values.append(round(extreme.map { p.distancesMetres[$0.index] } ?? .nan, 6))
        }
        values += [
            s.averageElevationMetres, s.elevationGainMetres, s.elevationLossMetres, s.maxPositiveSlopePercent, s.maxNegativeSlopePercent,
            s.averagePositiveSlopePercent, s.averageNegativeSlopePercent, s.horizontalLengthMetres, s.horizontalLengthWithDataMetres,
            s.surfaceLengthWithDataMetres,
        ].map { round($0, 6) }
        values += [.integer(s.gapCount), round(s.gapLengthMetres, 6), .integer(s.segmentBreakCount)]
        values += [verdict.map { .string($0) } ?? .null, reason.map { .string($0) } ?? .null]
        values += [round(r.observerHeightMetres, 6), round(r.targetHeightMetres, 6), .real(r.curvature)]
        values += [
            round(los?.minimumClearance?.clearanceMetres ?? .nan, 6), round(los?.minimumClearance.map { p.distancesMetres[$0.index] } ?? .nan, 6),
        ]
        try output.write(profile, fid: 1, values: values, geometry: parts.isEmpty ? nil : .multiLineString(parts))

        let samples = try output.createLayer("samples", geometry: .point, fields: sampleFields)
        for i in 0..<p.count {
            let geometry: LayerWriter.Geometry? =
                finite(i)
                ? .point(
                    x: MeasurementsLayer.rounded(p.longitudes[i], 9), y: MeasurementsLayer.rounded(p.latitudes[i], 9),
                    z: MeasurementsLayer.rounded(p.elevationsMetres[i], 6)) : nil
            try output.write(
                samples, fid: i + 1,
                values: [round(p.distancesMetres[i], 6), round(p.longitudes[i], 9), round(p.latitudes[i], 9), round(p.elevationsMetres[i], 6)],
                geometry: geometry)
        }

        let obstruction = try output.createLayer("obstruction", geometry: .point, fields: obstructionFields)
        if let o = los?.firstObstruction {
            try output.write(
                obstruction, fid: 1,
                values: [round(p.distancesMetres[o.index], 6), round(o.terrainMetres, 6), round(o.sightLineMetres, 6), round(o.clearanceMetres, 6)],
                geometry: .point(
                    x: MeasurementsLayer.rounded(p.longitudes[o.index], 9), y: MeasurementsLayer.rounded(p.latitudes[o.index], 9),
                    z: MeasurementsLayer.rounded(o.terrainMetres, 6)))
        }
    }
}
