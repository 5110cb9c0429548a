import TransectCore
import TransectFormats
import TransectGDAL

/// `transect track`: location history read, cleaned, densified, simulated and summarised.
enum TrackCommand {
    static let specs: [OptionSpec] = TerrainOptions.specs + [
        OptionSpec(name: "in"), OptionSpec(name: "stats", takesValue: false), OptionSpec(name: "simulate", takesValue: false),
        OptionSpec(name: "max-segment"), OptionSpec(name: "speed"), OptionSpec(name: "start-time"),
        OptionSpec(name: "elevation"), OptionSpec(name: "gain-threshold"), OptionSpec(name: "units"),
        OptionSpec(name: "format"), OptionSpec(name: "out", short: "o"),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    /// 2000-01-01T00:00:00Z: simulated histories start here unless told otherwise, so output is
    /// deterministic.
    static let defaultStart = 946_684_800.0

    /// A track file read and cleaned, with what was dropped.
    struct Loaded {
        var track: Track
        var dropped: [DropReason: Int]
    }

    static func load(_ path: String, console: Console) throws -> Loaded {
        var track = try TrackFile.read(path: path)
        let dropped = track.clean()
        if !dropped.isEmpty {
            let text = DropReason.allCases.compactMap { r in dropped[r].map { "\($0) \(r.rawValue.replacingAll("_", with: " "))" } }.joined(separator: ", ")
            console.err("note: '\(path)': dropped \(NumberFormatting.count(dropped.values.reduce(0, +), "invalid fix", plural: "invalid fixes")) (\(text))\n")
        }
        guard track.pointCount > 0 else { throw CLIError.badInput("'\(path)': no valid fixes in the track") }
        return Loaded(track: track, dropped: dropped)
    }

    static func run(_ arguments: [String], console: Console) throws -> Int32 {
        let args = try ParsedArguments(arguments, specs: specs, command: "track")
        if args.has("help") { console.out(Help.track); return 0 }
        try args.expectNoPositionals()
        guard let input = args.value("in") else { throw CLIError.usage("missing --in FILE (GPX, GeoJSON, Esri JSON or CSV)", command: "track") }
        let terrain = try TerrainOptions(args)
        let units = try args.units()
        let maxSegment = try args.positive("max-segment", maximum: InputLimits.lengthMetres.upperBound, unit: "m")
        let speed = try args.positive("speed", maximum: InputLimits.speed.upperBound, unit: "m/s")
        var start = defaultStart
        if let text = args.value("start-time") {
            guard let t = Timestamp.parseISO8601(text) else {
                throw CLIError.usage("option '--start-time': '\(text)' is not an ISO 8601 time such as 2000-01-01T00:00:00Z", command: "track")
            }
            start = t
        }
        let gainThreshold = try args.number("gain-threshold", in: InputLimits.gainThresholdMetres, unit: " m") ?? 3
        let elevationSource = args.value("elevation") ?? (terrain.demSpecs.isEmpty ? "recorded" : "dem")
        guard ["dem", "recorded"].contains(elevationSource) else {
            throw CLIError.usage("option '--elevation': '\(elevationSource)' is not dem or recorded", command: "track")
        }

        let loaded = try load(input, console: console)
        var track = loaded.track
        let model = elevationSource == "dem" ? try terrain.openDEM(console: console) : nil
        var files = RunFiles()
        files.input("--in", input)
        files.inputs(dem: model, terrain: terrain)
        files.output("-o", args.value("out"))
        try files.check(command: "track")
        let output = try OutputTarget(path: args.value("out"), console: console)

        if args.has("simulate") {
            // The sample densifies to 50 m and emits one fix per vertex; at a speed, fixes are
            // spaced along the line instead.
            try checkDensifiedCount(track, maxSegment: maxSegment ?? 50, command: "track")
            track = track.densified(maxSegmentMetres: maxSegment ?? 50)
            if let speed {
                // One fix per second of travel: the length over the speed.
                let fixes = track.lengthMetres() / speed + Double(track.segments.count)
                guard fixes <= Track.maxPoints else {
                    throw CLIError.usage("option '--speed': \(JSON.format(speed)) m/s would make \(fixes < 1e15 ? NumberFormatting.grouped(fixes.rounded(.up), decimals: 0) : JSON.format(fixes)) fixes, more than \(NumberFormatting.grouped(Track.maxPoints, decimals: 0)); use a higher speed", command: "track")
                }
            }
            if let model { track = try withDEMElevations(track, model: model, interpolation: terrain.interpolation) }
            let fixes = speed.map { LocationSimulator.fixesAtSpeed(track, speed: $0, startTime: start) }
                ?? LocationSimulator.fixesPerVertex(track, startTime: start)
            let formatName = args.value("format") ?? args.value("out").flatMap { TrackWriter.Format(path: $0)?.rawValue } ?? "csv"
            guard let format = TrackWriter.Format(rawValue: formatName) else {
                throw CLIError.usage("option '--format': '\(formatName)' is not gpx, geojson or csv for --simulate", command: "track")
            }
            output.write(TrackWriter.write(fixes, name: track.name ?? "simulated location history", format: format))
            try output.commit()
            console.err("note: simulated \(NumberFormatting.count(fixes.count, "fix", plural: "fixes")) from \(Timestamp.iso8601(start))\n")
            return 0
        }

        if let maxSegment {
            try checkDensifiedCount(track, maxSegment: maxSegment, command: "track")
            track = track.densified(maxSegmentMetres: maxSegment)
        }
        let elevations: [Double?]
        if let model {
            let z = try model.elevations(at: track.points.map(\.point), interpolation: terrain.interpolation)
            elevations = z.map { $0.isNaN ? nil : $0 }
        } else {
            elevations = track.segments.flatMap { $0.lazy.map(\.elevationMetres) }
        }
        let stats = TrackStatistics(track: track, elevations: elevations, gainThresholdMetres: gainThreshold)
        let format = args.value("format") ?? "text"
        switch format {
        case "json":
            output.write(statisticsJSON(stats, dropped: loaded.dropped, elevation: elevationSource, threshold: gainThreshold).serialized() + "\n")
        case "text":
            output.write(statisticsText(stats, name: track.name ?? input, units: units, elevation: elevationSource))
        default:
            throw CLIError.usage("option '--format': '\(format)' is not text or json for statistics", command: "track")
        }
        try output.commit()
        return 0
    }

    /// Refuses a `--max-segment` that would densify `track` past ``Track/maxPoints``.
    static func checkDensifiedCount(_ track: Track, maxSegment: Double, command: String) throws(CLIError) {
        let count = track.densifiedPointCount(maxSegmentMetres: maxSegment)
        guard count <= Track.maxPoints else {
            let many = count < 1e15 ? NumberFormatting.grouped(count, decimals: 0) : JSON.format(count)
            throw .usage("option '--max-segment': \(JSON.format(maxSegment)) m would make \(many) points, more than \(NumberFormatting.grouped(Track.maxPoints, decimals: 0)); use a longer segment", command: command)
        }
    }

    /// The track with every point's elevation sampled from the DEM (nil outside it).
    static func withDEMElevations(_ track: Track, model: ElevationModel, interpolation: Interpolation) throws -> Track {
        let z = try model.elevations(at: track.points.map(\.point), interpolation: interpolation)
        var k = 0
        var out = track
        for s in out.segments.indices {
            for i in out.segments[s].indices {
                out.segments[s][i].elevationMetres = z[k].isNaN ? nil : z[k]
                k += 1
            }
        }
        return out
    }

    static func statisticsJSON(_ s: TrackStatistics, dropped: [DropReason: Int], elevation: String, threshold: Double) -> JSON {
        .object([
            ("points", .number(Double(s.points))), ("segments", .number(Double(s.segments))),
            ("dropped", .object(DropReason.allCases.map { ($0.rawValue, .number(Double(dropped[$0] ?? 0))) })),
            ("length_2d_m", .number(s.length2DMetres, decimals: 6)), ("length_3d_m", .number(s.length3DMetres, decimals: 6)),
            ("elevation_source", .string(elevation)), ("gain_threshold_m", .number(threshold)),
            ("elevation_gain_m", .number(s.elevationGainMetres, decimals: 6)), ("elevation_loss_m", .number(s.elevationLossMetres, decimals: 6)),
            ("min_elevation_m", .number(s.minElevationMetres, decimals: 6)), ("max_elevation_m", .number(s.maxElevationMetres, decimals: 6)),
            ("duration_s", .number(s.durationSeconds, decimals: 3)), ("moving_time_s", .number(s.movingTimeSeconds, decimals: 3)),
            ("avg_speed_mps", .number(s.averageSpeedMetresPerSecond, decimals: 6)), ("max_speed_mps", .number(s.maxSpeedMetresPerSecond, decimals: 6)),
            ("bbox", s.boundingBox.map { b in .array([.number(b.west, decimals: 9), .number(b.south, decimals: 9), .number(b.east, decimals: 9), .number(b.north, decimals: 9)]) } ?? .null),
        ])
    }

    static func statisticsText(_ s: TrackStatistics, name: String, units: UnitSystem, elevation: String) -> String {
        let h = units.heightUnit
        func height(_ m: Double?, plusSign: Bool = false) -> String {
            m.map { NumberFormatting.grouped(h.convert(metres: $0), plusSign: plusSign) + " " + h.rawValue } ?? "unknown"
        }
        func duration(_ s: Double?) -> String {
            guard let s else { return "unknown" }
            let t = Int(s.rounded())
            return "\(t / 3600)h \(String(format2: (t % 3600) / 60))m \(String(format2: t % 60))s"
        }
        func speed(_ v: Double?) -> String { v.map { NumberFormatting.grouped($0 * 3.6) + " km/h" } ?? "unknown" }
        var lines = ["Track         \(name)"]
        lines.append("Points        \(s.points) in \(NumberFormatting.count(s.segments, "segment"))")
        lines.append("Length        \(units.format(s.length2DMetres)) (2D), \(units.format(s.length3DMetres)) (3D)")
        lines.append("Gain / loss   \(height(s.elevationGainMetres, plusSign: true)) / \(height(-s.elevationLossMetres)) (\(elevation) elevations)")
        lines.append("Elevation     \(height(s.minElevationMetres)) … \(height(s.maxElevationMetres))")
        lines.append("Duration      \(duration(s.durationSeconds)), moving \(duration(s.movingTimeSeconds))")
        lines.append("Speed         avg \(speed(s.averageSpeedMetresPerSecond)) moving, max \(speed(s.maxSpeedMetresPerSecond))")
        if let b = s.boundingBox {
            lines.append("Bounds        lon \(Fixed.format(b.west, decimals: 6)) … \(Fixed.format(b.east, decimals: 6)), lat \(Fixed.format(b.south, decimals: 6)) … \(Fixed.format(b.north, decimals: 6))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Two digits with a leading zero.
    init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }
}
