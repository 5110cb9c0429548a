import TransectAnalysis
import TransectFormats
import TransectGDAL
import TransectSupport

/// `transect track`: location history read, cleaned, densified, simulated and summarised.
enum TrackCommand {
    /// Reads the command line (``TrackRequest``), loads the track (``TrackFile/load(path:note:)``)
    /// and the DEM, then either simulates fixes along the track
    /// (``TrackTerrain/simulation(of:_:)``) or summarises it (``TrackTerrain/summary(of:_:)``),
    /// and writes the result.
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        let request = try TrackRequest(args)
        let loaded = try TrackInput.load(request.input, console: console)
        let model = request.elevationsFromDEM ? try request.terrain.openDEM(console: console) : nil
        var files = RunFiles()
        files.input("--in", request.input)
        files.inputs(dem: model, terrain: request.terrain)
        files.output("-o", request.out)
        try files.check(command: "track")
        let output = try OutputTarget(path: request.out, console: console)
        let terrain = TrackTerrain(source: request.input, model: model, interpolation: request.terrain.interpolation)

        switch request.work {
        case .simulation(let simulation, let format):
            let simulated = try limited { try terrain.simulation(of: loaded.track, simulation) }
            for note in simulated.notes { console.err(note + "\n") }
            output.write(TrackWriter.write(simulated.fixes, name: loaded.track.name ?? "simulated location history", format: format))
            try output.commit()
            console.err(
                "note: simulated \(NumberFormatting.count(simulated.fixes.count, "fix", plural: "fixes")) from \(Timestamp.iso8601(simulation.startTime))\n")
        case .statistics(let summaryRequest, let json):
            let summary = try limited { try terrain.summary(of: loaded.track, summaryRequest) }
            for note in summary.notes { console.err(note + "\n") }
            if json {
                output.write(
                    statisticsJSON(
                        summary.statistics, dropped: loaded.dropped, elevations: summary.elevations, demRequested: summary.dem != nil,
                        threshold: summaryRequest.gainThresholdMetres
                    ).serialized() + "\n")
            } else {
                output.write(
                    statisticsText(
                        summary.statistics, name: loaded.track.name ?? request.input, units: request.units, elevations: summary.elevations,
                        demRequested: summary.dem != nil))
            }
            try output.commit()
        }
        return 0
    }

    /// `work`, with a request past a track limit refused as a usage error of the option that
    /// asked for it.
    static func limited<Result>(_ work: () throws -> Result) throws -> Result {
        do { return try work() } catch let error as TrackLimitError { throw TrackInput.usage(error, command: "track") }
    }

    /// The statistics as one JSON object. `dropped` counts fixes removed for their position;
    /// `times` counts how fixes' times took part (usable + repeated + backwards + missing =
    /// points) and the time steps made from them; `elevations` counts where each fix's
    /// elevation came from (dem + recorded + none = points). Speeds are in m/s: `max_speed_mps`
    /// is the robust maximum, `max_speed_raw_mps` the fastest single time step.
    static func statisticsJSON(
        _ s: TrackStatistics, dropped: [DropReason: Int], elevations: TrackElevations, demRequested: Bool,
        threshold: Double
    ) -> JSON {
        let known = s.minElevationMetres != nil
        return .object([
            ("points", .number(Double(s.points))), ("segments", .number(Double(s.segments))),
            ("dropped", .object(DropReason.allCases.map { ($0.rawValue, .number(Double(dropped[$0] ?? 0))) })),
            (
                "times",
                .object([
                    ("usable", .number(Double(s.times.usable))), ("repeated", .number(Double(s.times.repeated))),
                    ("backwards", .number(Double(s.times.backwards))), ("missing", .number(Double(s.times.missing))),
                    ("steps", .number(Double(s.timeSteps))),
                ])
            ),
            ("length_2d_m", .number(s.length2DMetres, decimals: 6)), ("length_3d_m", .number(s.length3DMetres, decimals: 6)),
            ("elevation_source", .string(elevations.sourceLabel(demRequested: demRequested))),
            (
                "elevations",
                .object([
                    ("dem", .number(Double(elevations.fromDEM))), ("recorded", .number(Double(elevations.recorded))),
                    ("none", .number(Double(elevations.missing))),
                ])
            ),
            ("gain_threshold_m", .number(threshold)),
            ("elevation_gain_m", .number(known ? s.elevationGainMetres : nil, decimals: 6)),
            ("elevation_loss_m", .number(known ? s.elevationLossMetres : nil, decimals: 6)),
            ("min_elevation_m", .number(s.minElevationMetres, decimals: 6)), ("max_elevation_m", .number(s.maxElevationMetres, decimals: 6)),
            ("duration_s", .number(s.durationSeconds, decimals: 3)), ("moving_time_s", .number(s.movingTimeSeconds, decimals: 3)),
            ("avg_speed_mps", .number(s.averageSpeedMetresPerSecond, decimals: 6)), ("max_speed_mps", .number(s.maxSpeedMetresPerSecond, decimals: 6)),
            ("max_speed_raw_mps", .number(s.maxSpeedRawMetresPerSecond, decimals: 6)),
            (
                "bbox",
                s.boundingBox.map { b in
                    .array([.number(b.west, decimals: 9), .number(b.south, decimals: 9), .number(b.east, decimals: 9), .number(b.north, decimals: 9)])
                } ?? .null
            ),
        ])
    }

    static func statisticsText(
        _ s: TrackStatistics, name: String, units: UnitSystem, elevations: TrackElevations,
        demRequested: Bool
    ) -> String {
        let h = units.heightUnit
        func height(_ m: Double?, plusSign: Bool = false) -> String {
            m.map { NumberFormatting.grouped(h.convert(metres: $0), plusSign: plusSign) + " " + h.rawValue } ?? "unknown"
        }
        func duration(_ s: Double?) -> String { s.map(NumberFormatting.hoursMinutesSeconds) ?? "unknown" }
        func speed(_ v: Double?) -> String { v.map { units.speedUnit.format($0) } ?? "unknown" }
        func g(_ k: Int) -> String { NumberFormatting.grouped(Double(k), decimals: 0) }
        let known = s.minElevationMetres != nil
        var source = elevations.sourceLabel(demRequested: demRequested) + " elevations"
        if elevations.recorded > 0 && demRequested || elevations.missing > 0 {
            var parts: [String] = []
            if demRequested { parts.append("\(g(elevations.fromDEM)) from the DEM") }
            if elevations.recorded > 0 { parts.append("\(g(elevations.recorded)) recorded") }
            if elevations.missing > 0 { parts.append("\(g(elevations.missing)) unknown") }
            source += ": " + parts.joined(separator: ", ")
        }
        var lines = ["Track         \(name)"]
        lines.append("Points        \(s.points) in \(NumberFormatting.count(s.segments, "segment"))")
        lines.append("Length        \(units.format(s.length2DMetres)) (2D), \(units.format(s.length3DMetres)) (3D)")
        lines.append(
            "Gain / loss   \(known ? height(s.elevationGainMetres, plusSign: true) : "unknown") / \(known ? height(-s.elevationLossMetres) : "unknown") (\(source))"
        )
        lines.append("Elevation     \(height(s.minElevationMetres)) … \(height(s.maxElevationMetres))")
        lines.append("Times         \(s.times.text)")
        lines.append("Duration      \(duration(s.durationSeconds)), moving \(duration(s.movingTimeSeconds))")
        lines.append(
            "Speed         avg \(speed(s.averageSpeedMetresPerSecond)) moving, max \(speed(s.maxSpeedMetresPerSecond))"
                + (s.maxSpeedRawMetresPerSecond.map { " (raw \(speed($0)))" } ?? ""))
        if let b = s.boundingBox {
            lines.append(
                "Bounds        lon \(Fixed.format(b.west, decimals: 6)) … \(Fixed.format(b.east, decimals: 6)), lat \(Fixed.format(b.south, decimals: 6)) … \(Fixed.format(b.north, decimals: 6))"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
