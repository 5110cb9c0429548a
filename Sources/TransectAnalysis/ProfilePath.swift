import TransectGeodesy
import TransectSupport

/// A profile's path: one or more segments (a track's, or one polyline), each a run of vertices
/// joined by geodesic legs. Distance runs on from one segment to the next; between segments
/// the plan puts a gap sample, so statistics never measure across a break.
///
/// The steps of planning a profile, in the order a caller needs them: build the path, choose
/// a spacing (perhaps from the DEM's resolution at ``middle``), refuse a ``sampleCount(spacing:)``
/// over the caller's limit before anything is allocated, then ``plan(spacing:)``.
public struct ProfilePath: Sendable {
    /// The vertices of each segment (longitude, latitude in degrees).
    public let segments: [[GeoPoint]]
    /// The geodesic length of each leg, per segment, metres.
    public let legLengthsMetres: [[Double]]
    public let geodesic: Geodesic

    /// A path of separate segments. At least one segment must hold a vertex.
    public init(segments: [[GeoPoint]], geodesic: Geodesic = .wgs84) {
        precondition(segments.contains { !$0.isEmpty }, "a path needs at least one vertex")
        self.segments = segments
        self.geodesic = geodesic
        legLengthsMetres = segments.map { segment in
            zip(segment, segment.dropFirst()).map { geodesic.inverse(from: $0, to: $1).distanceMetres }
        }
    }

    /// A path of one segment through `vertices`.
    public init(vertices: [GeoPoint], geodesic: Geodesic = .wgs84) {
        self.init(segments: [vertices], geodesic: geodesic)
    }

    /// Every vertex of every segment, in order.
    public var vertices: [GeoPoint] { segments.flatMap { $0 } }

    /// The sum of all legs, metres.
    public var lengthMetres: Double { legLengthsMetres.flatMap { $0 }.reduce(0, +) }

    /// The index of the longest segment (the first of equals).
    public var longestSegment: Int {
        segments.indices.max { legLengthsMetres[$0].reduce(0, +) < legLengthsMetres[$1].reduce(0, +) } ?? 0
    }

    /// The point halfway along the longest segment, on its geodesic legs: where a DEM's
    /// native resolution is read to choose a step. The segment's first vertex when it has no
    /// length (the path's first vertex when that segment is empty).
    public var middle: GeoPoint {
        let k = longestSegment
        let vertices = segments[k]
        let legs = legLengthsMetres[k]
        guard let first = vertices.first else { return self.vertices[0] }
        var remaining = legs.reduce(0, +) / 2
        for (leg, length) in legs.enumerated() {
            if remaining <= length && length > 0 {
                return geodesic.inverseLine(from: vertices[leg], to: vertices[leg + 1]).position(atDistance: remaining).point
            }
            remaining -= length
        }
        return first
    }

    /// How many samples ``plan(spacing:)`` takes at most, gap samples included, without
    /// computing them: a caller refuses a request for billions before it allocates.
    public func sampleCount(spacing: ProfilePlan.Spacing) -> Int {
        ProfilePlan.sampleCount(legLengthsMetres: legLengthsMetres.flatMap { $0 }, spacing: spacing) + segments.count
    }

    /// Whether the path is one geodesic (only then does a sight line judge the terrain under
    /// it); see ``LineOfSight/shape(of:geodesic:)``.
    public var shape: LineOfSight.PathShape { LineOfSight.shape(of: segments, geodesic: geodesic) }

    /// The samples: each segment planned by ``ProfilePlan/init(vertices:spacing:geodesic:)``,
    /// its distances shifted by the length of the segments before it, and one gap sample
    /// (`nan` position) at the shared distance between consecutive segments. A `.count(n)`
    /// spacing is shared among the segments in proportion to their lengths (at least 2 each);
    /// a `.step` applies to every segment. Empty segments are skipped. `parallel` computes
    /// each segment's positions in chunks on several threads (see
    /// ``ProfilePlan/init(vertices:spacing:geodesic:parallel:)``); the plan is the same bits.
    public func plan(spacing: ProfilePlan.Spacing, parallel: ParallelLoop? = nil) -> ProfilePlan {
        let total = lengthMetres
        var plan = ProfilePlan(distancesMetres: [], longitudes: [], latitudes: [])
        var offset = 0.0
        for (k, segment) in segments.enumerated() where !segment.isEmpty {
            var segmentSpacing = spacing
            if case .count(let n) = spacing, total > 0 {
                segmentSpacing = .count(max(2, Int((Double(n) * legLengthsMetres[k].reduce(0, +) / total).rounded())))
            }
            let part = ProfilePlan(vertices: segment, spacing: segmentSpacing, geodesic: geodesic, parallel: parallel)
            if plan.distancesMetres.isEmpty && offset == 0 {
                // The first segment as it is: its distances plus 0 would be the same numbers
                // (none is −0), so no copy.
                plan = part
                offset = part.distancesMetres.last ?? 0
                continue
            }
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
        return plan
    }
}
