/// An ellipsoid of revolution, given by its equatorial radius and flattening.
///
/// Oblate (`flattening > 0`), spherical (`0`) and prolate (`flattening < 0`) shapes are all
/// allowed. The geodesic series used by ``Geodesic`` are accurate to round-off for
/// |f| ≲ 1/150 and remain usable, with growing error, up to |f| ≈ 1/50.
///
/// ```swift
/// let grs80 = Ellipsoid(equatorialRadius: 6_378_137, flattening: 1 / 298.257222101)
/// grs80.polarRadius // 6356752.314140…
/// ```
public struct Ellipsoid: Sendable, Hashable {
    /// Equatorial radius *a* in metres; positive and finite.
    public let equatorialRadius: Double
    /// Flattening *f* = (*a* − *b*)/*a*; finite and less than 1 (negative for prolate).
    public let flattening: Double

    /// Creates an ellipsoid.
    /// - Parameters:
    ///   - equatorialRadius: *a* in metres, positive and finite.
    ///   - flattening: *f*, finite and less than 1. Pass `1 / 298.257223563`, not 298.257….
    /// - Precondition: the parameters are in range.
    @inlinable
    public init(equatorialRadius: Double, flattening: Double) {
        precondition(
            equatorialRadius.isFinite && equatorialRadius > 0,
            "Ellipsoid: equatorial radius must be positive and finite")
        precondition(
            flattening.isFinite && flattening < 1,
            "Ellipsoid: flattening must be finite and less than 1")
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
    }

    /// WGS84: *a* = 6 378 137 m, *f* = 1/298.257223563.
    public static let wgs84 = Ellipsoid(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// Polar semi-axis *b* = *a*(1 − *f*), metres.
    @inlinable public var polarRadius: Double { equatorialRadius * (1 - flattening) }
    /// Inverse flattening 1/*f* (infinite for a sphere).
    @inlinable public var inverseFlattening: Double { 1 / flattening }
    /// First eccentricity squared *e*² = *f*(2 − *f*); negative for prolate ellipsoids.
    @inlinable public var eccentricitySquared: Double { flattening * (2 - flattening) }
    /// Second eccentricity squared *e*′² = *e*²/(1 − *e*²).
    @inlinable public var secondEccentricitySquared: Double {
        eccentricitySquared / ((1 - flattening) * (1 - flattening))
    }
    /// Third flattening *n* = *f*/(2 − *f*) = (*a* − *b*)/(*a* + *b*), the expansion
    /// parameter of the geodesic series.
    @inlinable public var thirdFlattening: Double { flattening / (2 - flattening) }
    /// Mean radius *R*₁ = (2*a* + *b*)/3, metres (IUGG).
    @inlinable public var meanRadius: Double { (2 * equatorialRadius + polarRadius) / 3 }
    /// Authalic radius *R*₂, metres: the radius of the sphere with the same surface area.
    public var authalicRadius: Double {
        let a = equatorialRadius
        let b = polarRadius
        let e2 = eccentricitySquared
        // (a² + b² · atanh(e)/e) / 2, with the limits for e² = 0 and e² < 0 (prolate).
        let ratio: Double
        if e2 == 0 {
            ratio = 1
        } else if e2 > 0 {
            ratio = libmAtanh(e2.squareRoot()) / e2.squareRoot()
        } else {
            ratio = libmAtan((-e2).squareRoot()) / (-e2).squareRoot()
        }
        return ((a * a + b * b * ratio) / 2).squareRoot()
    }
}
