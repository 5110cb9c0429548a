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
                        summary.statistics, figures: summary.figures, name: loaded.track.name, dropped: loaded.dropped,
                        elevations: summary.elevations, demRequested: summary.dem != nil, threshold: summaryRequest.gainThresholdMetres
                    ).serialized() + "\n")
            } else {
                output.write(
                    statisticsText(
                        summary.statistics, figures: summary.figures, name: loaded.track.name ?? request.input, units: request.units,
                        elevations: summary.elevations, demRequested: summary.dem != nil))
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

    /// The statistics as one JSON object, every figure's unit at the end of its key (`_m`,
    /// `_s`, `_mps`, `_deg`). `name` is the track's (null when the file names none), `method`
    /// whose rules the figures follow (`figures`). `dropped` counts fixes removed for their
    /// position; `times` counts how fixes' times took part (usable + repeated + backwards +
    /// missing = points) and the time steps made from them; `elevations` counts where each
    /// fix's elevation came from (dem + recorded + none = points). A figure the method does
    /// not define is null (gpx-studio's `length_3d_m` and `stopped_time_s`); so are the
    /// default method's own parameters and raw maximum under another method (`gain_threshold_m`,
    /// `max_speed_window_s`, `max_speed_window_m`, `max_speed_raw_mps`). `elapsed_s` is the
    /// clock time from the first usable time to the last, pauses between segments included.
    static func statisticsJSON(
        _ s: TrackStatistics, figures f: TrackFigures, name: String?, dropped: [DropReason: Int], elevations: TrackElevations,
        demRequested: Bool, threshold: Double
    ) -> JSON {
        let own = f.method == .transect
        return .object([
            ("name", name.map(JSON.string) ?? .null), ("method", .string(f.method.rawValue)),
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
            ("length_2d_m", .number(f.length2DMetres, decimals: 6)), ("length_3d_m", .number(f.length3DMetres, decimals: 6)),
            ("elevation_source", .string(elevations.sourceLabel(demRequested: demRequested))),
            (
                "elevations",
                .object([
                    ("dem", .number(Double(elevations.fromDEM))), ("recorded", .number(Double(elevations.recorded))),
                    ("none", .number(Double(elevations.missing))),
                ])
            ),
            ("gain_threshold_m", .number(own ? threshold : nil, decimals: 6)),
            ("elevation_gain_m", .number(f.elevationGainMetres, decimals: 6)), ("elevation_loss_m", .number(f.elevationLossMetres, decimals: 6)),
            ("min_elevation_m", .number(s.minElevationMetres, decimals: 6)), ("max_elevation_m", .number(s.maxElevationMetres, decimals: 6)),
            ("duration_s", .number(f.durationSeconds, decimals: 6)), ("elapsed_s", .number(s.elapsedSeconds, decimals: 6)),
            ("moving_time_s", .number(f.movingTimeSeconds, decimals: 6)), ("stopped_time_s", .number(f.stoppedTimeSeconds, decimals: 6)),
            ("avg_speed_mps", .number(f.averageSpeedMetresPerSecond, decimals: 9)), ("max_speed_mps", .number(f.maxSpeedMetresPerSecond, decimals: 9)),
            ("max_speed_window_s", .number(own ? TrackStatistics.maxSpeedWindowSeconds : nil, decimals: 6)),
            ("max_speed_window_m", .number(own ? TrackStatistics.maxSpeedWindowMetres : nil, decimals: 6)),
            ("max_speed_raw_mps", .number(own ? s.maxSpeedRawMetresPerSecond : nil, decimals: 9)),
            (
                "bbox_deg",
                s.boundingBox.map { b in
                    .array([.number(b.west, decimals: 9), .number(b.south, decimals: 9), .number(b.east, decimals: 9), .number(b.north, decimals: 9)])
                } ?? .null
            ),
        ])
    }

    /// The statistics as the text summary: `s` for what the data holds (points, elevations,
    /// times, bounds), `f` for the figures by its method.
    static func statisticsText(
        _ s: TrackStatistics, figures f: TrackFigures, name: String, units: UnitSystem, elevations: TrackElevations,
        demRequested: Bool
    ) -> String {
        let h = units.heightUnit
        func height(_ m: Double?, plusSign: Bool = false) -> String {
            m.map { NumberFormatting.grouped(h.convert(metres: $0), plusSign: plusSign) + " " + h.rawValue } ?? "unknown"
        }
        func duration(_ s: Double?) -> String { s.map(NumberFormatting.hoursMinutesSeconds) ?? "unknown" }
        func speed(_ v: Double?) -> String { v.map { units.speedUnit.format($0) } ?? "unknown" }
        func g(_ k: Int) -> String { NumberFormatting.grouped(Double(k), decimals: 0) }
        var source = elevations.sourceLabel(demRequested: demRequested) + " elevations"
        if elevations.recorded > 0 && demRequested || elevations.missing > 0 {
            var parts: [String] = []
            if demRequested { parts.append("\(g(elevations.fromDEM)) from the DEM") }
            if elevations.recorded > 0 { parts.append("\(g(elevations.recorded)) recorded") }
            if elevations.missing > 0 { parts.append("\(g(elevations.missing)) unknown") }
            source += ": " + parts.joined(separator: ", ")
        }
        var lines = ["Track         \(name)"]
        lines.append("Method        \(f.method.rawValue)")
        lines.append("Points        \(s.points) in \(NumberFormatting.count(s.segments, "segment"))")
        lines.append("Length        \(units.format(f.length2DMetres)) (2D)" + (f.length3DMetres.map { ", \(units.format($0)) (3D)" } ?? ""))
        lines.append(
            "Gain / loss   \(height(f.elevationGainMetres, plusSign: true)) / \(height(f.elevationLossMetres.map { -$0 })) (\(source))")
        lines.append("Elevation     \(height(s.minElevationMetres)) … \(height(s.maxElevationMetres))")
        lines.append("Times         \(s.times.text)")
        var time = "Duration      \(duration(f.durationSeconds))"
        if let elapsed = s.elapsedSeconds, let d = f.durationSeconds, elapsed != d {
            time += " (\(duration(elapsed)) from the first fix to the last)"
        }
        time += ", moving \(duration(f.movingTimeSeconds))" + (f.stoppedTimeSeconds.map { ", stopped \(duration($0))" } ?? "")
        lines.append(time)
        var top = "Speed         avg \(speed(f.averageSpeedMetresPerSecond)) moving, max \(speed(f.maxSpeedMetresPerSecond))"
        if f.method == .transect {
            if f.maxSpeedMetresPerSecond != nil {
                top +=
                    " over \(NumberFormatting.shortest(TrackStatistics.maxSpeedWindowSeconds)) s and \(NumberFormatting.shortest(TrackStatistics.maxSpeedWindowMetres)) m"
            }
            top += s.maxSpeedRawMetresPerSecond.map { " (raw \(speed($0)))" } ?? ""
        }
        lines.append(top)
        if let b = s.boundingBox {
            lines.append(
                "Bounds        lon \(Fixed.format(b.west, decimals: 6)) … \(Fixed.format(b.east, decimals: 6)), lat \(Fixed.format(b.south, decimals: 6)) … \(Fixed.format(b.north, decimals: 6))"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
