import TransectGDAL
import TransectGeodesy

/// How many ground metres a pixel of the frame covers, and how much that varies over it: what a
/// scale bar may claim.
extension MapFrame {
    /// The scale variation above which a scale bar says where it holds: 2 %, about what the eye
    /// reads off a bar (2 px of 100), and 16 times UTM's 0.12 % across a zone's usual half-width
    /// of 300 km (k₀ = 0.9996 at the meridian, 1.0007 at 300 km).
    public static let noteworthyScaleVariation = 0.02

    /// Ground metres per pixel along x (the scale bar's direction) at pixel position (`px`,
    /// `py`): the geodesic length on the WGS84 ellipsoid of the 2-pixel step centred there,
    /// halved. Nil where the frame's CRS has no position for the step's ends (outside its
    /// projection's domain).
    public func groundMetresPerPixel(atX px: Double, y py: Double) -> Double? {
        guard let ends = try? geographic(of: [(px - 1, py), (px + 1, py)]),
            ends.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite })
        else { return nil }
        return Geodesic.wgs84.inverse(from: ends[0], to: ends[1]).distanceMetres / 2
    }

    /// How much the ground scale along x (the scale bar's direction) varies over the frame, as
    /// a fraction of the centre's: the spread (largest less smallest) of
    /// ``groundMetresPerPixel(atX:y:)`` at the centre, the corners and the edges' middles, over
    /// the centre's. Nil when the centre has no ground scale. Along x only: a frame whose
    /// pixels are not square has another scale along y, but the same one all over.
    ///
    /// A conformal projection has one scale in every direction at a point, so this is its
    /// spread from place to place (UTM's k₀(1 + x²/2R²), Mercator's 1 / cos φ); the azimuthal
    /// equidistant's scale is true along radii from its centre and c / sin c across them, so
    /// along x it is c / sin c − 1 at the middle of the top or bottom edge (or more, at a corner).
    public var scaleVariation: Double? {
        let w = Double(width)
        let h = Double(height)
        guard let centre = groundMetresPerPixel(atX: w / 2, y: h / 2), centre > 0 else { return nil }
        var low = centre
        var high = centre
        for fx in [0.0, 0.5, 1] {
            for fy in [0.0, 0.5, 1] {
                guard let g = groundMetresPerPixel(atX: w * fx, y: h * fy) else { continue }
                low = min(low, g)
                high = max(high, g)
            }
        }
        return (high - low) / centre
    }
}
