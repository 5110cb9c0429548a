import TransectCore
import TransectFormats
import TransectGDAL

/// `transect track`: location history read, cleaned, densified, simulated and summarised.
enum TrackCommand {
    /// Loads the track (``TrackFile/load(path:note:)``), then either simulates fixes along it
    /// (``LocationSimulator``) or summarises it (``TrackStatistics``), and writes the result.
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        try args.expectNoPositionals()
        guard let input = try args.value(TrackOptions.input) else {
            throw CLIError.usage("missing --in FILE (GPX, GeoJSON, Esri JSON or CSV)", command: "track")
        }
        let terrain = try TerrainOptions(args)
        let units = try args.value(TrackOptions.units)
        let maxSegment = try args.value(TrackOptions.maxSegment)
        let speed = try args.value(TrackOptions.speed)
        let start = try args.value(TrackOptions.startTime)
        let gainThreshold = try args.value(TrackOptions.gainThreshold)
        let elevationSource = try args.value(TrackOptions.elevation) ?? (terrain.demSpecs.isEmpty ? "recorded" : "dem")

        let loaded = try TrackInput.load(input, console: console)
        var track = loaded.track
        let model = elevationSource == "dem" ? try terrain.openDEM(console: console) : nil
        var files = RunFiles()
        files.input("--in", input)
        files.inputs(dem: model, terrain: terrain)
        let out = try args.value(CommonOptions.out)
        files.output("-o", out)
        try files.check(command: "track")
        let output = try OutputTarget(path: out, console: console)

        if try args.value(TrackOptions.simulate) {
            // The sample densifies to 50 m and emits one fix per vertex; at a speed, fixes are
            // spaced along the line instead.
            let recorded = track
            track = try TrackInput.densified(track, maxSegment: maxSegment ?? 50, command: "track")
            if let speed {
                // One fix per second of travel: the length over the speed (the track's own
                // geodesic length, which densifying does not change).
                let fixes = recorded.lengthMetres() / speed + Double(recorded.segments.count)
                guard fixes <= Track.maxPoints else {
                    throw CLIError.usage(
                        "option '--speed': \(JSON.format(speed)) m/s would make \(fixes < 1e15 ? NumberFormatting.grouped(fixes.rounded(.up), decimals: 0) : JSON.format(fixes)) fixes, more than \(NumberFormatting.grouped(Track.maxPoints, decimals: 0)); use a higher speed",
                        command: "track")
                }
            }
            if let model {
                track = try elevations(for: track, input: input, model: model, interpolation: terrain.interpolation, console: console)
                    .applied(to: track)
            }
            let fixes =
                speed.map { LocationSimulator.fixesAtSpeed(track, speed: $0, startTime: start) }
                ?? LocationSimulator.fixesPerVertex(track, startTime: start)
            let formatName = try args.value(TrackOptions.format) ?? out.flatMap { TrackWriter.Format(path: $0)?.rawValue } ?? "csv"
            guard let format = TrackWriter.Format(rawValue: formatName) else {
                throw CLIError.usage("option '--format': '\(formatName)' is not gpx, geojson or csv for --simulate", command: "track")
            }
            output.write(TrackWriter.write(fixes, name: track.name ?? "simulated location history", format: format))
            try output.commit()
            console.err("note: simulated \(NumberFormatting.count(fixes.count, "fix", plural: "fixes")) from \(Timestamp.iso8601(start))\n")
            return 0
        }

        let fileFixes = track.pointCount
        if let maxSegment {
            // Denser elevations for the 3D length and the climb; times stay the recorded ones.
            track = try TrackInput.densified(track, maxSegment: maxSegment, interpolatingTimes: false, command: "track")
        }
        let elevations = try elevations(for: track, input: input, model: model, interpolation: terrain.interpolation, console: console)
        var stats = TrackStatistics(track: track, elevations: elevations.values, gainThresholdMetres: gainThreshold)
        // Points inserted by --max-segment carry no time: the time counts are the file's fixes'.
        stats.times.missing -= track.pointCount - fileFixes
        // Said when some fixes carry times but not all of them are usable; a track without any
        // times simply has an unknown duration.
        if stats.times.usable < fileFixes && stats.times.usable > 0 {
            console.err("note: '\(input)': \(timesText(stats.times)); durations and speeds use those times only\n")
        }
        let format = try args.value(TrackOptions.format) ?? "text"
        switch format {
        case "json":
            output.write(
                statisticsJSON(
                    stats, dropped: loaded.dropped, elevations: elevations, demRequested: model != nil,
                    threshold: gainThreshold
                ).serialized() + "\n")
        case "text":
            output.write(statisticsText(stats, name: track.name ?? input, units: units, elevations: elevations, demRequested: model != nil))
        default:
            throw CLIError.usage("option '--format': '\(format)' is not text or json for statistics", command: "track")
        }
        try output.commit()
        return 0
    }

    /// One elevation per fix: the DEM's where `model` is given, with the recorded elevation
    /// wherever the DEM has none (said on stderr); the recorded ones otherwise. Fixes left
    /// without any are said on stderr too, and a DEM that gives no fix an elevation, on a track
    /// that records none, is an error naming the DEM: never a silent zero.
    static func elevations(
        for track: Track, input: String, model: ElevationModel?, interpolation: Interpolation,
        console: Console
    ) throws -> TrackElevations {
        let n = track.pointCount
        func count(_ k: Int) -> String { "\(NumberFormatting.grouped(Double(k), decimals: 0)) of \(NumberFormatting.grouped(Double(n), decimals: 0)) fixes" }
        guard let model else {
            let recorded = TrackElevations(recordedIn: track)
            if recorded.recorded == 0 {
                console.err("note: '\(input)': the track records no elevations; gain, loss and elevations are unknown (use --dem)\n")
            } else if recorded.missing > 0 {
                console.err("note: '\(input)': \(count(recorded.missing)) record no elevation; gain and loss skip them\n")
            }
            return recorded
        }
        let z = try model.elevations(at: track.points.map(\.point), interpolation: interpolation)
        let merged = TrackElevations(sampled: z, track: track)
        if merged.fromDEM == 0 && merged.recorded == 0 {
            throw CLIError.badInput("'\(input)': no fix lies on data in the DEM '\(model.label)' and the track records no elevations")
        }
        if merged.recorded > 0 {
            console.err(
                "note: '\(input)': \(count(merged.recorded)) lie outside the DEM '\(model.label)' or on its no data; their recorded elevations are used\n")
        }
        if merged.missing > 0 {
            console.err(
                "note: '\(input)': \(count(merged.missing)) lie outside the DEM '\(model.label)' or on its no data and record no elevation; gain and loss skip them\n"
            )
        }
        return merged
    }

    /// "97 of 1,852 fixes have usable times (1,755 repeat the time before)".
    /// How many of the file's fixes have usable times, and why the others have not.
    static func timesText(_ t: TimeCounts) -> String {
        let points = t.usable + t.repeated + t.backwards + t.missing
        func g(_ k: Int) -> String { NumberFormatting.grouped(Double(k), decimals: 0) }
        var why: [String] = []
        if t.repeated > 0 { why.append("\(g(t.repeated)) repeat\(t.repeated == 1 ? "s" : "") an earlier time") }
        if t.backwards > 0 { why.append("\(g(t.backwards)) go\(t.backwards == 1 ? "es" : "") back in time") }
        if t.missing > 0 { why.append("\(g(t.missing)) ha\(t.missing == 1 ? "s" : "ve") none") }
        return
            "\(g(t.usable)) of \(g(points)) \(NumberFormatting.noun("fix", count: points, plural: "fixes")) \(t.usable == 1 ? "has a usable time" : "have usable times")"
            + (why.isEmpty ? "" : " (" + why.joined(separator: ", ") + ")")
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
        func duration(_ s: Double?) -> String {
            guard let s else { return "unknown" }
            let t = Int(s.rounded())
            return "\(t / 3600)h \(String(format2: (t % 3600) / 60))m \(String(format2: t % 60))s"
        }
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
        lines.append("Times         \(timesText(s.times))")
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

extension String {
    /// Two digits with a leading zero.
    init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }
}
