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
    /// Map margin around the content, as a fraction of its span on each side: 0 puts the content
    /// edge to edge; 10 leaves it 1/21 of the frame's span, past any map worth drawing.
    package static let margin: ClosedRange<Double> = 0...10
    /// Resolution written into the PNG (and used for the preferred map scale, 0.0254 m / dpi per
    /// pixel at 1:1): any positive resolution, far beyond the 96 of a screen and a printer's few
    /// hundred; below 1 a pixel would be over an inch.
    package static let dpi: ClosedRange<Double> = 1...100_000
    /// `--font-scale`: from a tenth to ten times the text's size.
    package static let fontScale: ClosedRange<Double> = 0.1...10
    /// Samples a profile may take even with `--max-samples`: a billion samples are 40 GB.
    package static let maxSamplesCeiling = 1_000_000_000
    /// Projected coordinates of a frame (`--extent-crs`): ±100,000 km.
    package static let projectedMetres: ClosedRange<Double> = -1e8...1e8
    /// A layer's longest step along a measured line: from a metre (an antipodal line is then
    /// 20 million vertices, 480 MB, the most one line may take) to a billion metres (one step).
    package static let layerSegmentMetres: ClosedRange<Double> = 1...1e9
    /// Segment lengths and steps in metres: at most the distance to the Moon and back.
    package static let lengthMetres: ClosedRange<Double> = Double.leastNormalMagnitude...1e9
    /// Speeds in metres per second: up to the speed of light.
    package static let speed: ClosedRange<Double> = Double.leastNormalMagnitude...299_792_458
    /// Elevation noise threshold for gain and loss: 0 counts every rise; 10 km is more than any
    /// relief on Earth (8,849 m from sea level to Everest), so a larger value only hides all gain.
    package static let gainThresholdMetres: ClosedRange<Double> = 0...10_000
    /// `±100,000 km`: a bound in metres as messages state it.
    package static func kilometres(_ metres: Double) -> String {
        "±" + NumberFormatting.grouped(metres / 1000, decimals: 0) + " km"
    }

    /// Hillshade vertical exaggeration (`gdaldem -z`), multiplying elevations before the slopes:
    /// positive, as 0 shades every slope flat grey and a negative factor turns the relief inside
    /// out. Six orders of magnitude either side of 1 hold every unit fix a user makes by hand
    /// (0.3048 for feet; 1/370,400, 2.7e-6, for feet over degrees, gdaldem's `-s 370400`
    /// written as a z-factor) and any exaggeration, while z / (8 Δx), which the kernel keeps
    /// in Float32, stays far from its limits for real cell sizes. gdaldem documents no range.
    package static let zFactor: ClosedRange<Double> = 1e-6...1e6
    /// The light's azimuth (`gdaldem -az`), degrees clockwise from north: 0 from the top of the
    /// raster, 90 from the east, 315 (the default) from the north-west. The kernel reduces it
    /// mod 360 exactly, so one full turn either way lets a user write a direction as they think
    /// of it (−45 or 315); beyond a turn a value names nothing new. gdaldem documents no range.
    package static let azimuthDegrees: ClosedRange<Double> = -360...360
    /// The light's altitude above the horizon (`gdaldem -alt`), degrees: 0 is raking light and 90
    /// is from straight above, as gdaldem describes them; outside, the sun would be below the
    /// horizon or past the zenith (which is the same light from the opposite azimuth).
    package static let altitudeDegrees: ClosedRange<Double> = 0...90
}
