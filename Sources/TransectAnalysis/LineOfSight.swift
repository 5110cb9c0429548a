import TransectGeodesy

/// Whether an observer above the start of a profile can see a target above its end.
///
/// The model, as common viewshed tools use it: every terrain height is reduced by
/// cc·d²/(2R), with d the geodesic distance from the observer, R = 6,371,008.8 m (the mean
/// earth radius) and cc the curvature coefficient (default 0.85714 = 1 − 1/7, i.e. curvature
/// with standard refraction; 1 is curvature alone, 0 a flat earth). The sight line is straight
/// between the reduced observer and target heights. A sample blocks the line when its reduced
/// terrain is above the line; samples in gaps are unknown, and a line whose only possible
/// obstruction lies in a gap is `unknown`, never visible.
public struct LineOfSight: Sendable, Hashable {
    /// The earth radius of the curvature model, metres (IUGG mean radius R₁):
    /// ``EarthCurvature/meanRadiusMetres``, which the perspective view shares.
    public static let earthRadiusMetres = EarthCurvature.meanRadiusMetres
    /// The default curvature coefficient: 1 − k with the refraction coefficient k = 1/7
    /// (``EarthCurvature/defaultCurvatureCoefficient``, which `view` and `viewshed` share).
    public static let defaultCurvature = EarthCurvature.defaultCurvatureCoefficient

    public enum Verdict: String, Sendable, Hashable {
        case visible, obstructed, unknown
    }

    /// Where the sight line comes closest to the terrain, or first passes below it.
    public struct Point: Sendable, Hashable {
        /// Index of the profile sample.
        public var index: Int
        /// Terrain height at the sample, metres, as sampled (not reduced).
        public var terrainMetres: Double
        /// Height of the sight line above the datum at the sample, in the same unreduced frame
        /// as the terrain (sight line plus the sample's curvature drop).
        public var sightLineMetres: Double
        /// Sight line minus terrain, metres: negative where the terrain blocks.
        public var clearanceMetres: Double
    }

    public var verdict: Verdict
    /// The first sample whose terrain is above the sight line; nil when there is none.
    public var firstObstruction: Point?
    /// The sample with the least clearance among those with data between the ends.
    public var minimumClearance: Point?
    /// Observer eye height above the datum, metres (terrain at the start plus the observer height).
    public var observerMetres: Double
    /// Target height above the datum, metres.
    public var targetMetres: Double
    /// Samples between the ends that fall in gaps.
    public var unknownSamples: Int
    /// The curvature coefficient the line was computed with.
    public var curvature: Double
    /// The profile's length, metres: the target's distance from the observer.
    public var lengthMetres: Double

    /// Computes the line of sight over `profile` from `observerHeightMetres` above its first
    /// sample to `targetHeightMetres` above its last. Nil when either end has no data.
    ///
    /// - Complexity: O(n).
    public init?(
        profile: Profile, observerHeightMetres: Double, targetHeightMetres: Double,
        curvature: Double = LineOfSight.defaultCurvature
    ) {
        let z = profile.elevationsMetres
        let d = profile.distancesMetres
        guard let z0 = z.first, let zn = z.last, !z0.isNaN, !zn.isNaN else { return nil }
        let n = z.count
        let k = curvature / (2 * Self.earthRadiusMetres)
        let total = d[n - 1]
        self.curvature = curvature
        lengthMetres = total
        observerMetres = z0 + observerHeightMetres
        targetMetres = zn + targetHeightMetres
        firstObstruction = nil
        minimumClearance = nil
        unknownSamples = 0
        var blocked = false
        if n > 2 {
            for i in 1..<(n - 1) {
                let zi = z[i]
                if zi.isNaN {
                    unknownSamples += 1
                    continue
                }
                let drop = k * d[i] * d[i]
                let line = Self.reducedLine(observerMetres: observerMetres, targetMetres: targetMetres, k: k, total: total, at: d[i])
                let clearance = line - (zi - drop)
                let point = Point(index: i, terrainMetres: zi, sightLineMetres: line + drop, clearanceMetres: clearance)
                if minimumClearance == nil || clearance < minimumClearance!.clearanceMetres { minimumClearance = point }
                if clearance < 0 && !blocked {
                    blocked = true
                    firstObstruction = point
                }
            }
        }
        verdict = blocked ? .obstructed : (unknownSamples > 0 ? .unknown : .visible)
    }

    /// The sight line's height above the datum at `distance` metres from the observer, in the
    /// same unreduced frame as the terrain (as ``Point/sightLineMetres`` is): the straight line
    /// between the reduced observer and target heights, plus the curvature drop at `distance`.
    public func sightLineMetres(atDistance distance: Double) -> Double {
        let k = curvature / (2 * Self.earthRadiusMetres)
        let line = Self.reducedLine(observerMetres: observerMetres, targetMetres: targetMetres, k: k, total: lengthMetres, at: distance)
        return line + k * distance * distance
    }

    /// The straight sight line in the reduced frame at `d` metres, where the target's height is
    /// reduced by its curvature drop k·total²; the observer's height at `d` = 0 needs none.
    @inline(__always)
    static func reducedLine(observerMetres: Double, targetMetres: Double, k: Double, total: Double, at d: Double) -> Double {
        let reducedTarget = targetMetres - k * total * total
        return total > 0 ? observerMetres + (reducedTarget - observerMetres) * d / total : observerMetres
    }
}

extension LineOfSight {
    /// How a profile's path stands to the one geodesic from its first vertex to its last.
    ///
    /// A line of sight is a verdict about the terrain under one straight sight line: over a path
    /// that bends, the profile's distances are not distances along that line and its terrain is
    /// not the terrain under it, so the verdict would mean nothing. Only a ``straight`` path gets
    /// one.
    public enum PathShape: Sendable, Hashable {
        /// One geodesic: every vertex within the tolerance of the geodesic from the first vertex
        /// to the last, and the path no longer than that geodesic by more than the tolerance.
        case straight
        /// `vertex` (an index into the path's vertices) lies `offsetMetres` off the geodesic from
        /// the first vertex to the last: the farthest of those beyond the tolerance.
        case bends(vertex: Int, offsetMetres: Double)
        /// Every vertex lies on the geodesic, but the path runs back over itself (or returns to
        /// its start): it is `excessMetres` longer than the geodesic between its ends.
        case turnsBack(excessMetres: Double)
        /// The path is `count` separate segments (a track's), with no leg across the breaks.
        case segmented(count: Int)
    }

    /// The straightness tolerance, relative to the path's length: a vertex 4 mm off a 4 km line
    /// still counts as on it. At this size the straightened path differs from the drawn one by
    /// far less than any DEM cell (a 30 m cell is 7,500 times wider at 4 km), and far more than
    /// the solver's error, so a vertex put on the line by computation stays on it; a vertex put
    /// off it, even by rounding its coordinates to 1e-7° (about 1 cm) on a path under 10 km, is
    /// a bend. An azimuth-continuity test at the vertices would be the same test in angle, but
    /// its meaning in metres would grow with the legs; this one is stated in metres, as the DEM
    /// and the user measure.
    public static let straightnessTolerance = 1e-6
    /// The tolerance's floor, metres, for paths so short that 1e-6 of their length approaches
    /// the geodesic solver's own error (15 nm): 1 µm.
    public static let straightnessFloorMetres = 1e-6

    /// Whether the path through `segments` is one geodesic (see ``PathShape``).
    ///
    /// Each vertex k between the ends, at geodesic distance s from the first, is compared with
    /// the point at distance s along the geodesic from the first vertex to the last: their
    /// geodesic distance is its offset (to first order the cross-track distance, with Karney's
    /// nanometre accuracy at any length). Offsets and the path's excess length over that
    /// geodesic must both be within max(``straightnessTolerance`` × length,
    /// ``straightnessFloorMetres``). Offsets catch bends; the excess catches a path that turns
    /// back along its own line. Empty segments are ignored.
    ///
    /// - Complexity: O(n) geodesic problems for n vertices.
    public static func shape(of segments: [[GeoPoint]], geodesic: Geodesic = .wgs84) -> PathShape {
        let parts = segments.filter { !$0.isEmpty }
        guard parts.count <= 1 else { return .segmented(count: parts.count) }
        guard let vertices = parts.first, vertices.count > 2, let first = vertices.first, let last = vertices.last else {
            return .straight
        }
        var length = 0.0
        for (a, b) in zip(vertices, vertices.dropFirst()) { length += geodesic.inverse(from: a, to: b).distanceMetres }
        let tolerance = max(straightnessTolerance * length, straightnessFloorMetres)
        let line = geodesic.inverseLine(from: first, to: last)
        let chord = line.distanceMetres ?? 0
        // A path back to its start has no direction to measure offsets from.
        if chord <= tolerance && length > tolerance { return .turnsBack(excessMetres: length - chord) }
        var worst: (vertex: Int, offset: Double)? = nil
        for k in 1..<(vertices.count - 1) {
            let s = geodesic.inverse(from: first, to: vertices[k]).distanceMetres
            let offset = geodesic.inverse(from: vertices[k], to: line.position(atDistance: s).point).distanceMetres
            if offset > tolerance && offset > (worst?.offset ?? 0) { worst = (k, offset) }
        }
        if let worst { return .bends(vertex: worst.vertex, offsetMetres: worst.offset) }
        if length - chord > tolerance { return .turnsBack(excessMetres: length - chord) }
        return .straight
    }
}
