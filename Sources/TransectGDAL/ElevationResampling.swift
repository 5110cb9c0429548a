/// How elevations are resampled into a map frame.
///
/// The hillshade of a frame is computed from the frame's own pixels, so it sees the surface the
/// resampling builds between the DEM's cell centres. Bilinear interpolation is a patchwork of
/// bilinear tiles, one between each four cell centres: continuous, but its gradient jumps where
/// two tiles meet. Where several frame pixels fall in one tile that jump becomes a visible step
/// in the shade along every row and column of cell centres. A cubic B-spline surface (GDAL's
/// `cubicspline`) has a continuous gradient and curvature, so its shade has no steps.
///
/// The B-spline approximates rather than interpolates: it leaves planes and, up to a constant
/// offset of h²/3 times the curvature, quadratic surfaces exactly as they are (so their shading
/// is exact), but damps detail a few cells wide (a wave two cells long to a third of its
/// height, four cells long to two thirds). That softening is why it is used only where the
/// frame is finer than the DEM, where bilinear's steps would show.
public enum ElevationResampling: String, Sendable, Hashable {
    /// GDAL's `near`: each pixel the nearest cell's value (only when asked for: `render -r nearest`).
    case nearest = "near"
    /// GDAL's `bilinear`: exact at the cell centres; at or coarser than the DEM's resolution.
    case bilinear
    /// GDAL's `cubic` (cubic convolution; only when asked for: `render -r cubic`).
    case cubic
    /// GDAL's `cubicspline` (cubic B-spline): a smooth surface for frames finer than the DEM.
    case cubicSpline = "cubicspline"
}
