import Testing
import TransectTestSupport

@testable import TransectRaster

@Suite("Sampling a segment's evenly spaced points: the bits of sampling their positions")
struct SampleSegmentTests {
    @Test(
        "segments across holes, the window's edges and beyond: every method, both cell types, any first point and count",
        arguments: [0.0, 0.2])
    func sameBitsAsPositions(holes: Double) {
        var rng = SeededRandom(seed: 31)
        for (oc, or) in [(0, 0), (-1, 3), (100, 50)] {
            let (g32, g64) = BilinearKernelTests.grids(&rng, width: 41, height: 29, originColumn: oc, originRow: or, holes: holes)
            var sawValue = false
            var sawGap = false
            for _ in 0..<60 {
                // From inside the window to anywhere around it, so some points leave it.
                let column = Double(oc) + rng.uniform(0, 41)
                let row = Double(or) + rng.uniform(0, 29)
                let columnSpan = rng.uniform(-30, 30)
                let rowSpan = rng.uniform(-30, 30)
                let fraction = 1.0 / 64
                let first = rng.below(21)
                let count = rng.below(65)
                let us = (0..<count).map { Double(first + $0) * fraction }
                let xs = us.map { column + $0 * columnSpan }
                let ys = us.map { row + $0 * rowSpan }
                for method in Interpolation.allCases {
                    for (name, expected, got) in [
                        (
                            "Float32", g32.sample(columns: xs, rows: ys, interpolation: method),
                            Self.segment(g32, column, row, columnSpan, rowSpan, fraction, first, count, method)
                        ),
                        (
                            "Float64", g64.sample(columns: xs, rows: ys, interpolation: method),
                            Self.segment(g64, column, row, columnSpan, rowSpan, fraction, first, count, method)
                        ),
                    ] {
                        #expect(ElevationGridSampleIntoTests.differing(got, expected) == [], "\(name), \(method), \(count) points from \(first)")
                        sawValue = sawValue || got.contains { !$0.isNaN }
                        sawGap = sawGap || got.contains { $0.isNaN }
                    }
                }
            }
            #expect(sawValue && sawGap, "both values and gaps are exercised")
        }
    }

    static func segment(
        _ grid: some SegmentSampling, _ column: Double, _ row: Double, _ columnSpan: Double, _ rowSpan: Double, _ fraction: Double,
        _ first: Int, _ count: Int, _ method: Interpolation
    ) -> [Double] {
        let stale = Double(bitPattern: 0x7FF8_0000_DEAD_BEEF)
        var out = [Double](repeating: stale, count: count + 1)
        out.withUnsafeMutableBufferPointer {
            grid.sampleSegment(
                column: column, row: row, columnSpan: columnSpan, rowSpan: rowSpan, fraction: fraction, first: first, count: count,
                interpolation: method, into: $0.baseAddress!)
        }
        // Nothing written past the segment's points.
        #expect(out[count].bitPattern == stale.bitPattern)
        return Array(out.prefix(count))
    }
}

/// Both grid types' segment sampling, for one helper over either.
protocol SegmentSampling {
    func sampleSegment(
        column: Double, row: Double, columnSpan: Double, rowSpan: Double, fraction: Double, first: Int, count: Int,
        interpolation: Interpolation, into out: UnsafeMutablePointer<Double>)
}

extension Float32ElevationGrid: SegmentSampling {}
extension ElevationGrid: SegmentSampling {}
