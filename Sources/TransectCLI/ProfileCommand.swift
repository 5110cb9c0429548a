import TransectCore
import TransectFormats
import TransectGDAL
import TransectRender

/// `transect profile`: the elevation profile along a geodesic path, its statistics and the
/// line of sight from one end to the other (when the path is one geodesic).
enum ProfileCommand {
    /// More samples than this need `--max-samples`: a typo in `--step` should not fill memory.
    static let defaultMaxSamples = 10_000_000

    /// Everything a profile run produces, for the output writers (and the chart, later).
    struct Run {
        var profile: Profile
        var statistics: ProfileStatistics
        /// Nil when an end has no data, or when the path is not one geodesic (see `pathShape`).
        var lineOfSight: LineOfSight?
        /// Whether the path is one geodesic; only then is there a line of sight.
        var pathShape: LineOfSight.PathShape = .straight
        var stepMetres: Double?
        var observerHeightMetres: Double
        var targetHeightMetres: Double
        var curvature: Double
        var dem: String
    }

    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        try args.expectNoPositionals()
        let terrain = try TerrainOptions(args)
        let units = try args.value(ProfileOptions.units)
        let format = try args.value(ProfileOptions.format)
        // The path: --from/--to, --path with two or more vertices, or a track's segments.
        var segments: [[GeoPoint]]
        if let trackPath = try args.value(ProfileOptions.track) {
            guard !args.has(ProfileOptions.from) && !args.has(ProfileOptions.to) && !args.has(ProfileOptions.path) else {
                throw CLIError.usage("--track cannot be combined with --from/--to or --path", command: "profile")
            }
            var track = try TrackCommand.load(trackPath, console: console).track
            if let m = try args.value(ProfileOptions.maxSegment) {
                try TrackCommand.checkDensifiedCount(track, maxSegment: m, command: "profile")
                track = track.densified(maxSegmentMetres: m)
            }
            segments = track.segments.map { $0.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) } }
        } else {
            var texts: [(String, String)] = []
            if args.has(ProfileOptions.path) {
                guard !args.has(ProfileOptions.from) && !args.has(ProfileOptions.to) else {
                    throw CLIError.usage("--path cannot be combined with --from/--to", command: "profile")
                }
                texts = try args.values(ProfileOptions.path).map { ("path", $0) }
                guard texts.count >= 2 else { throw CLIError.usage("--path needs at least two LON,LAT vertices", command: "profile") }
            } else {
                guard let from = try args.value(ProfileOptions.from) else { throw CLIError.usage("missing --from LON,LAT (or --path or --track)", command: "profile") }
                guard let to = try args.value(ProfileOptions.to) else { throw CLIError.usage("missing --to LON,LAT", command: "profile") }
                texts = [("from", from), ("to", to)]
            }
            var parsed: [PointArgument] = []
            for (option, text) in texts {
                switch PointArgument.parse(text) {
                case .success(let p) where p.z == nil: parsed.append(p)
                case .success: throw CLIError.usage("option '--\(option)': '\(text)': a profile takes LON,LAT; heights come from the DEM", command: "profile")
                case .failure(let e): throw CLIError.usage("option '--\(option)': \(e.text)", command: "profile")
                }
            }
            let vertices = try terrain.toWGS84(parsed)
            for (k, v) in vertices.enumerated() {
                guard v.longitude.isFinite else {
                    throw CLIError.badInput("option '--\(texts[k].0)': cannot transform '\(texts[k].1)' from \(terrain.crs ?? "the input CRS") to WGS84")
                }
                if let problem = PointArgument.checkGeographic(longitude: v.longitude, latitude: v.latitude) {
                    throw CLIError.usage("option '--\(texts[k].0)': \(problem.text)", command: "profile")
                }
            }
            segments = [vertices]
        }
        let vertices = segments.flatMap { $0 }
        let step = try args.value(ProfileOptions.step)
        let maxSamples = try args.value(ProfileOptions.maxSamples)
        let samples = try args.value(ProfileOptions.samples)
        if let samples, samples > maxSamples {
            throw CLIError.usage("option '--samples': \(NumberFormatting.grouped(Double(samples), decimals: 0)) samples are more than \(NumberFormatting.grouped(Double(maxSamples), decimals: 0)); raise --max-samples", command: "profile")
        }
        guard step == nil || samples == nil else { throw CLIError.usage("give --step or --samples, not both", command: "profile") }
        let observer = try args.value(ProfileOptions.observerHeight)
        let target = try args.value(ProfileOptions.targetHeight)
        let curvature = try args.value(ProfileOptions.curvature)

        let chartSize = try args.value(ProfileOptions.chartSize)
        let model = try terrain.openDEM(console: console)
        // Every vertex must lie on the DEM; a vertex on no data is a gap, not an error.
        let (columns, rows) = model.pixelCoordinates(of: vertices)
        for k in vertices.indices where !model.contains(column: columns[k], row: rows[k]) {
            throw TerrainError.outsideCoverage(point: MeasureCommand.describe(vertices[k]), dem: model.label)
        }
        let result = try profile(segments: segments, model: model, step: step, samples: samples, maxSamples: maxSamples,
                                 interpolation: terrain.interpolation, observer: observer, target: target, curvature: curvature)
        var files = RunFiles()
        files.inputs(dem: model, terrain: terrain)
        let track = try args.value(ProfileOptions.track), out = try args.value(CommonOptions.out)
        let chart = try args.value(ProfileOptions.chart), chartLayout = try args.value(ProfileOptions.chartLayout)
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
            try writeChart(result, path: chart, size: chartSize, title: args.value(ProfileOptions.title), units: units, transaction: transaction,
                           layoutPath: chartLayout, console: console)
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

    /// Samples the path and computes statistics and line of sight.
    static func profile(vertices: [GeoPoint], model: ElevationModel, step: Double?, samples: Int?, maxSamples: Int,
                        interpolation: Interpolation, observer: Double, target: Double, curvature: Double) throws -> Run {
        try profile(segments: [vertices], model: model, step: step, samples: samples, maxSamples: maxSamples,
                    interpolation: interpolation, observer: observer, target: target, curvature: curvature)
    }

    /// Samples paths made of separate segments (a track's), with distance running on from one
    /// segment to the next; a gap sample between segments keeps the statistics from measuring
    /// across the break.
    static func profile(segments: [[GeoPoint]], model: ElevationModel, step: Double?, samples: Int?, maxSamples: Int,
                        interpolation: Interpolation, observer: Double, target: Double, curvature: Double) throws -> Run {
        let geodesic = Geodesic.wgs84
        let legsPerSegment = segments.map { seg in zip(seg, seg.dropFirst()).map { geodesic.inverse(from: $0, to: $1).distanceMetres } }
        let legs = legsPerSegment.flatMap { $0 }
        let longest = segments.indices.max { legsPerSegment[$0].reduce(0, +) < legsPerSegment[$1].reduce(0, +) } ?? 0
        var spacing: ProfilePlan.Spacing
        var stepUsed: Double? = step
        if let samples {
            spacing = .count(samples)
        } else if let step {
            spacing = .step(step)
        } else {
            // The DEM's native resolution at the path's middle (the finer of its two axes).
            let cell = model.resolutionMetres(at: midpoint(segments[longest], legs: legsPerSegment[longest], geodesic: geodesic))
            let native = min(cell.x, cell.y)
            stepUsed = native
            spacing = .step(native)
        }
        let count = ProfilePlan.sampleCount(legLengthsMetres: legs, spacing: spacing) + segments.count
        guard count <= maxSamples else {
            throw CLIError.usage("the profile would take \(NumberFormatting.grouped(Double(count), decimals: 0)) samples, more than \(NumberFormatting.grouped(Double(maxSamples), decimals: 0)); use a larger --step or raise --max-samples", command: "profile")
        }
        let total = legs.reduce(0, +)
        var plan = ProfilePlan(distancesMetres: [], longitudes: [], latitudes: [])
        var offset = 0.0
        for (k, segment) in segments.enumerated() where !segment.isEmpty {
            var segmentSpacing = spacing
            if case .count(let n) = spacing, total > 0 {
                segmentSpacing = .count(max(2, Int((Double(n) * legsPerSegment[k].reduce(0, +) / total).rounded())))
            }
            let part = ProfilePlan(vertices: segment, spacing: segmentSpacing, geodesic: geodesic)
            if !plan.distancesMetres.isEmpty {
                // The break between segments: a gap at no distance.
                plan.distancesMetres.append(offset)
                plan.longitudes.append(.nan)
                plan.latitudes.append(.nan)
            }
            plan.distancesMetres += part.distancesMetres.map { $0 + offset }
            plan.longitudes += part.longitudes
            plan.latitudes += part.latitudes
            offset += part.distancesMetres.last ?? 0
        }
        let points = (0..<plan.distancesMetres.count).map { GeoPoint(longitude: plan.longitudes[$0], latitude: plan.latitudes[$0]) }
        let elevations = try model.elevations(at: points, interpolation: interpolation)
        let profile = Profile(distancesMetres: plan.distancesMetres, longitudes: plan.longitudes, latitudes: plan.latitudes,
                              elevationsMetres: elevations)
        // A sight line over a path that bends, or over a track's separate segments, would judge
        // terrain that is not under it: no verdict unless the path is one geodesic.
        let shape = LineOfSight.shape(of: segments, geodesic: geodesic)
        let lineOfSight = shape == .straight
            ? LineOfSight(profile: profile, observerHeightMetres: observer, targetHeightMetres: target, curvature: curvature) : nil
        return Run(profile: profile, statistics: ProfileStatistics(profile), lineOfSight: lineOfSight, pathShape: shape,
                   stepMetres: samples == nil ? stepUsed : nil, observerHeightMetres: observer, targetHeightMetres: target,
                   curvature: curvature, dem: model.label)
    }

    /// Draws the profile chart: its title names the measurement between the ends.
    static func writeChart(_ r: Run, path: String, size: (width: Int, height: Int), title: String?, units: UnitSystem,
                           transaction: OutputTransaction, layoutPath: String? = nil, console: Console? = nil) throws {
        let p = r.profile
        var label: String? = nil
        if let z0 = p.elevationsMetres.first, let z1 = p.elevationsMetres.last, !z0.isNaN, !z1.isNaN, p.count > 1 {
            let m = Measurement(start: GeoPoint(longitude: p.longitudes[0], latitude: p.latitudes[0], heightMetres: z0),
                                end: GeoPoint(longitude: p.longitudes[p.count - 1], latitude: p.latitudes[p.count - 1], heightMetres: z1))
            label = m.label(units: units)
        }
        let chart = ProfileChart(profile: p, statistics: r.statistics, lineOfSight: r.lineOfSight,
                                 title: title ?? "Elevation profile", subtitle: label, units: units,
                                 width: size.width, height: size.height)
        let image = try chart.render()
        try transaction.writePNG(image, to: path, texts: [("Software", "transect \(Help.version)"), ("Source", r.dem),
                                                          ("Title", title ?? "Elevation profile")], dpi: nil)
        for note in image.notes { console?.err(note + "\n") }
        if let layoutPath { try transaction.write(image.layout.json.serialized() + "\n", to: layoutPath) }
    }

    /// The point halfway along the path.
    static func midpoint(_ vertices: [GeoPoint], legs: [Double], geodesic: Geodesic) -> GeoPoint {
        var remaining = legs.reduce(0, +) / 2
        for (k, length) in legs.enumerated() {
            if remaining <= length && length > 0 {
                return geodesic.inverseLine(from: vertices[k], to: vertices[k + 1]).position(atDistance: remaining).point
            }
            remaining -= length
        }
        return vertices[0]
    }
}
