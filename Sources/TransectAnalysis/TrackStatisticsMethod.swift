/// Whose rules a track's statistics follow: ours, or those of a tool people compare with.
///
/// Tools disagree on a track's figures because they define them differently (the distance
/// formula, what counts as moving, how elevations are smoothed before gain and loss, which
/// speed is the maximum), not because one of them is wrong. A method reproduces one tool's
/// definitions, so a figure can be checked against the tool that printed it.
///
/// ```swift
/// let figures = TrackStatisticsMethod.gpxpy.figures(of: track, elevations: z, statistics: stats)
/// ```
public enum TrackStatisticsMethod: String, CaseIterable, Sendable, Hashable {
    /// ``TrackStatistics``: geodesic lengths, gain and loss with hysteresis, times from the
    /// usable timestamps only, segments summed, the maximum speed over a window
    /// (``TrackStatistics/maxSpeedWindowSeconds``, ``TrackStatistics/maxSpeedWindowMetres``).
    case transect
    /// gpxpy's own figures (``GPXPyStatistics``).
    case gpxpy
    /// gpx.studio's (``GPXStudioStatistics``).
    case gpxStudio = "gpx-studio"

    /// The figures of `track` by this method, over `elevations` (one per point, nil where
    /// unknown). `statistics` are ``TrackStatistics`` of the same track and elevations: the
    /// default method's figures are taken from them.
    ///
    /// - Complexity: O(n) for ``transect`` and ``gpxpy``; ``gpxStudio`` adds its
    ///   Ramer–Douglas–Peucker pass, O(n log n) on most tracks and O(n²) at worst.
    public func figures(of track: Track, elevations: [Double?], statistics: TrackStatistics) -> TrackFigures {
        switch self {
        case .transect: TrackFigures(statistics)
        case .gpxpy: TrackFigures(GPXPyStatistics(track: track, elevations: elevations))
        case .gpxStudio: TrackFigures(GPXStudioStatistics(track: track, elevations: elevations))
        }
    }
}

/// The figures every method reports, each as its method defines it. A figure a method does
/// not define is nil (gpx.studio has no 3D length); so is one it cannot give (an unknown
/// duration).
public struct TrackFigures: Sendable, Hashable {
    public var method: TrackStatisticsMethod
    /// Horizontal length, metres.
    public var length2DMetres: Double
    /// Length with the climbs in it, metres.
    public var length3DMetres: Double?
    /// Elevation gained and lost, metres.
    public var elevationGainMetres: Double?
    public var elevationLossMetres: Double?
    /// Recorded time, seconds, summed over segments (the pause between two segments is no
    /// part of it in any method).
    public var durationSeconds: Double?
    /// Time counted as moving and as stopped, seconds.
    public var movingTimeSeconds: Double?
    public var stoppedTimeSeconds: Double?
    /// Moving distance over moving time, m/s.
    public var averageSpeedMetresPerSecond: Double?
    /// The method's maximum speed, m/s.
    public var maxSpeedMetresPerSecond: Double?

    public init(
        method: TrackStatisticsMethod, length2DMetres: Double, length3DMetres: Double?, elevationGainMetres: Double?,
        elevationLossMetres: Double?, durationSeconds: Double?, movingTimeSeconds: Double?, stoppedTimeSeconds: Double?,
        averageSpeedMetresPerSecond: Double?, maxSpeedMetresPerSecond: Double?
    ) {
        self.method = method
        self.length2DMetres = length2DMetres
        self.length3DMetres = length3DMetres
        self.elevationGainMetres = elevationGainMetres
        self.elevationLossMetres = elevationLossMetres
        self.durationSeconds = durationSeconds
        self.movingTimeSeconds = movingTimeSeconds
        self.stoppedTimeSeconds = stoppedTimeSeconds
        self.averageSpeedMetresPerSecond = averageSpeedMetresPerSecond
        self.maxSpeedMetresPerSecond = maxSpeedMetresPerSecond
    }

    /// The default method's figures; gain and loss are unknown when no point has an elevation.
    public init(_ s: TrackStatistics) {
        let known = s.minElevationMetres != nil
        self.init(
            method: .transect, length2DMetres: s.length2DMetres, length3DMetres: s.length3DMetres,
            elevationGainMetres: known ? s.elevationGainMetres : nil, elevationLossMetres: known ? s.elevationLossMetres : nil,
            durationSeconds: s.durationSeconds, movingTimeSeconds: s.movingTimeSeconds, stoppedTimeSeconds: s.stoppedTimeSeconds,
            averageSpeedMetresPerSecond: s.averageSpeedMetresPerSecond, maxSpeedMetresPerSecond: s.maxSpeedMetresPerSecond)
    }

    /// gpxpy's figures as it returns them (its 0 for a track without times or elevations).
    public init(_ g: GPXPyStatistics) {
        self.init(
            method: .gpxpy, length2DMetres: g.length2DMetres, length3DMetres: g.length3DMetres, elevationGainMetres: g.uphillMetres,
            elevationLossMetres: g.downhillMetres, durationSeconds: g.durationSeconds, movingTimeSeconds: g.movingTimeSeconds,
            stoppedTimeSeconds: g.stoppedTimeSeconds,
            averageSpeedMetresPerSecond: g.movingTimeSeconds > 0 ? g.movingDistanceMetres / g.movingTimeSeconds : 0,
            maxSpeedMetresPerSecond: g.maxSpeedMetresPerSecond)
    }

    /// gpx.studio's figures as it shows them; it has no 3D length and no stopped time.
    public init(_ g: GPXStudioStatistics) {
        self.init(
            method: .gpxStudio, length2DMetres: g.distanceMetres, length3DMetres: nil, elevationGainMetres: g.gainMetres,
            elevationLossMetres: g.lossMetres, durationSeconds: g.totalTimeSeconds, movingTimeSeconds: g.movingTimeSeconds,
            stoppedTimeSeconds: nil, averageSpeedMetresPerSecond: g.movingSpeedMetresPerSecond, maxSpeedMetresPerSecond: g.maxSpeedMetresPerSecond)
    }
}
