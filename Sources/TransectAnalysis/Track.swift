import TransectGeodesy

/// One recorded or simulated position of a location history.
///
/// Stored in five doubles (40 bytes; as optionals it took 64), an unknown value as `nan`, so
/// that a track of millions of fixes stays small: a value set to `nan` reads back as nil, and a
/// `nan` accuracy, which no location service reports, as −1 (an invalid fix, as a negative
/// accuracy marks one).
public struct TrackPoint: Sendable, Hashable {
    /// Longitude in degrees.
    public var longitude: Double
    /// Latitude in degrees.
    public var latitude: Double
    private var storedElevation: Double
    private var storedTime: Double
    private var storedAccuracy: Double

    /// Elevation in metres as recorded (or sampled), if known.
    public var elevationMetres: Double? {
        get { storedElevation.isNaN ? nil : storedElevation }
        set { storedElevation = newValue ?? .nan }
    }
    /// Time in seconds since 1970-01-01T00:00:00Z (UTC), if known.
    public var time: Double? {
        get { storedTime.isNaN ? nil : storedTime }
        set { storedTime = newValue ?? .nan }
    }
    /// Horizontal accuracy in metres where the input has one; negative marks an invalid fix.
    public var accuracyMetres: Double? {
        get { storedAccuracy.isNaN ? nil : storedAccuracy }
        set { storedAccuracy = newValue.map { $0.isNaN ? -1 : $0 } ?? .nan }
    }

    public init(
        longitude: Double, latitude: Double, elevationMetres: Double? = nil, time: Double? = nil,
        accuracyMetres: Double? = nil
    ) {
        self.longitude = longitude
        self.latitude = latitude
        storedElevation = elevationMetres ?? .nan
        storedTime = time ?? .nan
        storedAccuracy = accuracyMetres.map { $0.isNaN ? -1 : $0 } ?? .nan
    }

    public var point: GeoPoint { GeoPoint(longitude: longitude, latitude: latitude, heightMetres: elevationMetres) }

    /// Equal when every value is, unknown ones alike (a stored `nan` is unknown, not unequal).
    public static func == (a: TrackPoint, b: TrackPoint) -> Bool {
        a.longitude == b.longitude && a.latitude == b.latitude && a.elevationMetres == b.elevationMetres && a.time == b.time
            && a.accuracyMetres == b.accuracyMetres
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(longitude)
        hasher.combine(latitude)
        hasher.combine(elevationMetres)
        hasher.combine(time)
        hasher.combine(accuracyMetres)
    }
}

/// A named point kept beside a track (GPX waypoints).
public struct Waypoint: Sendable, Hashable {
    public var name: String
    public var point: TrackPoint
    public init(name: String, point: TrackPoint) {
        self.name = name
        self.point = point
    }
}

/// A location history: segments of points in order. Segments stay segments: no line is drawn or
/// measured across the gap between two of them.
public struct Track: Sendable, Hashable {
    /// The track's name, if the file gives one.
    public var name: String?
    /// Segments of consecutive points.
    public var segments: [[TrackPoint]]
    /// Waypoints that came with the track.
    public var waypoints: [Waypoint]

    public init(name: String? = nil, segments: [[TrackPoint]], waypoints: [Waypoint] = []) {
        self.name = name
        self.segments = segments
        self.waypoints = waypoints
    }

    /// All points, segment after segment.
    public var points: [TrackPoint] { segments.flatMap { $0 } }
    /// The number of points.
    public var pointCount: Int { segments.reduce(0) { $0 + $1.count } }
}

/// A fix from a (simulated) location source: where, when, heading and speed.
public struct Fix: Sendable, Hashable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var time: Double
    public var longitude: Double
    public var latitude: Double
    public var elevationMetres: Double?
    /// Course over ground, degrees clockwise from true north in [0, 360).
    public var courseDegrees: Double
    /// Speed over ground, metres per second.
    public var speedMetresPerSecond: Double

    public init(
        time: Double, longitude: Double, latitude: Double, elevationMetres: Double?, courseDegrees: Double,
        speedMetresPerSecond: Double
    ) {
        self.time = time
        self.longitude = longitude
        self.latitude = latitude
        self.elevationMetres = elevationMetres
        self.courseDegrees = courseDegrees
        self.speedMetresPerSecond = speedMetresPerSecond
    }
}

extension Fix {
    /// The fix as a track point: its position, elevation and time (course and speed have no
    /// place in one).
    public var trackPoint: TrackPoint { TrackPoint(longitude: longitude, latitude: latitude, elevationMetres: elevationMetres, time: time) }
}
