import TransectAnalysis
import TransectFormats
import TransectGDAL
import TransectGeodesy
import TransectRaster
import TransectRender
import TransectSupport

/// What `profile --format` writes.
enum ProfileFormat: String, OptionChoice {
    case text, json, csv
    /// The profile's layers (``ProfileOutput/writeLayers(_:to:)``), which only a GeoPackage holds.
    case gpkg
}

/// The options of `transect profile`, each declared once.
enum ProfileOptions {
    /// More samples than this need `--max-samples`: a typo in `--step` should not fill memory.
    static let defaultMaxSamples = 10_000_000

    static let from = Option.point("from", value: "LON,LAT", help: "Start of the profile.")
    static let to = Option.point("to", value: "LON,LAT", help: "End of the profile.")
    static let path: Option<PointArgument> = {
        var path = Option.point(
            "path", value: "LON,LAT …", help: "Two or more vertices, profiled leg after leg with continuous distance (instead of --from/--to).")
        path.spec.kind = .variadic
        return path
    }()
    static let track = Option.text(
        "track", value: "FILE",
        help:
            "Profile along a track (GPX, GeoJSON, Esri JSON, CSV; - reads stdin), segment after segment: a break between segments, never a line across the gap."
    )
    /// The default depends on --dem, so the help states it in prose.
    static let elevations = Option<ElevationSource>(
        spec: OptionSpec(
            name: "elevations", valueName: "E",
            help:
                "With --track: recorded (the default without --dem: the track's own points and elevations, no DEM read) or dem (the default with --dem: the DEM sampled along the track)."
        ),
        defaultValue: { args in args.has(CommonOptions.dem) ? .dem : .recorded },
        parse: { text, args throws(CLIError) in try Option<ElevationSource>.pick("elevations", text, args) })
    static let maxSegment = Option.positive(
        "max-segment", value: "M", help: "With --track, densify the track first so no step exceeds M metres.",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m")
    static let step = Option.positive(
        "step", value: "M",
        help: "Metres between samples (default: the DEM's resolution at the path's middle). The last step of each leg may be shorter.",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m")
    static let samples = Option.integer("samples", help: "N evenly spaced samples instead of a step.", in: 2...InputLimits.maxSamplesCeiling)
    static let maxSamples = Option.integer(
        "max-samples", help: "The most samples the profile may take.",
        in: 1...InputLimits.maxSamplesCeiling, default: defaultMaxSamples)
    static let observerHeight = Option.number(
        "observer-height", value: "M", help: "Eye height above the terrain at the start.",
        in: InputLimits.heightMetres, unit: " m", default: 1.7)
    static let targetHeight = Option.number(
        "target-height", value: "M", help: "Target height above the terrain at the end.",
        in: InputLimits.heightMetres, unit: " m", default: 0)
    static let interpolation = CommonOptions.interpolation.help("nearest (or near), bilinear or cubic.")
    static let crs = CommonOptions.crs.help("--from/--to/--path points are X,Y in this CRS (EPSG:32611, or just 32611) instead of lon/lat.")
    static let units = Option.units(help: "Units of the text table: metric, imperial, m, km, ft, mi, yd, nmi.")
    static let format = Option<ProfileFormat>(
        spec: OptionSpec(
            name: "format", valueName: "F",
            help: "text, json, csv (json and csv are in metres) or gpkg (layers profile, samples and obstruction).",
            defaultText: "gpkg for -o FILE.gpkg, else text"),
        defaultValue: { args in args.value(CommonOptions.out.name).flatMap { LayerFormat(path: $0) } == .gpkg ? .gpkg : .text },
        parse: { text, args throws(CLIError) in try Option<ProfileFormat>.pick("format", text, args) })
    static let chart = Option.text(
        "chart", value: "FILE",
        help:
            "Also draw the profile chart (elevation against distance, sight line, obstruction, extremes) for a report: .png, .svg or .pdf by the extension; - for stdout with -o FILE (--chart-format, else PNG)."
    )
    static let chartFormat: Option<FigureFormat?> = FigureOutput.formatOption("chart-format", for: "the chart", accepted: chartFormats)
    static let chartFormats: [FigureFormat] = [.png, .svg, .pdf]
    static let chartSize = Option.size(
        "chart-size", help: "Chart size in pixels (at least 300x200), or a print size at --dpi (160x100mm, 6.5x4in).", default: "1200x600",
        minimum: (300, 200), tooSmall: "a chart needs at least 300x200 pixels", dpi: dpi, maxPixels: { _ in 100_000_000 })
    static let dpi: Option<Double?> = FigureOutput.dpi.help(
        "The chart's resolution: text, lines and symbols are drawn dpi/96 times their size (default 96, or 300 for a print --chart-size).")
    static let fontScale: Option<Double> = FigureOutput.fontScale.help("The chart's text F times its size; lines and symbols keep theirs.")
    static let chartLayout = Option.text("chart-layout", value: "FILE.json", help: "Also write where the chart's title, legend and labels went.")
    static let title = Option.text("title", value: "TEXT", help: "The chart's title.", default: "Elevation profile")

    static let all: [OptionSpec] = [
        CommonOptions.dem.spec, CommonOptions.noData.spec, from.spec, to.spec, path.spec, track.spec, elevations.spec, maxSegment.spec, step.spec, samples.spec,
        maxSamples.spec,
        observerHeight.spec, targetHeight.spec, SightLineOptions.curvature.spec, SightLineOptions.refraction.spec, interpolation.spec, crs.spec, units.spec,
        format.spec,
        CommonOptions.out.spec, chart.spec, chartFormat.spec, chartSize.spec, dpi.spec, fontScale.spec, chartLayout.spec, title.spec, CommonOptions.png.spec,
        CommonOptions.threads.spec,
        CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec, CommonOptions.confine.spec,
        CommonOptions.help.spec,
    ]
}

/// `profile`'s settings: every option read and checked before the track or the DEM is opened,
/// so a usage error never waits for them.
struct ProfileSettings {
    var units: UnitSystem
    var format: ProfileFormat
    /// What to profile: `--from`/`--to` or `--path` vertices (in WGS84), or a `--track` file.
    enum Route {
        case vertices([GeoPoint])
        /// A track file, densified to `maxSegment` metres when given; with `recorded`, profiled
        /// at its own points with the elevations it records, not on a DEM.
        case track(String, maxSegment: Double?, recorded: Bool)
    }
    var route: Route
    /// The `--track` file, if that is the route.
    var track: String? {
        if case .track(let path, _, _) = route { return path }
        return nil
    }
    var spacing: ProfileRequest.Spacing
    var maxSamples: Int
    var observerHeight: Double
    var targetHeight: Double
    var curvature: Double
    /// The chart's size, format, resolution (nil: 96, recorded) and text scale.
    var chartSize: FigureSize
    var chartFormat: FigureFormat = .png
    var chartDPI: Double?
    var fontScale: Double
    var out: String?
    var chart: String?
    var chartLayout: String?
    var title: String
    /// How the chart's PNG is written (`--png`).
    var png: PNGFile.Encoding

    init(_ args: ParsedArguments, terrain: TerrainOptions) throws {
        units = try args.value(ProfileOptions.units)
        format = try args.value(ProfileOptions.format)
        if let out = args.value(CommonOptions.out.name), let layer = LayerFormat(path: out), layer != .gpkg, !args.has(ProfileOptions.format) {
            throw CLIError.usage(
                "option '-o': a profile is three layers (profile, samples, obstruction), which only a GeoPackage holds: name the file .gpkg, or give --format",
                command: "profile")
        }
        if format == .gpkg && (args.value(CommonOptions.out.name) ?? "-") == "-" {
            throw CLIError.usage("option '--format': a gpkg is written to a file: give -o FILE", command: "profile")
        }
        if let track = try args.value(ProfileOptions.track) {
            guard !args.has(ProfileOptions.from) && !args.has(ProfileOptions.to) && !args.has(ProfileOptions.path) else {
                throw CLIError.usage("--track cannot be combined with --from/--to or --path", command: "profile")
            }
            if args.has(ProfileOptions.crs) {
                throw CLIError.usage("option '--crs': gives the CRS of --from/--to/--path points, not of a --track file", command: "profile")
            }
            let recorded = try args.value(ProfileOptions.elevations) == .recorded
            route = .track(track, maxSegment: try args.value(ProfileOptions.maxSegment), recorded: recorded)
            if recorded {
                for option in [ProfileOptions.step.spec, ProfileOptions.samples.spec] where args.has(option.name) {
                    throw CLIError.usage(
                        "option '--\(option.name)': recorded elevations are profiled at the track's own points; give --max-segment to densify, or --dem",
                        command: "profile")
                }
            }
        } else {
            if args.has(ProfileOptions.elevations) {
                throw CLIError.usage("option '--elevations': chooses a --track's elevations; give --track", command: "profile")
            }
            if args.has(ProfileOptions.maxSegment) {
                throw CLIError.usage("option '--max-segment': densifies a --track before profiling it; give --track", command: "profile")
            }
            route = .vertices(try Self.vertices(args, terrain: terrain))
        }
        let step = try args.value(ProfileOptions.step)
        maxSamples = try args.value(ProfileOptions.maxSamples)
        let samples = try args.value(ProfileOptions.samples)
        if let samples, samples > maxSamples {
            throw CLIError.usage(
                "option '--samples': \(NumberFormatting.grouped(Double(samples), decimals: 0)) samples are more than \(NumberFormatting.grouped(Double(maxSamples), decimals: 0)); raise --max-samples",
                command: "profile")
        }
        guard step == nil || samples == nil else { throw CLIError.usage("give --step or --samples, not both", command: "profile") }
        spacing = samples.map(ProfileRequest.Spacing.count) ?? step.map(ProfileRequest.Spacing.step) ?? .native
        observerHeight = try args.value(ProfileOptions.observerHeight)
        targetHeight = try args.value(ProfileOptions.targetHeight)
        curvature = try SightLineOptions.coefficient(args)
        chartSize = try args.value(ProfileOptions.chartSize)
        chartDPI = chartSize.dpi(given: try args.value(ProfileOptions.dpi))
        fontScale = try args.value(ProfileOptions.fontScale)
        out = try args.value(CommonOptions.out)
        chart = try args.value(ProfileOptions.chart)
        chartLayout = try args.value(ProfileOptions.chartLayout)
        title = try args.value(ProfileOptions.title)
        png = try OutputTransaction.pngEncoding(args, threads: try CommonOptions.threadCount(args))
        if chart == "-" && (out ?? "-") == "-" {
            throw CLIError.usage(
                "option '--chart': '-' is stdout, where the profile goes without -o; give -o FILE for the profile, or a FILE for the chart",
                command: "profile")
        }
        if chart == "-" {
            // The chart alone on stdout (a chart has no side files), in --chart-format or PNG.
            chartFormat = try args.value(ProfileOptions.chartFormat) ?? .png
        } else if let chart {
            chartFormat = try FigureOutput.format(
                of: chart, option: "--chart", given: try args.value(ProfileOptions.chartFormat), accepted: ProfileOptions.chartFormats,
                formatOption: "chart-format", command: "profile")
        } else {
            for option in [ProfileOptions.chartFormat.spec, ProfileOptions.chartSize.spec, ProfileOptions.dpi.spec, ProfileOptions.fontScale.spec]
            where args.has(option.name) {
                throw CLIError.usage("option '--\(option.name)': sets how the chart is drawn; give --chart FILE", command: "profile")
            }
        }
        if let chartLayout {
            guard chart != nil else { throw CLIError.usage("option '--chart-layout': describes the chart; give --chart FILE", command: "profile") }
            guard chartLayout != "-" else { throw CLIError.usage("option '--chart-layout': give a FILE.json; '-' (stdout) is not one", command: "profile") }
        }
    }

    /// How the chart is drawn.
    var chartFigure: ProfileOutput.ChartFigure {
        ProfileOutput.ChartFigure(size: chartSize, format: chartFormat, dpi: chartDPI, fontScale: fontScale)
    }

    /// The request for `path` with these settings and `interpolation`.
    func request(_ path: ProfilePath, interpolation: Interpolation) -> ProfileRequest {
        ProfileRequest(
            path: path, spacing: spacing, maxSamples: maxSamples, interpolation: interpolation,
            observerHeightMetres: observerHeight, targetHeightMetres: targetHeight, curvature: curvature)
    }

    /// `--from`/`--to`, or `--path` with two or more vertices, in WGS84.
    static func vertices(_ args: ParsedArguments, terrain: TerrainOptions) throws -> [GeoPoint] {
        var texts: [(Option<PointArgument>, String)] = []
        if args.has(ProfileOptions.path) {
            guard !args.has(ProfileOptions.from) && !args.has(ProfileOptions.to) else {
                throw CLIError.usage("--path cannot be combined with --from/--to", command: "profile")
            }
            texts = args.all(ProfileOptions.path.name).map { (ProfileOptions.path, $0) }
            guard texts.count >= 2 else { throw CLIError.usage("--path needs at least two LON,LAT vertices", command: "profile") }
        } else {
            guard let from = args.value(ProfileOptions.from.name) else {
                throw CLIError.usage("missing --from LON,LAT (or --path or --track)", command: "profile")
            }
            guard let to = args.value(ProfileOptions.to.name) else { throw CLIError.usage("missing --to LON,LAT", command: "profile") }
            texts = [(ProfileOptions.from, from), (ProfileOptions.to, to)]
        }
        var given: [PointOptions.Given] = []
        for (option, text) in texts {
            let point = try option.parse(text, args)
            guard point.z == nil else {
                throw CLIError.usage("option '--\(option.name)': '\(text)': a profile takes LON,LAT; heights come from the DEM", command: "profile")
            }
            given.append(PointOptions.Given(option: option.name, text: text, point: point))
        }
        return try PointOptions.geographic(given, terrain: terrain, command: "profile")
    }
}
