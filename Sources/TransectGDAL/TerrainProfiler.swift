import TransectAnalysis
import TransectRaster
import TransectSupport

/// What to profile: a path, how to space its samples, and the sight line's parameters.
public struct ProfileRequest: Sendable {
    /// How samples are spaced.
    public enum Spacing: Sendable, Hashable {
        /// A fixed step in metres along each leg.
        case step(Double)
        /// This many samples over the whole path.
        case count(Int)
        /// The DEM's native resolution at the path's middle (the finer of its two axes).
        case native
    }

    public var path: ProfilePath
    public var spacing: Spacing
    /// More samples than this are refused before any is taken.
    public var maxSamples: Int
    public var interpolation: Interpolation
    /// Eye height above the ground at the start, and the target's above the ground at the end, metres.
    public var observerHeightMetres: Double
    public var targetHeightMetres: Double
    /// The refraction-corrected curvature factor of the sight line.
    public var curvature: Double
    /// Threads that compute the samples' positions; the profile is the same bits for any count.
    public var threads: Int

    public init(
        path: ProfilePath, spacing: Spacing = .native, maxSamples: Int, interpolation: Interpolation = .bilinear,
        observerHeightMetres: Double = 1.7, targetHeightMetres: Double = 0,
        curvature: Double = LineOfSight.defaultCurvature, threads: Int = 1
    ) {
        precondition(threads >= 1, "at least one thread")
        self.path = path
        self.spacing = spacing
        self.maxSamples = maxSamples
        self.interpolation = interpolation
        self.observerHeightMetres = observerHeightMetres
        self.targetHeightMetres = targetHeightMetres
        self.curvature = curvature
        self.threads = threads
    }

    /// A loop over `threads` workers (nil for one): part k of `count` runs on worker k mod
    /// threads, and the loop returns when every part has.
    var parallelLoop: ParallelLoop? { threads > 1 ? stripedParallelLoop(threads: threads) : nil }
}

/// A profile over a DEM with its statistics and, for a path that is one geodesic, the line of
/// sight from one end to the other.
public struct TerrainProfile: Sendable {
    public var profile: Profile
    public var statistics: ProfileStatistics
    /// Nil when an end has no data, or when the path is not one geodesic (see `pathShape`).
    public var lineOfSight: LineOfSight?
    /// Whether the path is one geodesic; only then is there a line of sight.
    public var pathShape: LineOfSight.PathShape
    /// The step used, metres; nil when a sample count was asked for.
    public var stepMetres: Double?
    public var observerHeightMetres: Double
    public var targetHeightMetres: Double
    public var curvature: Double
    /// The DEM's label, or for a track's recorded elevations the track's.
    public var dem: String
    /// True when the samples are a track's own points with their recorded elevations
    /// (``Profile/init(recordedAlong:geodesic:)``) rather than a DEM sampled along a path.
    public var recordedElevations = false

    public init(
        profile: Profile, statistics: ProfileStatistics, lineOfSight: LineOfSight?, pathShape: LineOfSight.PathShape = .straight,
        stepMetres: Double?, observerHeightMetres: Double, targetHeightMetres: Double, curvature: Double, dem: String
    ) {
        self.profile = profile
        self.statistics = statistics
        self.lineOfSight = lineOfSight
        self.pathShape = pathShape
        self.stepMetres = stepMetres
        self.observerHeightMetres = observerHeightMetres
        self.targetHeightMetres = targetHeightMetres
        self.curvature = curvature
        self.dem = dem
    }
}

/// A profile request the limits refuse.
public enum ProfileError: UserFacingError, Equatable {
    /// The path at its spacing would take `count` samples (gaps included), more than `limit`.
    case tooManySamples(count: Int, limit: Int)

    /// `the profile would take 12,000,001 samples, more than 10,000,000`; the caller says
    /// which options change it.
    public var message: String {
        switch self {
        case .tooManySamples(let count, let limit):
            "the profile would take \(NumberFormatting.grouped(Double(count), decimals: 0)) samples, more than \(NumberFormatting.grouped(Double(limit), decimals: 0))"
        }
    }

    public var isUsageError: Bool { true }
}

extension ElevationModel {
    /// Samples the request's path on this DEM, with distance running on from one segment to
    /// the next (a gap sample between segments keeps the statistics from measuring across the
    /// break), then computes statistics and, when the path is one geodesic, the line of sight.
    ///
    /// - Throws: ``TerrainError/outsideCoverage(point:dem:)`` for the first vertex off the DEM
    ///   (a vertex on no data is a gap, not an error), ``ProfileError/tooManySamples(count:limit:)``
    ///   before any sample is taken, or the DEM's read errors.
    public func profile(_ request: ProfileRequest) throws -> TerrainProfile {
        let path = request.path
        try checkCoverage(of: path.vertices)
        var spacing: ProfilePlan.Spacing
        var stepUsed: Double?
        switch request.spacing {
        case .count(let n):
            spacing = .count(n)
        case .step(let step):
            spacing = .step(step)
            stepUsed = step
        case .native:
            let cell = resolutionMetres(at: path.middle)
            let native = min(cell.x, cell.y)
            stepUsed = native
            spacing = .step(native)
        }
        let count = path.sampleCount(spacing: spacing)
        guard count <= request.maxSamples else { throw ProfileError.tooManySamples(count: count, limit: request.maxSamples) }
        let plan = path.plan(spacing: spacing, parallel: request.parallelLoop)
        let elevations = try elevationsAlongPath(longitudes: plan.longitudes, latitudes: plan.latitudes, interpolation: request.interpolation)
        let profile = Profile(
            distancesMetres: plan.distancesMetres, longitudes: plan.longitudes, latitudes: plan.latitudes,
            elevationsMetres: elevations)
        // A sight line over a path that bends, or over a track's separate segments, would judge
        // terrain that is not under it: no verdict unless the path is one geodesic.
        let shape = path.shape
        let lineOfSight =
            shape == .straight
            ? LineOfSight(
                profile: profile, observerHeightMetres: request.observerHeightMetres,
                targetHeightMetres: request.targetHeightMetres, curvature: request.curvature) : nil
        return TerrainProfile(
            profile: profile, statistics: ProfileStatistics(profile), lineOfSight: lineOfSight, pathShape: shape,
            stepMetres: stepUsed, observerHeightMetres: request.observerHeightMetres,
            targetHeightMetres: request.targetHeightMetres, curvature: request.curvature, dem: label)
    }
}

extension ElevationModel {
    /// ``elevations(at:interpolation:)`` for the samples of a path, given as longitudes and
    /// latitudes (degrees), to the same bits.
    ///
    /// Samples along a path visit the raster's chunks in runs, so they are taken run by run in
    /// their own order, with no key per point and no sort of a million keys: each run of
    /// consecutive samples in one chunk is sampled, the first time the path enters the chunk,
    /// in windows of its own, bounding boxes of its samples and the interpolation's margin: one
    /// for the stretch whose taps stay in the chunk and one for each stretch near an edge. A
    /// chunk's whole window would reach with its margin into the eight blocks around the
    /// chunk, about three times the blocks a path crosses: on a compressed DEM, three times the
    /// decoding. Those windows are not kept; from its second visit to a chunk on, a path takes
    /// the chunk's window through the cache, so a track that winds over one chunk reads it
    /// once. A sample's value never depends on the window it is taken in.
    func elevationsAlongPath(longitudes: [Double], latitudes: [Double], interpolation: Interpolation) throws(TerrainError) -> [Double] {
        let (columns, rows) = try pixelCoordinates(longitudes: longitudes, latitudes: latitudes)
        let n = columns.count
        let chunk = Self.sampleChunk
        let margin = interpolation.radius
        var values = [Double](repeating: .nan, count: n)
        /// The chunk of a sample inside the raster (nil outside).
        func chunkOf(_ k: Int) -> (Int, Int)? {
            guard contains(column: columns[k], row: rows[k]) else { return nil }
            return (min(Int(columns[k]), width - 1) / chunk, min(Int(rows[k]), height - 1) / chunk)
        }
        var start = 0
        while start < n {
            guard let (cx, cy) = chunkOf(start) else {
                start += 1
                continue
            }
            var end = start + 1
            while end < n, let (x, y) = chunkOf(end), x == cx, y == cy { end += 1 }
            // Samples `range` of the run in `window`.
            func take(_ range: Range<Int>, in window: DecodedWindow) {
                values.replaceSubrange(range, with: window.sample(columns: Array(columns[range]), rows: Array(rows[range]), interpolation: interpolation))
            }
            // A path that comes back to a chunk (a track that winds, a chunk's edge crossed to
            // and fro) takes the chunk's window from the cache from its second visit on.
            guard windowCache.glimpse(chunkKey(chunkColumn: cx, chunkRow: cy, margin: margin)) else {
                take(start..<end, in: try chunkWindow(chunkColumn: cx, chunkRow: cy, margin: margin))
                start = end
                continue
            }
            // The run in stretches whose taps stay in the chunk and stretches whose taps reach
            // past its edge (where the path enters and leaves), each in its own window: one
            // window for the whole run would take, at a corner of its box, a block next to the
            // chunk that the path never crosses.
            let inside = (
                columns: (cx * chunk + margin)..<(min((cx + 1) * chunk, width) - margin),
                rows: (cy * chunk + margin)..<(min((cy + 1) * chunk, height) - margin)
            )
            func staysInside(_ k: Int) -> Bool { inside.columns.contains(Int(columns[k])) && inside.rows.contains(Int(rows[k])) }
            var stretch = start
            while stretch < end {
                let kind = staysInside(stretch)
                var stretchEnd = stretch + 1
                while stretchEnd < end && staysInside(stretchEnd) == kind { stretchEnd += 1 }
                let box = boundingBox(columns: columns[stretch..<stretchEnd], rows: rows[stretch..<stretchEnd], margin: margin)
                take(stretch..<stretchEnd, in: try readDecodedWindow(column: box.column, row: box.row, width: box.width, height: box.height))
                stretch = stretchEnd
            }
            start = end
        }
        try checkHeights(values) { "\(longitudes[$0]),\(latitudes[$0])" }
        return values
    }
}
