import TransectSupport

/// How a track is summarised in ``TrackStatistics``: densified along its geodesics to
/// ``maxSegmentMetres`` when one is given (denser elevations for the 3D length and the climb,
/// while times stay those of the recorded fixes), the gain and loss hysteresis, and whose rules
/// the reported figures follow (``method``).
///
/// ```swift
/// let request = TrackSummaryRequest(maxSegmentMetres: 10, gainThresholdMetres: 3)
/// let route = try request.route(along: track)
/// let stats = request.statistics(of: route, recordedFixes: track.pointCount,
///                                elevations: nil)   // the route's own, as recorded
/// ```
public struct TrackSummaryRequest: Sendable, Hashable {
    /// Densify so that no step is longer than this, metres; nil to keep the recorded points.
    public var maxSegmentMetres: Double?
    /// Hysteresis for gain and loss, metres (``TrackStatistics``).
    public var gainThresholdMetres: Double
    /// Whose rules the figures follow (``TrackStatisticsMethod``).
    public var method: TrackStatisticsMethod

    public init(maxSegmentMetres: Double? = nil, gainThresholdMetres: Double = 3, method: TrackStatisticsMethod = .transect) {
        self.maxSegmentMetres = maxSegmentMetres
        self.gainThresholdMetres = gainThresholdMetres
        self.method = method
    }

    /// The points the statistics run over: `track` itself, or densified to
    /// ``maxSegmentMetres`` with inserted points that carry no time
    /// (``Track/densifiedChecked(maxSegmentMetres:interpolatingTimes:)``, refused before any
    /// point is made past ``Track/maxPoints``).
    public func route(along track: Track) throws(TrackLimitError) -> Track {
        guard let maxSegmentMetres else { return track }
        return try track.densifiedChecked(maxSegmentMetres: maxSegmentMetres, interpolatingTimes: false)
    }

    /// The statistics of `route` (from ``route(along:)``) with `elevations`, one per point of
    /// `route` (nil: the route's own recorded elevations). Its time counts are those of the track's own `recordedFixes` fixes: the points
    /// densifying inserted carry no time and are not counted as missing one.
    public func statistics(of route: Track, recordedFixes: Int, elevations: [Double?]?) -> TrackStatistics {
        var statistics = TrackStatistics(track: route, elevations: elevations, gainThresholdMetres: gainThresholdMetres)
        statistics.times.missing -= route.pointCount - recordedFixes
        return statistics
    }

    /// The figures of `route` by ``method``, with `elevations` and its `statistics` (from
    /// ``statistics(of:recordedFixes:elevations:)``).
    public func figures(of route: Track, elevations: [Double?], statistics: TrackStatistics) -> TrackFigures {
        method.figures(of: route, elevations: elevations, statistics: statistics)
    }
}

extension TimeCounts {
    /// How many fixes have usable times, and why the others have not: `97 of 1,852 fixes have
    /// usable times (1,755 repeat an earlier time)`, `1 of 1 fix has a usable time`.
    public var text: String {
        let points = usable + repeated + backwards + missing
        func g(_ k: Int) -> String { NumberFormatting.grouped(Double(k), decimals: 0) }
        var why: [String] = []
        if repeated > 0 { why.append("\(g(repeated)) repeat\(repeated == 1 ? "s" : "") an earlier time") }
        if backwards > 0 { why.append("\(g(backwards)) go\(backwards == 1 ? "es" : "") back in time") }
        if missing > 0 { why.append("\(g(missing)) ha\(missing == 1 ? "s" : "ve") none") }
        return
            "\(g(usable)) of \(g(points)) \(NumberFormatting.noun("fix", count: points, plural: "fixes")) \(usable == 1 ? "has a usable time" : "have usable times")"
            + (why.isEmpty ? "" : " (" + why.joined(separator: ", ") + ")")
    }
}
