import Testing

@testable import TransectGeodesy
@testable import TransectAnalysis
@testable import TransectPerspective

/// The camera's projection against projections computed by hand from the definitions in
/// ``ViewCamera``.
@Suite("perspective camera: the ideal pinhole through the camera's east-north-up frame")
struct ViewCameraTests {
    static let a = Ellipsoid.wgs84.equatorialRadius
    static let r = LineOfSight.earthRadiusMetres

    /// At (0°, 0°) on the ellipsoid east is +y, north +z and up +x in ECEF, so a point
    /// (a + u, e, n) lies e east, n north and u up of the camera.
    @Test("looking north at the horizon: column and row from x/z and y/z")
    func northAtHorizon() {
        let camera = ViewCamera(
            position: GeoPoint(longitude: 0, latitude: 0, heightMetres: 0), headingDegrees: 0, pitchDegrees: 90,
            fieldOfViewDegrees: 90, width: 1000, height: 800, refraction: 0)
        let p = camera.project(ECEF(x: Self.a + 50, y: 100, z: 1000))
        // F = 500 / tan 45° = 500: column 500 + 500·100/1000, row 400 − 500·50/1000.
        #expect(abs(p.x - 550) <= 1e-6)
        // Pixels: ECEF near a rounds to 0.93 nm, which over 1000 m at F = 500 is 5e−10 px; 1e−6 px is loose.
        #expect(abs(p.y - 375) <= 1e-6)
        #expect(abs(p.depthMetres - 1000) <= 1e-6)  // metres: ECEF round-off near a is 0.93 nm; loose
    }

    @Test("refraction lifts a point by K·s²/(2R), s its horizontal distance")
    func refractionLift() {
        let k = 0.13
        let camera = ViewCamera(
            position: GeoPoint(longitude: 0, latitude: 0, heightMetres: 0), headingDegrees: 0, pitchDegrees: 90,
            fieldOfViewDegrees: 90, width: 1000, height: 800, refraction: k)
        let p = camera.project(ECEF(x: Self.a + 50, y: 100, z: 1000))
        let lifted = 50 + k * (100.0 * 100 + 1000 * 1000) / (2 * Self.r)
        #expect(abs(p.x - 550) <= 1e-6)  // pixels: the same ECEF round-off as above
        #expect(abs(p.y - (400 - 500 * lifted / 1000)) <= 1e-6)  // pixels: the same ECEF round-off as above
    }

    /// Heading 90° and pitch 45°: forward = (E − U)/√2, right = −N, up = (E + U)/√2.
    @Test("looking east and 45° down: the rotated axes")
    func eastAndDown() {
        let camera = ViewCamera(
            position: GeoPoint(longitude: 0, latitude: 0, heightMetres: 1000), headingDegrees: 90, pitchDegrees: 45,
            fieldOfViewDegrees: 60, width: 1600, height: 1000, refraction: 0)
        let (e, n, u) = (700.0, -120.0, -400.0)
        let p = camera.project(ECEF(x: Self.a + 1000 + u, y: e, z: n))
        let f = 800 / (0.5 / (0.75.squareRoot()))  // 800 / tan 30°
        let x = -n
        let y = (e + u) / 2.0.squareRoot()
        let z = (e - u) / 2.0.squareRoot()
        #expect(abs(p.x - (800 + f * x / z)) <= 1e-6)  // pixels: ECEF round-off (0.93 nm) over the depth, as above
        #expect(abs(p.y - (500 - f * y / z)) <= 1e-6)  // pixels, as above
        #expect(abs(p.depthMetres - z) <= 1e-6)  // metres: ECEF round-off near a (0.93 nm)
    }

    /// A roll of 90° turns the camera clockwise a quarter (right' = −up, up' = right), so the
    /// scene turns counter-clockwise: a point straight above the axis lands left of the centre.
    @Test("a roll of 90° turns the image a quarter")
    func roll() {
        let camera = ViewCamera(
            position: GeoPoint(longitude: 0, latitude: 0, heightMetres: 0), headingDegrees: 0, pitchDegrees: 90, rollDegrees: 90,
            fieldOfViewDegrees: 90, width: 1000, height: 1000, refraction: 0)
        let p = camera.project(ECEF(x: Self.a + 100, y: 0, z: 1000))
        #expect(abs(p.x - (500 - 500 * 100 / 1000)) <= 1e-6)  // pixels: ECEF round-off over 1000 m, as above
        #expect(abs(p.y - 500) <= 1e-6)  // pixels, as above
    }

    /// Without refraction the target's depth is its distance; with it the lift bends the
    /// apparent position, and the re-aiming still centres it.
    @Test("a camera aimed at a point sees it at the image centre", arguments: [(0.0, 60.0, 0.0), (135.0, 80.0, 0.13), (-70.0, 30.0, 0.0)])
    func aimed(heading: Double, pitch: Double, refraction: Double) {
        let template = ViewCamera(
            position: GeoPoint(longitude: 0, latitude: 0, heightMetres: 0), headingDegrees: 0, pitchDegrees: 90, width: 1600, height: 1000,
            refraction: refraction)
        let target = GeoPoint(longitude: -119.55, latitude: 37.74, heightMetres: 2000)
        let camera = ViewFraming.looking(at: target, distanceMetres: 12_000, headingDegrees: heading, pitchDegrees: pitch, template: template)
        let p = camera.project(Ellipsoid.wgs84.ecef(target))
        // The framing aims the centre pixel at the target: ECEF round-off (0.93 nm) over 12 km is far under 1 µpx.
        #expect(abs(p.x - 800) <= 1e-6 && abs(p.y - 500) <= 1e-6)
        #expect(abs(p.depthMetres - 12_000) <= (refraction == 0 ? 1e-6 : 1))
    }
}
