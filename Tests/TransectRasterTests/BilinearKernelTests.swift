import Testing
import TransectTestSupport

@testable import TransectRaster

@Suite("Bilinear kernel: Float32 and Float64 windows, lanes against the scalar reference")
struct BilinearKernelTests {
    /// The same random cells as a Float32 grid and as a Float64 grid: Float32 values widened.
    static func grids(
        _ rng: inout SeededRandom, width: Int, height: Int, originColumn: Int, originRow: Int, holes: Double
    ) -> (Float32ElevationGrid, ElevationGrid) {
        let cells: [Float] = (0..<(width * height)).map { _ in
            rng.unit() < holes ? .nan : Float(rng.uniform(-400, 4800))
        }
        return (
            Float32ElevationGrid(width: width, height: height, originColumn: originColumn, originRow: originRow, values: cells),
            ElevationGrid(width: width, height: height, originColumn: originColumn, originRow: originRow, values: cells.map(Double.init))
        )
    }

    /// Points over a window, its margins and beyond, with non-finite and far-off ones mixed in.
    static func points(_ rng: inout SeededRandom, count: Int, columns: ClosedRange<Double>, rows: ClosedRange<Double>) -> ([Double], [Double]) {
        var xs = (0..<count).map { _ in rng.uniform(columns.lowerBound, columns.upperBound) }
        var ys = (0..<count).map { _ in rng.uniform(rows.lowerBound, rows.upperBound) }
        for k in stride(from: 3, to: count, by: 211) {
            switch k % 5 {
            case 0: xs[k] = .nan
            case 1: ys[k] = .infinity
            case 2: xs[k] = 1e300
            case 3: ys[k] = -1e18
            default: xs[k] = -.infinity
            }
        }
        return (xs, ys)
    }

    static func sameBits(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    /// Every point: the Float32 batch, the Float32 scalar reference, the Float64 batch and the
    /// Float64 scalar reference all agree bit for bit.
    static func expectAgreement(_ g32: Float32ElevationGrid, _ g64: ElevationGrid, _ xs: [Double], _ ys: [Double], _ method: Interpolation) {
        let batch32 = g32.sample(columns: xs, rows: ys, interpolation: method)
        let batch64 = g64.sample(columns: xs, rows: ys, interpolation: method)
        var differing: [Int] = []
        for k in xs.indices {
            let reference = g64.sampleScalar(column: xs[k], row: ys[k], interpolation: method)
            let scalar32 = g32.sampleScalar(column: xs[k], row: ys[k], interpolation: method)
            if !(sameBits(batch32[k], reference) && sameBits(batch64[k], reference) && sameBits(scalar32, reference)) {
                differing.append(k)
            }
        }
        #expect(differing.isEmpty, "\(method): \(differing.prefix(5).map { (xs[$0], ys[$0]) })")
    }

    @Test(
        "Float32 and Float64 windows, lanes and scalar agree bit for bit over holes, edges and non-finite points",
        arguments: [0.0, 0.1, 0.5])
    func smallWindows(holes: Double) {
        var rng = SeededRandom(seed: 11)
        // Origins on both sides of zero: a negative origin puts u = x − ½ below zero inside
        // the window, where the floor is not the truncation.
        for (oc, or) in [(0, 0), (-1, -1), (100, 50), (-300, 7)] {
            let (g32, g64) = Self.grids(&rng, width: 37, height: 23, originColumn: oc, originRow: or, holes: holes)
            let (xs, ys) = Self.points(
                &rng, count: 4099, columns: Double(oc - 2)...Double(oc + 39), rows: Double(or - 2)...Double(or + 25))
            for method in Interpolation.allCases { Self.expectAgreement(g32, g64, xs, ys, method) }
        }
    }

    @Test("a long batch through the two-stage pipeline: every group, the ring's wrap-around and the tail land at their input positions")
    func pipelinedBatch() {
        var rng = SeededRandom(seed: 12)
        let (g32, g64) = Self.grids(&rng, width: 210, height: 110, originColumn: -1, originRow: 3, holes: 0.05)
        // 40,001 points: 10,000 groups (the ring of slots wraps 1,250 times) and a tail of one.
        let (xs, ys) = Self.points(&rng, count: 40_001, columns: -3...211, rows: 1...115)
        #expect(xs.count / 4 > 8 * Float32ElevationGrid.prefetchGroups)
        Self.expectAgreement(g32, g64, xs, ys, .bilinear)
        // Fewer groups than the prefetch distance: stage one never runs ahead.
        Self.expectAgreement(g32, g64, Array(xs.prefix(9)), Array(ys.prefix(9)), .bilinear)
    }

    @Test(
        "the floor without libm is rounded(.down), for either sign, at and beside integers",
        arguments: [0.0, -0.0, 0.5, -0.5, 1, -1, 2.5, -2.5, 0x1p-1074, -0x1p-1074, 1e-300, -1e-300, 0x1p40 + 0.5, -0x1p40 - 0.5, 0x1p51 - 1])
    func floorWithoutLibm(u: Double) {
        for w in [u, u.nextUp, u.nextDown] {
            let lanes = SIMD4<Double>(w, -w, w + 1, w - 1)
            let ours = BilinearLanes<Float>.floorWithoutLibm(lanes)
            let libm = lanes.rounded(.down)
            #expect((0..<4).allSatisfy { ours[$0] == libm[$0] }, "\(lanes): \(ours) vs \(libm)")
        }
    }

    @Test("an infinite tap under a zero weight: the fast quotient is nan, the masked lanes give the reference's value")
    func infiniteTapWithoutWeight() {
        // Cell (1, 1) is +inf. The points sit on the centres of (0, 1) and (1, 0), where it is a
        // tap of weight 0 (0 · inf is nan in the fast sum; the reference skips the tap), of
        // (2, 1), where it is no tap, and of (1, 1) itself, where it carries the whole weight.
        var cells = [Float](repeating: 100, count: 16)
        cells[5] = .infinity
        let grid = Float32ElevationGrid(width: 4, height: 4, values: cells)
        let values = grid.sample(columns: [0.5, 1.5, 2.5, 1.5], rows: [1.5, 0.5, 1.5, 1.5], interpolation: .bilinear)
        #expect(values == [100, 100, 100, .infinity])
    }

    @Test("bilinear reproduces a plane exactly at dyadic offsets, in every lane and in the tail")
    func planeExactly() {
        let w = 64
        let h = 40
        // Integer cells: exact in Float32; offsets in 1/64 make every weight and product exact.
        func plane(_ u: Double, _ v: Double) -> Double { 3 * u - 2 * v + 1000 }
        let cells = (0..<(w * h)).map { k in Float(plane(Double(k % w), Double(k / w))) }
        let grid = Float32ElevationGrid(width: w, height: h, originColumn: 0, originRow: 0, values: cells)
        var rng = SeededRandom(seed: 13)
        let xs = (0..<1003).map { _ in 0.5 + Double(rng.below((w - 1) * 64)) / 64 }
        let ys = (0..<1003).map { _ in 0.5 + Double(rng.below((h - 1) * 64)) / 64 }
        let values = grid.sample(columns: xs, rows: ys, interpolation: .bilinear)
        let wrong = xs.indices.filter { values[$0] != plane(xs[$0] - 0.5, ys[$0] - 0.5) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5).map { (xs[$0], ys[$0], values[$0]) })")
    }

    @Test("signed zeros, infinities and a no-data corner: the lanes keep the reference's bits")
    func specialCells() {
        // −0 everywhere but one cell: the reference's sum starts at +0, so does the kernel's.
        var cells = [Float](repeating: -0.0, count: 16)
        cells[5] = .infinity
        cells[10] = .nan
        let g32 = Float32ElevationGrid(width: 4, height: 4, values: cells)
        let g64 = ElevationGrid(width: 4, height: 4, values: cells.map(Double.init))
        var xs: [Double] = []
        var ys: [Double] = []
        for i in 0...16 {
            for j in 0...16 {
                xs.append(Double(i) / 4)
                ys.append(Double(j) / 4)
            }
        }
        Self.expectAgreement(g32, g64, xs, ys, .bilinear)
        let atZero = g32.sample(columns: [0.5, 0.5, 0.5, 0.5], rows: [0.5, 0.5, 0.5, 0.6], interpolation: .bilinear)
        #expect(atZero.allSatisfy { $0 == 0 && $0.sign == .plus })
    }

    @Test("a one-column or empty window has no fast lanes and still answers as the reference")
    func degenerateWindows() {
        let thin32 = Float32ElevationGrid(width: 1, height: 5, values: [1, 2, 3, 4, 5])
        let thin64 = ElevationGrid(width: 1, height: 5, values: [1, 2, 3, 4, 5])
        var rng = SeededRandom(seed: 14)
        let (xs, ys) = Self.points(&rng, count: 257, columns: -1...2, rows: -1...6)
        Self.expectAgreement(thin32, thin64, xs, ys, .bilinear)
        let empty = Float32ElevationGrid(width: 0, height: 0, values: [])
        let none = empty.sample(columns: [0.5, 1, 2, 3, 4], rows: [0.5, 1, 2, 3, 4], interpolation: .bilinear)
        #expect(none.count == 5 && none.allSatisfy { $0.isNaN })
    }
}
