import Testing
import TransectRaster
import TransectTestSupport

@Suite("BSplineWarp: GDAL's cubic B-spline, four lanes against the scalar reference")
struct BSplineWarpTests {
    @Test("the weight times six at whole distances is 4, 1, 0 (within the kernel's reach), and the four taps sum to 6 for any offset")
    func weights() {
        #expect(BSplineWarp.weight(0) == 4)
        #expect(BSplineWarp.weight(1) == 1 && BSplineWarp.weight(-1) == 1)
        #expect(BSplineWarp.weight(2) == 0 && BSplineWarp.weight(-2) == 0)
        var rng = SeededRandom(seed: 11)
        for _ in 0..<1000 {
            let d = rng.unit()
            let sum = BSplineWarp.weight(-1 - d) + BSplineWarp.weight(-d) + BSplineWarp.weight(1 - d) + BSplineWarp.weight(2 - d)
            // Sums of four cubics of size ≤ 8: a few ulps of 6.
            #expect(abs(sum - 6) < 1e-13, "offset \(d): \(sum)")
        }
    }

    @Test("a plane is resampled exactly (the B-spline reproduces linear functions), edges included")
    func plane() throws {
        let w = 20
        let h = 15
        let values = (0..<(w * h)).map { Float(3 * ($0 % w) + 5 * ($0 / w)) }
        try values.withUnsafeBufferPointer { buffer in
            let source = BSplineWarp.Source(
                values: buffer, column: 0, row: 0, windowWidth: w, windowHeight: h, rasterWidth: w, rasterHeight: h)
            // Interior: a plane through the cell centres, z = 3(x − 0.5) + 5(y − 0.5).
            for (x, y) in [(5.3, 7.9), (2.5, 2.5), (17.2, 11.01)] {
                let v = try #require(BSplineWarp.sample(source, x: x, y: y))
                // The warp writes Float32: ulps near 100 are 7.6e−6, so about 13 ulp.
                #expect(abs(Double(v) - (3 * (x - 0.5) + 5 * (y - 0.5))) < 1e-4, "(\(x), \(y))")
            }
            // Outside the raster, or a cell beyond its far edge: no value.
            for (x, y) in [(-0.01, 3.0), (3.0, -0.5), (Double(w) + 1, 3.0), (3.0, Double(h) + 1.5), (Double.nan, 2.0)] {
                #expect(BSplineWarp.sample(source, x: x, y: y) == nil, "(\(x), \(y))")
            }
        }
    }

    @Test("resampleRow's lanes equal the scalar reference bit for bit, at edges, corners and outside too")
    func lanesMatchReference() {
        let w = 37
        let h = 29
        var rng = SeededRandom(seed: 5)
        let values = (0..<(w * h)).map { _ in Float(rng.uniform(-500, 4000)) }
        let count = 4001
        var xs = [Double](repeating: 0, count: count)
        var ys = [Double](repeating: 0, count: count)
        var ok = [Int32](repeating: 1, count: count)
        for k in 0..<count {
            // Mostly inside, some near and beyond every edge, some failed transforms and nans.
            xs[k] = rng.uniform(-1, Double(w) + 1)
            ys[k] = rng.uniform(-1, Double(h) + 1)
            if k % 97 == 0 { ok[k] = 0 }
            if k % 89 == 0 { xs[k] = .nan }
        }
        var out = [Float](repeating: 0, count: count)
        values.withUnsafeBufferPointer { buffer in
            let source = BSplineWarp.Source(
                values: buffer, column: 0, row: 0, windowWidth: w, windowHeight: h, rasterWidth: w, rasterHeight: h)
            BSplineWarp.resampleRow(source, count: count, x: xs, y: ys, success: ok, into: &out)
            var lanes = 0
            for k in 0..<count {
                let expected = ok[k] != 0 ? BSplineWarp.sample(source, x: xs[k], y: ys[k]) ?? .nan : .nan
                #expect(out[k].bitPattern == expected.bitPattern, "point \(k) at (\(xs[k]), \(ys[k]))")
                if xs[k] >= 2.5, xs[k] < Double(w) - 2.5, ys[k] >= 2.5, ys[k] < Double(h) - 2.5 { lanes += 1 }
            }
            #expect(lanes > count / 2)
        }
    }

    @Test("a window of a larger raster gives the values the whole raster gives")
    func window() throws {
        let w = 30
        let h = 24
        var rng = SeededRandom(seed: 9)
        let values = (0..<(w * h)).map { _ in Float(rng.uniform(0, 100)) }
        let (c0, r0, ww, wh) = (6, 4, 18, 15)
        var part: [Float] = []
        for r in r0..<(r0 + wh) { part += values[(r * w + c0)..<(r * w + c0 + ww)] }
        try values.withUnsafeBufferPointer { whole in
            try part.withUnsafeBufferPointer { sub in
                let all = BSplineWarp.Source(values: whole, column: 0, row: 0, windowWidth: w, windowHeight: h, rasterWidth: w, rasterHeight: h)
                let some = BSplineWarp.Source(values: sub, column: c0, row: r0, windowWidth: ww, windowHeight: wh, rasterWidth: w, rasterHeight: h)
                for _ in 0..<500 {
                    let x = rng.uniform(Double(c0) + 2, Double(c0 + ww) - 2)
                    let y = rng.uniform(Double(r0) + 2, Double(r0 + wh) - 2)
                    let a = try #require(BSplineWarp.sample(all, x: x, y: y))
                    let b = try #require(BSplineWarp.sample(some, x: x, y: y))
                    #expect(a.bitPattern == b.bitPattern)
                }
            }
        }
    }
}
