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
    /// The earth radius of the curvature model, metres (IUGG mean radius R₁).
    public static let earthRadiusMetres = 6_371_008.8
    /// The default curvature coefficient: 1 − k with the refraction coefficient k = 1/7.
    public static let defaultCurvature = 0.85714

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

    /// Computes the line of sight over `profile` from `observerHeightMetres` above its first
    /// sample to `targetHeightMetres` above its last. Nil when either end has no data.
    ///
    /// - Complexity: O(n).
    public init?(profile: Profile, observerHeightMetres: Double, targetHeightMetres: Double,
                 curvature: Double = LineOfSight.defaultCurvature) {
        let z = profile.elevationsMetres, d = profile.distancesMetres
        guard let z0 = z.first, let zn = z.last, !z0.isNaN, !zn.isNaN else { return nil }
        let n = z.count
        let k = curvature / (2 * Self.earthRadiusMetres)
        let total = d[n - 1]
        observerMetres = z0 + observerHeightMetres
        targetMetres = zn + targetHeightMetres
        let reducedTarget = targetMetres - k * total * total
        firstObstruction = nil
        minimumClearance = nil
        unknownSamples = 0
        var blocked = false
        if n > 2 {
            for i in 1..<(n - 1) {
                let zi = z[i]
                if zi.isNaN { unknownSamples += 1; continue }
                let drop = k * d[i] * d[i]
                let line = total > 0 ? observerMetres + (reducedTarget - observerMetres) * d[i] / total : observerMetres
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
}
