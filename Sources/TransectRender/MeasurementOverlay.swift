import TransectGeodesy

/// A measurement to draw: its endpoints and the label it prints.
public struct MeasurementOverlay: Sendable {
    public var start: GeoPoint
    public var end: GeoPoint
    public var label: String
    public init(start: GeoPoint, end: GeoPoint, label: String) {
        self.start = start
        self.end = end
        self.label = label
    }
}

extension MeasurementOverlay {
    /// Points along the measurement's geodesic for drawing it: 257 from start to end (256 equal
    /// steps, ``GeodesicLine/positions(count:)``); the start alone when the ends coincide.
    var geodesicPoints: [GeoPoint] {
        let line = Geodesic.wgs84.inverseLine(from: start, to: end)
        return line.positions(count: (line.distanceMetres ?? 0) > 0 ? 257 : 1).map(\.point)
    }
}
