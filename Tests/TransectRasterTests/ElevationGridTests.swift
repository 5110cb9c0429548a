import Testing
@testable import TransectRaster
import TransectTestSupport

@Suite("ElevationGrid sampling kernels")
struct ElevationGridTests {
    static func randomGrid(_ rng: inout SeededRandom, holes: Double) -> ElevationGrid {
        let w = 37
        let h = 23
        let values = (0..<(w * h)).map { _ in Double.random(in: 0..<1, using: &rng) < holes ? .nan : Double.random(in: -400...4800, using: &rng) }
        return ElevationGrid(width: w, height: h, originColumn: 100, originRow: 50, values: values)
    }

    @Test(
        "SIMD bilinear equals the scalar reference bit for bit, holes, edges and outside points included",
        arguments: [0.0, 0.1, 0.5])
    func simdMatchesScalar(holes: Double) {
        var rng = SeededRandom(seed: 2024)
        let grid = Self.randomGrid(&rng, holes: holes)
        // Points over the window, its margins and beyond (row −1 … h + 1), plus non-finite ones.
        var xs = (0..<4099).map { _ in Double.random(in: 98...139, using: &rng) }
        var ys = (0..<4099).map { _ in Double.random(in: 48...75, using: &rng) }
        xs[5] = .nan
        ys[9] = .infinity
        xs[11] = 1e300
        let simd = grid.sample(columns: xs, rows: ys, interpolation: .bilinear)
        for k in xs.indices {
            let scalar = grid.sampleScalar(column: xs[k], row: ys[k], interpolation: .bilinear)
            #expect(simd[k].bitPattern == scalar.bitPattern || (simd[k].isNaN && scalar.isNaN), "point \(k)")
        }
    }

    @Test("bilinear reproduces a plane exactly inside the window, and each cell centre returns its cell")
    func planeAndCentres() {
        let w = 16
        let h = 12
        func plane(_ x: Double, _ y: Double) -> Double { 3.25 * x - 1.5 * y + 100 }
        let values = (0..<(w * h)).map { k in plane(Double(k % w) + 0.5, Double(k / w) + 0.5) }
        let grid = ElevationGrid(width: w, height: h, values: values)
        var rng = SeededRandom(seed: 5)
        for _ in 0..<1000 {
            let x = Double.random(in: 0.5...(Double(w) - 0.5), using: &rng)
            let y = Double.random(in: 0.5...(Double(h) - 0.5), using: &rng)
            for method in [Interpolation.bilinear, .cubic] {
                // Values near 100 with a few roundings: 1e-11 is a few hundred ulps of slack.
                #expect(abs(grid.sampleScalar(column: x, row: y, interpolation: method) - plane(x, y)) < 1e-11)
            }
        }
        #expect(grid.sampleScalar(column: 3.5, row: 4.5, interpolation: .bilinear) == values[4 * w + 3])
        #expect(grid.sampleScalar(column: 3.99, row: 4.01, interpolation: .nearest) == values[4 * w + 3])
    }

    /// z = 100 + 10·i + j at cell (i, j) of a 10 × 10 grid: small integers, so weights of ½,
    /// ¼ and ¾ give exact sums and renormalisations.
    static func gridWithVoids(_ voids: [(Int, Int)]) -> ElevationGrid {
        var values: [Double] = (0..<100).map { (k: Int) -> Double in z(k % 10, k / 10) }
        for (i, j) in voids { values[j * 10 + i] = .nan }
        return ElevationGrid(width: 10, height: 10, values: values)
    }

    static func z(_ i: Int, _ j: Int) -> Double { Double(100 + 10 * i + j) }

    /// The value at (x, y) by `method`; for bilinear, also through the SIMD kernel (four lanes
    /// of the same point), which must agree bit for bit.
    static func read(_ grid: ElevationGrid, _ x: Double, _ y: Double, _ method: Interpolation) -> Double {
        let scalar = grid.sampleScalar(column: x, row: y, interpolation: method)
        let batch = grid.sample(columns: [x, x, x, x, x], rows: [y, y, y, y, y], interpolation: method)
        #expect(batch.allSatisfy { $0.bitPattern == scalar.bitPattern || ($0.isNaN && scalar.isNaN) }, "(\(x), \(y)) \(method)")
        return scalar
    }

    @Test(
        "a void cell's centre, and every point within a tenth of a cell of it, is a gap by every method",
        arguments: Interpolation.allCases)
    func voidCentre(method: Interpolation) {
        let grid = Self.gridWithVoids([(3, 3)])
        // The centre itself, a rounding error off it (where neighbours would carry ~1e-13 of the
        // weight), and a tenth of a cell off it in eight directions.
        var offsets: [(Double, Double)] = [(0, 0), (1e-13, 0), (-1e-13, 1e-13), (0, -0.0)]
        for dx in [-0.1, 0, 0.1] { for dy in [-0.1, 0, 0.1] { offsets.append((dx, dy)) } }
        for (dx, dy) in offsets {
            #expect(Self.read(grid, 3.5 + dx, 3.5 + dy, method).isNaN, "offset (\(dx), \(dy))")
        }
        // The same in a 2 × 2 void block: its centre and the centres of its cells.
        let block = Self.gridWithVoids([(5, 5), (6, 5), (5, 6), (6, 6)])
        for (x, y) in [(6.0, 6.0), (5.5, 5.5), (6.5, 5.5), (5.5, 6.5), (6.5, 6.5), (6.2, 5.9)] {
            #expect(Self.read(block, x, y, method).isNaN, "(\(x), \(y)) in the block")
        }
    }

    @Test("at every cell centre with data, nearest, bilinear and cubic return the cell's own value, beside voids too")
    func centresAgree() {
        let grid = Self.gridWithVoids([(3, 3), (5, 5), (6, 5), (5, 6), (6, 6)])
        for j in 0..<10 {
            for i in 0..<10 {
                let x = Double(i) + 0.5
                let y = Double(j) + 0.5
                let expected = grid.values[j * 10 + i]
                for method in Interpolation.allCases {
                    let v = Self.read(grid, x, y, method)
                    #expect(v.bitPattern == expected.bitPattern || (v.isNaN && expected.isNaN), "cell (\(i), \(j)) \(method)")
                }
            }
        }
    }

    @Test("on the edges of a void cell: exactly half the weight has data and reads the valid side; more void is a gap")
    func voidEdges() {
        let grid = Self.gridWithVoids([(3, 3)])
        for method in [Interpolation.bilinear, .cubic] {
            // West and east edges at the row's centre: half on the void, half on a neighbour.
            #expect(Self.read(grid, 3, 3.5, method) == Self.z(2, 3))
            #expect(Self.read(grid, 4, 3.5, method) == Self.z(4, 3))
            #expect(Self.read(grid, 3.5, 3, method) == Self.z(3, 2))
            #expect(Self.read(grid, 3.5, 4, method) == Self.z(3, 4))
            // A hair into the void: more than half of the weight is void.
            #expect(Self.read(grid, 3 + 1e-9, 3.5, method).isNaN)
            #expect(Self.read(grid, 4 - 1e-9, 3.5, method).isNaN)
            // A quarter cell out of it: ¾ of the weight on the neighbour, which is read alone.
            #expect(Self.read(grid, 2.75, 3.5, method) == Self.z(2, 3))
            // The corner shared with three valid cells: ¾ valid, the mean of the three.
            #expect(Self.read(grid, 3, 3, method) == (Self.z(2, 2) + Self.z(3, 2) + Self.z(2, 3)) / 3)
        }
        // Nearest reads the cell each edge begins: the void on its west edge, the neighbour on its east.
        #expect(Self.read(grid, 3, 3.5, .nearest).isNaN)
        #expect(Self.read(grid, 4, 3.5, .nearest) == Self.z(4, 3))
        #expect(Self.read(grid, 3 - 1e-9, 3.5, .nearest) == Self.z(2, 3))
    }

    @Test("around a 2 × 2 void block: its edges read the valid side, its inner corner and a quarter cell inside are gaps")
    func voidBlock() {
        let grid = Self.gridWithVoids([(5, 5), (6, 5), (5, 6), (6, 6)])
        for method in [Interpolation.bilinear, .cubic] {
            // West edge, at a block row's centre and between the two rows (two valid taps of ¼).
            #expect(Self.read(grid, 5, 5.5, method) == Self.z(4, 5))
            #expect(Self.read(grid, 5, 6, method) == (Self.z(4, 5) + Self.z(4, 6)) / 2)
            // The block's outer corner: three valid taps of four read their mean; a quarter cell
            // further in, the void carries 9/16 of the weight.
            #expect(Self.read(grid, 5, 5, method) == (Self.z(4, 4) + Self.z(5, 4) + Self.z(4, 5)) / 3)
            #expect(Self.read(grid, 5.25, 5.25, method).isNaN)
            #expect(Self.read(grid, 5.25, 5.5, method).isNaN)
            #expect(Self.read(grid, 4.75, 5.5, method) == Self.z(4, 5))
        }
        // Nearest: the void cells and nothing else.
        #expect(Self.read(grid, 5.25, 5.5, .nearest).isNaN)
        #expect(Self.read(grid, 4.75, 5.5, .nearest) == Self.z(4, 5))
        #expect(Self.read(grid, 7, 5.5, .nearest) == Self.z(7, 5))
    }

    @Test("at the raster's edge the taps beyond it count as no data: half-way out reads the edge cell, a corner's outer quarter is a gap")
    func rasterEdges() {
        let grid = Self.gridWithVoids([])
        for method in [Interpolation.bilinear, .cubic] {
            #expect(Self.read(grid, 0, 4.5, method) == Self.z(0, 4))
            #expect(Self.read(grid, 10, 4.5, method) == Self.z(9, 4))
            #expect(Self.read(grid, 4.5, 0, method) == Self.z(4, 0))
            #expect(Self.read(grid, 0.5, 0.5, method) == Self.z(0, 0))
            // At the corner only ¼ of the weight lies on the raster.
            #expect(Self.read(grid, 0, 0, method).isNaN)
            #expect(Self.read(grid, 10, 10, method).isNaN)
        }
        #expect(Self.read(grid, 0, 0, .nearest) == Self.z(0, 0))
    }

    /// A quadratic in pixel coordinates. Keys' kernel with a = −½ reproduces every polynomial of
    /// degree ≤ 2 (Keys 1981, §III: third-order accuracy); bilinear reproduces 1, x, y and xy but
    /// reads x² between unit-spaced centres as x² + t(1 − t), t the offset from the lower centre.
    static func quadratic(_ x: Double, _ y: Double) -> Double { 0.5 * x * x + 0.25 * y * y - 0.75 * x * y + 3 * x - 2 * y + 40 }

    @Test("cubic reproduces a quadratic where its sixteen taps have data, and falls back to bilinear where one has none")
    func cubicFallback() {
        var values = (0..<64).map { Self.quadratic(Double($0 % 8) + 0.5, Double($0 / 8) + 0.5) }
        values[2 * 8 + 2] = .nan
        let grid = ElevationGrid(width: 8, height: 8, values: values)
        // (5.7, 5.2): taps in columns 4…7 and rows 3…6, all with data. Values near 50 through
        // sixteen products: 1e-12 is a few dozen ulps. Bilinear would be 0.1325 off here.
        let cubic = grid.sampleScalar(column: 5.7, row: 5.2, interpolation: .cubic)
        #expect(abs(cubic - Self.quadratic(5.7, 5.2)) < 1e-12, "cubic \(cubic)")  // a few dozen ulps, see above
        // (3.7, 3.2): the taps (columns 2…5, rows 1…4) include the void (2, 2); bilinear's four
        // (columns 3…4, rows 2…3) have data, at offsets tx = 0.2, ty = 0.7 from the lower centres:
        // the quadratic plus 0.5 · 0.2 · 0.8 + 0.25 · 0.7 · 0.3 = 0.1325.
        let fallback = grid.sampleScalar(column: 3.7, row: 3.2, interpolation: .cubic)
        #expect(abs(fallback - (Self.quadratic(3.7, 3.2) + 0.1325)) < 1e-12, "fallback \(fallback)")  // a few dozen ulps, as for the cubic
    }
}
