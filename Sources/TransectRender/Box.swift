/// A pixel rectangle, for label placement.
struct Box: Hashable {
    var x: Double, y: Double, width: Double, height: Double
    var maxX: Double { x + width }
    var maxY: Double { y + height }
    func intersects(_ o: Box) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }
    func inset(_ d: Double) -> Box { Box(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
    func contains(_ px: Double, _ py: Double) -> Bool { px >= x && px <= maxX && py >= y && py <= maxY }
}
