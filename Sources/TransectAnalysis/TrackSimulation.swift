/// A location history simulated along a track, as the location-history sample is made: the
/// track densified along its geodesics to ``maxSegmentMetres``, then one fix per vertex 1 s
/// apart (``LocationSimulator/fixesPerVertex(_:startTime:interval:geodesic:)``), or, at
/// ``speedMetresPerSecond``, one fix per second of travel along the line
/// (``LocationSimulator/fixesAtSpeed(_:speed:startTime:interval:geodesic:)``).
///
/// ```swift
/// let simulation = TrackSimulation(speedMetresPerSecond: 1.4, startTime: 946_684_800)
/// let fixes = try track.simulated(simulation)   // one [Fix] per segment; refused before any fix past Track.maxPoints
/// ```
///
/// Elevations come from the track's points; to give the fixes other elevations (a DEM's),
/// set them on ``route(along:)``'s track before ``fixes(along:)``.
public struct TrackSimulation: Sendable, Hashable {
    /// The location-history sample's step: 50 m.
    public static let defaultMaxSegmentMetres = 50.0

    /// No step between vertices is longer than this, metres.
    public var maxSegmentMetres: Double
    /// Fixes spaced at this speed instead of one per vertex, metres per second.
    public var speedMetresPerSecond: Double?
    /// The first fix's time, seconds since 1970.
    public var startTime: Double

    public init(maxSegmentMetres: Double = defaultMaxSegmentMetres, speedMetresPerSecond: Double? = nil, startTime: Double) {
        self.maxSegmentMetres = maxSegmentMetres
        self.speedMetresPerSecond = speedMetresPerSecond
        self.startTime = startTime
    }

    /// The vertices the fixes follow: `track` densified to ``maxSegmentMetres``
    /// (``Track/densifiedChecked(maxSegmentMetres:interpolatingTimes:)``). Refused with
    /// ``TrackLimitError/densifiedTooLarge(maxSegmentMetres:points:)`` before any point is
    /// made, then, at a speed, with ``TrackLimitError/stepLongerThanSegment(speedMetresPerSecond:maxSegmentMetres:)``
    /// when a second's travel is longer than ``maxSegmentMetres`` and with ``TrackLimitError/tooManyFixes(speedMetresPerSecond:fixes:)``
    /// when the fixes would number more than ``Track/maxPoints``.
    public func route(along track: Track) throws(TrackLimitError) -> Track {
        try track.checkDensifiedCount(maxSegmentMetres: maxSegmentMetres)
        if let speed = speedMetresPerSecond, speed > maxSegmentMetres {
            // A fix a second at this speed would step further than the segment allows.
            throw .stepLongerThanSegment(speedMetresPerSecond: speed, maxSegmentMetres: maxSegmentMetres)
        }
        let route = track.densified(maxSegmentMetres: maxSegmentMetres)
        if let speed = speedMetresPerSecond {
            // One fix per second of travel: the length over the speed (the track's own
            // geodesic length, which densifying does not change), and each segment's last.
            let fixes = track.lengthMetres() / speed + Double(track.segments.count)
            guard fixes <= Track.maxPoints else { throw .tooManyFixes(speedMetresPerSecond: speed, fixes: fixes) }
        }
        return route
    }

    /// The fixes along `route`, a track from ``route(along:)`` (with the elevations the fixes
    /// should carry), from ``startTime`` 1 s apart: one list of fixes per segment of the
    /// route, the clock paused between segments (a segment's first fix is 1 s after the
    /// previous segment's last), so no fix and no step lies across a gap.
    public func fixes(along route: Track) -> [[Fix]] {
        speedMetresPerSecond.map { LocationSimulator.fixesAtSpeed(route, speed: $0, startTime: startTime) }
            ?? LocationSimulator.fixesPerVertex(route, startTime: startTime)
    }
}

extension Track {
    /// The fixes `simulation` makes along this track, with its own elevations: its
    /// ``TrackSimulation/route(along:)``, then ``TrackSimulation/fixes(along:)``.
    public func simulated(_ simulation: TrackSimulation) throws(TrackLimitError) -> [[Fix]] {
        simulation.fixes(along: try simulation.route(along: self))
    }
}
