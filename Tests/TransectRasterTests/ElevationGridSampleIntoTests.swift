import Testing
import TransectTestSupport

@testable import TransectRaster

@Suite("Sampling into a caller's buffer: the allocating call's bits, a wrong-sized buffer refused")
struct ElevationGridSampleIntoTests {
    /// Where two results differ in their bits (a `nan` must match to its payload, a zero to its
    /// sign, and the counts must agree): the first few indices.
    static func differing(_ a: [Double], _ b: [Double]) -> [Int] {
        guard a.count == b.count else { return [-1] }
        return Array(a.indices.filter { a[$0].bitPattern != b[$0].bitPattern }.prefix(5))
    }

    @Test(
        "into a reused buffer: the same bits as the allocating call over holes, window edges and non-finite points, every method",
        arguments: [0.0, 0.1, 0.5])
    func sameBitsAsAllocating(holes: Double) {
        var rng = SeededRandom(seed: 21)
        // One buffer for every window and method: each call must overwrite all of it. It starts
        // as a nan with a payload no sampling path makes, so a slot left unwritten shows.
        let count = 4099
        let stale = Double(bitPattern: 0x7FF8_0000_DEAD_BEEF)
        var out32 = [Double](repeating: stale, count: count)
        var out64 = [Double](repeating: stale, count: count)
        for (oc, or) in [(0, 0), (-1, -1), (100, 50), (-300, 7)] {
            let (g32, g64) = BilinearKernelTests.grids(&rng, width: 37, height: 23, originColumn: oc, originRow: or, holes: holes)
            // Points inside, on the margins (where lanes fall back to the reference) and beyond.
            let (xs, ys) = BilinearKernelTests.points(
                &rng, count: count, columns: Double(oc - 2)...Double(oc + 39), rows: Double(or - 2)...Double(or + 25))
            for method in Interpolation.allCases {
                g32.sample(columns: xs, rows: ys, interpolation: method, into: &out32)
                g64.sample(columns: xs, rows: ys, interpolation: method, into: &out64)
                let fresh32 = g32.sample(columns: xs, rows: ys, interpolation: method)
                let fresh64 = g64.sample(columns: xs, rows: ys, interpolation: method)
                #expect(Self.differing(out32, fresh32) == [], "Float32, \(method), origin \(oc), \(or)")
                #expect(Self.differing(out64, fresh64) == [], "Float64, \(method), origin \(oc), \(or)")
                #expect(out32.contains { $0.isNaN } && out32.contains { !$0.isNaN }, "both gaps and values are exercised")
                #expect(!out32.contains { $0.bitPattern == stale.bitPattern })
            }
        }
    }

    @Test("a short batch (fewer groups than the prefetch distance, a tail) and an empty one")
    func shortBatches() {
        var rng = SeededRandom(seed: 22)
        let (g32, _) = BilinearKernelTests.grids(&rng, width: 16, height: 9, originColumn: 2, originRow: -3, holes: 0.2)
        let (xs, ys) = BilinearKernelTests.points(&rng, count: 11, columns: 0...20, rows: -5...8)
        for n in [0, 1, 3, 4, 5, 11] {
            var out = [Double](repeating: 7, count: n)
            g32.sample(columns: Array(xs.prefix(n)), rows: Array(ys.prefix(n)), interpolation: .bilinear, into: &out)
            let fresh = g32.sample(columns: Array(xs.prefix(n)), rows: Array(ys.prefix(n)), interpolation: .bilinear)
            #expect(Self.differing(out, fresh) == [], "\(n) points")
        }
    }

    @Test("a buffer that is not one element per point is refused, shorter or longer, for either cell type")
    func wrongSizeRefused() async {
        await #expect(processExitsWith: .failure) {
            let grid = Float32ElevationGrid(width: 4, height: 4, values: [Float](repeating: 1, count: 16))
            var out = [Double](repeating: 0, count: 4)
            grid.sample(columns: [1, 2, 3, 1.5, 2.5], rows: [1, 2, 3, 1.5, 2.5], interpolation: .bilinear, into: &out)
        }
        await #expect(processExitsWith: .failure) {
            let grid = ElevationGrid(width: 4, height: 4, values: [Double](repeating: 1, count: 16))
            var out = [Double](repeating: 0, count: 6)
            grid.sample(columns: [1, 2, 3, 1.5, 2.5], rows: [1, 2, 3, 1.5, 2.5], interpolation: .bilinear, into: &out)
        }
        await #expect(processExitsWith: .failure) {
            let grid = Float32ElevationGrid(width: 4, height: 4, values: [Float](repeating: 1, count: 16))
            var out = [Double](repeating: 0, count: 2)
            grid.sample(columns: [1, 2, 3], rows: [1, 2, 3], interpolation: .cubic, into: &out)
        }
        // The right size passes: the refusals above are about the size alone.
        await #expect(processExitsWith: .success) {
            let grid = Float32ElevationGrid(width: 4, height: 4, values: [Float](repeating: 1, count: 16))
            var out = [Double](repeating: 0, count: 5)
            grid.sample(columns: [1, 2, 3, 1.5, 2.5], rows: [1, 2, 3, 1.5, 2.5], interpolation: .bilinear, into: &out)
        }
    }
}
