/// Distances and azimuths of points on a plane about its origin, four at a time.
extension GeoMath {
    /// For each point (`x` east, `y` north, metres) its distance from the origin √(x² + y²) and
    /// its azimuth clockwise from north in degrees, atan2(x, y)·180/π in [0, 360) (0 at the
    /// origin): the arctangent of the geodesic kernels, within 2 ulp of libm's. The polar
    /// coordinates of an azimuthal equidistant plane, as a viewshed takes them for every cell.
    public static func polar(x xs: SIMD4<Double>, y ys: SIMD4<Double>) -> (distances: SIMD4<Double>, azimuths: SIMD4<Double>) {
        let s = (xs * xs + ys * ys).squareRoot()
        var alpha = VectorMath.atan2(xs, ys) * (180 / Double.pi)
        alpha = VectorMath.select(alpha .< 0, alpha + 360, alpha)
        alpha = VectorMath.select(alpha .>= 360, Lanes(repeating: 0), alpha)
        return (s, alpha)
    }

    /// ``polar(x:y:)`` over buffers of points, all four of the same length (a precondition).
    public static func polar(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, distances: UnsafeMutableBufferPointer<Double>,
        azimuths: UnsafeMutableBufferPointer<Double>
    ) {
        let n = x.count
        precondition(y.count == n && distances.count == n && azimuths.count == n, "GeoMath.polar: the buffers differ in length")
        var i = 0
        while i + 4 <= n {
            let (s, alpha) = polar(x: Lanes(x[i], x[i + 1], x[i + 2], x[i + 3]), y: Lanes(y[i], y[i + 1], y[i + 2], y[i + 3]))
            for k in 0..<4 {
                distances[i + k] = s[k]
                azimuths[i + k] = alpha[k]
            }
            i += 4
        }
        if i < n {
            var xs = Lanes(repeating: 0)
            var ys = Lanes(repeating: 0)
            for k in 0..<(n - i) {
                xs[k] = x[i + k]
                ys[k] = y[i + k]
            }
            let (s, alpha) = polar(x: xs, y: ys)
            for k in 0..<(n - i) {
                distances[i + k] = s[k]
                azimuths[i + k] = alpha[k]
            }
        }
    }
}
