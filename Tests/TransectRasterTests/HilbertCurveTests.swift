import Testing
import TransectRaster

@Suite struct HilbertCurveTests {
    @Test("the walk visits every cell once, each step to a cell beside the last, and point inverts index", arguments: 0...6)
    func walk(order: Int) {
        let side = 1 << order
        var seen = Set<Int>()
        var last: (x: Int, y: Int)?
        for d in 0..<(side * side) {
            let p = HilbertCurve.point(index: d, order: order)
            #expect(p.x >= 0 && p.x < side && p.y >= 0 && p.y < side)
            #expect(HilbertCurve.index(x: p.x, y: p.y, order: order) == d)
            seen.insert(p.y * side + p.x)
            if let last { #expect(abs(p.x - last.x) + abs(p.y - last.y) == 1, "step \(d) of order \(order)") }
            last = p
        }
        #expect(seen.count == side * side)
    }

    @Test("the first cells of the order-1 and order-2 walks, as the curve is drawn")
    func firstCells() {
        #expect((0..<4).map { HilbertCurve.point(index: $0, order: 1) }.map { [$0.x, $0.y] } == [[0, 0], [0, 1], [1, 1], [1, 0]])
        #expect(
            (0..<6).map { HilbertCurve.point(index: $0, order: 2) }.map { [$0.x, $0.y] } == [[0, 0], [1, 0], [1, 1], [0, 1], [0, 2], [0, 3]])
    }

    @Test("the order a grid needs")
    func orders() {
        #expect([1, 2, 3, 4, 5, 8, 9, 4096].map(HilbertCurve.order(side:)) == [0, 1, 2, 2, 3, 3, 4, 12])
    }
}
