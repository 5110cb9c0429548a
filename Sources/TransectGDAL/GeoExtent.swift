/// A DEM's extent in WGS84 longitude/latitude degrees.
public struct GeoExtent: Sendable, Hashable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }
}
