import TransectAnalysis
import TransectRaster
import TransectSupport

/// A track whose fixes have no elevation to take.
public enum TrackTerrainError: UserFacingError, Equatable {
    /// No fix of the track `track` lies on data in the DEM `dem`, and the track records no
    /// elevations: an error, never a silent zero.
    case noElevations(track: String, dem: String)

    public var message: String {
        switch self {
        case .noElevations(let track, let dem): "'\(track)': no fix lies on data in the DEM '\(dem)' and the track records no elevations"
        }
    }

    /// The data is at fault, not the command line.
    public var isUsageError: Bool { false }
}

/// A track's statistics, with the elevations they used and what to say about them.
public struct TrackSummary: Sendable {
    public var statistics: TrackStatistics
    /// The figures by the method asked for (``TrackSummaryRequest/method``).
    public var figures: TrackFigures
    /// One per point the statistics ran over, and where each came from.
    public var elevations: TrackElevations
    /// The DEM's label when elevations were asked of one; nil for the recorded elevations.
    public var dem: String?
    /// Whole lines for stderr, without the newline (`note: 'walk.gpx': 3 of 91 fixes lie
    /// outside the DEM …`).
    public var notes: [String]

    /// `figures` default to those of `statistics` (the default method).
    public init(statistics: TrackStatistics, figures: TrackFigures? = nil, elevations: TrackElevations, dem: String?, notes: [String]) {
        self.statistics = statistics
        self.figures = figures ?? TrackFigures(statistics)
        self.elevations = elevations
        self.dem = dem
        self.notes = notes
    }
}

/// A simulated location history, and what to say about its elevations.
public struct SimulatedTrack: Sendable {
    /// One list of fixes per segment of the track, never bridging a gap.
    public var segments: [[Fix]]
    /// Whole lines for stderr, without the newline.
    public var notes: [String]

    public init(segments: [[Fix]], notes: [String]) {
        self.segments = segments
        self.notes = notes
    }
}

/// A track's work over terrain: its statistics (``summary(of:_:)``) and a location history
/// simulated along it (``simulation(of:_:)``), with elevations from ``model`` where one is
/// given and the recorded ones otherwise (``elevations(for:)``).
///
/// ```swift
/// let terrain = TrackTerrain(source: "walk.gpx", model: try ElevationModel(["dem.tif"]))
/// let summary = try terrain.summary(of: track, TrackSummaryRequest(maxSegmentMetres: 10))
/// ```
public struct TrackTerrain {
    /// How notes and errors name the track (its path as the user gave it).
    public var source: String
    /// The DEM; nil for the recorded elevations.
    public let model: ElevationModel?
    public var interpolation: Interpolation

    public init(source: String, model: ElevationModel?, interpolation: Interpolation = .bilinear) {
        self.source = source
        self.model = model
        self.interpolation = interpolation
    }

    /// The statistics of `track` as `request` asks (``TrackSummaryRequest``), over the
    /// elevations of ``elevations(for:)``. A note says when some fixes carry times but not all
    /// of them are usable (a track without any times simply has an unknown duration).
    ///
    /// - Throws: ``TrackLimitError`` for a `--max-segment` past ``Track/maxPoints``,
    ///   ``TrackTerrainError`` or ``TerrainError`` from ``elevations(for:)``.
    public func summary(of track: Track, _ request: TrackSummaryRequest) throws -> TrackSummary {
        let route = try request.route(along: track)
        let (elevations, notes) = try self.elevations(for: route)
        // Without a DEM the statistics read the route's own elevations where they are; the
        // other methods, which smooth or simplify them, are given them as a list.
        let own = model == nil
        let statistics = request.statistics(of: route, recordedFixes: track.pointCount, elevations: own ? nil : elevations.values)
        let listed = own ? (request.method == .transect ? [] : TrackElevations(recordedIn: route).values) : elevations.values
        let figures = request.figures(of: route, elevations: listed, statistics: statistics)
        var said = notes
        if statistics.times.usable < track.pointCount && statistics.times.usable > 0 {
            said.append("note: '\(source)': \(statistics.times.text); durations and speeds use those times only")
        }
        return TrackSummary(statistics: statistics, figures: figures, elevations: elevations, dem: model?.label, notes: said)
    }

    /// The fixes `simulation` makes along `track` (``TrackSimulation``), with the DEM's
    /// elevations (``elevations(for:)`` on the densified route) when ``model`` is given and
    /// the recorded ones otherwise.
    ///
    /// - Throws: ``TrackLimitError`` before any fix is made when the route or the fixes would
    ///   exceed ``Track/maxPoints``; ``TrackTerrainError`` or ``TerrainError`` from the DEM.
    public func simulation(of track: Track, _ simulation: TrackSimulation) throws -> SimulatedTrack {
        var route = try simulation.route(along: track)
        var notes: [String] = []
        if model != nil {
            let sampled = try elevations(for: route)
            route = sampled.elevations.applied(to: route)
            notes = sampled.notes
        }
        return SimulatedTrack(segments: simulation.fixes(along: route), notes: notes)
    }

    /// One elevation per fix of `track`: the DEM's where ``model`` is given, with the recorded
    /// elevation wherever the DEM has none (``TrackElevations/init(sampled:track:)``); the
    /// counts of the recorded ones otherwise (``TrackElevations/init(countingRecordedIn:)``:
    /// no values, they are the track's own, read where they are). The notes say which fixes took a recorded elevation and which
    /// have none.
    ///
    /// - Throws: ``TrackTerrainError/noElevations(track:dem:)`` when the DEM gives no fix an
    ///   elevation and the track records none; ``TerrainError`` when sampling fails.
    public func elevations(for track: Track) throws -> (elevations: TrackElevations, notes: [String]) {
        let n = track.pointCount
        func count(_ k: Int) -> String { "\(NumberFormatting.grouped(Double(k), decimals: 0)) of \(NumberFormatting.grouped(Double(n), decimals: 0)) fixes" }
        guard let model else {
            let recorded = TrackElevations(countingRecordedIn: track)
            if recorded.recorded == 0 {
                return (recorded, ["note: '\(source)': the track records no elevations; gain, loss and elevations are unknown (use --dem)"])
            }
            if recorded.missing > 0 {
                return (recorded, ["note: '\(source)': \(count(recorded.missing)) record no elevation; gain and loss skip them"])
            }
            return (recorded, [])
        }
        // In the track's order, chunk by chunk as the track crosses them (elevations(at:)'s bits).
        let z = try model.elevationsAlongPath(
            longitudes: track.points.map(\.point.longitude), latitudes: track.points.map(\.point.latitude), interpolation: interpolation)
        let merged = TrackElevations(sampled: z, track: track)
        if merged.fromDEM == 0 && merged.recorded == 0 {
            throw TrackTerrainError.noElevations(track: source, dem: model.label)
        }
        var notes: [String] = []
        if merged.recorded > 0 {
            notes.append(
                "note: '\(source)': \(count(merged.recorded)) lie outside the DEM '\(model.label)' or on its no data; their recorded elevations are used")
        }
        if merged.missing > 0 {
            notes.append(
                "note: '\(source)': \(count(merged.missing)) lie outside the DEM '\(model.label)' or on its no data and record no elevation; gain and loss skip them"
            )
        }
        return (merged, notes)
    }
}
