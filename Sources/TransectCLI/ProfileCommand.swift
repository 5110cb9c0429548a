import TransectAnalysis
import TransectFormats
import TransectGDAL
import TransectGeodesy
import TransectRender

/// `transect profile`: the elevation profile along a geodesic path, its statistics and the
/// line of sight from one end to the other (when the path is one geodesic).
enum ProfileCommand {
    /// Reads and checks every option, then profiles the path with one
    /// ``ElevationModel/profile(_:)`` call and writes the table, JSON or CSV (and the chart).
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        try args.expectNoPositionals()
        let terrain = try TerrainOptions(args)
        let settings = try ProfileSettings(args, terrain: terrain)
        let threads = try CommonOptions.threadCount(args)
        let path: ProfilePath
        var recordedTrack: Track?
        switch settings.route {
        case .vertices(let vertices): path = ProfilePath(vertices: vertices)
        case .track(let file, let maxSegment, let recorded):
            let track = try loadTrack(file, maxSegment: maxSegment, console: console)
            path = ProfilePath(segments: track.segments.map { $0.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) } })
            if recorded { recordedTrack = track }
        }
        var request = settings.request(path, interpolation: terrain.interpolation)
        request.threads = threads

        let result: TerrainProfile
        var model: ElevationModel?
        if let recordedTrack, let file = settings.track {
            result = try recordedProfile(recordedTrack, path: path, source: file == "-" ? "stdin" : file, settings: settings)
        } else {
            let dem = try terrain.openDEM(console: console)
            model = dem
            do { result = try dem.profile(request) } catch let error as ProfileError {
                throw CLIError.usage(error.message + "; use a larger --step or raise --max-samples", command: "profile")
            }
        }
        var files = RunFiles()
        files.inputs(dem: model, terrain: terrain)
        files.input("--track", settings.track)
        files.output("-o", settings.out)
        files.output("--chart", settings.chart)
        files.output("--chart-layout", settings.chartLayout)
        try files.check(command: "profile")
        // The chart and the -o file are one result: both land, or neither.
        let transaction = OutputTransaction()
        if let chart = settings.chart {
            try ProfileOutput.writeChart(
                result, path: chart, figure: settings.chartFigure, title: settings.title, units: settings.units, alongTrack: settings.track != nil,
                transaction: transaction, layoutPath: settings.chartLayout, console: console, encoding: settings.png)
        }
        if settings.format == .gpkg, let out = settings.out {
            let layers = try LayerOutput(path: out, format: .gpkg, transaction: transaction)
            try ProfileOutput.writeLayers(result, to: layers)
            try layers.finish()
            try transaction.commit()
            return 0
        }
        let output = try OutputTarget(path: settings.out, console: console, transaction: transaction)
        switch settings.format {
        case .json: ProfileOutput.writeJSON(result, to: output, threads: threads)
        case .csv: ProfileOutput.writeCSV(result, to: output, threads: threads)
        default: output.write(ProfileOutput.text(result, units: settings.units))
        }
        try output.commit()
        try transaction.commit()
        return 0
    }

    /// A track read and cleaned, densified to `--max-segment` when given (elevations and times
    /// interpolated along the geodesics).
    static func loadTrack(_ trackPath: String, maxSegment: Double?, console: Console) throws -> Track {
        var track = try TrackInput.load(trackPath, console: console).track
        if let m = maxSegment {
            track = try TrackInput.densified(track, maxSegment: m, command: "profile")
        }
        return track
    }

    /// The profile a track records (``Profile/init(recordedAlong:geodesic:)``): its own points
    /// and elevations, one break between segments, and a line of sight only when the track is
    /// one geodesic. A track that records no elevation is an error naming it (exit 1).
    static func recordedProfile(_ track: Track, path: ProfilePath, source: String, settings: ProfileSettings) throws -> TerrainProfile {
        guard track.segments.contains(where: { $0.contains { $0.elevationMetres != nil } }) else {
            throw CLIError.badInput("'\(source)': the track records no elevations; give --dem to profile it on a DEM")
        }
        let profile = Profile(recordedAlong: track)
        let shape = path.shape
        let lineOfSight =
            shape == .straight
            ? LineOfSight(
                profile: profile, observerHeightMetres: settings.observerHeight, targetHeightMetres: settings.targetHeight,
                curvature: settings.curvature) : nil
        var result = TerrainProfile(
            profile: profile, statistics: ProfileStatistics(profile), lineOfSight: lineOfSight, pathShape: shape, stepMetres: nil,
            observerHeightMetres: settings.observerHeight, targetHeightMetres: settings.targetHeight, curvature: settings.curvature,
            dem: source)
        result.recordedElevations = true
        return result
    }
}
