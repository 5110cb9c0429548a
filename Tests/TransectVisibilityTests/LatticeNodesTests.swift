import Foundation
import Testing
import TransectGeodesy
import TransectRaster
import TransectSupport

@testable import TransectVisibility

@Suite("The cells' lattice: its estimate of its own interpolation error, and the step it takes")
struct LatticeNodesTests {
    static let serial: ParallelLoop = { n, body in for k in 0..<n { body(k) } }

    /// A `size` × `size` geographic raster of `cell`° cells whose north-west corner is at
    /// 10° E, 50° N, with the observer at the centre of cell (40, 60).
    static func raster(cell: Double, size: Int) -> (ElevationGrid, GeographicGeoreference, ViewshedObserver) {
        let (grid, geo) = syntheticGrid(width: size, height: size, west: 10, north: 50, cell: cell) { _, _ in 0 }
        let at = geo.lonLat(columns: [40.5], rows: [60.5])
        return (grid, geo, ViewshedObserver(longitude: at.longitudes[0], latitude: at.latitudes[0], height: .aboveGround(2), name: "o"))
    }

    /// The lattice's estimate, and the farthest its interpolated cell centres lie from Karney's
    /// (x = s·sin α, y = s·cos α to each centre), in cells (the smaller side of the cell, from
    /// the ellipsoid's radii of curvature at its latitude), over every third cell.
    static func errors(cell: Double, size: Int, step: Int) throws -> (estimate: Double, measured: Double) {
        let (grid, geo, observer) = raster(cell: cell, size: size)
        let nodes = try LatticeNodes(
            step: step, width: grid.width, height: grid.height, observer: observer, georeference: geo, geodesic: .wgs84, threads: 1,
            parallel: serial)
        let tiles = CellTiles(
            nodesX: nodes.x, nodesY: nodes.y, latticeStep: nodes.step, latticeColumns: nodes.columns, latticeRows: nodes.rows,
            width: grid.width, height: grid.height, parallel: serial)
        let ellipsoid = Geodesic.wgs84.ellipsoid
        let e2 = ellipsoid.eccentricitySquared
        var worst = 0.0
        var xs = [Double](repeating: 0, count: CellTiles.maximumCells)
        var ys = xs
        var k = 0
        for t in 0..<tiles.facts.count {
            let count = tiles.coordinates(of: t, xs: &xs, ys: &ys)
            let (rows, columns) = tiles.cells(of: t)
            #expect(count == rows.count * columns.count)
            var n = 0
            for r in rows {
                for c in columns {
                    defer { n += 1 }
                    k += 1
                    guard k % 3 == 0 else { continue }
                    let centre = geo.lonLat(columns: [Double(c) + 0.5], rows: [Double(r) + 0.5])
                    let exact = Geodesic.wgs84.inverse(
                        latitude1: observer.latitude, longitude1: observer.longitude, latitude2: centre.latitudes[0],
                        longitude2: centre.longitudes[0])
                    let a: Double = exact.azimuth1Degrees * .pi / 180
                    let dx: Double = exact.distanceMetres * sin(a) - xs[n]
                    let dy: Double = exact.distanceMetres * cos(a) - ys[n]
                    let off = (dx * dx + dy * dy).squareRoot()
                    let phi: Double = centre.latitudes[0] * .pi / 180
                    let w: Double = 1 - e2 * sin(phi) * sin(phi)
                    let radian: Double = cell * .pi / 180
                    let across: Double = radian * ellipsoid.equatorialRadius / w.squareRoot() * cos(phi)
                    let along: Double = radian * ellipsoid.equatorialRadius * (1 - e2) / (w * w.squareRoot())
                    let side = min(across, along)
                    worst = max(worst, off / side)
                }
            }
        }
        return (nodes.interpolationError(), worst)
    }

    @Test(
        "the estimate is within 20 % of the error measured against Karney's inverse problem",
        arguments: [(0.0003, 64), (0.0003, 32), (0.0003, 16), (0.0003, 8), (0.01, 16), (0.01, 8), (1.0 / 12, 16), (1.0 / 12, 8)])
    func estimateBracketsTheError(cell: Double, step: Int) throws {
        let (estimate, measured) = try Self.errors(cell: cell, size: 161, step: step)
        #expect(measured <= 1.2 * estimate && estimate <= 1.2 * measured, "estimate \(estimate), measured \(measured) cells")
    }

    @Test("cells of 0.2″ take a node every 64th cell, of 1″ every 32nd, of 3″ 16th, of 5′ 8th: the coarsest within a thousandth of a cell")
    func stepFollowsTheError() throws {
        for (cell, step) in [(0.2 / 3600, 64), (1.0 / 3600, 32), (3.0 / 3600, 16), (1.0 / 12, 8)] {
            let (grid, geo, observer) = Self.raster(cell: cell, size: 161)
            let geometry = try Viewshed.cellGeometry(
                width: grid.width, height: grid.height, observer: observer, georeference: geo, geodesic: .wgs84, settings: ViewshedSettings(),
                parallel: Self.serial)
            #expect(geometry.tiles.latticeColumns[1] == step, "\(cell)° cells")
        }
    }
}
