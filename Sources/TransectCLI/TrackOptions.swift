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

    static let input = Option.text("in", value: "FILE", help: "The track file (GPX, GeoJSON, Esri JSON or CSV); - reads stdin.")
    static let stats = Option.flag(
        "stats",
        help:
            "Statistics (the default): points, segments, 2D and 3D length, gain and loss, elevation range, duration, moving time, speeds, bounding box; on stdout, or in --stats-out."
    )
    static let statsOut = Option.text(
        "stats-out", value: "FILE",
        help: "Write the statistics to FILE (atomically) instead of stdout: JSON with --format json or a .json name, text otherwise.")
    static let simulate = Option.flag(
        "simulate",
        help:
            "Emit fixes: one per vertex 1 s apart after densifying to --max-segment (the location-history sample's source), or spaced --speed M/S × 1 s along the line. Each fix has time, position, elevation, course (geodesic azimuth) and speed. Each segment is simulated on its own, never across the gap to the next; the clock pauses between segments (a segment's first fix is 1 s after the last one before it)."
    )
    /// With --simulate, ``TrackSimulation``'s default applies; the help states it in prose.
    static let maxSegment = Option.positive(
        "max-segment", value: "M",
        help:
            "Densify along geodesics so no step within a segment exceeds M metres: the track written (times interpolated) and the statistics' elevations (default \(NumberFormatting.shortest(TrackSimulation.defaultMaxSegmentMetres)) with --simulate; no densifying otherwise unless given).",
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
    /// A format `--format` names: of the statistics (text, json) or of the track written
    /// (gpx, geojson, csv, gpkg). The two sets share no name, so one option serves both.
    enum Format: Equatable {
        case statistics(json: Bool)
        case track(TrackOutputFormat)

        init?(name: String) {
            switch name {
            case "text": self = .statistics(json: false)
            case "json": self = .statistics(json: true)
            default:
                guard let track = TrackOutputFormat(rawValue: name) else { return nil }
                self = .track(track)
            }
        }
    }

    /// No default of its own: the statistics are text and the track's format follows --out's
    /// extension (csv on stdout), so the help states them in prose.
    static let format = Option<Format?>(
        spec: OptionSpec(
            name: "format", valueName: "F",
            help:
                "The statistics' format, text (default) or json; or the track's, gpx, geojson, csv or gpkg (default from --out's extension; csv on stdout)."
        ),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in
            guard let format = Format(name: text) else {
                throw Option<Format?>.refuse("format", "'\(text)' is not text or json (statistics) or gpx, geojson, csv or gpkg (a track)", args)
            }
            return format
        })
    static let out = CommonOptions.out.help(
        "Write the track (after cleaning, --max-segment, --simulate and --dem elevations) to FILE, in the format its extension names (.gpx, .geojson, .csv, .gpkg) or --format gives; - for stdout (not gpkg)."
    )

    static let all: [OptionSpec] = [
        input.spec, stats.spec, simulate.spec, maxSegment.spec, speed.spec, startTime.spec, dem.spec, CommonOptions.noData.spec,
        interpolation.spec, elevation.spec, gainThreshold.spec, method.spec, units.spec, format.spec, out.spec, statsOut.spec,
        CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec, CommonOptions.confine.spec, CommonOptions.help.spec,
    ]
}

/// The formats a track is written in: the text formats of ``TrackWriter`` and GeoPackage
/// (through OGR, ``TrackLayers``).
enum TrackOutputFormat: String, CaseIterable, Equatable {
    case gpx, geojson, csv, gpkg

    /// The format `path`'s extension names (`.gpx`, `.geojson` or `.json`, `.csv`, `.gpkg`), else nil.
    init?(path: String) {
        if let text = TrackWriter.Format(path: path) {
            self.init(rawValue: text.rawValue)
        } else if LayerFormat(path: path) == .gpkg {
            self = .gpkg
        } else {
            return nil
        }
    }

    /// The text format, or nil for GeoPackage.
    var text: TrackWriter.Format? { TrackWriter.Format(rawValue: rawValue) }
}

/// `track`'s command line, read: every option is read (and refused) here, before anything is
/// loaded.
///
/// What goes where: the track (after the steps asked for) goes to `-o` (stdout with `-o -`),
/// and with `--simulate` to stdout when there is no `-o`; the statistics go to `--stats-out`,
/// or to stdout when stdout does not carry the track and they are asked for (`--stats`, or
/// no `--simulate`). Statistics never go into a track file.
struct TrackRequest {
    /// Where a result goes.
    enum Destination: Equatable {
        case stdout
        case file(String)
    }

    var input: String
    var terrain: TerrainOptions
    /// Elevations from the DEM (`--elevation dem`) rather than the recorded ones.
    var elevationsFromDEM: Bool
    var units: UnitSystem
    /// Densify the written track to this length (`--max-segment` without `--simulate`).
    var maxSegmentMetres: Double?
    /// The simulation asked for, if any.
    var simulation: TrackSimulation?
    /// How the statistics are computed.
    var summary: TrackSummaryRequest
    /// The track written, where and how; nil when only statistics are asked for.
    var track: (destination: Destination, format: TrackOutputFormat)?
    /// The statistics written, where and whether as JSON; nil when they are not asked for.
    var statistics: (destination: Destination, json: Bool)?

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
        let out = try args.value(TrackOptions.out)
        let statsOut = try args.value(TrackOptions.statsOut)
        let format = try args.value(TrackOptions.format)
        let simulate = try args.value(TrackOptions.simulate)
        let statsAsked = try args.value(TrackOptions.stats)
        summary = TrackSummaryRequest(maxSegmentMetres: simulate ? nil : maxSegment, gainThresholdMetres: gainThreshold, method: method)
        maxSegmentMetres = simulate ? nil : maxSegment
        if simulate {
            var simulation = TrackSimulation(speedMetresPerSecond: speed, startTime: start)
            if let maxSegment { simulation.maxSegmentMetres = maxSegment }
            self.simulation = simulation
        }

        // The track: to -o, or with --simulate to stdout.
        var formatIsTrack = false
        if case .track = format { formatIsTrack = true }
        if out != nil || simulate || formatIsTrack {
            let destination: Destination = out.map { $0 == "-" ? .stdout : .file($0) } ?? .stdout
            var trackFormat: TrackOutputFormat
            if case .track(let named) = format {
                trackFormat = named
            } else if case .file(let path) = destination {
                guard let byName = TrackOutputFormat(path: path) else {
                    throw .usage(
                        "option '--out': '\(path.printable)' does not name a track format (.gpx, .geojson, .csv or .gpkg; or give --format); statistics go to stdout or --stats-out",
                        command: "track")
                }
                trackFormat = byName
            } else {
                trackFormat = .csv
            }
            if trackFormat == .gpkg && destination == .stdout {
                throw .usage("option '--format': gpkg is a database and needs a file: give --out FILE.gpkg", command: "track")
            }
            track = (destination, trackFormat)
        }

        // The statistics: to --stats-out, else to stdout when they are wanted and it is free.
        var json = false
        var formatIsStatistics = false
        if case .statistics(let named) = format {
            json = named
            formatIsStatistics = true
        } else if let statsOut, statsOut.lowercased().hasSuffix(".json") {
            json = true
        }
        let destination: Destination? =
            statsOut.map { $0 == "-" ? .stdout : .file($0) } ?? (statsAsked || formatIsStatistics || !simulate ? .stdout : nil)
        if let destination {
            if destination == .stdout && track?.destination == .stdout {
                // Implied statistics give way to the track; asked-for ones need a file.
                if statsOut != nil || statsAsked || formatIsStatistics {
                    throw .usage("option '--stats-out': stdout carries the track; give --stats-out FILE", command: "track")
                }
            } else {
                statistics = (destination, json)
            }
        }
    }
}

extension TrackRequest.Destination {
    /// The file, or nil for stdout (as ``OutputTarget`` takes it).
    var path: String? {
        if case .file(let p) = self { p } else { nil }
    }
}
