/// An RGBA colour with components in 0…1.
public struct Color: Sendable, Hashable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
    /// From 0xRRGGBB.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xff) / 255, Double((hex >> 8) & 0xff) / 255, Double(hex & 0xff) / 255, alpha)
    }
    public func withAlpha(_ a: Double) -> Color { Color(r, g, b, a) }
    public static let black = Color(0, 0, 0), white = Color(1, 1, 1)
}
