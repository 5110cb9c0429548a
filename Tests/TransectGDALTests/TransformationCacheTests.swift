import CGDAL
import Dispatch
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectGDAL

/// Every ``CoordinateTransformer`` after the first for a pair of CRSs is a copy of the one the
/// process keeps: it must transform exactly as a transformation GDAL builds afresh here, on any
/// thread, and belong to its transformer alone.
@Suite("the process's transformations: built once per pair of CRSs, copied for each transformer")
struct TransformationCacheTests {
    /// Longitudes and latitudes over and around Yosemite and the western United States.
    static let xs: [Double] = [-119.5329397, -119.573056, -122.4194, -110.5, -119.6, -125.25]
    static let ys: [Double] = [37.7460363, 37.730833, 37.7749, 44.6, 37.73, 49.1]

    /// `xs`, `ys` transformed by a transformation OSR builds here, bypassing TransectGDAL.
    static func gdalTransform(to definition: String) throws -> (x: [Double], y: [Double]) {
        prepareGDAL()
        let source = try #require(OSRNewSpatialReference(nil))
        let target = try #require(OSRNewSpatialReference(nil))
        defer {
            OSRDestroySpatialReference(source)
            OSRDestroySpatialReference(target)
        }
        try #require(OSRSetFromUserInput(source, "EPSG:4326") == OGRERR_NONE)
        try #require(OSRSetFromUserInput(target, definition) == OGRERR_NONE)
        OSRSetAxisMappingStrategy(source, OAMS_TRADITIONAL_GIS_ORDER)
        OSRSetAxisMappingStrategy(target, OAMS_TRADITIONAL_GIS_ORDER)
        let ct = try #require(OCTNewCoordinateTransformation(source, target))
        defer { OCTDestroyCoordinateTransformation(ct) }
        var x = xs
        var y = ys
        var ok = [Int32](repeating: 0, count: x.count)
        try #require(OCTTransformEx(ct, Int32(x.count), &x, &y, nil, &ok) != 0)
        return (x, y)
    }

    static func transform(_ transformer: CoordinateTransformer) throws -> (x: [Double], y: [Double]) {
        var x = xs
        var y = ys
        try transformer.transform(x: &x, y: &y)
        return (x, y)
    }

    @Test("each transformer of a pair transforms bit for bit as GDAL's own", arguments: ["EPSG:4269", "EPSG:32611", "EPSG:3310"])
    func sameAsGDAL(definition: String) throws {
        let expected = try Self.gdalTransform(to: definition)
        var transformers: [CoordinateTransformer] = []
        for _ in 0..<3 {
            transformers.append(try CoordinateTransformer(from: .wgs84(), to: SpatialReference(definition)))
        }
        for transformer in transformers {
            let got = try Self.transform(transformer)
            #expect(got.x == expected.x && got.y == expected.y, "\(definition): \(got) vs \(expected)")
        }
        // Each owns its transformation: no two share a handle.
        #expect(Set(transformers.map { UInt(bitPattern: $0.handle) }).count == transformers.count)
    }

    @Test("two pairs are two transformations: the key tells the CRSs apart")
    func pairsApart() throws {
        let zone11 = try Self.transform(try CoordinateTransformer(from: .wgs84(), to: SpatialReference("EPSG:32611")))
        let zone10 = try Self.transform(try CoordinateTransformer(from: .wgs84(), to: SpatialReference("EPSG:32610")))
        #expect(zone11.x == (try Self.gdalTransform(to: "EPSG:32611").x))
        #expect(zone10.x == (try Self.gdalTransform(to: "EPSG:32610").x))
        #expect(zone11.x != zone10.x)
        let back = try CoordinateTransformer(from: SpatialReference("EPSG:32611"), to: .wgs84())
        var x = zone11.x
        var y = zone11.y
        try back.transform(x: &x, y: &y)
        for k in x.indices {
            // 1e−9° (≈ 0.1 mm), the nine decimals positions print with; PROJ's UTM round trip is round-off far below it.
            #expect(abs(x[k] - Self.xs[k]) < 1e-9 && abs(y[k] - Self.ys[k]) < 1e-9, "\(k): \(x[k]), \(y[k])")
        }
    }

    @Test("transformers made and used on two threads at once transform as GDAL's own")
    func threads() throws {
        let expected = try Self.gdalTransform(to: "EPSG:26911")
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { k in
            do {
                let transformer = try CoordinateTransformer(from: .wgs84(), to: SpatialReference(k % 2 == 0 ? "EPSG:26911" : "EPSG:4269"))
                let got = try Self.transform(transformer)
                if k % 2 == 0 { results.add(got.x == expected.x && got.y == expected.y) }
            } catch {
                results.add(false)
            }
        }
        #expect(results.values == [true, true, true, true])
    }

    /// Outcomes gathered from several threads.
    final class Results: @unchecked Sendable {
        // Guarded by `lock`.
        private var list: [Bool] = []
        private let lock = DispatchSemaphore(value: 1)
        func add(_ value: Bool) {
            lock.wait()
            list.append(value)
            lock.signal()
        }
        var values: [Bool] {
            lock.wait()
            defer { lock.signal() }
            return list
        }
    }
}
