/// How a hillshade is lit and how elevations relate to horizontal distances: the options of
/// `gdaldem hillshade` that the kernel reproduces.
///
/// Angles are in degrees at this boundary, radians inside (reduced exactly by `GeoMath.sincosd`).
public struct HillshadeParameters: Sendable, Hashable {
    /// Direction the light comes from, clockwise from north, degrees (`gdaldem -az`; any value,
    /// reduced mod 360). Ignored when ``multidirectional`` is true.
    public var azimuthDegrees: Double = 315
    /// Height of the light above the horizon, degrees (`gdaldem -alt`; 0…90 is meaningful).
    public var altitudeDegrees: Double = 45
    /// Vertical exaggeration applied to the elevations (`gdaldem -z`).
    public var zFactor: Double = 1
    /// Ratio of vertical units to horizontal units (gdaldem -s), 1 when both are metres.
    public var scale: Double = 1
    /// Mark's (1992) multidirectional oblique weighting of lights from 225°, 270°, 315° and 360°
    /// (`gdaldem -multidirectional`).
    public var multidirectional: Bool = false

    /// Parameters with `gdaldem hillshade`'s defaults: light from the north-west, 45° high, no
    /// exaggeration, metres on both axes, a single light.
    public init(
        azimuthDegrees: Double = 315, altitudeDegrees: Double = 45, zFactor: Double = 1,
        scale: Double = 1, multidirectional: Bool = false
    ) {
        self.azimuthDegrees = azimuthDegrees
        self.altitudeDegrees = altitudeDegrees
        self.zFactor = zFactor
        self.scale = scale
        self.multidirectional = multidirectional
    }
}
