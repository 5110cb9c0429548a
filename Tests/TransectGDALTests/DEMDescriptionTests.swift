import CGDAL
import Testing
import TransectSupport
import TransectTestSupport
@testable import TransectGDAL

@Suite("DEMDescription: a DEM described in one call")
struct DEMDescriptionTests {
    @Test("describe() reports the grid, CRS, extent, cell size and range the file was written with")
    func describe() throws {
        let dir = TemporaryDirectory()
        // 40 × 20 cells of 50 m in UTM 11N, values 100 + column + 1000·row: range 100 … 19,139.
        SyntheticDEM.write(
            path: dir.file("utm.tif"), width: 40, height: 20, geoTransform: [500_000, 50, 0, 4_200_000, 0, -50], crs: "EPSG:32611",
            type: GDT_Int16, noData: -9999, unitType: "m"
        ) { c, r in 100 + Double(c) + 1000 * Double(r) }
        let model = try ElevationModel([dir.file("utm.tif")])
        let info = try model.describe()
        #expect(info.label == model.label)
        #expect(info.paths == [dir.file("utm.tif")])
        #expect(info.driverName == "GTiff")
        #expect(info.width == 40 && info.height == 20)
        #expect(info.dataTypeName == "Int16")
        #expect(info.crsLabel == model.crs.label && !info.crsAssumed)
        #expect(info.resolutionMetres.x == 50 && info.resolutionMetres.y == 50)
        #expect(info.noDataValue == -9999 && info.noDataText == "-9999")
        #expect(info.unitType == "m")
        let range = try #require(info.elevationRange)
        #expect(range.min == 100 && range.max == 139 + 19_000 && !range.approximate)
        // The west edge is UTM 11N's central meridian, 117° W, all along.
        #expect(abs(info.extentLonLat.west - -117) < 1e-9)
        #expect(info.extentLonLat.east > info.extentLonLat.west && info.extentLonLat.north > info.extentLonLat.south)
    }
}
