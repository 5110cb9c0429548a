import TransectAnalysis
import TransectCLIMeasure
import TransectFormats
import TransectGDAL
import TransectSupport

/// `transect track`: location history read, cleaned, densified, simulated and summarised.
enum TrackCommand {
    /// Reads the command line (``TrackRequest``), loads the track (``TrackFile/load(path:note:)``)
    /// and the DEM, then makes the track asked for (cleaned, densified to `--max-segment`, or
    /// simulated; ``TrackTerrain/simulation(of:_:)``) and its statistics
    /// (``TrackTerrain/summary(of:_:)``), and writes each where ``TrackRequest`` says: both
    /// files land, or neither.
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        let request = try TrackRequest(args)
        var files = RunFiles()
        files.input("--in", request.input)
        if case .file(let path) = request.track?.destination { files.output("-o", path) }
        if case .file(let path) = request.statistics?.destination { files.output("--stats-out", path) }
        // The outputs are checked against the track before it is read (a DEM joins below).
        try files.check(command: "track")
        let loaded = try TrackInput.load(request.input, console: console)
        let model = request.elevationsFromDEM ? try request.terrain.openDEM(console: console) : nil
        files.inputs(dem: model, terrain: request.terrain)
        try files.check(command: "track")
        let source = request.input == "-" ? "stdin" : request.input
        let terrain = TrackTerrain(source: source, model: model, interpolation: request.terrain.interpolation)
        let name = loaded.track.name

        // The track written: simulated fixes, or the track densified and with the DEM's elevations.
        var written: WrittenTrack?
        if let simulation = request.simulation {
            let simulated = try limited { try terrain.simulation(of: loaded.track, simulation) }
            for note in simulated.notes { console.err(note + "\n") }
            let count = simulated.segments.reduce(0) { $0 + $1.count }
            var note = "note: simulated \(NumberFormatting.count(count, "fix", plural: "fixes")) from \(Timestamp.iso8601(simulation.startTime))"
            if simulated.segments.count > 1 {
                note +=
                    " in \(NumberFormatting.count(simulated.segments.count, "segment")); the clock pauses between segments (each starts 1 s after the one before ends)"
            }
            console.err(note + "\n")
            written = .fixes(simulated.segments, name: name ?? "simulated location history")
        } else if request.track != nil {
            var track = loaded.track
            if let m = request.maxSegmentMetres { track = try TrackInput.densified(track, maxSegment: m, command: "track") }
            if model != nil {
                let sampled = try terrain.elevations(for: track)
                for note in sampled.notes { console.err(note + "\n") }
                track = sampled.elevations.applied(to: track)
            }
            written = .track(track)
        }

        let transaction = OutputTransaction()
        if let (destination, format) = request.track, let written {
            try write(written, format: format, to: destination, transaction: transaction, console: console)
        }
        if let (destination, json) = request.statistics {
            // The statistics of what was asked: of the simulated fixes when simulating (their
            // own elevations and times), else of the track as the summary request says.
            let summary: TrackSummary
            let dropped: [DropReason: Int]
            if case .fixes(let segments, _) = written {
                let simulatedTrack = Track(name: name, segments: segments.map { $0.map(\.trackPoint) })
                let plain = TrackSummaryRequest(gainThresholdMetres: request.summary.gainThresholdMetres, method: request.summary.method)
                summary = try TrackTerrain(source: source, model: nil).summary(of: simulatedTrack, plain)
                dropped = [:]
            } else {
                summary = try limited { try terrain.summary(of: loaded.track, request.summary) }
                for note in summary.notes { console.err(note + "\n") }
                dropped = loaded.dropped
            }
            let output = try OutputTarget(path: destination.path, console: console, transaction: transaction)
            if json {
                output.write(
                    statisticsJSON(
                        summary.statistics, figures: summary.figures, name: name, dropped: dropped,
                        elevations: summary.elevations, demRequested: summary.dem != nil, threshold: request.summary.gainThresholdMetres
                    ).serialized() + "\n")
            } else {
                output.write(
                    statisticsText(
                        summary.statistics, figures: summary.figures, name: name ?? source, units: request.units,
                        elevations: summary.elevations, demRequested: summary.dem != nil))
            }
            try output.commit()
        }
        try transaction.commit()
        return 0
    }

    /// What `track` writes as a track: simulated fixes (with course and speed) or a track.
    enum WrittenTrack {
        case fixes([[Fix]], name: String)
        case track(Track)
    }

    /// Writes `written` in `format` to `destination`, joining `transaction`.
    static func write(
        _ written: WrittenTrack, format: TrackOutputFormat, to destination: TrackRequest.Destination, transaction: OutputTransaction,
        console: Console
    ) throws(CLIError) {
        if let text = format.text {
            let output = try OutputTarget(path: destination.path, console: console, transaction: transaction)
            switch written {
            case .fixes(let segments, let name): output.write(TrackWriter.write(segments, name: name, format: text))
            case .track(let track): output.write(TrackWriter.write(track, format: text))
            }
            try output.commit()
            return
        }
        guard let path = destination.path else { preconditionFailure("TrackRequest refuses gpkg on stdout") }
        let layers = try LayerOutput(path: path, format: .gpkg, transaction: transaction)
        switch written {
        case .fixes(let segments, let name): try TrackLayers.write(segments, name: name, to: layers)
        case .track(let track): try TrackLayers.write(track.segments, name: track.name, to: layers)
        }
        try layers.finish()
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
