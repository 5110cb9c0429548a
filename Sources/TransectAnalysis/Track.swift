import TransectGeodesy

/// One recorded or simulated position of a location history.
public struct TrackPoint: Sendable, Hashable {
    /// Longitude in degrees.
    public var longitude: Double
    /// Latitude in degrees.
    public var latitude: Double
    /// Elevation in metres as recorded (or sampled), if known.
    public var elevationMetres: Double?
    /// Time in seconds since 1970-01-01T00:00:00Z (UTC), if known.
    public var time: Double?
    /// Horizontal accuracy in metres where the input has one; negative marks an invalid fix.
    public var accuracyMetres: Double?
    /// The time in whole microseconds since 1970, exactly as written, where a reader parsed it
    /// from text (``Timestamp/parseISO8601Microseconds(_:)``); nil otherwise. `time` rounds an
    /// instant far from 1970 to about half a microsecond; this does not. Code that changes
    /// `time` leaves it as it was, so ``exactMicroseconds`` uses it only while the two agree.
    public var timeMicroseconds: Int64?

    public init(
        longitude: Double, latitude: Double, elevationMetres: Double? = nil, time: Double? = nil,
        accuracyMetres: Double? = nil, timeMicroseconds: Int64? = nil
    ) {
        self.longitude = longitude
        self.latitude = latitude
        self.elevationMetres = elevationMetres
        self.time = time
        self.accuracyMetres = accuracyMetres
        self.timeMicroseconds = timeMicroseconds
    }

    /// Equal when position, elevation, time and accuracy are: ``timeMicroseconds`` only writes
    /// `time` more exactly, so it takes no part (a point read from a file equals one built
    /// with the same values).
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

    /// The time in whole microseconds since 1970: ``timeMicroseconds`` while it is the
    /// instant `time` holds (within a microsecond and `time`'s rounding), else `time` rounded
    /// down to the microsecond; nil without a finite time.
    public var exactMicroseconds: Int64? {
        guard let time, time.isFinite, time.magnitude < 9e12 else { return nil }
        if let timeMicroseconds, (Double(timeMicroseconds) / 1e6 - time).magnitude <= 1e-6 + 2 * time.ulp { return timeMicroseconds }
        return Int64((time * 1e6).rounded(.down))
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
