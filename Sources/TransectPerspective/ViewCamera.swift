import TransectGeodesy

/// A pinhole camera standing at a place on the earth, as the 3D scene view that inspired
/// Transect defines one: a position (longitude, latitude, height), a heading clockwise from
/// north, a pitch from straight down (0) to the horizon (90), a roll, and a horizontal field of
/// view, over an image of `width` × `height` pixels.
///
/// ## The frame
/// Points go earth-centred (``ECEF``) → the camera's local east-north-up frame (unit vectors
/// of the ellipsoid normal at the camera, so the earth's curvature is exact) → camera axes:
/// ```
///   forward f = sin(pitch)·(sin(heading)·E + cos(heading)·N) − cos(pitch)·U
///   right   r = cos(heading)·E − sin(heading)·N
///   up      u = r × f
/// ```
/// A positive roll turns the camera clockwise about `f` as the photographer sees it, so the
/// scene turns counter-clockwise in the image: r' = cos(roll)·r − sin(roll)·u,
/// u' = sin(roll)·r + cos(roll)·u.
///
/// ## Refraction
/// Light bends down along the earth, so far terrain looks higher than it is. As the line of
/// sight does, the view lowers terrain by the effective earth radius R/(1 − K) instead of R:
/// a point at horizontal distance s in the camera's frame is raised by K·s²/(2R) over its true
/// position (R = ``LineOfSight/earthRadiusMetres``). K = 0 is the geometric view; K = 1 leaves
/// the earth flat to within the ellipsoid's departure from the sphere of radius R.
///
/// ## The projection
/// The ideal pinhole: a point at camera coordinates (x, y, z) (right, up, forward, metres)
/// lands at
/// ```
///   column = W/2 + F·x/z,   row = H/2 − F·y/z,   F = (W/2) / tan(fov/2)
/// ```
/// in pixels, origin at the image's top-left corner, y down, so pixel (i, j) has its centre at
/// (i + 0.5, j + 0.5).
public struct ViewCamera: Sendable, Hashable {
    /// Longitude and latitude, degrees; height in metres, in the DEM's heights.
    public var position: GeoPoint
    /// Clockwise from north, degrees.
    public var headingDegrees: Double
    /// 0 looks straight down, 90 at the horizon, 180 straight up; degrees.
    public var pitchDegrees: Double
    /// Degrees; see the type's notes.
    public var rollDegrees: Double
    /// The horizontal field of view, degrees, in (0, 180).
    public var fieldOfViewDegrees: Double
    /// Image size, pixels.
    public var width: Int
    public var height: Int
    /// The refraction coefficient K (0 = none, 1 = no curvature): far terrain is lowered by
    /// (1 − K)·s²/(2R), the curvature coefficient cc = 1 − K of `profile` and `viewshed`.
    public var refraction: Double

    /// The default refraction coefficient, 1 − ``EarthCurvature/defaultCurvatureCoefficient``
    /// = 0.14286 (about 1/7), as `profile` and `viewshed` take it (it was 0.13, the value for
    /// the standard atmosphere that geodesists quote, until the three shared one parameter).
    public static let defaultRefraction = 1 - EarthCurvature.defaultCurvatureCoefficient

    public init(
        position: GeoPoint, headingDegrees: Double, pitchDegrees: Double, rollDegrees: Double = 0,
        fieldOfViewDegrees: Double = 60, width: Int = 1600, height: Int = 1000, refraction: Double = ViewCamera.defaultRefraction
    ) {
        self.position = position
        self.headingDegrees = headingDegrees
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
        self.fieldOfViewDegrees = fieldOfViewDegrees
        self.width = width
        self.height = height
        self.refraction = refraction
    }

    /// The camera's frame, computed once for many points.
    public var frame: Frame { Frame(self) }

    /// Where `point` lands: pixel coordinates and its depth along the view axis (metres;
    /// negative behind the camera, where the column and row mean nothing).
    public func project(_ point: ECEF) -> (x: Double, y: Double, depthMetres: Double) {
        frame.project(point)
    }

    /// The camera's axes and projection constants.
    public struct Frame: Sendable {
        /// The camera in ECEF.
        public let origin: SIMD3<Double>
        /// East, north and up at the camera, ECEF unit vectors.
        public let east: SIMD3<Double>
        public let north: SIMD3<Double>
        public let up: SIMD3<Double>
        /// Camera axes in the east-north-up frame: right, up, forward.
        public let right: SIMD3<Double>
        public let upward: SIMD3<Double>
        public let forward: SIMD3<Double>
        /// Focal length, pixels.
        public let focalPixels: Double
        public let centreX: Double
        public let centreY: Double
        /// K/(2R): the refraction lift per squared horizontal metre.
        public let lift: Double

        public init(_ camera: ViewCamera) {
            let p = camera.position
            origin = Ellipsoid.wgs84.ecef(latitude: p.latitude, longitude: p.longitude, heightMetres: p.heightMetres ?? 0).xyz
            let (sphi, cphi) = GeoMath.sincosd(p.latitude)
            let (slam, clam) = GeoMath.sincosd(p.longitude)
            east = SIMD3(-slam, clam, 0)
            north = SIMD3(-sphi * clam, -sphi * slam, cphi)
            up = SIMD3(cphi * clam, cphi * slam, sphi)
            let (sh, ch) = GeoMath.sincosd(camera.headingDegrees)
            let (sp, cp) = GeoMath.sincosd(camera.pitchDegrees)
            let (sr, cr) = GeoMath.sincosd(camera.rollDegrees)
            let f = SIMD3(sp * sh, sp * ch, -cp)
            let r = SIMD3(ch, -sh, 0)
            let u = SIMD3(r.y * f.z - r.z * f.y, r.z * f.x - r.x * f.z, r.x * f.y - r.y * f.x)
            forward = f
            right = cr * r - sr * u
            upward = sr * r + cr * u
            let (sf, cf) = GeoMath.sincosd(camera.fieldOfViewDegrees / 2)
            centreX = Double(camera.width) / 2
            centreY = Double(camera.height) / 2
            focalPixels = centreX * cf / sf
            lift = camera.refraction / (2 * EarthCurvature.meanRadiusMetres)
        }

        /// `point` in the camera's east-north-up frame, metres, with the refraction lift.
        @inlinable
        public func enu(_ point: SIMD3<Double>) -> SIMD3<Double> {
            let d = point - origin
            let e = (d * east).sum()
            let n = (d * north).sum()
            let u = (d * up).sum() + lift * (e * e + n * n)
            return SIMD3(e, n, u)
        }

        /// Camera coordinates (right, up, forward), metres, of a point in the east-north-up frame.
        @inlinable
        public func camera(enu v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((v * right).sum(), (v * upward).sum(), (v * forward).sum())
        }

        /// Pixel coordinates and depth of an ECEF point (see ``ViewCamera``).
        public func project(_ point: ECEF) -> (x: Double, y: Double, depthMetres: Double) {
            let c = camera(enu: enu(point.xyz))
            return (centreX + focalPixels * c.x / c.z, centreY - focalPixels * c.y / c.z, c.z)
        }

        /// The east-north-up direction of the ray through pixel position (`x`, `y`), not unit.
        public func ray(x: Double, y: Double) -> SIMD3<Double> {
            forward * focalPixels + right * (x - centreX) - upward * (y - centreY)
        }
    }
}
