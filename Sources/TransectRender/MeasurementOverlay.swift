import TransectCore

/// A measurement to draw: its endpoints and the label it prints.
public struct MeasurementOverlay: Sendable {
    public var start: GeoPoint
    public var end: GeoPoint
    public var label: String
    public init(start: GeoPoint, end: GeoPoint, label: String) { self.start = start; self.end = end; self.label = label }
}
