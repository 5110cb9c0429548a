import Testing
import TransectTestSupport

@testable import TransectCore

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

    @Test("a grid beyond the caches takes the row-sorted path: results land at their input positions, equal to the reference")
    func sortedPath() {
        var rng = SeededRandom(seed: 12)
        // 2,100 × 1,100 Float32 cells, 9.2 MB: above the 8 MiB where points are sorted by row.
        let (g32, g64) = Self.grids(&rng, width: 2100, height: 1100, originColumn: -1, originRow: 3, holes: 0.05)
        #expect(g32.values.count * 4 > Float32ElevationGrid.sortedGridBytes)
        let (xs, ys) = Self.points(&rng, count: 40_001, columns: -3...2101, rows: 1...1105)
        #expect(xs.count >= Float32ElevationGrid.sortedBatchMinimum)
        Self.expectAgreement(g32, g64, xs, ys, .bilinear)
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
