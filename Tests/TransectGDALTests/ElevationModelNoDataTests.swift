import CGDAL
import Foundation
import Testing
import TransectGeodesy
import TransectTestSupport
@testable import TransectGDAL

/// `--nodata`: the no-data value given over the one the files record (as `gdal_translate
/// -a_nodata`), once for every DEM or once for each; and mosaics whose units differ only in
/// being recorded or assumed.
@Suite("ElevationModel: --nodata and mosaics of assumed metres")
struct ElevationModelNoDataTests {
    /// 0.001° cells over lon `x0`…`x0 + 0.1`, lat 45…45.1 (100 × 100), value 100 + column +
    /// row, but `void` in the cells of columns 10…19 of rows 10…19 (a void filled, not flagged).
    static func writeTile(_ path: String, x0: Double = 10, void: Double, flagged: Double? = nil, unitType: String? = nil) {
        SyntheticDEM.write(
            path: path, width: 100, height: 100, geoTransform: [x0, 0.001, 0, 45.1, 0, -0.001], crs: "EPSG:4326", noData: flagged,
            unitType: unitType
        ) { c, r in (10..<20).contains(c) && (10..<20).contains(r) ? void : Double(100 + c + r) }
    }

    /// The centre of cell (column, row) of the tile starting at `x0`.
    static func centre(_ c: Int, _ r: Int, x0: Double = 10) -> GeoPoint {
        GeoPoint(longitude: x0 + (Double(c) + 0.5) * 0.001, latitude: 45.1 - (Double(r) + 0.5) * 0.001)
    }

    @Test("a void filled with 0 and not flagged reads 0; with --nodata 0 it is no data, in points, the range and warped frames")
    func filledVoid() throws {
        let dir = TemporaryDirectory()
        Self.writeTile(dir.file("dem.tif"), void: 0)
        let points = [Self.centre(15, 15), Self.centre(50, 50)]
        let plain = try ElevationModel([dir.file("dem.tif")])
        #expect(try plain.elevations(at: points, interpolation: .nearest) == [0, 200])
        #expect(try plain.elevationRange()?.min == 0)
        #expect(!plain.noDataGiven && plain.noDataValue == nil)

        let given = try ElevationModel([dir.file("dem.tif")], noData: [0])
        let z = try given.elevations(at: points, interpolation: .nearest)
        #expect(z[0].isNaN && z[1] == 200)
        #expect(given.noDataGiven && given.noDataValue == 0 && given.driverName == "GTiff")
        // The lowest cell left is (0, 0): 100 m.
        #expect(try given.elevationRange()?.min == 100)
        // Warped into a frame of the DEM's own cells: the 100 void cells, and only they, are NaN.
        let frame = FrameGrid(crs: try .wgs84(), geoTransform: [10, 0.001, 0, 45.1, 0, -0.001], width: 100, height: 100)
        let warped = try given.warped(into: frame, resampling: .bilinear)
        #expect(warped.filter { $0.isNaN }.count == 100)
        #expect(warped[50 * 100 + 50] == 200)
    }

    @Test("--nodata replaces the value the file flags: the flagged value becomes an elevation")
    func overridesFlagged() throws {
        let dir = TemporaryDirectory()
        // Flagged -32768, but its voids hold 0 and one cell really is -32768 (no such DEM should exist, but GDAL's a_nodata does this).
        SyntheticDEM.write(path: dir.file("dem.tif"), width: 100, height: 100, geoTransform: [10, 0.001, 0, 45.1, 0, -0.001], crs: "EPSG:4326", noData: -32768)
        { c, r in
            c == 5 && r == 5 ? -32768 : c == 6 && r == 6 ? 0 : Double(100 + c + r)
        }
        let flagged = try ElevationModel([dir.file("dem.tif")])
        let points = [Self.centre(5, 5), Self.centre(6, 6)]
        var z = try flagged.elevations(at: points, interpolation: .nearest)
        #expect(z[0].isNaN && z[1] == 0)
        z = try ElevationModel([dir.file("dem.tif")], noData: [0]).elevations(at: points, interpolation: .nearest)
        #expect(z[0] == -32768 && z[1].isNaN)
    }

    @Test("one --nodata for each DEM applies to that DEM's tiles only; one for all applies to every tile")
    func perDEM() throws {
        let dir = TemporaryDirectory()
        // West tile: voids of 0. East tile: voids of -9999, and 0 is a real height there (cell 60, 60).
        Self.writeTile(dir.file("west.tif"), void: 0)
        SyntheticDEM.write(path: dir.file("east.tif"), width: 100, height: 100, geoTransform: [10.1, 0.001, 0, 45.1, 0, -0.001], crs: "EPSG:4326") { c, r in
            (10..<20).contains(c) && (10..<20).contains(r) ? -9999 : c == 60 && r == 60 ? 0 : Double(100 + c + r)
        }
        let points = [Self.centre(15, 15), Self.centre(15, 15, x0: 10.1), Self.centre(60, 60, x0: 10.1), Self.centre(50, 50)]
        let each = try ElevationModel([dir.file("west.tif"), dir.file("east.tif")], noData: [0, -9999])
        var z = try each.elevations(at: points, interpolation: .nearest)
        #expect(z[0].isNaN && z[1].isNaN && z[2] == 0 && z[3] == 200, "\(z)")
        let all = try ElevationModel([dir.file("west.tif"), dir.file("east.tif")], noData: [0])
        z = try all.elevations(at: points, interpolation: .nearest)
        #expect(z[0].isNaN && z[1] == -9999 && z[2].isNaN && z[3] == 200, "\(z)")
    }

    @Test("tiles mosaic when one records metres and the other records no unit (metres assumed, as info says); feet against metres is refused naming both")
    func assumedMetres() throws {
        let dir = TemporaryDirectory()
        Self.writeTile(dir.file("a.tif"), void: 1, unitType: "m")
        Self.writeTile(dir.file("b.tif"), x0: 10.1, void: 1)
        let model = try ElevationModel([dir.file("a.tif"), dir.file("b.tif")])
        #expect(model.width == 200 && model.verticalUnitMetres == 1)
        #expect(try model.elevations(at: [Self.centre(50, 50, x0: 10.1)], interpolation: .nearest) == [200])
        Self.writeTile(dir.file("c.tif"), x0: 10.1, void: 1, unitType: "ft")
        #expect(
            throws: TerrainError.cannotMosaic(
                reason:
                    "'\(dir.file("c.tif"))' differs from '\(dir.file("a.tif"))' in scale, offset or unit (scale 1, offset 0, unit ft against scale 1, offset 0, unit m)"
            )
        ) { try ElevationModel([dir.file("a.tif"), dir.file("c.tif")]) }
    }
}
