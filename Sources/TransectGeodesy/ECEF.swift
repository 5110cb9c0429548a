/// Earth-centred, earth-fixed Cartesian coordinates in metres.
///
/// *x* points to (0°N, 0°E), *y* to (0°N, 90°E), *z* to the north pole, origin at the centre
/// of the ellipsoid. Convert with ``Ellipsoid/ecef(latitude:longitude:heightMetres:)`` and
/// ``Ellipsoid/geodetic(from:)``.
public struct ECEF: Sendable, Hashable {
    /// (x, y, z) in metres.
    public var xyz: SIMD3<Double>

    @inlinable public init(xyz: SIMD3<Double>) { self.xyz = xyz }
    @inlinable public init(x: Double, y: Double, z: Double) { xyz = SIMD3(x, y, z) }

    /// x, metres (towards 0°N 0°E).
    @inlinable public var x: Double {
        get { xyz.x }
        set { xyz.x = newValue }
    }
    /// y, metres (towards 0°N 90°E).
    @inlinable public var y: Double {
        get { xyz.y }
        set { xyz.y = newValue }
    }
    /// z, metres (towards the north pole).
    @inlinable public var z: Double {
        get { xyz.z }
        set { xyz.z = newValue }
    }

    /// Straight-line (chord) distance to `other`, metres.
    @inlinable public func distance(to other: ECEF) -> Double {
        let d = other.xyz - xyz
        // hypot twice: no overflow or underflow for any finite coordinates.
        return libmHypot(libmHypot(d.x, d.y), d.z)
    }
}

extension Ellipsoid {
    /// Geodetic → ECEF.
    ///
    /// x = (N + h) cos φ cos λ, y = (N + h) cos φ sin λ, z = (N(1 − e²) + h) sin φ with the
    /// prime-vertical radius N = a/√(1 − e² sin²φ). Angles are reduced exactly (`sincosd`), so
    /// for example a point on the equator at 90°E has x = 0 exactly.
    /// - Parameters:
    ///   - latitude: degrees, in [−90, 90] (NaN results outside).
    ///   - longitude: degrees.
    ///   - heightMetres: height above the ellipsoid, metres.
    @inlinable
    public func ecef(latitude: Double, longitude: Double, heightMetres: Double) -> ECEF {
        let (sphi, cphi) = GeoMath.sincosd(GeoMath.latFix(latitude))
        let (slam, clam) = GeoMath.sincosd(longitude)
        let e2 = eccentricitySquared
        let e2m = (1 - flattening) * (1 - flattening)  // 1 − e²
        let nu = equatorialRadius / (1 - e2 * sphi * sphi).squareRoot()
        let r = (nu + heightMetres) * cphi
        return ECEF(x: r * clam, y: r * slam, z: (e2m * nu + heightMetres) * sphi)
    }

    /// ``ecef(latitude:longitude:heightMetres:)`` for a ``GeoPoint``; a `nil` height is taken
    /// as 0 (on the ellipsoid).
    @inlinable
    public func ecef(_ point: GeoPoint) -> ECEF {
        ecef(
            latitude: point.latitude, longitude: point.longitude,
            heightMetres: point.heightMetres ?? 0)
    }

    /// Batch geodetic → ECEF; `nil` heights are taken as 0. Complexity: O(`points.count`).
    @inlinable
    public func ecef(_ points: [GeoPoint]) -> [ECEF] {
        [ECEF](unsafeUninitializedCapacity: points.count) { out, initialized in
            points.withUnsafeBufferPointer { p in
                for i in 0..<p.count { (out.baseAddress! + i).initialize(to: ecef(p[i])) }
            }
            initialized = points.count
        }
    }

    /// Batch geodetic → ECEF from parallel arrays (degrees, degrees, metres).
    /// - Precondition: the three arrays have the same length.
    @inlinable
    public func ecef(latitudes: [Double], longitudes: [Double], heightsMetres: [Double]) -> [ECEF] {
        let n = latitudes.count
        precondition(
            longitudes.count == n && heightsMetres.count == n,
            "Ellipsoid.ecef: arrays must have the same length")
        return [ECEF](unsafeUninitializedCapacity: n) { out, initialized in
            latitudes.withUnsafeBufferPointer { la in
                longitudes.withUnsafeBufferPointer { lo in
                    heightsMetres.withUnsafeBufferPointer { h in
                        for i in 0..<n {
                            (out.baseAddress! + i).initialize(
                                to: ecef(latitude: la[i], longitude: lo[i], heightMetres: h[i]))
                        }
                    }
                }
            }
            initialized = n
        }
    }

    /// ECEF → geodetic, accurate to round-off everywhere (including the centre, the poles and
    /// points far from the ellipsoid).
    ///
    /// A closed-form solution after H. Vermeille, "An analytical method to transform
    /// geocentric into geodetic coordinates", J. Geodesy 85, 105–117 (2011), in the
    /// formulation of GeographicLib's `Geocentric::IntReverse`: a cubic yields the auxiliary
    /// quantity k, from which latitude and height follow without iteration. Prolate
    /// ellipsoids are handled by exchanging the roles of the axial and equatorial distances.
    /// Inside the evolute near the centre the latitude is the one of the nearest surface
    /// point with the smallest |latitude| choice, as in GeographicLib.
    ///
    /// - Returns: latitude in [−90, 90] and longitude in [−180, 180], degrees; height above
    ///   the ellipsoid, metres.
    public func geodetic(from point: ECEF) -> (latitude: Double, longitude: Double, heightMetres: Double) {
        let a = equatorialRadius
        let f = flattening
        let e2 = eccentricitySquared
        let e2m = (1 - f) * (1 - f)
        let e2a = e2.magnitude
        let e4a = e2 * e2
        let maxrad = 2 * a / Double.ulpOfOne

        let x = point.x
        let y = point.y
        let z = point.z
        var r = libmHypot(x, y)
        var slam = r != 0 ? y / r : 0
        var clam = r != 0 ? x / r : 1
        var h = libmHypot(r, z)  // distance from the centre
        var sphi: Double
        var cphi: Double
        if h > maxrad {
            // Beyond 2a/ε (~10²³ m) the ellipsoid is a point; h is then the height to round-off.
            // Halve first so that hypot cannot overflow for finite x, y.
            r = libmHypot(x / 2, y / 2)
            slam = r != 0 ? (y / 2) / r : 0
            clam = r != 0 ? (x / 2) / r : 1
            let hh = libmHypot(z / 2, r)
            sphi = (z / 2) / hh
            cphi = r / hh
        } else if e4a == 0 {
            // Sphere. The centre maps to the north pole, as in the ellipsoidal case.
            let zz = h == 0 ? 1 : z
            let hh = libmHypot(zz, r)
            sphi = zz / hh
            cphi = r / hh
            h -= a
        } else {
            var p = (r / a) * (r / a)
            var q = e2m * (z / a) * (z / a)
            let rr = (p + q - e4a) / 6
            if f < 0 { swap(&p, &q) }
            if !(e4a * q == 0 && rr <= 0) {
                // Scale the equations for s and t by r³ and r to avoid dividing by r = 0.
                let s = e4a * p * q / 4
                let r2 = rr * rr
                let r3 = rr * r2
                let disc = s * (2 * r3 + s)
                var u = rr
                if disc >= 0 {
                    var t3 = s + r3
                    // Sign of the root chosen to maximise |T³| (no cancellation).
                    t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
                    let t = libmCbrt(t3)
                    u += t + (t != 0 ? r2 / t : 0)
                } else {
                    // Three real roots; take the one that avoids cancellation (rr < 0 here).
                    let ang = libmAtan2((-disc).squareRoot(), -(s + r3))
                    u += 2 * rr * libmCos(ang / 3)
                }
                let v = (u * u + e4a * q).squareRoot()  // > 0
                // u + v > 0, computed without cancellation when u < 0.
                let uv = u < 0 ? e4a * q / (v - u) : u + v
                // Guard against round-off making w slightly negative.
                let w = Double.maximum(0, e2a * (uv - q) / (2 * v))
                let k = uv / ((uv + w * w).squareRoot() + w)
                let k1 = f >= 0 ? k : k - e2
                let k2 = f >= 0 ? k + e2 : k
                let d = k1 * r / k2
                let hh = libmHypot(z / k1, r / k2)
                sphi = (z / k1) / hh
                cphi = (r / k2) / hh
                h = (1 - e2m / k1) * libmHypot(d, z)
            } else {
                // e⁴q = 0 and rr ≤ 0: inside the evolute on the equatorial plane (oblate) or
                // on the axis (prolate); the general formulas give 0/0, so use the limits.
                let zz = ((f >= 0 ? e4a - p : p) / e2m).squareRoot()
                let xx = (f < 0 ? e4a - p : p).squareRoot()
                let hh = libmHypot(zz, xx)
                sphi = zz / hh
                cphi = xx / hh
                if z < 0 { sphi = -sphi }  // tiny negative z (oblate)
                h = -a * (f >= 0 ? e2m : 1) * hh / e2a
            }
        }
        return (GeoMath.atan2d(sphi, cphi), GeoMath.atan2d(slam, clam), h)
    }

    /// Batch ECEF → geodetic. Complexity: O(`points.count`).
    public func geodetic(from points: [ECEF]) -> [GeoPoint] {
        points.map { p in
            let g = geodetic(from: p)
            return GeoPoint(longitude: g.longitude, latitude: g.latitude, heightMetres: g.heightMetres)
        }
    }
}
