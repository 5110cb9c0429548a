import TransectGeodesy
import TransectSupport

/// The ranges numbers from flags must lie in, in one place: wide enough for every real use,
/// narrow enough that no value makes the work (or its arithmetic) unbounded.
package enum InputLimits {
    /// Heights and offsets: ±100,000 km, far beyond geostationary orbit (35,786 km), so that
    /// ECEF and the 3D distance stay finite and meaningful.
    package static let heightMetres: ClosedRange<Double> = -PointArgument.heightLimitMetres...PointArgument.heightLimitMetres
    /// The line of sight's curvature coefficient (1 − refraction): 0.85714 by default; beyond
    /// ±10 describes no atmosphere.
    package static let curvature: ClosedRange<Double> = -10...10
    /// cairo draws at most 32,767 pixels a side.
    package static let maxImageSide = 32_767
    /// Map margin around the content, as a fraction of its span on each side.
    package static let margin: ClosedRange<Double> = 0...10
    /// Resolution written into the PNG (and used for the preferred map scale).
    package static let dpi: ClosedRange<Double> = 1...100_000
    /// Samples a profile may take even with `--max-samples`: a billion samples are 40 GB.
    package static let maxSamplesCeiling = 1_000_000_000
    /// Projected coordinates of a frame (`--extent-crs`): ±100,000 km.
    package static let projectedMetres: ClosedRange<Double> = -1e8...1e8
    /// Segment lengths and steps in metres: at most the distance to the Moon and back.
    package static let lengthMetres: ClosedRange<Double> = Double.leastNormalMagnitude...1e9
    /// Speeds in metres per second: up to the speed of light.
    package static let speed: ClosedRange<Double> = Double.leastNormalMagnitude...299_792_458
    /// Elevation noise threshold for gain and loss.
    package static let gainThresholdMetres: ClosedRange<Double> = 0...10_000
    /// `±100,000 km`: a bound in metres as messages state it.
    package static func kilometres(_ metres: Double) -> String {
        "±" + NumberFormatting.grouped(metres / 1000, decimals: 0) + " km"
    }

    /// Hillshade: vertical exaggeration, sun azimuth and altitude.
    package static let zFactor: ClosedRange<Double> = 1e-6...1e6
    package static let azimuthDegrees: ClosedRange<Double> = -360...360
    package static let altitudeDegrees: ClosedRange<Double> = 0...90
}
