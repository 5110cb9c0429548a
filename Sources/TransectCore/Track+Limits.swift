/// A request that would make a track too large to hold.
public enum TrackLimitError: UserFacingError, Equatable {
    /// Densifying to `maxSegmentMetres` would give `points` points, more than ``Track/maxPoints``.
    case densifiedTooLarge(maxSegmentMetres: Double, points: Double)

    /// `50 m would make 12,345,678 points, more than 10,000,000; use a longer segment`; the
    /// caller names the option it came from.
    public var message: String {
        switch self {
        case .densifiedTooLarge(let maxSegment, let points):
            let many = points < 1e15 ? NumberFormatting.grouped(points, decimals: 0) : NumberFormatting.shortest(points)
            return
                "\(NumberFormatting.shortest(maxSegment)) m would make \(many) points, more than \(NumberFormatting.grouped(Track.maxPoints, decimals: 0)); use a longer segment"
        }
    }

    /// The length is the user's to choose: a usage error.
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
