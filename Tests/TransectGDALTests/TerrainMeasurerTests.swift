import CGDAL
import Testing
import TransectGeodesy
import TransectAnalysis
import TransectTestSupport
@testable import TransectGDAL

@Suite("TerrainMeasurer and Geoid: heights, above ground, h = H + N")
struct TerrainMeasurerTests {
    /// The DEM: ElevationModelTests' plane over lon 10…10.2, lat 45…45.1 at 0.001°, with a
    /// block of no data over columns 150…159, rows 40…49 (lon 10.15…10.16, lat 45.05…45.06).
    static func writeDEM(_ path: String) {
        SyntheticDEM.write(
            path: path, width: 200, height: 100, geoTransform: ElevationModelTests.geoGT, crs: "EPSG:4326",
            noData: -9999
        ) { c, r in
            (150..<160).contains(c) && (40..<50).contains(r)
                ? -9999 : ElevationModelTests.plane(10 + (Double(c) + 0.5) * 0.001, 45.1 - (Double(r) + 0.5) * 0.001)
        }
    }

    /// The geoid: N = 40 + 2·(lon − 10) − 3·(lat − 45) at the nodes of a 0.25° grid over
    /// lon 9…11, lat 44…46; bilinear interpolation gives it exactly between the node centres.
    static func undulation(_ lon: Double, _ lat: Double) -> Double { 40 + 2 * (lon - 10) - 3 * (lat - 45) }

    static func writeGeoid(_ path: String) {
        SyntheticDEM.write(path: path, width: 8, height: 8, geoTransform: [9, 0.25, 0, 46, 0, -0.25], crs: "EPSG:4326") { c, r in
            undulation(9 + (Double(c) + 0.5) * 0.25, 46 - (Double(r) + 0.5) * 0.25)
        }
    }

    struct Fixture {
        let dir = TemporaryDirectory()
        let model: ElevationModel
        let geoid: Geoid
        init() throws {
            TerrainMeasurerTests.writeDEM(dir.file("dem.tif"))
            TerrainMeasurerTests.writeGeoid(dir.file("geoid.tif"))
            model = try ElevationModel([dir.file("dem.tif")])
            geoid = try Geoid(path: dir.file("geoid.tif"))
        }
    }

    static let a = GeoPoint(longitude: 10.03, latitude: 45.02)
    static let b = GeoPoint(longitude: 10.12, latitude: 45.07)

    @Test("DEM heights are the plane's; the measurement is Measurement's between them; sources say dem")
    func demHeights() throws {
        let f = try Fixture()
        let result = try TerrainMeasurer(model: f.model).measure(MeasurementPair(from: Self.a, to: Self.b))
        let h1 = ElevationModelTests.plane(Self.a.longitude, Self.a.latitude)
        let h2 = ElevationModelTests.plane(Self.b.longitude, Self.b.latitude)
        let m = result.measurement
        let z1 = try #require(m.start.heightMetres)
        let z2 = try #require(m.end.heightMetres)
        // A plane read: an ulp of 45° (7e−15°) at 3000 m per degree is 2e−11 m; 1 µm is loose.
        #expect(abs(z1 - h1) < 1e-6 && abs(z2 - h2) < 1e-6)
        #expect(result.startSource == .dem && result.endSource == .dem)
        // Without a geoid the ellipsoidal heights are the elevations.
        #expect(m.startEllipsoidalHeightMetres == m.start.heightMetres && m.endEllipsoidalHeightMetres == m.end.heightMetres)
        var start = Self.a
        var end = Self.b
        start.heightMetres = m.start.heightMetres
        end.heightMetres = m.end.heightMetres
        #expect(m == Measurement(start: start, end: end))
    }

    @Test("above ground raises DEM heights only; a given Z is used as written")
    func aboveGroundAndGiven() throws {
        let f = try Fixture()
        let pair = MeasurementPair(from: Self.a, to: Self.b, toZ: 123.5)
        let results = try TerrainMeasurer(model: f.model, aboveGroundMetres: 10).measure([pair])
        let m = try results[0].get()
        let z1 = try #require(m.measurement.start.heightMetres)
        #expect(abs(z1 - (ElevationModelTests.plane(10.03, 45.02) + 10)) < 1e-6)  // a plane read, plus 10 m: 1 µm, as above
        #expect(m.measurement.end.heightMetres == 123.5)
        #expect(m.startSource == .dem && m.endSource == .given)
        // Both heights given: no DEM needed at all.
        let given = try TerrainMeasurer(model: nil).measure(MeasurementPair(from: Self.a, to: Self.b, fromZ: 1, toZ: 2))
        #expect(given.measurement.verticalMetres == 1 && given.startSource == .given)
    }

    @Test("with a geoid the ellipsoidal heights are h = H + N, N bilinear in the geoid grid")
    func geoidHeights() throws {
        let f = try Fixture()
        let m = try TerrainMeasurer(model: f.model, geoid: f.geoid, aboveGroundMetres: 2)
            .measure(MeasurementPair(from: Self.a, to: Self.b, fromZ: 500)).measurement
        let n1 = Self.undulation(Self.a.longitude, Self.a.latitude)
        let n2 = Self.undulation(Self.b.longitude, Self.b.latitude)
        let h2 = ElevationModelTests.plane(Self.b.longitude, Self.b.latitude) + 2
        #expect(abs(m.startEllipsoidalHeightMetres - (500 + n1)) < 1e-9)  // the geoid plane read near 40 m, added to 500: a few ulp of 540 m (1.1e−13 m)
        #expect(abs(m.endEllipsoidalHeightMetres - (h2 + n2)) < 1e-6)  // the DEM plane read's 1 µm
        // The elevations stay orthometric.
        let z2 = try #require(m.end.heightMetres)
        #expect(m.start.heightMetres == 500 && abs(z2 - h2) < 1e-6)  // the DEM plane read's 1 µm
        let n = try f.geoid.undulation(at: Self.b)
        #expect(abs(n - n2) < 1e-9)  // the geoid plane read: a few ulp of 40 m
    }

    @Test("each pair fails on its own: off the DEM, on no data, off the geoid (the start named first)")
    func failures() throws {
        let f = try Fixture()
        let outside = GeoPoint(longitude: 10.5, latitude: 45.05)  // in the geoid, off the DEM
        let hole = GeoPoint(longitude: 10.155, latitude: 45.055)  // on the DEM's no data
        let far = GeoPoint(longitude: 12, latitude: 45.5)  // off both
        let measurer = TerrainMeasurer(model: f.model, geoid: f.geoid)
        let results = try measurer.measure([
            MeasurementPair(from: Self.a, to: outside),
            MeasurementPair(from: hole, to: Self.b),
            MeasurementPair(from: Self.a, to: Self.b),
            MeasurementPair(from: Self.a, to: far, toZ: 100),
            MeasurementPair(from: far, to: far, fromZ: 1, toZ: 2),
        ])
        func failure(_ k: Int) -> TerrainError? {
            if case .failure(let e) = results[k] { return e }
            return nil
        }
        #expect(failure(0) == .outsideCoverage(point: "10.5,45.05", dem: f.model.label))
        #expect(failure(1) == .noData(point: "10.155,45.055", dem: f.model.label))
        #expect(failure(2) == nil)
        #expect(failure(3) == .outsideCoverage(point: "12,45.5", dem: f.geoid.label))
        #expect(failure(4) == .outsideCoverage(point: "12,45.5", dem: f.geoid.label))
        #expect(failure(0)?.message == "point 10.5,45.05 is outside the DEM '\(f.model.label)'")
        #expect(throws: TerrainError.outsideCoverage(point: "12,45.5", dem: f.geoid.label)) { try f.geoid.undulation(at: far) }
        #expect(f.model.missingHeightError(at: hole) == .noData(point: "10.155,45.055", dem: f.model.label))
    }

    @Test("coverage: a vertex off the raster is an error naming it; no data is not")
    func coverage() throws {
        let f = try Fixture()
        try f.model.checkCoverage(of: [Self.a, GeoPoint(longitude: 10.155, latitude: 45.055)])
        #expect(throws: TerrainError.outsideCoverage(point: "9.99,45.05", dem: f.model.label)) {
            try f.model.checkCoverage(of: [Self.a, GeoPoint(longitude: 9.99, latitude: 45.05), GeoPoint(longitude: 10.5, latitude: 45)])
        }
    }
}
