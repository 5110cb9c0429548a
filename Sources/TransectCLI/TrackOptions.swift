import TransectAnalysis
import TransectFormats
import TransectSupport

/// `track --method`: whose rules the statistics follow.
extension TrackStatisticsMethod: OptionChoice {}

/// Where `track --elevation` takes a fix's elevation from.
enum ElevationSource: String, OptionChoice {
    case dem, recorded
}

/// The options of `transect track`, each declared once.
enum TrackOptions {
    /// 2000-01-01T00:00:00Z: simulated histories start here unless told otherwise, so output is
    /// deterministic.
    static let defaultStart = 946_684_800.0

    static let input = Option.text("in", value: "FILE", help: "The track file.")
    static let stats = Option.flag(
        "stats",
        help: "Statistics (the default): points, segments, 2D and 3D length, gain and loss, elevation range, duration, moving time, speeds, bounding box.")
    static let simulate = Option.flag(
        "simulate",
        help:
            "Emit fixes: one per vertex 1 s apart after densifying to --max-segment (the location-history sample's source), or spaced --speed M/S × 1 s along the line. Each fix has time, position, elevation, course (geodesic azimuth) and speed."
    )
    /// With --simulate, ``TrackSimulation``'s default applies; the help states it in prose.
    static let maxSegment = Option.positive(
        "max-segment", value: "M",
        help:
            "Densify along geodesics so no step exceeds M metres (default \(NumberFormatting.shortest(TrackSimulation.defaultMaxSegmentMetres)) with --simulate; no densifying for statistics unless given).",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m"
    )
    static let speed = Option.positive(
        "speed", value: "M/S", help: "With --simulate: fixes at this speed instead of one per vertex.",
        maximum: InputLimits.speed.upperBound, unit: "m/s")
    static let startTime = Option.time("start-time", help: "First fix time, ISO 8601.", default: defaultStart)
    static let dem = CommonOptions.dem.help("DEM for elevations; repeatable.")
    static let interpolation = CommonOptions.interpolation.help("How elevations are sampled from --dem: nearest (or near), bilinear or cubic.")
    /// The default depends on --dem, so the help states it in prose.
    static let elevation = Option<ElevationSource>(
        spec: OptionSpec(name: "elevation", valueName: "E", help: "dem (default when --dem is given) or recorded."),
        defaultValue: { args in args.has(dem) ? .dem : .recorded },
        parse: { text, args throws(CLIError) in try Option<ElevationSource>.pick("elevation", text, args) })
    static let gainThreshold = Option.number(
        "gain-threshold", value: "M", help: "Hysteresis for gain and loss.",
        in: InputLimits.gainThresholdMetres, unit: " m", default: 3)
    static let method = Option<TrackStatisticsMethod>.choice(
        "method", value: "M",
        help: "Whose rules the statistics follow: transect (ours), gpxpy or gpx-studio (each described above).", default: .transect)
    static let units = Option.units(help: "Units of the text summary: lengths, heights and speeds.")
    /// What `track` writes: the statistics as text or JSON, or simulated fixes in a track format.
    enum Format: Equatable {
        case text, json
        case fixes(TrackWriter.Format)
    }

    /// The names it takes and its default depend on --simulate (and --out), so the help
    /// states them in prose.
    static let format = Option<Format>(
        spec: OptionSpec(
            name: "format", valueName: "F",
            help: "Statistics: text (default) or json. Simulation: gpx, geojson or csv (default from --out's extension, else csv)."),
        defaultValue: { args throws(CLIError) in
            guard try args.value(simulate) else { return .text }
            return .fixes(try args.value(CommonOptions.out).flatMap { TrackWriter.Format(path: $0) } ?? .csv)
        },
        parse: { text, args throws(CLIError) in
            if try args.value(simulate) {
                guard let format = TrackWriter.Format(rawValue: text) else {
                    throw Option<Format>.refuse("format", "'\(text)' is not gpx, geojson or csv for --simulate", args)
                }
                return .fixes(format)
            }
            switch text {
            case "text": return .text
            case "json": return .json
            default: throw Option<Format>.refuse("format", "'\(text)' is not text or json for statistics", args)
            }
        })

    static let all: [OptionSpec] = [
        input.spec, stats.spec, simulate.spec, maxSegment.spec, speed.spec, startTime.spec, dem.spec, interpolation.spec,
        elevation.spec, gainThreshold.spec, method.spec, units.spec, format.spec, CommonOptions.out.spec, CommonOptions.allowNetwork.spec,
        CommonOptions.help.spec,
    ]
}

/// `track`'s command line, read: every option is read (and refused) here, before anything is
/// loaded.
struct TrackRequest {
    /// What the run computes and how it writes it.
    enum Work {
        case statistics(TrackSummaryRequest, json: Bool)
        case simulation(TrackSimulation, format: TrackWriter.Format)
    }

    var input: String
    var terrain: TerrainOptions
    /// Elevations from the DEM (`--elevation dem`) rather than the recorded ones.
    var elevationsFromDEM: Bool
    var units: UnitSystem
    var out: String?
    var work: Work

    init(_ args: ParsedArguments) throws(CLIError) {
        try args.expectNoPositionals()
        guard let input = try args.value(TrackOptions.input) else {
            throw .usage("missing --in FILE (GPX, GeoJSON, Esri JSON or CSV)", command: "track")
        }
        self.input = input
        terrain = try TerrainOptions(args)
        units = try args.value(TrackOptions.units)
        let maxSegment = try args.value(TrackOptions.maxSegment)
        let speed = try args.value(TrackOptions.speed)
        let start = try args.value(TrackOptions.startTime)
        let gainThreshold = try args.value(TrackOptions.gainThreshold)
        let method = try args.value(TrackOptions.method)
        elevationsFromDEM = try args.value(TrackOptions.elevation) == .dem
        out = try args.value(CommonOptions.out)
        // --format names a track format exactly when --simulate is given.
        let format = try args.value(TrackOptions.format)
        if case .fixes(let fixesFormat) = format {
            var simulation = TrackSimulation(speedMetresPerSecond: speed, startTime: start)
            if let maxSegment { simulation.maxSegmentMetres = maxSegment }
            work = .simulation(simulation, format: fixesFormat)
        } else {
            work = .statistics(TrackSummaryRequest(maxSegmentMetres: maxSegment, gainThresholdMetres: gainThreshold, method: method), json: format == .json)
        }
    }
}
