import CGDAL
import Foundation
import Testing
import TransectGeodesy
import TransectRaster
import TransectSupport
import TransectTestSupport
@testable import TransectGDAL

@Suite("ElevationModel: DEMs through GDAL")
struct ElevationModelTests {
    /// A 0.001° geographic grid over lon 10…10.2, lat 45…45.1 (200 × 100 cells).
    static let geoGT = [10.0, 0.001, 0, 45.1, 0, -0.001]

    /// z = a·lon + b·lat + c at cell centres: bilinear interpolation reproduces a plane exactly.
    static func plane(_ lon: Double, _ lat: Double) -> Double { 2000 * (lon - 10) - 3000 * (lat - 45) + 1500 }

    static func writePlane(_ path: String, crs: String? = "EPSG:4326", type: GDALDataType = GDT_Float64) {
        SyntheticDEM.write(path: path, width: 200, height: 100, geoTransform: geoGT, crs: crs, type: type) { c, r in
            plane(10 + (Double(c) + 0.5) * 0.001, 45.1 - (Double(r) + 0.5) * 0.001)
        }
    }

    @Test("bilinear sampling of a plane GeoTIFF is exact to 1e-6 m at 10,000 random points")
    func planeIsExact() throws {
        let dir = TemporaryDirectory()
        Self.writePlane(dir.file("plane.tif"))
        let model = try ElevationModel([dir.file("plane.tif")])
        var rng = SeededRandom(seed: 42)
        // Inside the outermost cell centres, where all four neighbours exist.
        let points = (0..<10_000).map { _ in
            GeoPoint(
                longitude: Double.random(in: 10.0005...10.1995, using: &rng),
                latitude: Double.random(in: 45.0005...45.0995, using: &rng))
        }
        let z = try model.elevations(at: points)
        var worst = 0.0
        for (p, v) in zip(points, z) { worst = max(worst, abs(v - Self.plane(p.longitude, p.latitude))) }
        // Round-off of a few operations on values near 2,000 m is ~1e-12 m; 1e-6 m is the issue's bar.
        #expect(worst < 1e-6, "worst error \(worst) m")
    }

    @Test("a projected plane (UTM 11N) sampled at lon/lat points matches the plane at the PROJ-transformed points")
    func projectedPlane() throws {
        let dir = TemporaryDirectory()
        let gt = [500_000.0, 30, 0, 4_200_000, 0, -30]
        func plane(_ x: Double, _ y: Double) -> Double { 0.01 * (x - 500_000) + 0.02 * (4_200_000 - y) + 100 }
        SyntheticDEM.write(path: dir.file("utm.tif"), width: 300, height: 200, geoTransform: gt, crs: "EPSG:32611") { c, r in
            plane(500_000 + (Double(c) + 0.5) * 30, 4_200_000 - (Double(r) + 0.5) * 30)
        }
        let model = try ElevationModel([dir.file("utm.tif")])
        let toUTM = try CoordinateTransformer(from: .wgs84(), to: SpatialReference("EPSG:32611"))
        let back = try CoordinateTransformer(from: SpatialReference("EPSG:32611"), to: .wgs84())
        var rng = SeededRandom(seed: 7)
        var xs = (0..<1000).map { _ in Double.random(in: 500_100...508_900, using: &rng) }
        var ys = (0..<1000).map { _ in Double.random(in: 4_194_100...4_199_900, using: &rng) }
        let ex = xs
        let ey = ys
        try back.transform(x: &xs, y: &ys)
        let points = zip(xs, ys).map { GeoPoint(longitude: $0, latitude: $1) }
        let z = try model.elevations(at: points)
        var fx = xs
        var fy = ys
        try toUTM.transform(x: &fx, y: &fy)
        for k in 0..<points.count {
            // The round trip through PROJ is good to nanometres; the plane's slope is ≤ 0.02.
            #expect(abs(z[k] - plane(fx[k], fy[k])) < 1e-6)
            #expect(abs(fx[k] - ex[k]) < 1e-5 && abs(fy[k] - ey[k]) < 1e-5)  // 10 µm of UTM: PROJ's round trip is good to nanometres (above), so loose
        }
    }

    @Test("nearest returns the containing cell; cubic reproduces a plane away from edges")
    func nearestAndCubic() throws {
        let dir = TemporaryDirectory()
        Self.writePlane(dir.file("plane.tif"))
        let model = try ElevationModel([dir.file("plane.tif")])
        let p = GeoPoint(longitude: 10.0523, latitude: 45.0617)
        let nearest = try model.elevations(at: [p], interpolation: .nearest)[0]
        // Cell (52, 38) holds the plane at its centre (10.0525, 45.0615).
        #expect(abs(nearest - Self.plane(10.0525, 45.0615)) < 1e-9)
        // Keys' kernel reproduces linear functions exactly.
        let cubic = try model.elevations(at: [p], interpolation: .cubic)[0]
        // Keys' kernel is exact on a plane: round-off only; 1 µm, as for every plane read here.
        #expect(abs(cubic - Self.plane(p.longitude, p.latitude)) < 1e-6)
    }

    @Test("no data: a hole is nan at its centre, and neighbours renormalise over the cells with data")
    func noDataHole() throws {
        let dir = TemporaryDirectory()
        // 10 × 10 cells of 1°, value = column; cell (4, 4) is no data.
        SyntheticDEM.write(
            path: dir.file("hole.tif"), width: 10, height: 10, geoTransform: [0, 1, 0, 10, 0, -1],
            crs: "EPSG:4326", type: GDT_Float32, noData: -9999
        ) { c, r in
            (c == 4 && r == 4) ? -9999 : Double(c)
        }
        let model = try ElevationModel([dir.file("hole.tif")])
        let centre = try model.elevations(at: [GeoPoint(longitude: 4.5, latitude: 5.5)])[0]
        #expect(centre.isNaN)
        // Between centres (4.5, 5.5) [no data] and (5.5, 5.5) at fx = 0.5, fy = 0: only cell 5 counts.
        let between = try model.elevations(at: [GeoPoint(longitude: 5.0, latitude: 5.5)])[0]
        #expect(between == 5)
        // At fx = 0.25 over the row pair rows 4 and 5 (fy = 0.5): taps (4,4)=nd, (5,4)=5, (4,5)=4, (5,5)=5.
        // Weights 0.375, 0.125, 0.375, 0.125 → valid 0.125·5 + 0.375·4 + 0.125·5 over 0.625.
        let mixed = try model.elevations(at: [GeoPoint(longitude: 4.75, latitude: 5.0)])[0]
        #expect(abs(mixed - (0.125 * 5 + 0.375 * 4 + 0.125 * 5) / 0.625) < 1e-12)  // a weighted mean of 4 and 5: a few ulp of 4.6 (8.9e−16)
        // Outside the raster: nan too, and `contains` tells the two apart.
        let (c, r) = try model.pixelCoordinates(of: [GeoPoint(longitude: 11, latitude: 5)])
        #expect(!model.contains(column: c[0], row: r[0]))
    }

    @Test("a 0–360 grid answers −180…180 longitudes, and a global one wraps across its seam")
    func longitudes0to360() throws {
        let dir = TemporaryDirectory()
        // Not global: lon 180…300.
        SyntheticDEM.write(
            path: dir.file("east.tif"), width: 120, height: 60, geoTransform: [180, 1, 0, 30, 0, -1],
            crs: "EPSG:4326"
        ) { c, _ in Double(180 + c) + 0.5 }
        let east = try ElevationModel([dir.file("east.tif")])
        let z = try east.elevations(at: [GeoPoint(longitude: -120, latitude: 0)])[0]
        #expect(abs(z - 240) < 1e-9)  // −120° wrapped to 240°: an ulp of 240 (2.8e−14) at 1 m per cell
        // Global: lon 0…360 in 10° cells, value = column index.
        SyntheticDEM.write(
            path: dir.file("global.tif"), width: 36, height: 18, geoTransform: [0, 10, 0, 90, 0, -10],
            crs: "EPSG:4326"
        ) { c, _ in Double(c) }
        let global = try ElevationModel([dir.file("global.tif")])
        #expect(global.wrapsLongitude)
        // At lon 0 (the seam) bilinear blends the last column (355°) and the first (5°) equally.
        let seam = try global.elevations(at: [
            GeoPoint(longitude: 0, latitude: 0), GeoPoint(longitude: 360, latitude: 0),
            GeoPoint(longitude: -5, latitude: 0), GeoPoint(longitude: 355, latitude: 0),
        ])
        #expect(seam[0] == 17.5 && seam[1] == 17.5)
        #expect(seam[2] == 35 && seam[3] == 35)
    }

    @Test("feet, US survey feet, scale and offset become metres")
    func verticalUnits() throws {
        let dir = TemporaryDirectory()
        let gt = [0.0, 1, 0, 10, 0, -1]
        SyntheticDEM.write(path: dir.file("ft.tif"), width: 10, height: 10, geoTransform: gt, crs: "EPSG:4326", unitType: "ft") { _, _ in 1000 }
        SyntheticDEM.write(path: dir.file("usft.tif"), width: 10, height: 10, geoTransform: gt, crs: "EPSG:4326", unitType: "US survey foot") { _, _ in 1000 }
        SyntheticDEM.write(
            path: dir.file("scaled.tif"), width: 10, height: 10, geoTransform: gt, crs: "EPSG:4326", type: GDT_Int16,
            scale: 0.1, offset: -100
        ) { _, _ in 12345 }
        let p = [GeoPoint(longitude: 5, latitude: 5)]
        let ft = try ElevationModel([dir.file("ft.tif")])
        #expect(try ft.elevations(at: p)[0] == 1000 * 0.3048)
        #expect(ft.notes.contains { $0.contains("converted to metres") })
        // 1200/3937 applied in another order: a few ulp of 305 m (5.7e−14 m).
        #expect(abs(try ElevationModel([dir.file("usft.tif")]).elevations(at: p)[0] - 1000 * 1200 / 3937) < 1e-9)
        // Scale and offset in another order: a few ulp of 1134.5 m (2.3e−13 m).
        #expect(abs(try ElevationModel([dir.file("scaled.tif")]).elevations(at: p)[0] - (1234.5 - 100)) < 1e-9)
    }

    @Test("a grid without a CRS: EPSG:4326 assumed with one note when its extent is geographic, refused otherwise")
    func missingCRS() throws {
        let dir = TemporaryDirectory()
        Self.writePlane(dir.file("nocrs.tif"), crs: nil)
        let model = try ElevationModel([dir.file("nocrs.tif")])
        #expect(model.crsAssumed)
        #expect(model.notes.filter { $0.contains("EPSG:4326") }.count == 1)
        let z = try model.elevations(at: [GeoPoint(longitude: 10.1, latitude: 45.05)])[0]
        // A plane read: an ulp of 45° (7e−15°) at 3000 m per degree is 2e−11 m; 1 µm is loose (TrackTerrainTests holds 1 nm).
        #expect(abs(z - Self.plane(10.1, 45.05)) < 1e-6)
        SyntheticDEM.write(
            path: dir.file("metres.tif"), width: 10, height: 10, geoTransform: [500_000, 30, 0, 4_200_000, 0, -30],
            crs: nil
        ) { _, _ in 1 }
        #expect(throws: TerrainError.unusableRaster(path: dir.file("metres.tif"), reason: "records no CRS and its extent is not longitude/latitude")) {
            try ElevationModel([dir.file("metres.tif")])
        }
    }

    @Test("tiles in a directory or glob become one mosaic; mixed CRSs are refused")
    func mosaic() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("tiles"), withIntermediateDirectories: true)
        // Two 100 × 100 halves of the plane, west and east.
        for (name, x0) in [("w.tif", 10.0), ("e.tif", 10.1)] {
            SyntheticDEM.write(
                path: dir.file("tiles/" + name), width: 100, height: 100,
                geoTransform: [x0, 0.001, 0, 45.1, 0, -0.001], crs: "EPSG:4326"
            ) { c, r in
                Self.plane(x0 + (Double(c) + 0.5) * 0.001, 45.1 - (Double(r) + 0.5) * 0.001)
            }
        }
        for spec in [dir.file("tiles"), dir.file("tiles/*.tif")] {
            let model = try ElevationModel([spec])
            #expect(model.paths.count == 2 && model.width == 200 && model.driverName == "VRT")
            // Across the seam at lon 10.1 the taps come from both tiles.
            let p = GeoPoint(longitude: 10.1001, latitude: 45.05)
            #expect(abs(try model.elevations(at: [p])[0] - Self.plane(p.longitude, p.latitude)) < 1e-6)  // a plane read across the seam: 1 µm, as above
        }
        SyntheticDEM.write(
            path: dir.file("tiles/utm.tif"), width: 10, height: 10, geoTransform: [500_000, 30, 0, 4_200_000, 0, -30],
            crs: "EPSG:32611"
        ) { _, _ in 1 }
        #expect {
            try ElevationModel([dir.file("tiles")])
        } throws: { error in
            guard case TerrainError.cannotMosaic(let reason) = error else { return false }
            return reason.contains("EPSG:32611")
        }
        #expect(throws: TerrainError.noRasters(pattern: dir.file("none/*.tif"))) { try ElevationModel([dir.file("none/*.tif")]) }
    }

    @Test("files GDAL cannot open are refused with GDAL's reason")
    func unreadable() throws {
        let dir = TemporaryDirectory()
        try "not a raster\n".write(toFile: dir.file("notes.txt"), atomically: true, encoding: .utf8)
        #expect {
            try ElevationModel([dir.file("notes.txt")])
        } throws: { error in
            guard case TerrainError.cannotOpen(let path, let reason) = error else { return false }
            return path == dir.file("notes.txt") && !reason.isEmpty
        }
        #expect(throws: TerrainError.cannotOpen(path: dir.file("missing.tif"), reason: "no such file or directory")) {
            try ElevationModel([dir.file("missing.tif")])
        }
    }

    @Test("Yosemite NED: sampled elevations equal a bilinear reading of GDAL's own array at the landmarks")
    func yosemiteAgainstGDAL() throws {
        let path = try SharedData.path("yosemite_valley_ned1as.tif")
        let csv = try String(contentsOfFile: try SharedData.path("landmarks.csv"), encoding: .utf8)
        let raster = SyntheticDEM.readAll(path: path)
        let model = try ElevationModel([path])
        var points: [GeoPoint] = []
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count >= 3, let lon = Double(f[1]), let lat = Double(f[2]) else { continue }
            points.append(GeoPoint(longitude: lon, latitude: lat))
        }
        points += [GeoPoint(longitude: -119.5329397, latitude: 37.7460363), GeoPoint(longitude: -119.573056, latitude: 37.730833)]
        let z = try model.elevations(at: points)
        var checked = 0
        for (p, v) in zip(points, z) {
            let e = try model.pixelCoordinates(of: [p])
            guard e.columns[0] > 1, e.rows[0] > 1, e.columns[0] < Double(model.width - 1), e.rows[0] < Double(model.height - 1) else { continue }
            // NAD83 and WGS84 are the same CRS to PROJ without a grid, so the points go through unchanged.
            #expect(abs(v - SyntheticDEM.bilinear(raster, x: p.longitude, y: p.latitude)) < 1e-3)
            checked += 1
        }
        #expect(checked >= 8)
    }

    @Test("ETOPO5, the default surface: CRS assumed, Everest's cell is high, and the seam is continuous")
    func defaultSurface() throws {
        let model = try ElevationModel(["/usr/share/ferret-vis/data/etopo5.cdf"])
        #expect(model.crsAssumed && model.wrapsLongitude)
        let z = try model.elevations(at: [
            GeoPoint(longitude: 86.925, latitude: 27.988),
            GeoPoint(longitude: -0.01, latitude: 51.5), GeoPoint(longitude: 359.99, latitude: 51.5),
        ])
        // A 5′ cell averages Everest with its slopes: thousands of metres, not 8,849.
        #expect(z[0] > 4000 && z[0] < 8849)
        // The same place written two ways: equal up to the rounding of lon − 360 (a few 1e-12 m).
        #expect(abs(z[1] - z[2]) < 1e-9)
    }
}

/// Review finding 4: a height no terrain has is an error, not a number to overflow on.
@Suite("ElevationModel: heights beyond ±100,000 km")
struct ImplausibleHeightTests {
    static let gt = [-120.0, 0.1, 0, 38.0, 0, -0.1]

    @Test(
        "a Float64 cell beyond ±1e8 m is an error naming the DEM, the value and the point",
        arguments: [(1e308, Interpolation.nearest), (-2e8, .nearest), (1e308, .bilinear), (1.5e8, .cubic)])
    func hugeCell(value: Double, interpolation: Interpolation) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("huge.tif")
        // Cell (5, 3) holds the value; the rest is 100 m, and -9999 is no data.
        SyntheticDEM.write(path: path, width: 10, height: 10, geoTransform: Self.gt, crs: "EPSG:4326", noData: -9999) { c, r in
            c == 5 && r == 3 ? value : (c == 0 ? -9999 : 100)
        }
        let model = try ElevationModel([path])
        let point = GeoPoint(longitude: -119.45, latitude: 37.65)  // the centre of cell (5, 3)
        do {
            let heights = try model.elevations(at: [GeoPoint(longitude: -119.05, latitude: 37.05), point], interpolation: interpolation)
            Issue.record("no error; heights \(heights)")
        } catch {
            guard case .implausibleHeight(let dem, let metres, let at) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(dem == path && at == "-119.45,37.65" && abs(metres) > 1e8)
            if interpolation == .nearest {
                // The message writes the height shortest (`-200000000`, `1e+308`).
                let shown = NumberFormatting.shortest(value)
                #expect(error.message == "DEM '\(path)': height \(shown) m at -119.45,37.65 is beyond ±100,000 km")
            }
        }
        // No data stays a gap, and heights within the bound are read.
        let gapAndFine = try model.elevations(
            at: [GeoPoint(longitude: -119.95, latitude: 37.05), GeoPoint(longitude: -119.05, latitude: 37.05)],
            interpolation: .nearest)
        #expect(gapAndFine[0].isNaN && gapAndFine[1] == 100)
    }

    @Test("the bound applies after scale: 1e6 stored × 1000 is 1e9 m")
    func afterScale() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("scaled.tif")
        SyntheticDEM.write(path: path, width: 10, height: 10, geoTransform: Self.gt, crs: "EPSG:4326", scale: 1000) { c, _ in c == 5 ? 1e6 : 1 }
        let model = try ElevationModel([path])
        #expect(try model.elevations(at: [GeoPoint(longitude: -119.05, latitude: 37.05)], interpolation: .nearest) == [1000])
        #expect(throws: TerrainError.implausibleHeight(path: path, metres: 1e9, point: "-119.45,37.05")) {
            _ = try model.elevations(at: [GeoPoint(longitude: -119.45, latitude: 37.05)], interpolation: .nearest)
        }
    }
}
