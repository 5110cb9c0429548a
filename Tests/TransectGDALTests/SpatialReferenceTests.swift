import CGDAL
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectGDAL

/// A CRS's text and a box's transformed bounds, each checked against GDAL or PROJ called here
/// directly; a failure comes back as a thrown error with GDAL's reason, never as empty text or
/// zeros.
@Suite("SpatialReference.wkt and CoordinateTransformer.transformBounds")
struct SpatialReferenceTests {
    /// A CRS as WKT2 (2019), exported by OSR here rather than by TransectGDAL.
    static func osrWKT(_ definition: String) throws -> String {
        let srs = try #require(OSRNewSpatialReference(nil))
        defer { OSRDestroySpatialReference(srs) }
        try #require(OSRSetFromUserInput(srs, definition) == OGRERR_NONE)
        var text: UnsafeMutablePointer<CChar>?
        let err = withCStringList(["FORMAT=WKT2_2019"]) { OSRExportToWktEx(srs, &text, constList($0)) }
        defer { VSIFree(text) }
        try #require(err == OGRERR_NONE)
        return String(cString: try #require(text))
    }

    @Test("wkt is OSR's WKT2 (2019) text", arguments: ["EPSG:4326", "EPSG:32611", "EPSG:2193"])
    func wkt(definition: String) throws {
        let expected = try Self.osrWKT(definition)
        #expect(!expected.isEmpty)
        #expect(try SpatialReference(definition).wkt == expected)
    }

    @Test("a CRS OSR cannot write as WKT throws a CRS error instead of giving empty text")
    func emptyCRSThrows() throws {
        GDALEnvironment.ensure()
        let empty = SpatialReference(owning: try #require(OSRNewSpatialReference(nil)))
        do {
            let text = try empty.wkt
            Issue.record("an empty CRS gave WKT '\(text)'")
        } catch {
            guard case .badCRS(let crs, let reason) = error else {
                Issue.record("expected a CRS error, got \(error)")
                return
            }
            #expect(crs == empty.label)
            #expect(reason.hasPrefix("cannot be written as WKT2: "), "\(reason)")
        }
    }

    @Test("transformBounds covers the box's densified edges as PROJ transforms them")
    func boundsMatchPROJ() throws {
        let transformer = try CoordinateTransformer(from: SpatialReference("EPSG:32611"), to: SpatialReference("EPSG:4326"))
        let box = (minX: 300_000.0, minY: 4_000_000.0, maxX: 700_000.0, maxY: 4_400_000.0)
        let bounds = try transformer.transformBounds(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) {
            .readFailed(path: "box", reason: $0)
        }
        // The edges sampled far more densely than GDAL's 21 points per edge.
        let proj = try ProjTransformation(from: "EPSG:32611", to: "EPSG:4326")
        var lons: [Double] = []
        var lats: [Double] = []
        let steps = 4000
        for k in 0...steps {
            let t = Double(k) / Double(steps)
            let x = box.minX + t * (box.maxX - box.minX)
            let y = box.minY + t * (box.maxY - box.minY)
            for (px, py) in [(x, box.minY), (x, box.maxY), (box.minX, y), (box.maxX, y)] {
                let p = proj.forward(px, py)
                lons.append(p.x)
                lats.append(p.y)
            }
        }
        let expected = try (minX: #require(lons.min()), minY: #require(lats.min()), maxX: #require(lons.max()), maxY: #require(lats.max()))
        // A 400 km box: 21 points per edge put each extreme within far less than 1e-6°.
        for (got, want) in [(bounds.minX, expected.minX), (bounds.minY, expected.minY), (bounds.maxX, expected.maxX), (bounds.maxY, expected.maxY)] {
            #expect(abs(got - want) < 1e-6, "\(bounds) against \(expected)")  // 1e−6°, see above
        }
    }

    @Test("a failed transformBounds throws the caller's error with GDAL's reason")
    func boundsFailure() throws {
        let transformer = try CoordinateTransformer(from: SpatialReference("EPSG:32611"), to: SpatialReference("EPSG:4326"))
        #expect(throws: TerrainError.readFailed(path: "box", reason: "densify_pts must be between 0-10000.")) {
            try transformer.transformBounds(minX: 0, minY: 0, maxX: 1, maxY: 1, densifyPoints: -1) {
                .readFailed(path: "box", reason: $0)
            }
        }
    }
}
