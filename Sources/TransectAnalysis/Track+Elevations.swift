/// One elevation per fix of a track, and where each came from.
///
/// With a DEM, a fix takes the DEM's elevation; where the DEM has none (the fix is outside it
/// or on no data) it keeps the elevation it recorded, if any. Nothing is ever filled with a
/// zero: a fix with neither stays unknown and is counted in ``missing``.
public struct TrackElevations: Sendable, Hashable {
    /// One per fix, segment after segment; nil where unknown. Empty for
    /// ``init(countingRecordedIn:)``, whose elevations are the track's own.
    public var values: [Double?]
    /// Fixes whose elevation came from the DEM.
    public var fromDEM: Int
    /// Fixes whose elevation is the recorded one.
    public var recorded: Int
    /// Fixes without an elevation.
    public var missing: Int

    /// The recorded elevations of `track`'s fixes.
    public init(recordedIn track: Track) {
        values = track.segments.flatMap { $0.lazy.map(\.elevationMetres) }
        fromDEM = 0
        recorded = values.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        missing = values.count - recorded
    }

    /// The counts of `track`'s recorded elevations (``recorded``, ``missing``) without a copy
    /// of them: ``values`` is empty, the elevations are read from the track's points (a track
    /// of millions of fixes is not held twice).
    public init(countingRecordedIn track: Track) {
        values = []
        fromDEM = 0
        recorded = track.segments.reduce(0) { $0 + $1.reduce(0) { $0 + ($1.elevationMetres == nil ? 0 : 1) } }
        missing = track.pointCount - recorded
    }

    /// DEM elevations `sampled` at `track`'s fixes (segment after segment; `nan` where the DEM
    /// has none), with the recorded elevation wherever the DEM has none.
    public init(sampled: [Double], track: Track) {
        precondition(sampled.count == track.pointCount, "one sample per point")
        values = []
        values.reserveCapacity(sampled.count)
        fromDEM = 0
        recorded = 0
        missing = 0
        var k = 0
        for segment in track.segments {
            for p in segment {
                let z = sampled[k]
                if !z.isNaN {
                    values.append(z)
                    fromDEM += 1
                } else if let r = p.elevationMetres {
                    values.append(r)
                    recorded += 1
                } else {
                    values.append(nil)
                    missing += 1
                }
                k += 1
            }
        }
    }

    /// `dem`, `recorded` or `dem+recorded`: which sources gave at least one elevation (`dem`
    /// when none did and a DEM was asked for, `recorded` when it was not).
    public func sourceLabel(demRequested: Bool) -> String {
        guard demRequested else { return "recorded" }
        switch (fromDEM > 0, recorded > 0) {
        case (true, true): return "dem+recorded"
        case (false, true): return "recorded"
        default: return "dem"
        }
    }

    /// The track with these elevations in place of the recorded ones.
    public func applied(to track: Track) -> Track {
        precondition(values.count == track.pointCount, "one elevation per point")
        var out = track
        var k = 0
        for s in out.segments.indices {
            for i in out.segments[s].indices {
                out.segments[s][i].elevationMetres = values[k]
                k += 1
            }
        }
        return out
    }
}
