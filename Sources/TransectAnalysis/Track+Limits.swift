import TransectSupport

/// A request that would make a track too large to hold.
public enum TrackLimitError: UserFacingError, Equatable {
    /// Densifying to `maxSegmentMetres` would give `points` points, more than ``Track/maxPoints``.
    case densifiedTooLarge(maxSegmentMetres: Double, points: Double)
    /// Fixes at `speedMetresPerSecond`, one a second, would number `fixes`, more than
    /// ``Track/maxPoints``.
    case tooManyFixes(speedMetresPerSecond: Double, fixes: Double)
    /// Fixes 1 s apart at `speedMetresPerSecond` would be further apart than `maxSegmentMetres`,
    /// the longest step a simulated track may have.
    case stepLongerThanSegment(speedMetresPerSecond: Double, maxSegmentMetres: Double)

    /// `50 m would make 12,345,678 points, more than 10,000,000; use a longer segment` or
    /// `0.001 m/s would make 11,119,496 fixes, more than 10,000,000; use a higher speed`; the
    /// caller names the option it came from.
    public var message: String {
        switch self {
        case .densifiedTooLarge(let maxSegment, let points):
            let many = points < 1e15 ? NumberFormatting.grouped(points, decimals: 0) : NumberFormatting.shortest(points)
            return
                "\(NumberFormatting.shortest(maxSegment)) m would make \(many) points, more than \(NumberFormatting.grouped(Track.maxPoints, decimals: 0)); use a longer segment"
        case .tooManyFixes(let speed, let fixes):
            // A count beyond integers is written in full; one that overflowed to infinity
            // (a subnormal speed) as `null`, as the message has always written it.
            let many = fixes < 1e15 ? NumberFormatting.grouped(fixes.rounded(.up), decimals: 0) : fixes.isFinite ? NumberFormatting.shortest(fixes) : "null"
            return
                "\(NumberFormatting.shortest(speed)) m/s would make \(many) fixes, more than \(NumberFormatting.grouped(Track.maxPoints, decimals: 0)); use a higher speed"
        case .stepLongerThanSegment(let speed, let maxSegment):
            return
                "\(NumberFormatting.shortest(speed)) m/s makes steps of \(NumberFormatting.shortest(speed)) m, longer than the \(NumberFormatting.shortest(maxSegment)) m --max-segment; raise --max-segment"
        }
    }

    /// The length and the speed are the user's to choose: a usage error.
    public var isUsageError: Bool { true }
}

extension Track {
    /// Refuses a densification to `maxSegmentMetres` that would give more than
    /// ``Track/maxPoints`` points (see ``densifiedPointCount(maxSegmentMetres:geodesic:)``),
    /// before any point is made.
    public func checkDensifiedCount(maxSegmentMetres: Double) throws(TrackLimitError) {
        let count = densifiedPointCount(maxSegmentMetres: maxSegmentMetres)
        guard count <= Track.maxPoints else {
            throw .densifiedTooLarge(maxSegmentMetres: maxSegmentMetres, points: count)
        }
    }

    /// The track densified to `maxSegmentMetres` (``densified(maxSegmentMetres:interpolatingTimes:geodesic:)``),
    /// after ``checkDensifiedCount(maxSegmentMetres:)``: the one way to densify to a length the
    /// user chose, refused before any point is made when it would exceed ``Track/maxPoints``.
    ///
    /// - Parameter interpolatingTimes: false to leave inserted points without a time.
    public func densifiedChecked(maxSegmentMetres: Double, interpolatingTimes: Bool = true) throws(TrackLimitError) -> Track {
        try checkDensifiedCount(maxSegmentMetres: maxSegmentMetres)
        return densified(maxSegmentMetres: maxSegmentMetres, interpolatingTimes: interpolatingTimes)
    }
}
