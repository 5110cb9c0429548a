import Foundation
import Testing
import TransectGeodesy
import TransectRaster
import TransectTestSupport

@testable import TransectVisibility

/// The sweep skips a ray's stretch when ``TerrainBlocks`` show its terrain cannot reach the
/// horizon, and hides a cell below every ray of its block without finding its wedge: exact by
/// construction, so the bytes must be those of rays sampled whole and every cell judged on its
/// own wedge.
@Suite struct CullingTests {
    /// Rough terrain on 30 m cells with holes of no data and a ridge: hidden stretches behind
    /// ridges (culled), visible slopes and gaps near the holes (sampled).
    static func terrain(width: Int, height: Int) -> (ElevationGrid, GeographicGeoreference) {
        syntheticGrid(width: width, height: height, west: 7, north: 46, cell: 0.0003) { c, r in
            let x = Double(c)
            let y = Double(r)
            if (c - 70) * (c - 70) + (r - 40) * (r - 40) < 20 || (c > 20 && c < 24 && r > 100 && r < 130) { return .nan }
            let ridge = c > 110 && c < 116 ? 180.0 : 0
            return 900 + 120 * sin(x / 17) * cos(y / 23) + 35 * sin((x + 2 * y) / 7) + 9 * cos(x / 3 - y / 5) + ridge
        }
    }

    @Test(
        "the sweep's shortcuts give the bytes of rays sampled whole and cells judged on their wedges",
        arguments: [Interpolation.bilinear, .nearest, .cubic], [false, true])
    func cullingChangesNothing(interpolation: Interpolation, heights: Bool) throws {
        let (grid, geo) = Self.terrain(width: 161, height: 143)
        for (c, r, above) in [(80.5, 71.5, 2.0), (12.5, 130.5, 40.0), (150.5, 5.5, 300.0)] {
            let ll = geo.lonLat(columns: [c], rows: [r])
            let observer = ViewshedObserver(
                longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(above), name: "o")
            let settings = ViewshedSettings(interpolation: interpolation, computesHeights: heights, threads: 2)
            let culled = try Viewshed.compute(
                observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t", geodesic: .wgs84, shortcuts: true)
            let whole = try Viewshed.compute(
                observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t", geodesic: .wgs84, shortcuts: false)
            // How many entries differ (a failure names a count, not two whole rasters).
            func differing<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
                a.count == b.count ? zip(a, b).filter { $0 != $1 }.count : max(a.count, b.count)
            }
            let rays = { (v: Viewshed) in
                v.horizon.map { [$0.azimuthDegrees.bitPattern, $0.elevationDegrees.bitPattern, $0.distanceMetres.bitPattern] }
            }
            let bits = { (values: [Float]) in values.map(\.bitPattern) }
            #expect(differing(culled.classes, whole.classes) == 0, "classes, observer at \(c), \(r)")
            #expect(differing(rays(culled), rays(whole)) == 0, "horizon, observer at \(c), \(r)")
            #expect(differing(culled.horizon.map(\.crossesNoData), whole.horizon.map(\.crossesNoData)) == 0)
            #expect(differing(bits(culled.minimumVisibleHeightMetres), bits(whole.minimumVisibleHeightMetres)) == 0)
            #expect(differing(bits(culled.angleAboveHorizonDegrees), bits(whole.angleAboveHorizonDegrees)) == 0)
            // Both kinds of cell are there: the test sees what culling could get wrong.
            #expect(culled.count(of: .hidden) > 1000 && culled.count(of: .visible) > 1000 && culled.count(of: .unknown) > 0)
        }
    }

    /// A raster wide enough for several of the far blocks (128 cells) a side, so that rays'
    /// stretches of ``Viewshed/farSpan`` samples are ruled out whole, and near them partly.
    @Test("over far blocks too, the shortcuts give the bytes of rays sampled whole")
    func farStretchesChangeNothing() throws {
        let (grid, geo) = Self.terrain(width: 700, height: 540)
        for (c, r, above) in [(350.5, 270.5, 2.0), (30.5, 500.5, 60.0)] {
            let ll = geo.lonLat(columns: [c], rows: [r])
            let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(above), name: "o")
            let settings = ViewshedSettings(threads: 2)
            let culled = try Viewshed.compute(
                observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t", geodesic: .wgs84, shortcuts: true)
            let whole = try Viewshed.compute(
                observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t", geodesic: .wgs84, shortcuts: false)
            #expect(zip(culled.classes, whole.classes).filter { $0 != $1 }.count == 0, "observer at \(c), \(r)")
            #expect(zip(culled.horizon, whole.horizon).filter { $0.elevationDegrees.bitPattern != $1.elevationDegrees.bitPattern }.count == 0)
            #expect(culled.count(of: .hidden) > 10_000 && culled.count(of: .visible) > 1_000)
        }
    }

    @Test("a cell geometry made before the terrain gives the same bytes; one made for other inputs is not taken")
    func earlyGeometry() throws {
        let (grid, geo) = Self.terrain(width: 161, height: 143)
        func observer(_ c: Double, _ r: Double) -> ViewshedObserver {
            let ll = geo.lonLat(columns: [c], rows: [r])
            return ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(2), name: "o")
        }
        let here = observer(80.5, 71.5)
        let settings = ViewshedSettings(threads: 2)
        let plain = try Viewshed.compute(observer: here, terrain: grid, georeference: geo, settings: settings, demName: "t")
        let early = try Viewshed.cellGeometry(observer: here, width: grid.width, height: grid.height, georeference: geo, settings: settings)
        let taken = try Viewshed.compute(observer: here, terrain: grid, georeference: geo, settings: settings, demName: "t", geometry: early)
        #expect(taken.classes == plain.classes)
        #expect(early.serves(observer: here, width: grid.width, height: grid.height, settings: settings, geodesic: .wgs84))
        // Another observer's, or another range's: the sweep makes its own.
        let elsewhere = try Viewshed.cellGeometry(
            observer: observer(12.5, 130.5), width: grid.width, height: grid.height, georeference: geo, settings: settings)
        var nearer = settings
        nearer.maximumDistanceMetres = 1500
        let ranged = try Viewshed.cellGeometry(observer: here, width: grid.width, height: grid.height, georeference: geo, settings: nearer)
        for other in [elsewhere, ranged] {
            #expect(!other.serves(observer: here, width: grid.width, height: grid.height, settings: settings, geodesic: .wgs84))
            let v = try Viewshed.compute(observer: here, terrain: grid, georeference: geo, settings: settings, demName: "t", geometry: other)
            #expect(v.classes == plain.classes)
        }
    }

    @Test("a block bound is at or above every sample its cells can give", arguments: Interpolation.allCases)
    func boundHoldsEverySample(interpolation: Interpolation) {
        let (grid, _) = Self.terrain(width: 97, height: 89)
        let blocks = TerrainBlocks(terrain: grid, parallel: { n, body in for k in 0..<n { body(k) } })
        var random = SeededRandom(seed: 27)
        var checked = 0
        for _ in 0..<3000 {
            let x0 = Double.random(in: 0...96, using: &random)
            let y0 = Double.random(in: 0...88, using: &random)
            let x1 = min(96.9, x0 + Double.random(in: 0...12, using: &random))
            let y1 = min(88.9, y0 + Double.random(in: 0...12, using: &random))
            let radius = interpolation.radius
            let c0 = Int(x0.rounded(.down)) - radius
            let c1 = Int(x1.rounded(.down)) + radius
            let r0 = Int(y0.rounded(.down)) - radius
            let r1 = Int(y1.rounded(.down)) + radius
            for level in [blocks.fine, blocks.coarse, blocks.far] {
                let bound = blocks.bound(columns: c0, c1, rows: r0, r1, interpolation: interpolation, level: level)
                for k in 0...8 {
                    let t = Double(k) / 8
                    let z = grid.sampleScalar(column: x0 + t * (x1 - x0), row: y0 + t * (y1 - y0), interpolation: interpolation)
                    guard !z.isNaN else { continue }
                    #expect(z <= bound, "\(interpolation) at \(x0 + t * (x1 - x0)), \(y0 + t * (y1 - y0)): \(z) above \(bound)")
                    checked += 1
                }
            }
        }
        #expect(checked > 10000)
    }

    @Test("a tile's unjudged cells made hidden eight at a time equal a cell-by-cell pass, for every byte value and any alignment")
    func hideUnjudgedMatchesCellByCell() {
        var random = SeededRandom(seed: 91)
        let cells = (0..<4099).map { k -> UInt8 in
            // Every byte value in turn, then classes at random in runs.
            k < 256 ? UInt8(k) : [0, 1, 1, 2, 255][Int.random(in: 0..<5, using: &random)]
        }
        for (start, end) in [(0, 4099), (1, 9), (3, 4098), (256, 264), (255, 1000), (7, 7)] {
            var fast = cells
            var plain = cells
            fast.withUnsafeMutableBufferPointer { Viewshed.hideUnjudged($0, start..<end) }
            for i in start..<end where plain[i] == ViewshedClass.outOfRange.rawValue { plain[i] = ViewshedClass.hidden.rawValue }
            #expect(fast == plain, "cells \(start)..<\(end)")
        }
    }

    @Test(
        "a Float32 grid's blocks' extremes, eight lanes at a time, equal a cell-by-cell pass over the same values",
        arguments: [(97, 89, 8), (64, 40, 8), (7, 9, 8), (50, 33, 4)])
    func float32BlockExtremesMatchTheGenericPass(width: Int, height: Int, size: Int) {
        var random = SeededRandom(seed: UInt64(width * 1000 + height))
        // Heights with no data scattered and in a whole block, signed zeros and infinities' neighbours.
        let values = (0..<(width * height)).map { k -> Float in
            let r = Double.random(in: 0..<1, using: &random)
            if r < 0.05 || (k % width < 8 && k / width < 8 && width > 16) { return .nan }
            if r < 0.08 { return r < 0.065 ? -0.0 : 0.0 }
            return Float(Double.random(in: -500...9000, using: &random))
        }
        let grid = Float32ElevationGrid(width: width, height: height, values: values)
        let across = (width + size - 1) / size
        for j in 0..<((height + size - 1) / size) {
            let rows = (j * size)..<min(height, (j + 1) * size)
            var fast = [Double](repeating: .nan, count: 2 * across)
            var plain = fast
            fast.withUnsafeMutableBufferPointer { grid.blockExtremes(rows: rows, size: size, highest: $0.baseAddress!, lowest: $0.baseAddress! + across) }
            for i in 0..<across {
                var top = -Double.infinity
                var bottom = Double.infinity
                for r in rows {
                    for c in (i * size)..<min(width, (i + 1) * size) {
                        let z = Double(values[r * width + c])
                        top = max(top, z.isNaN ? .infinity : z)
                        bottom = min(bottom, z.isNaN ? -.infinity : z)
                    }
                }
                (plain[i], plain[across + i]) = (top, bottom)
            }
            #expect(fast == plain, "block row \(j)")
        }
    }
}

/// A block of rays finds its cells through ``CellTiles``: every cell's azimuth must lie in its
/// tile's turn, and a block's tiles must hold every cell whose azimuth lies in the block's.
@Suite struct CellTilesTests {
    @Test("every cell lies in its tile's turn and in the tiles a range of azimuths finds", arguments: [(80.5, 71.5), (0.2, 0.3), (160.9, 142.9)])
    func tilesHoldTheirCells(column: Double, row: Double) throws {
        let (grid, geo) = CullingTests.terrain(width: 161, height: 143)
        let ll = geo.lonLat(columns: [column], rows: [row])
        let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(2), name: "o")
        let geometry = try Viewshed.cellGeometry(
            width: grid.width, height: grid.height, observer: observer, georeference: geo, geodesic: .wgs84, settings: ViewshedSettings(),
            parallel: { n, body in for k in 0..<n { body(k) } })
        let tiles = geometry.tiles
        var tileOf = [Int](repeating: -1, count: grid.width * grid.height)
        for t in 0..<tiles.facts.count {
            let (rows, columns) = tiles.cells(of: t)
            for r in rows { for c in columns { tileOf[r * grid.width + c] = t } }
        }
        #expect(!tileOf.contains(-1), "a cell in no tile")
        // Every cell's distance and azimuth from its tile, against Karney's inverse problem to
        // its centre: the lattice interpolates within its tolerance, a thousandth of a cell
        // (here 0.0003° of longitude at 46° N, 23 m: 2.3 cm).
        var distances = [Double](repeating: .nan, count: tileOf.count)
        var azimuths = distances
        var scratch = [Double](repeating: 0, count: 4 * CellTiles.maximumCells)
        scratch.withUnsafeMutableBufferPointer { b in
            let x = b.baseAddress!
            for t in 0..<tiles.facts.count {
                let count = tiles.geometry(
                    of: t, xs: x, ys: x + CellTiles.maximumCells, distances: x + 2 * CellTiles.maximumCells,
                    azimuths: x + 3 * CellTiles.maximumCells)
                let (rows, columns) = tiles.cells(of: t)
                #expect(count == rows.count * columns.count)
                var k = 0
                for r in rows {
                    for c in columns {
                        distances[r * grid.width + c] = x[2 * CellTiles.maximumCells + k]
                        azimuths[r * grid.width + c] = x[3 * CellTiles.maximumCells + k]
                        k += 1
                    }
                }
            }
        }
        // Both as metres on the ground: along the line and across it.
        var worst = (along: 0.0, across: 0.0)
        for i in stride(from: 0, to: tileOf.count, by: 7) {
            let centre = geo.lonLat(columns: [Double(i % grid.width) + 0.5], rows: [Double(i / grid.width) + 0.5])
            let exact = Geodesic.wgs84.inverse(
                latitude1: ll.latitudes[0], longitude1: ll.longitudes[0], latitude2: centre.latitudes[0], longitude2: centre.longitudes[0])
            worst.along = max(worst.along, abs(exact.distanceMetres - distances[i]))
            var turn = (exact.azimuth1Degrees - azimuths[i]).truncatingRemainder(dividingBy: 360)
            if turn > 180 { turn -= 360 }
            if turn < -180 { turn += 360 }
            worst.across = max(worst.across, abs(turn) * .pi / 180 * exact.distanceMetres)
        }
        let side = Geodesic.wgs84.inverse(latitude1: 46, longitude1: 7, latitude2: 46, longitude2: 7.0003).distanceMetres
        let tolerance = Viewshed.latticeTolerance * side
        #expect(worst.along < tolerance && worst.across < tolerance, "\(worst.along) m along, \(worst.across) m across, within \(tolerance) m")
        var outside = 0
        for i in 0..<tileOf.count where !tiles.meets(tileOf[i], from: azimuths[i], to: azimuths[i]) { outside += 1 }
        #expect(outside == 0, "\(outside) cells outside their tile's turn")
        // Ranges of azimuths as blocks of rays have them, up to the whole turn.
        var seen = [Int32](repeating: 0, count: tiles.facts.count)
        var mark: Int32 = 0
        for (from, to) in [(0.0, 360.0), (0, 1.3), (44.9, 46.2), (181.7, 181.9), (359.2, 360), (90, 270)] {
            mark += 1
            let found = Set(tiles.tiles(from: from, to: to, seen: &seen, mark: mark).map(Int.init))
            var missed = 0
            for i in 0..<tileOf.count where azimuths[i] >= from && azimuths[i] <= to && !found.contains(tileOf[i]) {
                missed += 1
            }
            #expect(missed == 0, "\(missed) cells from \(from)° to \(to)° in tiles not found")
        }
        // The farthest cell in range by sector, as the cells' own sectors give it.
        var farthest = [Double](repeating: 0, count: RayFan.sectors)
        for i in 0..<tileOf.count where distances[i].isFinite {
            let s = RayFan.sector(of: azimuths[i])
            farthest[s] = max(farthest[s], distances[i])
        }
        #expect(farthest == geometry.farthest)
    }
}
