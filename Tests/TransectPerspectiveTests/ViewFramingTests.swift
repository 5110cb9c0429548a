import Testing

@testable import TransectGeodesy
@testable import TransectPerspective

/// `ViewFraming.looking`: a camera looking at a target from a distance along a heading and
/// pitch, re-aimed so the target is the image centre.
@Suite("ViewFraming: looking at a point")
struct ViewFramingTests {
    static let template = ViewCamera(
        position: GeoPoint(longitude: 0, latitude: 0, heightMetres: 0), headingDegrees: 0, pitchDegrees: 90, fieldOfViewDegrees: 60,
        width: 400, height: 300, refraction: 0)
    static let target = GeoPoint(longitude: -119.6, latitude: 37.72, heightMetres: 1200)

    @Test("straight down (pitch 0) keeps the heading asked for: the image turns with it", arguments: [0.0, 45, 90, 200, -30, 359])
    func straightDown(heading: Double) {
        let camera = ViewFraming.looking(at: Self.target, distanceMetres: 5000, headingDegrees: heading, pitchDegrees: 0, template: Self.template)
        // It was atan2 of the round-off of a zero horizontal offset: −163.6° whatever was asked.
        #expect(camera.headingDegrees == heading)
        #expect(camera.pitchDegrees == 0)
        // Above the target: the target projects to the image centre, 5 km ahead.
        let p = camera.project(Ellipsoid.wgs84.ecef(Self.target))
        // Pixels: the camera stands 5 km above along the target's vertical; round-off of ECEF
        // near 6,371 km (~1 nm) over 5 km at F ≈ 346 px is ~1e−10 px.
        #expect(abs(p.x - 200) < 1e-6 && abs(p.y - 150) < 1e-6, "\(p)")
    }

    @Test("off the vertical the heading is the target's direction, as before: 0.01° of pitch is enough to fix it")
    func nearlyStraightDown() {
        let camera = ViewFraming.looking(at: Self.target, distanceMetres: 5000, headingDegrees: 90, pitchDegrees: 0.01, template: Self.template)
        // Degrees: the camera's own frame differs from the target's by the ~0.045° of arc
        // between them, which turns the heading by no more than that.
        #expect(abs(camera.headingDegrees - 90) < 0.1, "\(camera.headingDegrees)")
    }
}
