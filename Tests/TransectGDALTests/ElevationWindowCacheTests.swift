import CGDAL
import Foundation
import Testing
import TransectGeodesy
import TransectRaster
import TransectTestSupport
@testable import TransectGDAL

@Suite("ElevationWindowCache: decoded windows kept across batches")
struct ElevationWindowCacheTests {
    /// A 600 × 300 Float32 DEM in 0.001° cells (3 × 2 chunks), scaled and offset, with a
    /// scattered no-data cell every 97th and the values drawn from a seeded generator.
    static func writeRough(_ path: String, width: Int = 600, height: Int = 300, x0: Double = 10, seed: UInt64 = 7) {
        var rng = SeededRandom(seed: seed)
        var cells = [Double](repeating: 0, count: width * height)
        for k in cells.indices { cells[k] = k % 97 == 5 ? -9999 : (rng.uniform(0, 4000)).rounded() }
        SyntheticDEM.write(
            path: path, width: width, height: height, geoTransform: [x0, 0.001, 0, 45.3, 0, -0.001],
            crs: "EPSG:4326", type: GDT_Float32, noData: -9999, scale: 0.5, offset: 10
        ) { c, r in cells[r * width + c] }
    }

    /// Pixel coordinates over the whole raster: random ones, the raster's edges and corners,
    /// and both sides of every chunk boundary.
    static func points(width: Int, height: Int, seed: UInt64) -> (columns: [Double], rows: [Double]) {
        var rng = SeededRandom(seed: seed)
        var columns: [Double] = []
        var rows: [Double] = []
        for _ in 0..<5000 {
            columns.append(rng.uniform(0, Double(width)))
            rows.append(rng.uniform(0, Double(height)))
        }
        let w = Double(width)
        let h = Double(height)
        var special: [Double] = [0, 0.25, 0.5, 1, 255.5, 255.999, 256, 256.001, 256.5, 511.75, 512, 512.5]
        special += [w - 0.5, w - 1e-9, w, h - 0.5, h - 1e-9, h]
        for c in special where c <= w {
            for r in special where r <= h {
                columns.append(c)
                rows.append(r)
            }
        }
        return (columns, rows)
    }

    /// Every value through the cache (twice: read, then kept) in `windows` has the bits of the
    /// value read by bounding boxes without it; no data is `nan` in both.
    static func expectCachedEqualsUncached(_ model: ElevationModel, seed: UInt64, windows: SampleWindows = .chunks) throws {
        let (columns, rows) = points(width: model.width, height: model.height, seed: seed)
        for interpolation in Interpolation.allCases {
            let reference = try model.sampled(columns: columns, rows: rows, interpolation: interpolation, windows: .boundingBoxes)
            #expect(reference.contains { $0.isNaN } && reference.contains { !$0.isNaN })
            for pass in 0..<2 {
                let cached = try model.sampled(columns: columns, rows: rows, interpolation: interpolation, windows: windows)
                let differing = cached.indices.filter { k in
                    cached[k].isNaN ? !reference[k].isNaN : cached[k].bitPattern != reference[k].bitPattern
                }
                #expect(differing.isEmpty, "\(interpolation) pass \(pass): \(differing.prefix(5).map { (columns[$0], rows[$0]) })")
            }
        }
    }

    @Test("the cached path equals the uncached one bit for bit: no data, edges, chunk seams, every method")
    func cachedEqualsUncached() throws {
        let dir = TemporaryDirectory()
        Self.writeRough(dir.file("rough.tif"))
        let model = try ElevationModel([dir.file("rough.tif")])
        try Self.expectCachedEqualsUncached(model, seed: 1)
        // 3 × 2 chunks, each for margins 1 (nearest, bilinear) and 2 (cubic).
        #expect(model.windowCache.reads == 12 && model.windowCache.count == 12)
    }

    @Test("a mosaic of two tiles: cached equals uncached across the seam")
    func mosaicCachedEqualsUncached() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("tiles"), withIntermediateDirectories: true)
        Self.writeRough(dir.file("tiles/w.tif"), width: 300, x0: 10, seed: 1)
        Self.writeRough(dir.file("tiles/e.tif"), width: 300, x0: 10.3, seed: 2)
        let model = try ElevationModel([dir.file("tiles")])
        #expect(model.driverName == "VRT" && model.width == 600)
        try Self.expectCachedEqualsUncached(model, seed: 2)
    }

    @Test("a DEM that wraps in longitude: cached equals uncached at and across its seam")
    func wrappingCachedEqualsUncached() throws {
        let dir = TemporaryDirectory()
        var rng = SeededRandom(seed: 3)
        SyntheticDEM.write(
            path: dir.file("global.tif"), width: 360, height: 180, geoTransform: [-180, 1, 0, 90, 0, -1],
            crs: "EPSG:4326", noData: -9999
        ) { c, r in (c * 7 + r) % 53 == 0 ? -9999 : rng.uniform(-500, 5000) }
        let model = try ElevationModel([dir.file("global.tif")])
        #expect(model.wrapsLongitude)
        try Self.expectCachedEqualsUncached(model, seed: 3)
    }

    @Test("a second batch over the same window reads nothing again")
    func secondBatchDoesNotRead() throws {
        let dir = TemporaryDirectory()
        Self.writeRough(dir.file("rough.tif"))
        let model = try ElevationModel([dir.file("rough.tif")])
        // All in the first chunk (lon 10…10.256, lat 45.044…45.3); more than a few points, so
        // the first batch reads the chunk's window (``ElevationModel/fewPoints``).
        let first = (0..<5).map { GeoPoint(longitude: 10.01 + 0.04 * Double($0), latitude: 45.29 - 0.04 * Double($0)) }
        let second = [GeoPoint(longitude: 10.05, latitude: 45.2), GeoPoint(longitude: 10.25, latitude: 45.05)]
        _ = try model.elevations(at: first)
        #expect(model.windowCache.reads == 1)
        let again = try model.elevations(at: second)
        #expect(model.windowCache.reads == 1)
        let (columns, rows) = try model.pixelCoordinates(of: second)
        let reference = try model.sampled(columns: columns, rows: rows, interpolation: .bilinear, windows: .boundingBoxes)
        #expect(again.map(\.bitPattern) == reference.map(\.bitPattern))
        // Another method needs another margin, so another window.
        _ = try model.elevations(at: first, interpolation: .cubic)
        #expect(model.windowCache.reads == 2)
    }

    @Test("a tiny budget evicts the least recently used window, and values stay the same")
    func eviction() throws {
        let dir = TemporaryDirectory()
        Self.writeRough(dir.file("rough.tif"))
        let model = try ElevationModel([dir.file("rough.tif")])
        let cache = model.windowCache
        // Chunks (0, 0) and (1, 0): windows of 259 × 258 cells each, each wanted by more than
        // a few points, so read whole from the first call.
        let a = (columns: [100.5, 101.5, 102.5, 103.5, 104.5], rows: [Double](repeating: 100.5, count: 5))
        let b = (columns: [300.5, 301.5, 302.5, 303.5, 304.5], rows: [Double](repeating: 100.5, count: 5))
        let windowBytes = 259 * 258 * MemoryLayout<Double>.stride
        func sample(_ p: (columns: [Double], rows: [Double])) throws -> Double {
            try model.sampled(columns: p.columns, rows: p.rows, interpolation: .bilinear)[0]
        }
        let za = try sample(a)
        #expect(cache.reads == 1 && cache.heldBytes == windowBytes)
        // Room for one window: b pushes a out, and a comes back by a read.
        cache.budgetBytes = windowBytes
        let zb = try sample(b)
        #expect(cache.reads == 2 && cache.count == 1)
        #expect(try sample(a).bitPattern == za.bitPattern)
        #expect(cache.reads == 3 && cache.count == 1)
        // Room for two: b is read once more, then both stay.
        cache.budgetBytes = 2 * windowBytes
        #expect(try sample(b).bitPattern == zb.bitPattern)
        #expect(try sample(a).bitPattern == za.bitPattern)
        #expect(try sample(b).bitPattern == zb.bitPattern)
        #expect(cache.reads == 4 && cache.count == 2)
        // Least recently used leaves first: with room for one again, a (used before b) goes.
        cache.budgetBytes = windowBytes
        #expect(cache.count == 1)
        #expect(try sample(b).bitPattern == zb.bitPattern)
        #expect(cache.reads == 4)
        // Smaller than a window: every call reads and nothing is kept.
        cache.budgetBytes = 1000
        #expect(cache.count == 0 && cache.heldBytes == 0)
        #expect(try sample(a).bitPattern == za.bitPattern)
        #expect(try sample(a).bitPattern == za.bitPattern)
        #expect(cache.reads == 6 && cache.count == 0 && cache.heldBytes == 0)
        let reference = try model.sampled(columns: a.columns, rows: a.rows, interpolation: .bilinear, windows: .boundingBoxes)[0]
        #expect(za.bitPattern == reference.bitPattern)
    }

    @Test("a few points read only the cells under them the first time their chunk is wanted; the second time the chunk's window")
    func fewPointsGlimpse() throws {
        let dir = TemporaryDirectory()
        Self.writeRough(dir.file("rough.tif"))
        let model = try ElevationModel([dir.file("rough.tif")])
        let cache = model.windowCache
        // Two points in chunk (0, 0), one in chunk (1, 0).
        let columns = [100.5, 120.25, 300.75]
        let rows = [100.5, 80.5, 200.25]
        let reference = try model.sampled(columns: columns, rows: rows, interpolation: .bilinear, windows: .boundingBoxes)
        let first = try model.sampled(columns: columns, rows: rows, interpolation: .bilinear)
        #expect(first.map(\.bitPattern) == reference.map(\.bitPattern))
        #expect(cache.reads == 0 && cache.count == 0)
        let second = try model.sampled(columns: columns, rows: rows, interpolation: .bilinear)
        #expect(second.map(\.bitPattern) == reference.map(\.bitPattern))
        #expect(cache.reads == 2 && cache.count == 2)
        // Held now: a few points more read nothing.
        let held = try model.sampled(columns: [10.5], rows: [10.5], interpolation: .bilinear)
        #expect(
            held.map(\.bitPattern) == (try model.sampled(columns: [10.5], rows: [10.5], interpolation: .bilinear, windows: .boundingBoxes)).map(\.bitPattern))
        #expect(cache.reads == 2)
        // Cubic takes another margin, so another window: glimpsed first, then read.
        _ = try model.sampled(columns: columns, rows: rows, interpolation: .cubic)
        #expect(cache.reads == 2)
        let cubic = try model.sampled(columns: columns, rows: rows, interpolation: .cubic)
        #expect(cache.reads == 4)
        let cubicReference = try model.sampled(columns: columns, rows: rows, interpolation: .cubic, windows: .boundingBoxes)
        #expect(cubic.map(\.bitPattern) == cubicReference.map(\.bitPattern))
    }
}
