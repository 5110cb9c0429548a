import Testing
@testable import TransectCore

@Suite("ElevationGrid sampling kernels")
struct ElevationGridTests {
    static func randomGrid(_ rng: inout SplitMix64, holes: Double) -> ElevationGrid {
        let w = 37, h = 23
        let values = (0..<(w * h)).map { _ in Double.random(in: 0..<1, using: &rng) < holes ? .nan : Double.random(in: -400...4800, using: &rng) }
        return ElevationGrid(width: w, height: h, originColumn: 100, originRow: 50, values: values)
    }

    @Test("SIMD bilinear equals the scalar reference bit for bit, holes, edges and outside points included",
          arguments: [0.0, 0.1, 0.5])
    func simdMatchesScalar(holes: Double) {
        var rng = SplitMix64(seed: 2024)
        let grid = Self.randomGrid(&rng, holes: holes)
        // Points over the window, its margins and beyond (row −1 … h + 1), plus non-finite ones.
        var xs = (0..<4099).map { _ in Double.random(in: 98...139, using: &rng) }
        var ys = (0..<4099).map { _ in Double.random(in: 48...75, using: &rng) }
        xs[5] = .nan; ys[9] = .infinity; xs[11] = 1e300
        let simd = grid.sample(columns: xs, rows: ys, interpolation: .bilinear)
        for k in xs.indices {
            let scalar = grid.sampleScalar(column: xs[k], row: ys[k], interpolation: .bilinear)
            #expect(simd[k].bitPattern == scalar.bitPattern || (simd[k].isNaN && scalar.isNaN), "point \(k)")
        }
    }

    @Test("bilinear reproduces a plane exactly inside the window, and each cell centre returns its cell")
    func planeAndCentres() {
        let w = 16, h = 12
        func plane(_ x: Double, _ y: Double) -> Double { 3.25 * x - 1.5 * y + 100 }
        let values = (0..<(w * h)).map { k in plane(Double(k % w) + 0.5, Double(k / w) + 0.5) }
        let grid = ElevationGrid(width: w, height: h, values: values)
        var rng = SplitMix64(seed: 5)
        for _ in 0..<1000 {
            let x = Double.random(in: 0.5...(Double(w) - 0.5), using: &rng), y = Double.random(in: 0.5...(Double(h) - 0.5), using: &rng)
            for method in [Interpolation.bilinear, .cubic] {
                // Values near 100 with a few roundings: 1e-11 is a few hundred ulps of slack.
                #expect(abs(grid.sampleScalar(column: x, row: y, interpolation: method) - plane(x, y)) < 1e-11)
            }
        }
        #expect(grid.sampleScalar(column: 3.5, row: 4.5, interpolation: .bilinear) == values[4 * w + 3])
        #expect(grid.sampleScalar(column: 3.99, row: 4.01, interpolation: .nearest) == values[4 * w + 3])
    }

    @Test("cubic falls back to bilinear where one of its sixteen taps has no data")
    func cubicFallback() {
        var values = (0..<64).map { Double($0 * $0 % 17) }
        values[2 * 8 + 2] = .nan
        let grid = ElevationGrid(width: 8, height: 8, values: values)
        let x = 3.7, y = 3.2
        #expect(grid.sampleScalar(column: x, row: y, interpolation: .cubic) == grid.sampleScalar(column: x, row: y, interpolation: .bilinear))
        #expect(!grid.sampleScalar(column: 5.7, row: 5.2, interpolation: .cubic).isNaN)
    }
}
