/// Statistics of a profile, named as mapping users know them.
///
/// Consecutive samples count as a step only when both have data; a step of zero length counts
/// for gain, loss and surface length but not for slopes (its slope is undefined). Gaps are
/// runs of samples without data; a gap's length runs from the midpoint before its first sample
/// to the midpoint after its last (or to the path's end), so a hole of length L crossed at step
/// s yields a gap within s/2 + s/2 of L.
///
/// Lengths: the horizontal length is the whole path's; the horizontal and surface lengths
/// *with data* run over the same steps (those with data at both ends), so the surface length
/// with data is never below the horizontal length with data (each step's √(Δd² + Δz²) rounds to
/// at least its Δd, and both sums add their steps in the same order). Across a gap neither
/// counts: the terrain there is unknown.
public struct ProfileStatistics: Sendable, Hashable {
    /// The lowest elevation, with the index of the first sample that has it; nil without data.
    public var minimum: Extreme?
    /// The highest elevation, with the index of the first sample that has it; nil without data.
    public var maximum: Extreme?
    /// Mean elevation of the samples with data (unweighted); nan without data.
    public var averageElevationMetres: Double
    /// Sum of the rises between consecutive samples with data.
    public var elevationGainMetres: Double
    /// Sum of the drops between consecutive samples with data (positive).
    public var elevationLossMetres: Double
    /// Steepest rise in percent (100·Δz/Δd); 0 when there is none.
    public var maxPositiveSlopePercent: Double
    /// Steepest drop in percent, negative; 0 when there is none.
    public var maxNegativeSlopePercent: Double
    /// Mean of the rising steps' slopes (unweighted); 0 when there is none.
    public var averagePositiveSlopePercent: Double
    /// Mean of the falling steps' slopes (unweighted, negative); 0 when there is none.
    public var averageNegativeSlopePercent: Double
    /// The whole path's horizontal (geodesic) length, metres, gaps included.
    public var horizontalLengthMetres: Double
    /// Sum of Δd over the steps with data at both ends, metres: the horizontal length the
    /// surface length is measured over.
    public var horizontalLengthWithDataMetres: Double
    /// Sum of √(Δd² + Δz²) over the steps with data at both ends, metres: the
    /// terrain-following length; never less than ``horizontalLengthWithDataMetres``.
    public var surfaceLengthWithDataMetres: Double
    /// Runs of samples without data (a track's segment breaks are not gaps).
    public var gapCount: Int
    /// Breaks between a track's segments: samples with neither a position nor data, at the
    /// distance where one segment ends and the next begins (``ProfilePath/plan(spacing:parallel:)``,
    /// ``Profile/init(recordedAlong:geodesic:)``). They have no length; no step crosses them.
    public var segmentBreakCount: Int
    /// Total length of the gaps, metres.
    public var gapLengthMetres: Double
    /// Samples with data.
    public var validCount: Int

    /// An extreme elevation and where it is.
    public struct Extreme: Sendable, Hashable {
        public var elevationMetres: Double
        public var index: Int
    }

    init(horizontalLengthMetres: Double) {
        minimum = nil
        maximum = nil
        averageElevationMetres = .nan
        elevationGainMetres = 0
        elevationLossMetres = 0
        maxPositiveSlopePercent = 0
        maxNegativeSlopePercent = 0
        averagePositiveSlopePercent = 0
        averageNegativeSlopePercent = 0
        self.horizontalLengthMetres = horizontalLengthMetres
        horizontalLengthWithDataMetres = 0
        surfaceLengthWithDataMetres = 0
        gapCount = 0
        gapLengthMetres = 0
        segmentBreakCount = 0
        validCount = 0
    }

    /// The statistics of `profile`, by the SIMD kernel (`SIMD4<Double>` lanes over the steps).
    public init(_ profile: Profile) {
        self = Self.compute(profile, simd: true)
    }

    /// The plain scalar reference the tests compare the SIMD kernel with.
    public static func reference(_ profile: Profile) -> ProfileStatistics {
        compute(profile, simd: false)
    }

    static func compute(_ profile: Profile, simd: Bool) -> ProfileStatistics {
        var s = ProfileStatistics(horizontalLengthMetres: profile.lengthMetres)
        let z = profile.elevationsMetres
        let d = profile.distancesMetres
        let n = z.count
        guard n > 0 else { return s }
        // Elevations: extremes, mean; gaps with their lengths. One pass, scalar: it is O(n) with
        // a branch per sample and is not where the time goes.
        var sum = 0.0
        var k = 0
        while k < n {
            let v = z[k]
            if v.isNaN && profile.longitudes[k].isNaN {
                s.segmentBreakCount += 1
                k += 1
                continue
            }
            if v.isNaN {
                var j = k
                while j + 1 < n && z[j + 1].isNaN && !profile.longitudes[j + 1].isNaN { j += 1 }
                let from = k == 0 ? d[0] : (d[k - 1] + d[k]) / 2
                let to = j == n - 1 ? d[n - 1] : (d[j] + d[j + 1]) / 2
                s.gapCount += 1
                s.gapLengthMetres += to - from
                k = j + 1
                continue
            }
            s.validCount += 1
            sum += v
            if s.minimum == nil || v < s.minimum!.elevationMetres { s.minimum = Extreme(elevationMetres: v, index: k) }
            if s.maximum == nil || v > s.maximum!.elevationMetres { s.maximum = Extreme(elevationMetres: v, index: k) }
            k += 1
        }
        if s.validCount > 0 { s.averageElevationMetres = sum / Double(s.validCount) }
        guard n > 1 else { return s }
        let steps = simd ? stepsSIMD(d: d, z: z) : stepsScalar(d: d, z: z)
        s.elevationGainMetres = steps.gain
        s.elevationLossMetres = steps.loss
        s.horizontalLengthWithDataMetres = steps.horizontal
        s.surfaceLengthWithDataMetres = steps.surface
        s.maxPositiveSlopePercent = steps.maxUp
        s.maxNegativeSlopePercent = steps.maxDown
        s.averagePositiveSlopePercent = steps.upCount > 0 ? steps.upSum / Double(steps.upCount) : 0
        s.averageNegativeSlopePercent = steps.downCount > 0 ? steps.downSum / Double(steps.downCount) : 0
        return s
    }

    struct Steps {
        var gain = 0.0, loss = 0.0, horizontal = 0.0, surface = 0.0
        var maxUp = 0.0, maxDown = 0.0
        var upSum = 0.0, downSum = 0.0
        var upCount = 0, downCount = 0

        /// One step of `dd` metres along and `dz` up; a step touching a gap has `dz` = nan and
        /// counts for nothing, a zero-length step counts for everything but slope.
        mutating func add(dd: Double, dz: Double) {
            guard !dz.isNaN else { return }
            if dz > 0 { gain += dz } else { loss -= dz }
            horizontal += dd
            surface += (dd * dd + dz * dz).squareRoot()
            guard dd > 0 else { return }
            let slope = 100 * dz / dd
            if slope > 0 {
                upSum += slope
                upCount += 1
                maxUp = max(maxUp, slope)
            }
            if slope < 0 {
                downSum += slope
                downCount += 1
                maxDown = min(maxDown, slope)
            }
        }
    }

    static func stepsScalar(d: [Double], z: [Double]) -> Steps {
        var s = Steps()
        for k in 1..<z.count { s.add(dd: d[k] - d[k - 1], dz: z[k] - z[k - 1]) }
        return s
    }

    /// Four steps per iteration. Steps with a gap at either end have Δz = nan and are masked
    /// out; sums run in four lanes and are added at the end, so they differ from the scalar
    /// reference only by the order of additions (a few ulps of the totals).
    static func stepsSIMD(d: [Double], z: [Double]) -> Steps {
        let steps = z.count - 1
        let zero = SIMD4<Double>(repeating: 0)
        var gain = zero
        var loss = zero
        var horizontal = zero
        var surface = zero
        var upSum = zero
        var downSum = zero
        var maxUp = zero
        var maxDown = zero
        var upCount = SIMD4<Int64>(repeating: 0)
        var downCount = SIMD4<Int64>(repeating: 0)
        let full = steps - steps % 4
        z.withUnsafeBufferPointer { zs in
            d.withUnsafeBufferPointer { ds in
                var k = 0
                while k < full {
                    let z1 = SIMD4(zs[k + 1], zs[k + 2], zs[k + 3], zs[k + 4])
                    let z0 = SIMD4(zs[k], zs[k + 1], zs[k + 2], zs[k + 3])
                    let d1 = SIMD4(ds[k + 1], ds[k + 2], ds[k + 3], ds[k + 4])
                    let d0 = SIMD4(ds[k], ds[k + 1], ds[k + 2], ds[k + 3])
                    let dz = z1 - z0
                    let dd = d1 - d0
                    let valid = dz .== dz
                    let dzv = zero.replacing(with: dz, where: valid)
                    gain += zero.replacing(with: dzv, where: dzv .> 0)
                    loss -= zero.replacing(with: dzv, where: dzv .< 0)
                    horizontal += zero.replacing(with: dd, where: valid)
                    let len = (dd * dd + dzv * dzv).squareRoot()
                    surface += zero.replacing(with: len, where: valid)
                    let sloped = valid .& (dd .> 0)
                    let slope = zero.replacing(with: 100 * dzv / dd, where: sloped)
                    let up = slope .> 0
                    let down = slope .< 0
                    upSum += zero.replacing(with: slope, where: up)
                    downSum += zero.replacing(with: slope, where: down)
                    upCount &+= SIMD4<Int64>(repeating: 0).replacing(with: 1, where: up)
                    downCount &+= SIMD4<Int64>(repeating: 0).replacing(with: 1, where: down)
                    maxUp = pointwiseMax(maxUp, slope)
                    maxDown = pointwiseMin(maxDown, slope)
                    k += 4
                }
            }
        }
        var s = Steps(
            gain: gain.sum(), loss: loss.sum(), horizontal: horizontal.sum(), surface: surface.sum(), maxUp: maxUp.max(), maxDown: maxDown.min(),
            upSum: upSum.sum(), downSum: downSum.sum(), upCount: Int(upCount.wrappedSum()), downCount: Int(downCount.wrappedSum()))
        // The tail, scalar.
        for k in (full + 1)..<(steps + 1) where full < steps { s.add(dd: d[k] - d[k - 1], dz: z[k] - z[k - 1]) }
        return s
    }
}
