/// A geodesic line: the geodesic leaving a fixed point with a fixed azimuth, with the series
/// coefficients that depend only on the line computed once.
///
/// Positions along the line are then a handful of trigonometric evaluations each, which makes
/// ``positions(atDistances:)`` the fast path for profiles with millions of samples.
///
/// ```swift
/// let line = Geodesic.wgs84.inverseLine(latitude1: 40.6, longitude1: -73.8,
///                                       latitude2: 49.01666667, longitude2: 2.55)
/// let samples = line.positions(count: 1001)   // every ~5.85 km, both end points included
/// ```
///
/// Create lines with ``Geodesic/line(latitude1:longitude1:azimuth1Degrees:)`` or
/// ``Geodesic/inverseLine(latitude1:longitude1:latitude2:longitude2:)``.
/// The corresponding GeographicLib type is `geod_geodesicline`.
public struct GeodesicLine: Sendable {
    /// Latitude of point 1, degrees (NaN if the input was outside [−90, 90]).
    public let latitude1: Double
    /// Longitude of point 1, degrees, as given.
    public let longitude1: Double
    /// Azimuth at point 1, degrees, in [−180, 180].
    public let azimuth1Degrees: Double
    /// Distance from point 1 to point 2 in metres for a line made by
    /// ``Geodesic/inverseLine(latitude1:longitude1:latitude2:longitude2:)``; `nil` otherwise.
    public let distanceMetres: Double?
    /// Arc length from point 1 to point 2 on the auxiliary sphere, degrees, for a line made by
    /// ``Geodesic/inverseLine(latitude1:longitude1:latitude2:longitude2:)``; `nil` otherwise.
    public let arcDegrees: Double?

    @usableFromInline let f: Double, f1: Double, b: Double
    @usableFromInline let lon1Reduced: Double  // angNormalize(longitude1)
    @usableFromInline let salp0: Double, calp0: Double, k2: Double
    @usableFromInline let ssig1: Double, csig1: Double
    @usableFromInline let somg1: Double, comg1: Double
    @usableFromInline let stau1: Double, ctau1: Double
    @usableFromInline let a1m1: Double, b11: Double, b31: Double, a3c: Double
    @usableFromInline let c1a: SIMD8<Double>, c1pa: SIMD8<Double>, c3a: SIMD8<Double>

    @usableFromInline
    init(
        geodesic g: Geodesic, latitude1 lat1: Double, longitude1 lon1: Double,
        azimuth1 azi1: Double, salp1: Double, calp1: Double,
        distance: Double?, arc: Double?
    ) {
        typealias S = GeodesicSeries
        latitude1 = GeoMath.latFix(lat1)
        longitude1 = lon1
        azimuth1Degrees = azi1
        distanceMetres = distance
        arcDegrees = arc
        f = g.f
        f1 = g.f1
        b = g.b
        lon1Reduced = GeoMath.angNormalize(lon1)

        var (sbet1, cbet1) = GeoMath.sincosd(GeoMath.angRound(latitude1))
        sbet1 *= g.f1
        GeoMath.norm2(&sbet1, &cbet1)
        cbet1 = Double.maximum(GeodesicConstants.tiny, cbet1)  // cos β₁ = +tiny at a pole

        // sin α₀ = sin α₁ cos β₁, α₀ in [0, π/2 − |β₁|]; the hypot form of cos α₀ is
        // accurate also for sin α₁ = 0.
        salp0 = salp1 * cbet1
        calp0 = libmHypot(calp1, salp1 * sbet1)
        // tan β₁ = tan σ₁ cos α₁ (σ = 0 at the northward equator crossing) and
        // tan ω₁ = sin α₀ tan σ₁. At a pole cos β₁ = tiny, so atan2(0, 0) cannot occur;
        // the equatorial line (β₁ = 0, α₁ = 90°) has σ₁ = 0.
        var s1 = sbet1
        var c1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        somg1 = salp0 * sbet1
        comg1 = c1
        GeoMath.norm2(&s1, &c1)  // σ₁ in (−π, π]
        ssig1 = s1
        csig1 = c1

        k2 = calp0 * calp0 * g.ep2
        let eps = S.epsilon(k2: k2)

        a1m1 = S.a1m1(eps)
        c1a = S.c1(eps)
        b11 = S.sinSeries(s1, c1, c1a, 6)
        let sb = libmSin(b11)
        let cb = libmCos(b11)
        // τ₁ = σ₁ + B11
        stau1 = s1 * cb + c1 * sb
        ctau1 = c1 * cb - s1 * sb
        c1pa = S.c1p(eps)

        c3a = g.c3(eps)
        a3c = -g.f * salp0 * g.a3(eps)
        b31 = S.sinSeries(s1, c1, c3a, 5)
    }

    /// The point at `distance` metres (signed) from point 1 along the line.
    ///
    /// - Parameter distance: metres from point 1; negative goes backwards.
    /// - Returns: latitude, longitude (reduced to [−180, 180]) and forward azimuth, degrees.
    /// The corresponding GeographicLib function is `geod_position`.
    @inlinable
    public func position(atDistance distance: Double) -> GeodesicDirectResult {
        typealias S = GeodesicSeries
        // σ from s: τ₁₂ = s/(b A1), then σ = τ − B1′(τ) (K13 eqs. 20–21).
        let tau12 = distance / (b * (1 + a1m1))
        let st = libmSin(tau12)
        let ct = libmCos(tau12)
        var b12 = -S.sinSeries(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st, c1pa, 6)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = libmSin(sig12)
        var csig12 = libmCos(sig12)
        if f.magnitude > 0.01 {
            // The reverted series loses accuracy for |f| > 1/100; one Newton step on
            // s(σ) restores it (GeographicLib: error 25 nm → 30 nm at f = 1/50).
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            b12 = S.sinSeries(ssig2, csig2, c1a, 6)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - distance / b
            sig12 -= serr / (1 + k2 * ssig2 * ssig2).squareRoot()
            ssig12 = libmSin(sig12)
            csig12 = libmCos(sig12)
        }
        return position(sig12: sig12, ssig12: ssig12, csig12: csig12)
    }

    @inlinable
    func position(sig12: Double, ssig12: Double, csig12: Double) -> GeodesicDirectResult {
        // σ₂ = σ₁ + σ₁₂
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        // sin β₂ = cos α₀ sin σ₂
        let sbet2 = calp0 * ssig2
        var cbet2 = libmHypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // sin α₀ = 0 and cos σ₂ = 0: exactly at a pole on a meridian. Break the
            // degeneracy as if just short of the pole.
            cbet2 = GeodesicConstants.tiny
            csig2 = GeodesicConstants.tiny
        }
        // tan α₀ = cos σ₂ tan α₂ (no need to normalise)
        let salp2 = salp0
        let calp2 = calp0 * csig2
        // tan ω₂ = sin α₀ tan σ₂
        let somg2 = salp0 * ssig2
        let comg2 = csig2
        let omg12 = libmAtan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (sig12 + (GeodesicSeries.sinSeries(ssig2, csig2, c3a, 5) - b31))
        let lon12 = lam12 / GeoMath.degree
        let lon2 = GeoMath.angNormalize(lon1Reduced + GeoMath.angNormalize(lon12))
        return GeodesicDirectResult(
            latitude: GeoMath.atan2d(sbet2, f1 * cbet2),
            longitude: lon2,
            azimuth2Degrees: GeoMath.atan2d(salp2, calp2))
    }

    /// The points at each of `distances` (metres from point 1, any order, signed).
    ///
    /// Bit for bit ``position(atDistance:)`` of each distance, computed four at a time
    /// (GeodesicLine+Lanes.swift). Complexity: O(`distances.count`).
    public func positions(atDistances distances: [Double]) -> [GeodesicDirectResult] {
        distances.withUnsafeBufferPointer { d in results(count: d.count) { d[$0] } }
    }

    /// `count` points evenly spaced in distance from point 1 to point 2 inclusive (so
    /// `count − 1` equal steps), for a line that knows its end point.
    ///
    /// - Parameter count: number of points, ≥ 2 (1 gives point 1 only; 0 gives none).
    /// - Precondition: the line was made by
    ///   ``Geodesic/inverseLine(latitude1:longitude1:latitude2:longitude2:)``.
    /// Complexity: O(`count`).
    public func positions(count: Int) -> [GeodesicDirectResult] {
        precondition(count >= 0, "GeodesicLine.positions(count:): count must be non-negative")
        guard let total = distanceMetres else {
            preconditionFailure("GeodesicLine.positions(count:) needs a line with an end point")
        }
        let step = count > 1 ? total / Double(count - 1) : 0
        // The last sample is the end point exactly, not (count − 1) · step.
        return results(count: count) { i in i == count - 1 && count > 1 ? total : Double(i) * step }
    }

    /// Points every `stepMetres` from point 1 (distance 0) up to and including point 2, for a
    /// line that knows its end point; the last step is shorter when the length is not a
    /// multiple of the step.
    ///
    /// - Parameter stepMetres: spacing, metres, positive and finite.
    /// - Precondition: the line was made by
    ///   ``Geodesic/inverseLine(latitude1:longitude1:latitude2:longitude2:)``.
    public func evenlySpaced(stepMetres: Double) -> [GeodesicDirectResult] {
        precondition(
            stepMetres.isFinite && stepMetres > 0,
            "GeodesicLine.evenlySpaced(stepMetres:): step must be positive and finite")
        guard let total = distanceMetres else {
            preconditionFailure("GeodesicLine.evenlySpaced(stepMetres:) needs a line with an end point")
        }
        // Steps strictly inside (0, total); the end point is appended exactly.
        var inner = Int((total / stepMetres).rounded(.up)) - 1
        if inner < 0 { inner = 0 }
        let count = total > 0 ? inner + 2 : 1
        return results(count: count) { i in i == count - 1 ? total : Double(i) * stepMetres }
    }
}
