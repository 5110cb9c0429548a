import TransectGeodesy

/// Two endpoints to measure between, in WGS84, each with the absolute height the user gave or
/// none (then the DEM gives it).
public struct MeasurementPair: Sendable, Hashable {
    public var from: GeoPoint
    public var to: GeoPoint
    /// Given heights in metres; nil means "from the DEM".
    public var fromZ: Double?
    public var toZ: Double?

    public init(from: GeoPoint, to: GeoPoint, fromZ: Double? = nil, toZ: Double? = nil) {
        self.from = from
        self.to = to
        self.fromZ = fromZ
        self.toZ = toZ
    }
}

/// Where an endpoint's height came from.
public enum HeightSource: String, Sendable, Hashable {
    /// Written by the user.
    case given
    /// Sampled from the DEM (plus the height above ground).
    case dem
}

/// One measured pair, with where each height came from.
public struct MeasuredPair: Sendable {
    public var measurement: Measurement
    public var startSource: HeightSource
    public var endSource: HeightSource

    public init(measurement: Measurement, startSource: HeightSource, endSource: HeightSource) {
        self.measurement = measurement
        self.startSource = startSource
        self.endSource = endSource
    }
}
