import TransectCore
import TransectFormats
import TransectGDAL
import TransectRender

/// `transect profile`: the elevation profile along a geodesic path, its statistics and the
/// line of sight from one end to the other (when the path is one geodesic).
enum ProfileCommand {
    /// Parses the path and the sampling into a ``ProfileRequest``, profiles it with one
    /// ``ElevationModel/profile(_:)`` call, and writes the table, JSON or CSV (and the chart).
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        try args.expectNoPositionals()
        let terrain = try TerrainOptions(args)
        let units = try args.value(ProfileOptions.units)
        let format = try args.value(ProfileOptions.format)
        let path = try self.path(args, terrain: terrain, console: console)
        let step = try args.value(ProfileOptions.step)
        let maxSamples = try args.value(ProfileOptions.maxSamples)
        let samples = try args.value(ProfileOptions.samples)
        if let samples, samples > maxSamples {
            throw CLIError.usage(
                "option '--samples': \(NumberFormatting.grouped(Double(samples), decimals: 0)) samples are more than \(NumberFormatting.grouped(Double(maxSamples), decimals: 0)); raise --max-samples",
                command: "profile")
        }
        guard step == nil || samples == nil else { throw CLIError.usage("give --step or --samples, not both", command: "profile") }
        let request = ProfileRequest(
            path: path, spacing: samples.map(ProfileRequest.Spacing.count) ?? step.map(ProfileRequest.Spacing.step) ?? .native,
            maxSamples: maxSamples, interpolation: terrain.interpolation,
            observerHeightMetres: try args.value(ProfileOptions.observerHeight), targetHeightMetres: try args.value(ProfileOptions.targetHeight),
            curvature: try args.value(ProfileOptions.curvature))

        let chartSize = try args.value(ProfileOptions.chartSize)
        let model = try terrain.openDEM(console: console)
        let result: TerrainProfile
        do { result = try model.profile(request) } catch let error as ProfileError {
            throw CLIError.usage(error.message + "; use a larger --step or raise --max-samples", command: "profile")
        }
        var files = RunFiles()
        files.inputs(dem: model, terrain: terrain)
        let track = try args.value(ProfileOptions.track)
        let out = try args.value(CommonOptions.out)
        let chart = try args.value(ProfileOptions.chart)
        let chartLayout = try args.value(ProfileOptions.chartLayout)
        files.input("--track", track)
        files.output("-o", out)
        if chart == "-" {
            throw CLIError.usage("option '--chart': a chart is a PNG file; '-' (stdout) is not one", command: "profile")
        }
        files.output("--chart", chart)
        if let layout = chartLayout {
            guard chart != nil else { throw CLIError.usage("option '--chart-layout': describes the chart; give --chart FILE.png", command: "profile") }
            guard layout != "-" else { throw CLIError.usage("option '--chart-layout': give a FILE.json; '-' (stdout) is not one", command: "profile") }
            files.output("--chart-layout", layout)
        }
        try files.check(command: "profile")
        // The chart and the -o file are one result: both land, or neither.
        let transaction = OutputTransaction()
        if let chart {
            try ProfileOutput.writeChart(
                result, path: chart, size: chartSize, title: args.value(ProfileOptions.title), units: units,
                transaction: transaction, layoutPath: chartLayout, console: console)
        }
        let output = try OutputTarget(path: out, console: console, transaction: transaction)
        switch format {
        case "json": ProfileOutput.writeJSON(result, to: output)
        case "csv": ProfileOutput.writeCSV(result, to: output)
        default: output.write(ProfileOutput.text(result, units: units))
        }
        try output.commit()
        try transaction.commit()
        return 0
    }

    /// The path: `--from`/`--to`, `--path` with two or more vertices, or a track's segments
    /// (densified to `--max-segment` when given).
    static func path(_ args: ParsedArguments, terrain: TerrainOptions, console: Console) throws -> ProfilePath {
        if let trackPath = try args.value(ProfileOptions.track) {
            guard !args.has(ProfileOptions.from) && !args.has(ProfileOptions.to) && !args.has(ProfileOptions.path) else {
                throw CLIError.usage("--track cannot be combined with --from/--to or --path", command: "profile")
            }
            var track = try TrackInput.load(trackPath, console: console).track
            if let m = try args.value(ProfileOptions.maxSegment) {
                track = try TrackInput.densified(track, maxSegment: m, command: "profile")
            }
            return ProfilePath(segments: track.segments.map { $0.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) } })
        }
        var texts: [(String, String)] = []
        if args.has(ProfileOptions.path) {
            guard !args.has(ProfileOptions.from) && !args.has(ProfileOptions.to) else {
                throw CLIError.usage("--path cannot be combined with --from/--to", command: "profile")
            }
            texts = try args.values(ProfileOptions.path).map { ("path", $0) }
            guard texts.count >= 2 else { throw CLIError.usage("--path needs at least two LON,LAT vertices", command: "profile") }
        } else {
            guard let from = try args.value(ProfileOptions.from) else {
                throw CLIError.usage("missing --from LON,LAT (or --path or --track)", command: "profile")
            }
            guard let to = try args.value(ProfileOptions.to) else { throw CLIError.usage("missing --to LON,LAT", command: "profile") }
            texts = [("from", from), ("to", to)]
        }
        var given: [PointOptions.Given] = []
        for (option, text) in texts {
            let point = try PointOptions.parse(text, option: option, command: "profile")
            guard point.z == nil else {
                throw CLIError.usage("option '--\(option)': '\(text)': a profile takes LON,LAT; heights come from the DEM", command: "profile")
            }
            given.append(PointOptions.Given(option: option, text: text, point: point))
        }
        return ProfilePath(vertices: try PointOptions.geographic(given, terrain: terrain, command: "profile"))
    }
}
