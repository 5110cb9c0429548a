import TransectGeodesy

/// One recorded or simulated position of a location history.
///
/// Stored in 40 bytes (as optionals it took 64), so that a track of millions of fixes stays
/// small: four doubles with an unknown value as `nan` (a value set to `nan` reads back as nil),
/// the accuracy as a `Float` (a location service reports a few digits; `nan`, which none
/// reports, reads back as −1, an invalid fix, as a negative accuracy marks one), and the
/// written microsecond of the time (see ``timeMicroseconds``).
public struct TrackPoint: Sendable, Hashable {
    /// Longitude in degrees.
    public var longitude: Double
    /// Latitude in degrees.
    public var latitude: Double
    private var storedElevation: Double
    private var storedTime: Double
    private var storedAccuracy: Float
    /// The microsecond within its second of the time as written (0 … 999,999), or -1: see
    /// ``timeMicroseconds``.
    private var writtenMicrosecond: Int32 = -1

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
    /// Horizontal accuracy in metres where the input has one (to a `Float`'s seven digits);
    /// negative marks an invalid fix.
    public var accuracyMetres: Double? {
        get { storedAccuracy.isNaN ? nil : Double(storedAccuracy) }
        set { storedAccuracy = newValue.map { $0.isNaN ? -1 : Float($0) } ?? .nan }
    }

    public init(
        longitude: Double, latitude: Double, elevationMetres: Double? = nil, time: Double? = nil,
        accuracyMetres: Double? = nil, timeMicroseconds: Int64? = nil
    ) {
        self.longitude = longitude
        self.latitude = latitude
        storedElevation = elevationMetres ?? .nan
        storedTime = time ?? .nan
        storedAccuracy = accuracyMetres.map { $0.isNaN ? -1 : Float($0) } ?? .nan
        self.timeMicroseconds = timeMicroseconds
    }

    /// The time in whole microseconds since 1970 exactly as written, where a reader parsed it
    /// from text and set it (``Timestamp/parseISO8601Microseconds(_:)``); nil otherwise. `time`
    /// rounds an instant far from 1970 to about half a microsecond (0.48 µs in 1901); this
    /// does not. Only the microsecond within the second is kept, the second coming from
    /// `time`; so when code changes `time` afterwards, this is nil again (the two no longer
    /// agree) and ``exactMicroseconds`` falls back on `time`.
    public var timeMicroseconds: Int64? {
        get {
            guard writtenMicrosecond >= 0, let time, time.isFinite, time.magnitude < 9e12 else { return nil }
            let second = Int64(time.rounded(.down))
            // The written second is time's whole part, or one off where time's rounding crossed it.
            for whole in [second, second - 1, second + 1] {
                let micro = whole * 1_000_000 + Int64(writtenMicrosecond)
                if (Double(micro) / 1e6 - time).magnitude <= 1e-6 + 2 * time.ulp { return micro }
            }
            return nil
        }
        set {
            if let newValue {
                let within = newValue % 1_000_000
                writtenMicrosecond = Int32(within < 0 ? within + 1_000_000 : within)
            } else {
                writtenMicrosecond = -1
            }
        }
    }

    /// Equal when position, elevation, time and accuracy are, unknown ones alike (a stored
    /// `nan` is unknown, not unequal): ``timeMicroseconds`` only writes `time` more exactly,
    /// so it takes no part (a point read from a file equals one built with the same values).
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

    /// The time in whole microseconds since 1970: ``timeMicroseconds`` where it is known,
    /// else `time` rounded down to the microsecond; nil without a finite time.
    public var exactMicroseconds: Int64? {
        guard let time, time.isFinite, time.magnitude < 9e12 else { return nil }
        return timeMicroseconds ?? Int64((time * 1e6).rounded(.down))
    }

    public var point: GeoPoint { GeoPoint(longitude: longitude, latitude: latitude, heightMetres: elevationMetres) }
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
