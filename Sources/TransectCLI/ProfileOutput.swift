import TransectAnalysis
import TransectFormats
import TransectGDAL
import TransectGeodesy
import TransectRender
import TransectSupport

/// Writers for `transect profile`: a compact human table, JSON, CSV and the chart. JSON and CSV
/// are in metres; the table and the chart use the chosen units.
enum ProfileOutput {
    static func position(_ p: Profile, _ i: Int) -> String {
        "\(Fixed.format(p.longitudes[i], decimals: 6)),\(Fixed.format(p.latitudes[i], decimals: 6))"
    }

    static func text(_ r: TerrainProfile, units: UnitSystem) -> String {
        let s = r.statistics
        let p = r.profile
        let h = units.heightUnit
        func height(_ metres: Double, plusSign: Bool = false) -> String {
            NumberFormatting.grouped(h.convert(metres: metres), plusSign: plusSign) + " " + h.rawValue
        }
        func pct(_ v: Double) -> String { (v > 0 ? "+" : "") + NumberFormatting.grouped(v, decimals: 1) + " %" }
        var lines: [String] = []
        var spacing = r.stepMetres.map { "step \(units.format($0))" } ?? "evenly spaced"
        if r.recordedElevations {
            let steps = p.count - 1 - 2 * s.segmentBreakCount
            spacing = "the track's points" + (steps > 0 ? ", mean step \(units.format(s.horizontalLengthMetres / Double(steps)))" : "")
        }
        lines.append("Profile       \(units.format(s.horizontalLengthMetres)), \(NumberFormatting.count(p.count, "sample")) (\(spacing))")
        if let lo = s.minimum, let hi = s.maximum {
            lines.append(
                "Elevation     min \(height(lo.elevationMetres)) at \(units.format(p.distancesMetres[lo.index])), "
                    + "max \(height(hi.elevationMetres)) at \(units.format(p.distancesMetres[hi.index])), avg \(height(s.averageElevationMetres))")
        } else {
            lines.append("Elevation     no data along the path")
        }
        lines.append("Gain / loss   \(height(s.elevationGainMetres, plusSign: true)) / \(height(-s.elevationLossMetres))")
        lines.append(
            "Slope         max \(pct(s.maxPositiveSlopePercent)) / \(pct(s.maxNegativeSlopePercent)), "
                + "avg \(pct(s.averagePositiveSlopePercent)) / \(pct(s.averageNegativeSlopePercent))")
        lines.append(
            "Length        horizontal \(units.format(s.horizontalLengthMetres)); over steps with data: "
                + "horizontal \(units.format(s.horizontalLengthWithDataMetres)), surface \(units.format(s.surfaceLengthWithDataMetres))")
        if r.recordedElevations { lines.append("Elevations    recorded in '\(r.dem)' (give --dem for a DEM's)") }
        lines.append("Gaps          " + (s.gapCount == 0 ? "none" : "\(s.gapCount), \(units.format(s.gapLengthMetres)) in all"))
        if s.segmentBreakCount > 0 {
            lines.append("Breaks        \(s.segmentBreakCount) between the track's \(s.segmentBreakCount + 1) segments (nothing measured across them)")
        }
        let eyes = "observer \(height(r.observerHeightMetres)), target \(height(r.targetHeightMetres)), curvature \(JSON.format(r.curvature))"
        if let reason = lineOfSightReason(r, length: units.format) {
            lines.append("Line of sight NONE: \(reason)")
        } else if let los = r.lineOfSight {
            var verdict = "Line of sight \(los.verdict.rawValue.uppercased()) (\(eyes))"
            if let o = los.firstObstruction {
                verdict +=
                    "\n              first obstruction at \(units.format(p.distancesMetres[o.index])) (\(position(p, o.index))): "
                    + "terrain \(height(o.terrainMetres)), sight line \(height(o.sightLineMetres))"
            }
            if let m = los.minimumClearance {
                verdict += "\n              minimum clearance \(height(m.clearanceMetres)) at \(units.format(p.distancesMetres[m.index]))"
            }
            if los.unknownSamples > 0 { verdict += "\n              \(NumberFormatting.count(los.unknownSamples, "sample")) in gaps could hide an obstruction" }
            lines.append(verdict)
        } else {
            lines.append("Line of sight UNKNOWN: an end of the path has no data (\(eyes))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func statisticsJSON(_ r: TerrainProfile) -> JSON {
        let s = r.statistics
        let p = r.profile
        var members: [(String, JSON)] = [
            ("samples", .number(Double(p.count))), ("valid_samples", .number(Double(s.validCount))),
            ("step_m", .number(r.stepMetres, decimals: 6)),
        ]
        for (name, extreme) in [("min", s.minimum), ("max", s.maximum)] {
            let e: ProfileStatistics.Extreme? = extreme
            let elevation: JSON = e.map { JSON.number($0.elevationMetres, decimals: 6) } ?? JSON.null
            let distance: JSON = e.map { JSON.number(p.distancesMetres[$0.index], decimals: 6) } ?? JSON.null
            var position = JSON.null
            if let e {
                position = JSON.object([
                    ("lon", JSON.number(p.longitudes[e.index], decimals: 9)),
                    ("lat", JSON.number(p.latitudes[e.index], decimals: 9)),
                ])
            }
            members.append((name + "_elevation_m", elevation))
            members.append((name + "_distance_m", distance))
            members.append((name + "_position", position))
        }
        let rest: [(String, Double)] = [
            ("avg_elevation_m", s.averageElevationMetres), ("elevation_gain_m", s.elevationGainMetres),
            ("elevation_loss_m", s.elevationLossMetres), ("max_positive_slope_pct", s.maxPositiveSlopePercent),
            ("max_negative_slope_pct", s.maxNegativeSlopePercent), ("avg_positive_slope_pct", s.averagePositiveSlopePercent),
            ("avg_negative_slope_pct", s.averageNegativeSlopePercent), ("horizontal_length_m", s.horizontalLengthMetres),
            ("horizontal_length_with_data_m", s.horizontalLengthWithDataMetres),
            ("surface_length_with_data_m", s.surfaceLengthWithDataMetres),
        ]
        for (name, value) in rest { members.append((name, JSON.number(value, decimals: 6))) }
        members.append(("gap_count", JSON.number(Double(s.gapCount))))
        members.append(("gap_length_m", JSON.number(s.gapLengthMetres, decimals: 6)))
        members.append(("segment_break_count", JSON.number(Double(s.segmentBreakCount))))
        members.append(("elevation_source", .string(r.recordedElevations ? "recorded" : "dem")))
        return JSON.object(members)
    }

    /// Why the run has no line of sight at all, or nil when it has one (a verdict, or `unknown`
    /// for an end without data). `length` formats metres.
    static func lineOfSightReason(_ r: TerrainProfile, length: (Double) -> String) -> String? {
        switch r.pathShape {
        case .straight:
            return nil
        case .bends(let vertex, let offset):
            return "the path bends (vertex \(vertex + 1) lies \(length(offset)) off the geodesic from its first vertex to its last), "
                + "and a sight line is straight"
        case .turnsBack(let excess):
            return "the path turns back over its own line (it is \(length(excess)) longer than the geodesic between its ends), "
                + "and a sight line runs one way"
        case .segmented(let count):
            return "the track has \(count) separate segments, and a sight line is one straight line"
        }
    }

    static func lineOfSightJSON(_ r: TerrainProfile) -> JSON {
        let p = r.profile
        func point(_ q: LineOfSight.Point?) -> JSON {
            guard let q else { return .null }
            return .object([
                ("distance_m", .number(p.distancesMetres[q.index], decimals: 6)),
                ("lon", .number(p.longitudes[q.index], decimals: 9)), ("lat", .number(p.latitudes[q.index], decimals: 9)),
                ("terrain_m", .number(q.terrainMetres, decimals: 6)), ("sight_line_m", .number(q.sightLineMetres, decimals: 6)),
                ("clearance_m", .number(q.clearanceMetres, decimals: 6)),
            ])
        }
        let los = r.lineOfSight
        return .object([
            ("verdict", .string(los?.verdict.rawValue ?? LineOfSight.Verdict.unknown.rawValue)),
            ("visible", los?.verdict == .visible ? .bool(true) : (los?.verdict == .obstructed ? .bool(false) : .null)),
            ("observer_height_m", .number(r.observerHeightMetres, decimals: 6)),
            ("target_height_m", .number(r.targetHeightMetres, decimals: 6)),
            ("curvature_coefficient", .number(r.curvature)),
            ("earth_radius_m", .number(LineOfSight.earthRadiusMetres)),
            ("observer_m", .number(los?.observerMetres, decimals: 6)), ("target_m", .number(los?.targetMetres, decimals: 6)),
            ("first_obstruction", point(los?.firstObstruction)),
            ("min_clearance", point(los?.minimumClearance)),
            ("unknown_samples", .number(Double(los?.unknownSamples ?? 0))),
        ])
    }

    /// Streams the samples (a million lines do not go through a JSON tree), then the rest.
    static func writeJSON(_ r: TerrainProfile, to out: OutputTarget, threads: Int = 1) {
        let p = r.profile
        out.write("{\n  \"dem\": ")
        var dem = ""
        JSON.writeString(r.dem, to: &dem)
        out.write(dem + ",\n  \"samples\": [")
        writeSamples(p, threads: threads, to: out) { i, chunk in
            chunk.append(i == 0 ? "\n    {\"distance_m\": " : ",\n    {\"distance_m\": ")
            chunk.appendRounded(p.distancesMetres[i], decimals: 6)
            chunk.append(", \"lon\": ")
            appendJSONNumber(p.longitudes[i], 9, to: &chunk)
            chunk.append(", \"lat\": ")
            appendJSONNumber(p.latitudes[i], 9, to: &chunk)
            chunk.append(", \"elevation_m\": ")
            if p.elevationsMetres[i].isNaN { chunk.append("null") } else { chunk.appendRounded(p.elevationsMetres[i], decimals: 6) }
            chunk.append(UInt8(ascii: "}"))
        }
        out.write("\n  ],\n  \"stats\": ")
        out.write(indented(statisticsJSON(r).serialized()) + ",\n  \"line_of_sight\": ")
        // No line of sight over a path that is not one geodesic: null, and the reason beside it.
        let reason = lineOfSightReason(r) { Fixed.format($0, decimals: 3) + " m" }
        out.write(reason == nil ? indented(lineOfSightJSON(r).serialized()) : "null")
        out.write(",\n  \"line_of_sight_reason\": " + (reason.map { JSON.string($0) } ?? .null).serialized() + "\n}\n")
    }

    /// A number for JSON, or `null` where it is not finite (the break between track segments).
    static func jsonNumber(_ v: Double, _ decimals: Int) -> String { v.isFinite ? Fixed.format(v, decimals: decimals) : "null" }

    /// ``jsonNumber(_:_:)`` as bytes.
    static func appendJSONNumber(_ v: Double, _ decimals: Int, to out: inout OutputBytes) {
        if v.isFinite { out.appendRounded(v, decimals: decimals) } else { out.append("null") }
    }

    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset == 0 ? String($0.element) : "  " + $0.element }.joined(separator: "\n")
    }

    static func writeCSV(_ r: TerrainProfile, to out: OutputTarget, threads: Int = 1) {
        let p = r.profile
        out.write("distance_m,lon,lat,elevation_m\n")
        writeSamples(p, threads: threads, to: out) { i, chunk in
            chunk.appendRounded(p.distancesMetres[i], decimals: 6)
            chunk.append(UInt8(ascii: ","))
            chunk.appendRounded(p.longitudes[i], decimals: 9)
            chunk.append(UInt8(ascii: ","))
            chunk.appendRounded(p.latitudes[i], decimals: 9)
            chunk.append(UInt8(ascii: ","))
            chunk.appendRounded(p.elevationsMetres[i], decimals: 6)
            chunk.append(UInt8(ascii: "\n"))
        }
    }

    /// Samples per chunk of bytes: a fixed size, so the chunks are the same for any thread count.
    static let samplesPerChunk = 16_384

    /// Writes each sample's bytes (`sample(i, &bytes)`), formatted in chunks of
    /// ``samplesPerChunk`` samples on `threads` workers and written in order, in large writes.
    static func writeSamples(
        _ p: Profile, threads: Int, to out: OutputTarget, sample: @escaping @Sendable (Int, inout OutputBytes) -> Void
    ) {
        let chunks = (p.count + samplesPerChunk - 1) / samplesPerChunk
        var next = 0
        // A chunk's buffer goes back to the pool once written, so a million samples reuse the
        // few buffers in flight instead of faulting in a fresh megabyte per chunk.
        let workers = min(threads, max(chunks, 1))
        let pool = OrderedWorkers.Recycler<OutputBytes>(capacity: (OrderedWorkers.batchesPerWorker + 1) * workers)
        // Nothing here throws: the workers only format.
        try? OrderedWorkers.run(
            threads: workers, first: (), make: {},
            read: { () -> Range<Int>? in
                guard next < chunks else { return nil }
                defer { next += 1 }
                return (next * samplesPerChunk)..<min((next + 1) * samplesPerChunk, p.count)
            },
            work: { _, range in
                var bytes = pool.take() ?? OutputBytes(capacity: range.count * 64)
                bytes.removeAll()
                for i in range { sample(i, &bytes) }
                return bytes
            },
            emit: {
                out.write($0)
                pool.put($0)
            })
    }

    /// How a chart is drawn: its pixels, format, resolution (nil: 96) and text scale.
    struct ChartFigure {
        var size = FigureSize(width: 1200, height: 600)
        var format = FigureFormat.png
        var dpi: Double?
        var fontScale = 1.0
    }

    /// Draws the profile chart: its subtitle names the measurement between the ends, or
    /// `alongTrack`, the track's length, gain and loss (the straight line from a track's first
    /// fix to its last says nothing of the trail).
    static func writeChart(
        _ r: TerrainProfile, path: String, figure: ChartFigure, title: String?, units: UnitSystem, alongTrack: Bool = false,
        transaction: OutputTransaction, layoutPath: String? = nil, console: Console? = nil,
        encoding: PNGFile.Encoding = PNGFile.Encoding()
    ) throws {
        let p = r.profile
        var label: String? = nil
        if alongTrack {
            let s = r.statistics
            let h = units.heightUnit
            func height(_ m: Double, plusSign: Bool = false) -> String {
                NumberFormatting.grouped(h.convert(metres: m), plusSign: plusSign) + " " + h.rawValue
            }
            label =
                "Length: \(units.format(s.horizontalLengthMetres)) | Gain: \(height(s.elevationGainMetres, plusSign: true)) | Loss: \(height(-s.elevationLossMetres))"
            if s.segmentBreakCount > 0 { label! += " | \(NumberFormatting.count(s.segmentBreakCount + 1, "segment"))" }
        } else if let z0 = p.elevationsMetres.first, let z1 = p.elevationsMetres.last, !z0.isNaN, !z1.isNaN, p.count > 1 {
            let m = Measurement(
                start: GeoPoint(longitude: p.longitudes[0], latitude: p.latitudes[0], heightMetres: z0),
                end: GeoPoint(longitude: p.longitudes[p.count - 1], latitude: p.latitudes[p.count - 1], heightMetres: z1))
            label = m.label(units: units)
        }
        let chart = ProfileChart(
            profile: p, statistics: r.statistics, lineOfSight: r.lineOfSight,
            title: title ?? "Elevation profile", subtitle: label, units: units,
            width: figure.size.width, height: figure.size.height)
        var drawn = chart
        drawn.dpi = figure.dpi ?? 96
        drawn.fontScale = figure.fontScale
        let image = try drawn.render(document: FigureOutput.document(figure.format, dpi: drawn.dpi, size: figure.size))
        try transaction.writeFigure(
            image, to: path, format: figure.format,
            texts: [
                ("Software", "transect \(Help.version)"), ("Source", r.dem),
                ("Title", title ?? "Elevation profile"),
            ], dpi: drawn.dpi, encoding: encoding)
        for note in image.notes { console?.err(note + "\n") }
        if let layoutPath { try transaction.write(image.layout.json.serialized() + "\n", to: layoutPath) }
    }
}
