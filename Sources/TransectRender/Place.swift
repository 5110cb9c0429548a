/// A labelled place.
public struct Place: Sendable, Hashable {
    public var name: String
    public var longitude: Double
    public var latitude: Double
    public init(name: String, longitude: Double, latitude: Double) {
        self.name = name
        self.longitude = longitude
        self.latitude = latitude
    }
}
