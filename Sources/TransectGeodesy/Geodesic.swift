// Geodesics on an ellipsoid of revolution after
//   C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
//   https://doi.org/10.1007/s00190-012-0578-z (cited below as "K13" with equation numbers).
//
// The problem is mapped onto the auxiliary sphere (reduced latitude β, arc length σ, spherical
// longitude ω); distance and longitude follow from the integrals I1 (K13 eq. 7, 15) and
// I3 (eq. 8, 23), expanded as Fourier series in σ whose coefficients are polynomials in
// ε = (√(1 + k²) − 1)/(√(1 + k²) + 1) (eq. 16) and the third flattening n. We keep terms to
// order 6, as GeographicLib does by default (GEOGRAPHICLIB_GEODESIC_ORDER 6), which gives
// round-off accuracy (≈ 15 nm for WGS84) for |f| ≤ 1/150.

/// The result of ``Geodesic/inverse(latitude1:longitude1:latitude2:longitude2:)``.
public struct GeodesicInverseResult: Sendable, Hashable {
    /// Length *s*₁₂ of the shortest geodesic, metres, ≥ 0.
    public var distanceMetres: Double
    /// Azimuth *α*₁ at point 1, degrees clockwise from north, in [−180, 180].
    public var azimuth1Degrees: Double
    /// Forward azimuth *α*₂ at point 2 (the direction of travel on arrival, not the back
    /// azimuth), degrees clockwise from north, in [−180, 180].
    public var azimuth2Degrees: Double
    /// Arc length *σ*₁₂ on the auxiliary sphere, degrees, in [0, 180].
    public var arcDegrees: Double

    @inlinable
    public init(
        distanceMetres: Double, azimuth1Degrees: Double, azimuth2Degrees: Double,
        arcDegrees: Double
    ) {
        self.distanceMetres = distanceMetres
        self.azimuth1Degrees = azimuth1Degrees
        self.azimuth2Degrees = azimuth2Degrees
        self.arcDegrees = arcDegrees
    }
}

/// The result of ``Geodesic/direct(latitude1:longitude1:azimuth1Degrees:distanceMetres:)`` and
/// of ``GeodesicLine`` positions.
public struct GeodesicDirectResult: Sendable, Hashable {
    /// Latitude of point 2, degrees, in [−90, 90].
    public var latitude: Double
    /// Longitude of point 2, degrees, reduced to [−180, 180].
    public var longitude: Double
    /// Forward azimuth at point 2, degrees clockwise from north, in [−180, 180].
    public var azimuth2Degrees: Double

    @inlinable
    public init(latitude: Double, longitude: Double, azimuth2Degrees: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.azimuth2Degrees = azimuth2Degrees
    }

    /// Point 2 as a ``GeoPoint`` (no height).
    @inlinable public var point: GeoPoint { GeoPoint(longitude: longitude, latitude: latitude) }
}

/// Geodesic calculations on an ellipsoid of revolution (Karney 2013).
///
/// Solves the direct problem (start point, azimuth, distance → end point) and the inverse
/// problem (two points → distance and azimuths). Both are accurate to round-off — about
/// 15 nm for WGS84 — for |f| ≤ 1/150; the inverse solution converges for every pair of
/// points, including coincident, polar, equatorial, meridional and (nearly) antipodal ones.
///
/// Latitudes are in degrees in [−90, 90] (outside this range results are NaN); longitudes
/// and azimuths are in degrees, any finite value, reduced exactly internally. A point at a
/// pole is treated as the limit of a point approaching the pole along its meridian, so the
/// longitude given for a pole sets the meaning of azimuths there (GeographicLib convention).
///
/// ```swift
/// let g = Geodesic.wgs84
/// let r = g.inverse(latitude1: 40.6, longitude1: -73.8, latitude2: 49.01666667, longitude2: 2.55)
/// r.distanceMetres  // 5853226.26…  (JFK → CDG)
/// ```
///
/// The corresponding GeographicLib (and PROJ) functions are `geod_inverse` and `geod_direct`.
public struct Geodesic: Sendable {
    /// The ellipsoid on which geodesics are computed.
    public let ellipsoid: Ellipsoid

    @usableFromInline let a: Double  // equatorial radius, metres
    @usableFromInline let f: Double  // flattening
    @usableFromInline let f1: Double  // 1 − f
    @usableFromInline let e2: Double  // e²
    @usableFromInline let ep2: Double  // e′²
    @usableFromInline let n: Double  // third flattening
    @usableFromInline let b: Double  // polar semi-axis, metres
    /// σ₁₂ threshold below which the short-line solution with the mid-point dn is exact to
    /// round-off (the relative error there is σ₁₂²·|f|·min(1, 1 − f/2)/2; 0.1 is a safety
    /// factor and max(0.001, |f|) stops the threshold growing without bound near a sphere).
    @usableFromInline let etol2: Double
    /// Coefficients of A3(ε) (K13 eq. 24), highest power first: lanes 0…5 = ε⁵ … ε⁰.
    @usableFromInline let a3x: SIMD8<Double>
    /// Coefficients of C3ₗ(ε) (K13 eq. 25), l = 1…5; for each l the powers ε⁵ … εˡ.
    @usableFromInline let c3x: SIMD16<Double>

    /// The WGS84 geodesic.
    public static let wgs84 = Geodesic(.wgs84)

    /// Creates the geodesic calculator for `ellipsoid` (WGS84 by default).
    public init(_ ellipsoid: Ellipsoid = .wgs84) {
        self.ellipsoid = ellipsoid
        a = ellipsoid.equatorialRadius
        f = ellipsoid.flattening
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        etol2 = 0.1 * GeodesicConstants.tol2 / (Swift.max(0.001, f.magnitude) * Swift.min(1.0, 1 - f / 2) / 2).squareRoot()

        // A3 = 1 − (1 − n)/2 ε − (1 + n − 3n²)/8 ε² − … (K13 eq. 24), stored ε⁵ first.
        var a3 = SIMD8<Double>(repeating: 0)
        a3[0] = -3.0 / 128
        a3[1] = (-2 * n - 3) / 64
        a3[2] = ((-n - 3) * n - 1) / 16
        a3[3] = ((3 * n - 1) * n - 2) / 8
        a3[4] = (n - 1) / 2
        a3[5] = 1
        a3x = a3

        // C3ₗ (K13 eq. 25); each run holds the coefficients of ε⁵ down to εˡ.
        var c3 = SIMD16<Double>(repeating: 0)
        // l = 1
        c3[0] = 3.0 / 128
        c3[1] = (2 * n + 5) / 128
        c3[2] = ((3 - n) * n + 3) / 64
        c3[3] = (1 - n * n) / 8
        c3[4] = (1 - n) / 4
        // l = 2
        c3[5] = 5.0 / 256
        c3[6] = (n + 3) / 128
        c3[7] = ((-3 * n - 2) * n + 3) / 64
        c3[8] = ((n - 3) * n + 2) / 32
        // l = 3
        c3[9] = 7.0 / 512
        c3[10] = (9 - 10 * n) / 384
        c3[11] = ((5 * n - 9) * n + 5) / 192
        // l = 4
        c3[12] = 7.0 / 512
        c3[13] = (7 - 14 * n) / 512
        // l = 5
        c3[14] = 21.0 / 2560
        c3x = c3
    }
}

/// Tolerances and iteration limits of the inverse solution (values as in GeographicLib).
@usableFromInline
enum GeodesicConstants {
    /// √(smallest normal double) = 2⁻⁵¹¹: stands in for cos β at a pole so that the
    /// longitude there still fixes the azimuth, and is small enough to leave results unchanged.
    @inlinable static var tiny: Double { 0x1p-511 }
    /// Machine epsilon 2⁻⁵²: convergence tolerance of Newton's method on λ₁₂.
    @inlinable static var tol0: Double { 0x1p-52 }
    /// 200 ε. The factor was raised from 100 to 200 by GeographicLib to fix the inverse case
    /// 52.784459512564 0 −52.784459512563990912 179.634407464943777557 (GeodSolve10).
    @inlinable static var tol1: Double { 200 * 0x1p-52 }
    /// √ε = 2⁻²⁶.
    @inlinable static var tol2: Double { 0x1p-26 }
    /// Bisection stops when the bracket on α₁ is narrower than ε.
    @inlinable static var tolb: Double { 0x1p-52 }
    /// 1000 √ε: the width of the strip near the cut (antipodal, y ≈ 0) where the astroid
    /// starting guess is replaced by the strip solution.
    @inlinable static var xthresh: Double { 1000 * 0x1p-26 }
    /// Newton iterations before falling back to bisection (WGS84 needs at most ~16).
    @inlinable static var maxit1: Int { 20 }
    /// Hard cap on iterations: maxit1 + 53 (bits of a double) + 10 bisection steps.
    @inlinable static var maxit2: Int { 20 + 53 + 10 }
}

// MARK: - Series (K13 §3) — the coefficients of GeographicLib at order 6

@usableFromInline
enum GeodesicSeries {
    /// Σₗ₌₁ⁿ c[l] sin(2lσ) by Clenshaw summation, given sin σ and cos σ.
    @inlinable @inline(__always)
    static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: SIMD8<Double>, _ n: Int) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2σ
        var y0 = 0.0
        var y1 = 0.0
        var k = n
        while k >= 1 {
            let y = ar * y0 - y1 + c[k]
            y1 = y0
            y0 = y
            k -= 1
        }
        return 2 * sinx * cosx * y0  // sin 2σ · b₁
    }

    /// A1 − 1 (K13 eq. 17): (1 − ε)A1 = 1 + ε²/4 + ε⁴/64 + ε⁶/256.
    @inlinable static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C1ₗ, l = 1…6 (K13 eq. 18), in lanes 1…6.
    @inlinable static func c1(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>(repeating: 0)
        var d = eps
        c[1] = d * (e2 * (6 - e2) - 16) / 32
        d *= eps
        c[2] = d * (e2 * (64 - 9 * e2) - 128) / 2048
        d *= eps
        c[3] = d * (9 * e2 - 16) / 768
        d *= eps
        c[4] = d * (3 * e2 - 5) / 512
        d *= eps
        c[5] = d * -7 / 1280
        d *= eps
        c[6] = d * -7 / 2048
        return c
    }

    /// C1′ₗ, l = 1…6 (K13 eq. 21): the reverted series giving σ from τ = s/(b A1).
    @inlinable static func c1p(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>(repeating: 0)
        var d = eps
        c[1] = d * (e2 * (205 * e2 - 432) + 768) / 1536
        d *= eps
        c[2] = d * (e2 * (4005 * e2 - 4736) + 3840) / 12288
        d *= eps
        c[3] = d * (116 - 225 * e2) / 384
        d *= eps
        c[4] = d * (2695 - 7173 * e2) / 7680
        d *= eps
        c[5] = d * 3467 / 7680
        d *= eps
        c[6] = d * 38081 / 61440
        return c
    }

    /// A2 − 1 (K13 eq. 42): (1 + ε)A2 = 1 − 3ε²/4 − 7ε⁴/64 − 11ε⁶/256.
    @inlinable static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C2ₗ, l = 1…6 (K13 eq. 43), in lanes 1…6.
    @inlinable static func c2(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>(repeating: 0)
        var d = eps
        c[1] = d * (e2 * (e2 + 2) + 16) / 32
        d *= eps
        c[2] = d * (e2 * (35 * e2 + 64) + 384) / 2048
        d *= eps
        c[3] = d * (15 * e2 + 80) / 768
        d *= eps
        c[4] = d * (7 * e2 + 35) / 512
        d *= eps
        c[5] = d * 63 / 1280
        d *= eps
        c[6] = d * 77 / 2048
        return c
    }

    /// ε = k²/(2(1 + √(1 + k²)) + k²), the expansion parameter (K13 eq. 16).
    @inlinable static func epsilon(k2: Double) -> Double {
        k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
    }
}

extension Geodesic {
    /// A3(ε) by Horner's rule.
    @inlinable func a3(_ eps: Double) -> Double {
        var y = a3x[0]
        for i in 1..<6 { y = y * eps + a3x[i] }
        return y
    }

    /// C3ₗ(ε), l = 1…5, in lanes 1…5.
    @inlinable func c3(_ eps: Double) -> SIMD8<Double> {
        var c = SIMD8<Double>(repeating: 0)
        var mult = 1.0
        var o = 0
        for l in 1..<6 {
            let m = 5 - l  // degree of the polynomial in ε
            mult *= eps
            var y = c3x[o]
            var i = 1
            while i <= m {
                y = y * eps + c3x[o + i]
                i += 1
            }
            c[l] = mult * y
            o += m + 1
        }
        return c
    }
}

// MARK: - Direct problem

extension Geodesic {
    /// Solves the direct geodesic problem.
    ///
    /// - Parameters:
    ///   - latitude1: latitude of point 1, degrees, in [−90, 90].
    ///   - longitude1: longitude of point 1, degrees.
    ///   - azimuth1Degrees: azimuth at point 1, degrees clockwise from north.
    ///   - distanceMetres: signed distance from point 1 to point 2, metres; may exceed half
    ///     the circumference (the geodesic then stops being the shortest path).
    /// - Returns: point 2 (longitude reduced to [−180, 180]) and the forward azimuth there.
    ///
    /// Complexity: O(1); about the cost of one ``GeodesicLine`` set-up plus one position. For
    /// many distances along the same line use ``line(latitude1:longitude1:azimuth1Degrees:)``.
    /// The corresponding GeographicLib function is `geod_direct`. The result is bit for bit
    /// that of the lane in the batch ``direct(latitudes1:longitudes1:azimuths1:distances:latitudes2:longitudes2:azimuths2:)``;
    /// it can differ from ``GeodesicLine/position(atDistance:)`` in the last bits, which uses libm.
    public func direct(
        latitude1: Double, longitude1: Double, azimuth1Degrees: Double,
        distanceMetres: Double
    ) -> GeodesicDirectResult {
        let r = solveDirect(
            Lanes(repeating: latitude1), Lanes(repeating: longitude1), Lanes(repeating: azimuth1Degrees),
            Lanes(repeating: distanceMetres))
        return GeodesicDirectResult(latitude: r.latitude[0], longitude: r.longitude[0], azimuth2Degrees: r.azimuth2[0])
    }

    /// The scalar port of `geod_direct` with libm: a ``GeodesicLine`` and one position.
    func referenceDirect(
        latitude1: Double, longitude1: Double, azimuth1Degrees: Double,
        distanceMetres: Double
    ) -> GeodesicDirectResult {
        line(latitude1: latitude1, longitude1: longitude1, azimuth1Degrees: azimuth1Degrees)
            .position(atDistance: distanceMetres)
    }

    /// ``direct(latitude1:longitude1:azimuth1Degrees:distanceMetres:)`` from a ``GeoPoint``
    /// (its height is ignored).
    @inlinable
    public func direct(
        from start: GeoPoint, azimuthDegrees: Double,
        distanceMetres: Double
    ) -> GeodesicDirectResult {
        direct(
            latitude1: start.latitude, longitude1: start.longitude,
            azimuth1Degrees: azimuthDegrees, distanceMetres: distanceMetres)
    }

    /// The geodesic line leaving point 1 with the given azimuth, with its series coefficients
    /// computed once so that positions along it are cheap.
    /// - Parameters:
    ///   - latitude1: degrees, in [−90, 90].
    ///   - longitude1: degrees.
    ///   - azimuth1Degrees: degrees clockwise from north.
    /// The corresponding GeographicLib function is `geod_lineinit`.
    @inlinable
    public func line(
        latitude1: Double, longitude1: Double,
        azimuth1Degrees: Double
    ) -> GeodesicLine {
        let azi1 = GeoMath.angNormalize(azimuth1Degrees)
        // angRound guards against underflow in sin α₀ for tiny azimuths.
        let (salp1, calp1) = GeoMath.sincosd(GeoMath.angRound(azi1))
        return GeodesicLine(
            geodesic: self, latitude1: latitude1, longitude1: longitude1,
            azimuth1: azi1, salp1: salp1, calp1: calp1,
            distance: nil, arc: nil)
    }

    /// The geodesic line from point 1 to point 2 (the shortest path), which knows its
    /// length ``GeodesicLine/distanceMetres``.
    /// The corresponding GeographicLib function is `geod_inverseline`.
    public func inverseLine(
        latitude1: Double, longitude1: Double,
        latitude2: Double, longitude2: Double
    ) -> GeodesicLine {
        let sol = solveInverse(latitude1, longitude1, latitude2, longitude2)
        let azi1 = GeoMath.atan2d(sol.salp1, sol.calp1)
        return GeodesicLine(
            geodesic: self, latitude1: latitude1, longitude1: longitude1,
            azimuth1: azi1, salp1: sol.salp1, calp1: sol.calp1,
            distance: sol.s12, arc: sol.a12)
    }

    /// ``inverseLine(latitude1:longitude1:latitude2:longitude2:)`` between two ``GeoPoint``s.
    public func inverseLine(from start: GeoPoint, to end: GeoPoint) -> GeodesicLine {
        inverseLine(
            latitude1: start.latitude, longitude1: start.longitude,
            latitude2: end.latitude, longitude2: end.longitude)
    }
}

// MARK: - Inverse problem

extension Geodesic {
    /// Solves the inverse geodesic problem: the shortest geodesic between two points.
    ///
    /// - Parameters:
    ///   - latitude1: latitude of point 1, degrees, in [−90, 90].
    ///   - longitude1: longitude of point 1, degrees.
    ///   - latitude2: latitude of point 2, degrees, in [−90, 90].
    ///   - longitude2: longitude of point 2, degrees.
    /// - Returns: distance (metres), azimuths at both ends (degrees, forward azimuth at
    ///   point 2) and arc length (degrees). NaN input gives NaN output.
    ///
    /// When the shortest path is not unique (e.g. exactly antipodal points or points at
    /// opposite poles) one of the shortest paths is returned, chosen as GeographicLib does.
    /// Complexity: O(1); Newton's method on the longitude difference takes 2–3 iterations
    /// for random WGS84 points and at most about 20 (then bisection) in the worst case.
    /// The corresponding GeographicLib function is `geod_inverse`.
    /// The result is bit for bit that of the pair's lane in the batch
    /// ``inverse(latitudes1:longitudes1:latitudes2:longitudes2:distances:azimuths1:azimuths2:)``:
    /// both run the four-lane kernel, with VectorMath's sin, cos and atan2 in place of libm.
    public func inverse(
        latitude1: Double, longitude1: Double,
        latitude2: Double, longitude2: Double
    ) -> GeodesicInverseResult {
        guard lanesServe else {
            return referenceInverse(
                latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
        }
        return inverseOneLane(latitude1, longitude1, latitude2, longitude2)
    }

    /// The scalar port of `geod_inverse` with libm (the reference the lane kernel is tested
    /// against, and the path of prolate ellipsoids).
    func referenceInverse(
        latitude1: Double, longitude1: Double,
        latitude2: Double, longitude2: Double
    ) -> GeodesicInverseResult {
        let sol = solveInverse(latitude1, longitude1, latitude2, longitude2)
        return GeodesicInverseResult(
            distanceMetres: sol.s12,
            azimuth1Degrees: GeoMath.atan2d(sol.salp1, sol.calp1),
            azimuth2Degrees: GeoMath.atan2d(sol.salp2, sol.calp2),
            arcDegrees: sol.a12)
    }

    /// ``inverse(latitude1:longitude1:latitude2:longitude2:)`` between two ``GeoPoint``s
    /// (heights are ignored).
    public func inverse(from start: GeoPoint, to end: GeoPoint) -> GeodesicInverseResult {
        inverse(
            latitude1: start.latitude, longitude1: start.longitude,
            latitude2: end.latitude, longitude2: end.longitude)
    }

    /// Solution of the inverse problem in terms of sines and cosines of the azimuths.
    @usableFromInline
    struct InverseSolution {
        var s12: Double, a12: Double
        var salp1: Double, calp1: Double, salp2: Double, calp2: Double
    }

    @usableFromInline
    func solveInverse(
        _ lat1In: Double, _ lon1: Double,
        _ lat2In: Double, _ lon2: Double
    ) -> InverseSolution {
        typealias C = GeodesicConstants
        let degree = GeoMath.degree

        // Longitude difference, exact, in [−180, 180] (−180 only for west-going lines).
        var (lon12, lon12s) = GeoMath.angDiff(lon1, lon2)
        // Make it positive.
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * degree
        let (slam12, clam12) = GeoMath.sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s  // the supplementary longitude difference

        // Within ~1e−17° of the equator counts as on it.
        var lat1 = GeoMath.angRound(GeoMath.latFix(lat1In))
        var lat2 = GeoMath.angRound(GeoMath.latFix(lat2In))
        // Put the point with the larger |latitude| first (a NaN latitude goes first).
        let swapp: Double = (lat1.magnitude < lat2.magnitude || lat2.isNaN) ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        // Make lat1 ≤ −0.
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign
        // Now 0 ≤ lon12 ≤ 180, −90 ≤ lat1 ≤ −0 and lat1 ≤ lat2 ≤ −lat1; lonsign, swapp and
        // latsign record the symmetry operations used to get here.

        var (sbet1, cbet1) = GeoMath.sincosd(lat1)
        sbet1 *= f1
        GeoMath.norm2(&sbet1, &cbet1)
        cbet1 = Double.maximum(C.tiny, cbet1)  // cos β₁ = +tiny at a pole
        var (sbet2, cbet2) = GeoMath.sincosd(lat2)
        sbet2 *= f1
        GeoMath.norm2(&sbet2, &cbet2)
        cbet2 = Double.maximum(C.tiny, cbet2)

        // If cbet1 < −sbet1, cbet2 − cbet1 measures |β₁| − |β₂| accurately, otherwise
        // |sbet2| + sbet1 does; force β₂ = ±β₁ exactly when that measure vanishes (needed
        // for 48.522876735459 0 −48.52287673545898293 179.599720456223079643, GeodSolve11).
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else {
            if sbet2.magnitude == -sbet1 { cbet2 = cbet1 }
        }

        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var a12 = 0.0
        var sig12 = 0.0
        var s12x = 0.0
        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0

        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Both points on one full meridian: the geodesic may be the meridian itself.
            calp1 = clam12
            salp1 = slam12  // head towards the target longitude
            calp2 = 1
            salp2 = 0  // heading north at the target
            // tan β = tan σ cos α
            let ssig1 = sbet1
            let csig1 = calp1 * cbet1
            let ssig2 = sbet2
            let csig2 = calp2 * cbet2
            sig12 = libmAtan2(
                Double.maximum(0, csig1 * ssig2 - ssig1 * csig2) + 0,
                csig1 * csig2 + ssig1 * ssig2)
            // On a meridian α₀ = 0, so k² = e′² and ε = n.
            var (s12b, m12b, _) = lengths(
                eps: n, sig12: sig12,
                ssig1, csig1, dn1, ssig2, csig2, dn2,
                distance: true, reduced: true)
            // A meridian longer than half-way round (m12 < 0) is not a shortest path; that
            // happens only for prolate ellipsoids near the antipode. sig12 < 1 admits
            // zero-length lines, whose m12 can be slightly negative (20.001 0 20.001 0).
            if sig12 < 1 || m12b >= 0 {
                // sig12 < 3 tiny handles 90 0 90 180; the second test keeps s12 and m12 of
                // very short lines from going negative through round-off.
                if sig12 < 3 * C.tiny || (sig12 < C.tol0 && (s12b < 0 || m12b < 0)) {
                    sig12 = 0
                    m12b = 0
                    s12b = 0
                }
                s12x = s12b * b
                a12 = sig12 / degree
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0  // and so sbet2 == 0
            // Mirror Lambda12 with calp1 = 0: on an oblate ellipsoid an equatorial line is
            // the shortest path only for lon12 ≤ (1 − f) 180°.
            && (f <= 0 || lon12s >= f * 180)
        {
            // Geodesic runs along the equator.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
            sig12 = lam12 / f1
            a12 = lon12 / f1
        } else if !meridian {
            // General case: find α₁ such that λ₁₂(α₁) equals the longitude difference.
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            sig12 = start.sig12
            if sig12 >= 0 {
                // Short line solved on the auxiliary sphere with the mid-point dn.
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = sig12 * b * start.dnm
                a12 = sig12 / degree
            } else {
                // Newton's method on v(α₁) = λ₁₂(α₁) − λ₁₂. v has one root in (0, π) with
                // positive slope there; (α₁a, α₁b) brackets it and shrinks with each
                // evaluation. Newton restarts from the bracket mid-point whenever the slope
                // is not positive or a step leaves (0, π).
                var ssig1 = 0.0
                var csig1 = 0.0
                var ssig2 = 0.0
                var csig2 = 0.0
                var eps = 0.0
                var salp1a = C.tiny
                var calp1a = 1.0
                var salp1b = C.tiny
                var calp1b = -1.0
                var tripn = false
                var tripb = false
                for numit in 0...C.maxit2 {
                    let r = lambda12(
                        sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1,
                        slam12, clam12, derivative: numit < C.maxit1)
                    let v = r.lam12
                    let dv = r.dlam12
                    salp2 = r.salp2
                    calp2 = r.calp2
                    sig12 = r.sig12
                    ssig1 = r.ssig1
                    csig1 = r.csig1
                    ssig2 = r.ssig2
                    csig2 = r.csig2
                    eps = r.eps
                    // Reversed test lets NaNs escape.
                    if tripb || !(v.magnitude >= (tripn ? 8 : 1) * C.tol0) || numit == C.maxit2 {
                        break
                    }
                    // Update the bracket.
                    if v > 0 && (numit > C.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (numit > C.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    if numit < C.maxit1 && dv > 0 {
                        let dalp1 = -v / dv
                        if dalp1.magnitude < .pi {
                            let sdalp1 = libmSin(dalp1)
                            let cdalp1 = libmCos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                GeoMath.norm2(&salp1, &calp1)
                                // Where the slope → 0 convergence is only linear, so test
                                // against ε rather than √ε.
                                tripn = v.magnitude <= 16 * C.tol0
                                continue
                            }
                        }
                    }
                    // Bisect.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    GeoMath.norm2(&salp1, &calp1)
                    tripn = false
                    tripb = (salp1a - salp1).magnitude + (calp1a - calp1) < C.tolb || (salp1 - salp1b).magnitude + (calp1 - calp1b) < C.tolb
                }
                let (s12b, _, _) = lengths(
                    eps: eps, sig12: sig12,
                    ssig1, csig1, dn1, ssig2, csig2, dn2,
                    distance: true, reduced: false)
                s12x = s12b * b
                a12 = sig12 / degree
            }
        }

        let s12 = 0 + s12x  // −0 → +0

        // Undo the symmetry operations.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return InverseSolution(
            s12: s12, a12: a12,
            salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2)
    }

    /// Distance s₁₂/b, reduced length m₁₂/b and m₀ = A1 − A2 (K13 eqs. 38–41) on the
    /// auxiliary sphere from σ₁ to σ₂.
    @usableFromInline
    func lengths(
        eps: Double, sig12: Double,
        _ ssig1: Double, _ csig1: Double, _ dn1: Double,
        _ ssig2: Double, _ csig2: Double, _ dn2: Double,
        distance: Bool, reduced: Bool
    ) -> (s12b: Double, m12b: Double, m0: Double) {
        typealias S = GeodesicSeries
        var s12b = 0.0
        var m12b = 0.0
        var m0 = 0.0
        var a1 = 0.0
        var a2 = 0.0
        var j12 = 0.0
        let ca = S.c1(eps)
        var cb = SIMD8<Double>(repeating: 0)
        a1 = S.a1m1(eps)
        if reduced {
            a2 = S.a2m1(eps)
            cb = S.c2(eps)
            m0 = a1 - a2
            a2 = 1 + a2
        }
        a1 = 1 + a1
        if distance {
            let b1 = S.sinSeries(ssig2, csig2, ca, 6) - S.sinSeries(ssig1, csig1, ca, 6)
            s12b = a1 * (sig12 + b1)
            if reduced {
                let b2 = S.sinSeries(ssig2, csig2, cb, 6) - S.sinSeries(ssig1, csig1, cb, 6)
                j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
            }
        } else if reduced {
            // One combined series for J12 = m0 σ₁₂ + A1 B1 − A2 B2.
            cb = a1 * ca - a2 * cb
            j12 = m0 * sig12 + (S.sinSeries(ssig2, csig2, cb, 6) - S.sinSeries(ssig1, csig1, cb, 6))
        }
        if reduced {
            // Parenthesised products cancel exactly for coincident points.
            m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        }
        return (s12b, m12b, m0)
    }

    /// Positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (K13 eq. 55), used
    /// for the starting guess of nearly antipodal inverse problems.
    @usableFromInline
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else {
            // y = 0 with |x| ≤ 1: the root is 0.
            return 0
        }
        // Multiply the equations for s and t by r³ and r to avoid dividing by r = 0.
        let s = p * q / 4  // r³ s
        let r2 = r * r
        let r3 = r * r2
        // Discriminant of the quadratic for T³; zero on the evolute p^(1/3) + q^(1/3) = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // Pick the sign of the root that maximises |T³|, avoiding cancellation.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()  // (r t)³
            let t = libmCbrt(t3)  // r t
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // T is complex but u is real; take the cube root that avoids cancellation.
            let ang = libmAtan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * libmCos(ang / 3)
        }
        let v = (u * u + q).squareRoot()  // > 0
        let uv = u < 0 ? q / (v - u) : u + v  // u + v > 0, without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)  // > 0
    }

    @usableFromInline
    struct StartGuess {
        var sig12: Double  // ≥ 0 when the short-line solution is final, else −1
        var salp1: Double, calp1: Double
        var salp2: Double, calp2: Double
        var dnm: Double
    }

    /// Starting α₁ for Newton's method (K13 §4 and §5): the spherical solution with a
    /// mean ω₁₂ for short lines, the astroid solution for nearly antipodal points. Returns
    /// sig12 ≥ 0 (with α₂ and dnm) when a short line needs no iteration.
    @usableFromInline
    func inverseStart(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double,
        _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ lam12: Double, _ slam12: Double, _ clam12: Double
    ) -> StartGuess {
        typealias C = GeodesicConstants
        var sig12 = -1.0
        var salp2 = 0.0
        var calp2 = 0.0
        var dnm = 0.0
        // β₁₂ = β₂ − β₁ in [0, π); β₁₂a = β₂ + β₁ in (−π, 0].
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double
        var comg12: Double
        if shortline {
            // sin²((β₁ + β₂)/2) = (sbet1 + sbet2)² / ((sbet1 + sbet2)² + (cbet1 + cbet2)²)
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * dnm)
            somg12 = libmSin(omg12)
            comg12 = libmCos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)

        let ssig12 = libmHypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            // Really short line: the auxiliary-sphere solution is already exact.
            salp2 = cbet1 * somg12
            calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            GeoMath.norm2(&salp2, &calp2)
            sig12 = libmAtan2(ssig12, csig12)
        } else if n.magnitude > 0.1  // too eccentric for the astroid
            || csig12 >= 0 || ssig12 >= 6 * n.magnitude * .pi * cbet1 * cbet1
        {
            // The zeroth-order spherical guess is good enough.
        } else {
            // Nearly antipodal: scale λ₁₂ − π and β₂ + β₁ to coordinates (x, y) in which the
            // antipode is the origin and the singular point is (−1, 0).
            let x: Double
            let y: Double
            let lamscale: Double
            let betscale: Double
            let lam12x = libmAtan2(-slam12, -clam12)  // λ₁₂ − π
            if f >= 0 {
                // x = Δlongitude, y = Δlatitude
                let k2 = sbet1 * sbet1 * ep2
                let eps = GeodesicSeries.epsilon(k2: k2)
                lamscale = f * cbet1 * a3(eps) * .pi
                betscale = lamscale * cbet1
                x = lam12x / lamscale
                y = sbet12a / betscale
            } else {
                // x = Δlatitude, y = Δlongitude
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = libmAtan2(sbet12a, cbet12a)
                let (_, m12b, m0) = lengths(
                    eps: n, sig12: .pi + bet12a,
                    sbet1, -cbet1, dn1, sbet2, cbet2, dn2,
                    distance: false, reduced: true)
                x = -1 + m12b / (cbet1 * cbet2 * m0 * .pi)
                betscale = x < -0.01 ? sbet12a / x : -f * cbet1 * cbet1 * .pi
                lamscale = betscale / cbet1
                y = lam12x / lamscale
            }

            if y > -C.tol1 && x > -1 - C.xthresh {
                // Strip near the cut.
                if f >= 0 {
                    salp1 = Swift.min(1.0, -x)
                    calp1 = -(1 - salp1 * salp1).squareRoot()
                } else {
                    calp1 = Double.maximum(x > -C.tol1 ? 0.0 : -1.0, x)
                    salp1 = (1 - calp1 * calp1).squareRoot()
                }
            } else {
                // Solve the astroid for k, estimate ω₁₂ from it (rather than α₁ directly,
                // which converges in fewer Newton steps) and use the spherical formula.
                let k = Geodesic.astroid(x, y)
                let omg12a = lamscale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = libmSin(omg12a)
                comg12 = -libmCos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        // Sanity check on the guess; the reversed test lets NaN through.
        if !(salp1 <= 0) {
            GeoMath.norm2(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return StartGuess(
            sig12: sig12, salp1: salp1, calp1: calp1,
            salp2: salp2, calp2: calp2, dnm: dnm)
    }

    @usableFromInline
    struct Lambda12Result {
        var lam12: Double  // λ₁₂(α₁) − target λ₁₂, radians
        var dlam12: Double  // dλ₁₂/dα₁
        var salp2: Double, calp2: Double, sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double
    }

    /// Longitude difference λ₁₂ reached by the geodesic leaving β₁ with azimuth α₁ when it
    /// reaches latitude β₂, minus the target (K13 §4), and its derivative (K13 eq. 46).
    @usableFromInline
    func lambda12(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double,
        _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ salp1: Double, _ calp1In: Double,
        _ slam120: Double, _ clam120: Double,
        derivative: Bool
    ) -> Lambda12Result {
        typealias S = GeodesicSeries
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 {
            // Break the degeneracy of the equatorial line (handled separately).
            calp1 = -GeodesicConstants.tiny
        }
        // sin α₁ cos β₁ = sin α₀
        let salp0 = salp1 * cbet1
        let calp0 = libmHypot(calp1, salp1 * sbet1)  // > 0

        // tan β₁ = tan σ₁ cos α₁;  tan ω₁ = sin α₀ tan σ₁
        var ssig1 = sbet1
        var csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        GeoMath.norm2(&ssig1, &csig1)
        // (somg1, comg1) need not be normalised.

        // Enforce the symmetries when |β₂| = −β₁, which otherwise can make the Newton
        // iteration singular. sin α₂ cos β₂ = sin α₀.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        // cos α₂ = √(cos²α₁ cos²β₁ + cos²β₂ − cos²β₁) / cos β₂, with the difference of squares
        // taken in whichever form is accurate; α₂ in [0, π/2].
        let calp2 =
            cbet2 != cbet1 || sbet2.magnitude != -sbet1
            ? ((calp1 * cbet1) * (calp1 * cbet1)
                + (cbet1 < -sbet1
                    ? (cbet2 - cbet1) * (cbet1 + cbet2)
                    : (sbet1 - sbet2) * (sbet1 + sbet2)))
                .squareRoot() / cbet2
            : calp1.magnitude
        var ssig2 = sbet2
        var csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2
        let comg2 = calp2 * cbet2
        GeoMath.norm2(&ssig2, &csig2)

        // σ₁₂ = σ₂ − σ₁ in [0, π]
        let sig12 = libmAtan2(
            Double.maximum(0, csig1 * ssig2 - ssig1 * csig2) + 0,
            csig1 * csig2 + ssig1 * ssig2)
        // ω₁₂ = ω₂ − ω₁ in [0, π]
        let somg12 = Double.maximum(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ − λ₁₂(target)
        let eta = libmAtan2(
            somg12 * clam120 - comg12 * slam120,
            comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = S.epsilon(k2: k2)
        let c3a = c3(eps)
        let b312 = S.sinSeries(ssig2, csig2, c3a, 5) - S.sinSeries(ssig1, csig1, c3a, 5)
        let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)
        let lam12 = eta + domg12

        var dlam12 = 0.0
        if derivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let (_, m12b, _) = lengths(
                    eps: eps, sig12: sig12,
                    ssig1, csig1, dn1, ssig2, csig2, dn2,
                    distance: false, reduced: true)
                dlam12 = m12b * f1 / (calp2 * cbet2)
            }
        }
        return Lambda12Result(
            lam12: lam12, dlam12: dlam12, salp2: salp2, calp2: calp2,
            sig12: sig12, ssig1: ssig1, csig1: csig1,
            ssig2: ssig2, csig2: csig2, eps: eps)
    }
}
