import TransectGeodesy

/// Where to put a camera: looking at a point from a distance, or framing a measurement (or a
/// set of points) from the side.
public enum ViewFraming {
    /// A camera `distanceMetres` from `target` (height required), looking at it along
    /// `headingDegrees` and `pitchDegrees` as seen from the target; heading and pitch are then
    /// re-aimed in the camera's own frame so that the target lands exactly on the image centre
    /// (the two frames differ by the earth's curvature between them).
    public static func looking(
        at target: GeoPoint, distanceMetres: Double, headingDegrees: Double, pitchDegrees: Double, template: ViewCamera
    ) -> ViewCamera {
        let t = Ellipsoid.wgs84.ecef(target).xyz
        var probe = template
        probe.position = target
        probe.headingDegrees = headingDegrees
        probe.pitchDegrees = pitchDegrees
        probe.rollDegrees = 0
        let frame = probe.frame
        let forward = frame.east * frame.forward.x + frame.north * frame.forward.y + frame.up * frame.forward.z
        let c = Ellipsoid.wgs84.geodetic(from: ECEF(xyz: t - forward * distanceMetres))
        return aimed(
            template, from: GeoPoint(longitude: c.longitude, latitude: c.latitude, heightMetres: c.heightMetres), at: target,
            headingDegrees: headingDegrees)
    }

    /// Below this ratio of the target's horizontal offset to its distance (about 0.2″), the
    /// camera looks straight down or up and the offset's direction is round-off: the heading
    /// is the one asked for.
    static let verticalSightRatio = 1e-6

    /// `template` moved to `position` and turned to look at `target` (roll kept). Looking
    /// straight down or up, where the target's direction fixes no heading, the heading is
    /// `headingDegrees` (0 when nil): `--look-at … --pitch 0 --heading 90` has east at the top.
    public static func aimed(_ template: ViewCamera, from position: GeoPoint, at target: GeoPoint, headingDegrees: Double? = nil) -> ViewCamera {
        var camera = template
        camera.position = position
        camera.headingDegrees = 0
        camera.pitchDegrees = 90
        let v = camera.frame.enu(Ellipsoid.wgs84.ecef(target).xyz)
        let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
        let vertical = horizontal <= verticalSightRatio * (horizontal * horizontal + v.z * v.z).squareRoot()
        camera.headingDegrees = vertical ? headingDegrees ?? 0 : GeoMath.atan2d(v.x, v.y)
        camera.pitchDegrees = vertical ? (v.z < 0 ? 0 : 180) : GeoMath.atan2d(horizontal, -v.z)
        return camera
    }

    /// The pitch a framed view looks down at: 22° below the horizon.
    public static let framingPitchDegrees = 68.0
    /// Space around framed content, a fraction of its span on each side.
    public static let margin = 0.2
    /// The least height of a camera above the terrain under it, metres.
    public static let clearanceMetres = 60.0

    /// A camera that frames the line from `start` to `end` (heights required) from its side:
    /// looking across the line at its middle, ``framingPitchDegrees`` down, from the distance
    /// at which both ends and the height between them fit with ``margin`` to spare; from the
    /// side where the start is on the left unless the terrain under the camera is higher there;
    /// raised to ``clearanceMetres`` above the terrain (`ground`) where it would stand lower.
    public static func framing(
        from start: GeoPoint, to end: GeoPoint, template: ViewCamera, ground: (GeoPoint) -> Double?
    ) -> (camera: ViewCamera, target: GeoPoint, distanceMetres: Double) {
        let inverse = Geodesic.wgs84.inverse(from: start, to: end)
        let line = Geodesic.wgs84.inverseLine(from: start, to: end)
        var middle = line.position(atDistance: inverse.distanceMetres / 2).point
        let zs = start.heightMetres ?? 0
        let ze = end.heightMetres ?? 0
        middle.heightMetres = (zs + ze) / 2
        let azimuth = line.position(atDistance: inverse.distanceMetres / 2).azimuth2Degrees
        let distance = fittingDistance(width: inverse.distanceMetres, height: abs(ze - zs), template: template)
        var best: (camera: ViewCamera, ground: Double)? = nil
        for side in [-90.0, 90.0] {
            let camera = looking(at: middle, distanceMetres: distance, headingDegrees: azimuth + side, pitchDegrees: framingPitchDegrees, template: template)
            let g = ground(camera.position) ?? -.infinity
            if best == nil || g < best!.ground { best = (camera, g) }
        }
        return (raised(best!.camera, ground: best!.ground, target: middle), middle, distance)
    }

    /// A camera looking north at the middle of `points` (heights required) from the distance
    /// at which their extent fits, ``framingPitchDegrees`` down.
    public static func framing(
        points: [GeoPoint], template: ViewCamera, ground: (GeoPoint) -> Double?
    ) -> (
        camera: ViewCamera, target: GeoPoint, distanceMetres: Double
    ) {
        let lons = points.map(\.longitude)
        let lats = points.map(\.latitude)
        let hs = points.compactMap(\.heightMetres)
        let west = lons.min() ?? 0
        let east = lons.max() ?? 0
        let south = lats.min() ?? 0
        let north = lats.max() ?? 0
        let low = hs.min() ?? 0
        let high = hs.max() ?? 0
        let target = GeoPoint(longitude: (west + east) / 2, latitude: (south + north) / 2, heightMetres: (low + high) / 2)
        let across = Geodesic.wgs84.inverse(
            from: GeoPoint(longitude: west, latitude: target.latitude), to: GeoPoint(longitude: east, latitude: target.latitude))
        let along = Geodesic.wgs84.inverse(
            from: GeoPoint(longitude: target.longitude, latitude: south), to: GeoPoint(longitude: target.longitude, latitude: north))
        let distance = fittingDistance(width: max(across.distanceMetres, along.distanceMetres, 100), height: high - low, template: template)
        let camera = looking(at: target, distanceMetres: distance, headingDegrees: 0, pitchDegrees: framingPitchDegrees, template: template)
        return (raised(camera, ground: ground(camera.position) ?? -.infinity, target: target), target, distance)
    }

    /// The distance at which a span `width` across and `height` up fills the view with margins.
    static func fittingDistance(width: Double, height: Double, template: ViewCamera) -> Double {
        let (s, c) = GeoMath.sincosd(template.fieldOfViewDegrees / 2)
        let tanX = s / c
        let tanY = tanX * Double(template.height) / Double(max(template.width, 1))
        let d = max(width / 2 * (1 + 2 * margin) / tanX, height * (1 + 2 * margin) / tanY, 50)
        return d
    }

    /// `camera` raised to ``clearanceMetres`` over `ground` (metres) if lower, re-aimed at `target`.
    static func raised(_ camera: ViewCamera, ground: Double, target: GeoPoint) -> ViewCamera {
        let z = camera.position.heightMetres ?? 0
        guard ground.isFinite, z < ground + clearanceMetres else { return camera }
        var position = camera.position
        position.heightMetres = ground + clearanceMetres
        return aimed(camera, from: position, at: target)
    }
}
