import Testing
import TransectSupport
import TransectTestSupport

@testable import TransectGDAL

/// The DEM as a perspective view reads it: every cell centre in WGS84 through the DEM's CRS.
@Suite("a DEM read as a terrain grid")
struct ElevationModelTerrainTests {
    /// A UTM 11N DEM of 30 m cells near Yosemite; heights = column + 1000·row.
    @Test("a projected DEM's cell centres agree with PROJ's own transform of each one")
    func projectedCentres() throws {
        let dir = TemporaryDirectory()
        let gt = [270_000.0, 30, 0, 4_185_000, 0, -30]
        SyntheticDEM.write(path: dir.file("utm.tif"), width: 61, height: 45, geoTransform: gt, crs: "EPSG:32611") { c, r in
            Double(c + 1000 * r)
        }
        let model = try ElevationModel([dir.file("utm.tif")])
        let grid = try model.terrainGrid()
        #expect(grid.width == 61 && grid.height == 45)
        var xs: [Double] = []
        var ys: [Double] = []
        for r in 0..<45 {
            for c in 0..<61 {
                xs.append(gt[0] + (Double(c) + 0.5) * 30)
                ys.append(gt[3] - (Double(r) + 0.5) * 30)
            }
        }
        try CoordinateTransformer(from: SpatialReference("EPSG:32611"), to: .wgs84()).transform(x: &xs, y: &ys)
        var worst = 0.0
        for k in 0..<(61 * 45) { worst = max(worst, abs(grid.longitudes[k] - xs[k]), abs(grid.latitudes[k] - ys[k])) }
        // 2e-8° is 2 mm: the lattice's interpolation over 240 m (8e-9°, 0.9 mm, measured here)
        // stays far below any cell.
        #expect(worst < 2e-8, "worst \(worst)°")
        #expect(grid.heights[0] == 0 && grid.heights[44 * 61 + 60] == 44_060)
        // 0.05 m: a 30 m UTM step is 30 m over the point scale factor on the ellipsoid (0.9996 on the
        // central meridian, about 1.001 at a zone's edge), so 29.97 to 30.01 m.
        #expect(abs(grid.cellWidthMetres - 30) < 0.05 && abs(grid.cellHeightMetres - 30) < 0.05)
    }
}
