import Foundation
import Testing
import TransectGeodesy
import TransectRaster
import TransectTestSupport
import TransectVisibility

/// The straightforward viewshed the sweep is held to: for every target cell its own sight line,
/// the geodesic from the observer to the cell centre, sampled every half cell (N intervals,
/// N = ⌈D / (c/2)⌉ for distance D and the smaller cell side c at the observer) by positions
/// along the geodesic line, each sampled with the grid's scalar reference kernel, and judged
/// with LineOfSight's rule. No lattice, no knots, no rays: nothing the sweep shares but the
/// grid's reference sampling and the geodesic.
struct BruteForceViewshed {
    let terrain: ElevationGrid
    let georeference: GeographicGeoreference
    let observer: (longitude: Double, latitude: Double)
    let eye: Double
    let targetHeight: Double
    let curvature: Double
    let cellMetres: Double

    init(
        terrain: ElevationGrid, georeference: GeographicGeoreference, longitude: Double, latitude: Double, eye: Double,
        targetHeight: Double = 0, curvature: Double
    ) {
        self.terrain = terrain
        self.georeference = georeference
        observer = (longitude, latitude)
        self.eye = eye
        self.targetHeight = targetHeight
        self.curvature = curvature
        let p = georeference.pixelCoordinates(longitudes: [longitude], latitudes: [latitude])
        let ll = georeference.lonLat(columns: [p.columns[0], p.columns[0] + 1, p.columns[0]], rows: [p.rows[0], p.rows[0], p.rows[0] + 1])
        let dx = Geodesic.wgs84.inverse(
            latitude1: ll.latitudes[0], longitude1: ll.longitudes[0], latitude2: ll.latitudes[1], longitude2: ll.longitudes[1]
        ).distanceMetres
        let dy = Geodesic.wgs84.inverse(
            latitude1: ll.latitudes[0], longitude1: ll.longitudes[0], latitude2: ll.latitudes[2], longitude2: ll.longitudes[2]
        ).distanceMetres
        cellMetres = min(dx, dy)
    }

    /// The verdict for cell (`column`, `row`).
    func verdict(column: Int, row: Int) -> ViewshedClass {
        let zt = terrain.value(column: column, row: row)
        guard !zt.isNaN else { return .unknown }
        let ll = georeference.lonLat(columns: [Double(column) + 0.5], rows: [Double(row) + 0.5])
        let line = Geodesic.wgs84.inverseLine(
            from: GeoPoint(longitude: observer.longitude, latitude: observer.latitude),
            to: GeoPoint(longitude: ll.longitudes[0], latitude: ll.latitudes[0]))
        let d = line.distanceMetres ?? 0
        let n = Int((d / (cellMetres / 2)).rounded(.up))
        guard n > 1 else { return .visible }
        let k = curvature / (2 * EarthCurvature.meanRadiusMetres)
        let target = zt + targetHeight - k * d * d
        var unknown = false
        for i in 1..<n {
            let s = d * Double(i) / Double(n)
            let p = line.position(atDistance: s)
            let px = georeference.pixelCoordinates(longitudes: [p.longitude], latitudes: [p.latitude])
            let z = terrain.sampleScalar(column: px.columns[0], row: px.rows[0], interpolation: .bilinear)
            if z.isNaN {
                unknown = true
                continue
            }
            let sightLine = eye + (target - eye) * s / d
            if z - k * s * s > sightLine { return .hidden }
        }
        return unknown ? .unknown : .visible
    }
}

/// Whether cell (`column`, `row`) touches a cell of another class in `classes` (the brute
/// force's), side or corner: a visibility edge runs along its boundary, half a cell from its
/// centre (or through its corner).
func isAtEdge(_ classes: [UInt8], width: Int, height: Int, column: Int, row: Int) -> Bool {
    let me = classes[row * width + column]
    for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)] {
        let c = column + dc
        let r = row + dr
        guard c >= 0, r >= 0, c < width, r < height else { continue }
        if classes[r * width + c] != me { return true }
    }
    return false
}

/// A synthetic geographic grid: `width` × `height` cells of `cell` degrees, north-up, its
/// north-west corner at (`west`, `north`), heights from `z(column, row)`.
func syntheticGrid(
    width: Int, height: Int, west: Double, north: Double, cell: Double, _ z: (Int, Int) -> Double
) -> (ElevationGrid, GeographicGeoreference) {
    var values = [Double](repeating: 0, count: width * height)
    for r in 0..<height { for c in 0..<width { values[r * width + c] = z(c, r) } }
    let gt = [west, cell, 0, north, 0, -cell]
    return (ElevationGrid(width: width, height: height, values: values), GeographicGeoreference(geoTransform: gt)!)
}

@Suite struct ViewshedTests {
    /// A sea plane (z = 0) seen from 10 m: with curvature coefficient cc the sea is visible out
    /// to √(2·R_eff·h), R_eff = R/cc, and hidden beyond; the sampled sight lines move the edge
    /// out by at most half a sample step (the last sample before a target lies within a step
    /// of it), under one cell.
    @Test("a sea plane is visible to the horizon distance √(2·R·h/cc) within one cell", arguments: [0.85714, 1.0])
    func seaPlaneHorizon(curvature: Double) throws {
        // 100 m cells at the equator, the observer at the west edge's middle.
        let cell = 0.0009
        let (grid, geo) = syntheticGrid(width: 180, height: 21, west: 0, north: 10 * cell + cell / 2, cell: cell) { _, _ in 0 }
        let observer = ViewshedObserver(longitude: cell / 2, latitude: 0, height: .aboveGround(10), name: "sea")
        let v = try Viewshed.compute(
            observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(curvature: curvature), demName: "sea")
        let edge = (2 * EarthCurvature.meanRadiusMetres / curvature * 10).squareRoot()
        let cellMetres = 100.19  // 0.0009° of the equator, a·0.0009·π/180
        var checked = 0
        for c in 0..<grid.width {
            let d = Geodesic.wgs84.inverse(latitude1: 0, longitude1: cell / 2, latitude2: 0, longitude2: (Double(c) + 0.5) * cell).distanceMetres
            let cls = ViewshedClass(rawValue: v.classes[10 * grid.width + c])!
            if d < edge - 1 { #expect(cls == .visible, "column \(c) at \(d) m, edge \(edge) m") }
            if d > edge + cellMetres { #expect(cls == .hidden, "column \(c) at \(d) m, edge \(edge) m") }
            checked += 1
        }
        #expect(checked == 180)
        // Both sides of the edge are in the grid.
        #expect(edge < 170 * cellMetres && edge > 50 * cellMetres)
    }

    @Test("a flat earth (cc = 0) sees the whole sea plane")
    func flatEarthSeesAll() throws {
        let cell = 0.0009
        let (grid, geo) = syntheticGrid(width: 120, height: 15, west: 0, north: 7.5 * cell, cell: cell) { _, _ in 0 }
        let observer = ViewshedObserver(longitude: cell / 2, latitude: 0, height: .aboveGround(10), name: "sea")
        let v = try Viewshed.compute(
            observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(curvature: 0), demName: "sea")
        #expect(v.count(of: .visible) == grid.width * grid.height)
    }

    /// A wall of three 30 m cells at 50 m high across flat ground, seen from 100 m: the flat
    /// top ends at the centre of its last cell, distance d_w, and the ground behind it is hidden
    /// out to x* = e·d_w/(e − H_w) (no curvature), where the sight line over the wall's far
    /// edge meets the ground.
    @Test("ground behind a wall is hidden out to e·d/(e − H) and visible beyond, within one cell")
    func wallShadow() throws {
        let cell = 0.00027
        let wallColumns = 40...42
        let (grid, geo) = syntheticGrid(width: 200, height: 11, west: 0, north: 5.5 * cell, cell: cell) { c, _ in
            wallColumns.contains(c) ? 50 : 0
        }
        let observer = ViewshedObserver(longitude: cell / 2, latitude: 0, height: .absolute(100), name: "wall")
        let v = try Viewshed.compute(
            observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(curvature: 0), demName: "wall")
        func distance(_ c: Int) -> Double {
            Geodesic.wgs84.inverse(latitude1: 0, longitude1: cell / 2, latitude2: 0, longitude2: (Double(c) + 0.5) * cell).distanceMetres
        }
        let dw = distance(wallColumns.upperBound)
        let shadowEnd = 100 * dw / (100 - 50)
        let cellMetres = distance(1) - distance(0)
        var hidden = 0
        for c in (wallColumns.upperBound + 1)..<grid.width {
            let d = distance(c)
            let cls = ViewshedClass(rawValue: v.classes[5 * grid.width + c])!
            if d < shadowEnd - cellMetres { #expect(cls == .hidden, "column \(c) at \(d) m") }
            if d > shadowEnd + cellMetres { #expect(cls == .visible, "column \(c) at \(d) m") }
            if cls == .hidden { hidden += 1 }
        }
        // The shadow is about (x* − d_w)/c cells long: 42 here.
        #expect(abs(Double(hidden) - (shadowEnd - dw) / cellMetres) <= 1.5)
        // Everything in front of the wall is visible.
        for c in 0..<wallColumns.lowerBound { #expect(v.classes[5 * grid.width + c] == ViewshedClass.visible.rawValue) }
    }

    /// A cone seen from its apex sees all of its own surface (it is concave, and so is its
    /// bilinear surface, which lies below every line from above the apex to a cell centre);
    /// a cone standing on a plain, seen from the plain beside it, hides its far side and the
    /// plain behind. Both against the brute force, every cell.
    @Test("a cone: every cell matches the brute force but at edges", arguments: [true, false])
    func cone(fromApex: Bool) throws {
        let cell = 0.00027
        let size = 81
        let (grid, geo) = syntheticGrid(width: size, height: size, west: 10, north: 0.01, cell: cell) { c, r in
            let dx = Double(c - 40)
            let dy = Double(r - 40)
            let cone = 400 - 15 * (dx * dx + dy * dy).squareRoot()
            return fromApex ? cone : max(0, cone)
        }
        let ll = geo.lonLat(columns: [fromApex ? 40.5 : 5.5], rows: [fromApex ? 40.5 : 40.5])
        let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(1.7), name: "cone")
        let v = try Viewshed.compute(
            observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(threads: 2), demName: "cone")
        let brute = BruteForceViewshed(
            terrain: grid, georeference: geo, longitude: ll.longitudes[0], latitude: ll.latitudes[0], eye: v.observerEyeMetres,
            curvature: EarthCurvature.defaultCurvatureCoefficient)
        let expected = (0..<(size * size)).map { brute.verdict(column: $0 % size, row: $0 / size).rawValue }
        var differ = 0
        for r in 0..<size {
            for c in 0..<size where v.classes[r * size + c] != expected[r * size + c] {
                differ += 1
                let atEdge = isAtEdge(expected, width: size, height: size, column: c, row: r)
                #expect(atEdge, "cell \(c),\(r): \(v.classes[r * size + c]) against \(expected[r * size + c])")
            }
        }
        #expect(Double(differ) <= 0.001 * Double(size * size) + 1, "\(differ) cells differ")
        if fromApex {
            #expect(v.count(of: .visible) == size * size)
        } else {
            #expect(v.count(of: .hidden) > 500)
        }
    }

    /// Rough synthetic terrain (sums of sines) with a no-data hole: every cell against the
    /// brute force; differences only at edges, at most 0.1 %.
    @Test("rough terrain with a hole of no data matches the brute force but at edges")
    func roughTerrain() throws {
        let cell = 0.0003
        let size = 140
        let (grid, geo) = syntheticGrid(width: size, height: size, west: -120, north: 37.8, cell: cell) { c, r in
            if (57...61).contains(c) && (66...70).contains(r) { return .nan }
            let x = Double(c)
            let y = Double(r)
            return 1500 + 120 * sin(x / 9) * cos(y / 13) + 30 * sin((x + 2 * y) / 5.3) + 10 * cos(x / 2.1 - y / 3.7)
        }
        let ll = geo.lonLat(columns: [52.3], rows: [61.8])
        let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(60), name: "rough")
        let v = try Viewshed.compute(
            observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(threads: 2), demName: "rough")
        let brute = BruteForceViewshed(
            terrain: grid, georeference: geo, longitude: ll.longitudes[0], latitude: ll.latitudes[0], eye: v.observerEyeMetres,
            curvature: EarthCurvature.defaultCurvatureCoefficient)
        let expected = (0..<(size * size)).map { brute.verdict(column: $0 % size, row: $0 / size).rawValue }
        var counts: [ViewshedClass: Int] = [:]
        for e in expected { counts[ViewshedClass(rawValue: e)!, default: 0] += 1 }
        var differ = 0
        for r in 0..<size {
            for c in 0..<size where v.classes[r * size + c] != expected[r * size + c] {
                differ += 1
                let atEdge = isAtEdge(expected, width: size, height: size, column: c, row: r)
                #expect(atEdge, "cell \(c),\(r): \(v.classes[r * size + c]) against \(expected[r * size + c])")
            }
        }
        // The terrain is rough enough to hide and show a lot, and the hole makes unknowns.
        #expect(counts[.visible, default: 0] > 2000 && counts[.hidden, default: 0] > 2000 && counts[.unknown, default: 0] > 100)
        #expect(Double(differ) <= 0.001 * Double(size * size), "\(differ) of \(size * size) cells differ")
    }

    @Test("the same bits on one thread and on three")
    func threadsDoNotMatter() throws {
        let cell = 0.0003
        let (grid, geo) = syntheticGrid(width: 90, height: 70, west: 6, north: 45, cell: cell) { c, r in
            800 + 90 * sin(Double(c) / 7) * cos(Double(r) / 5)
        }
        let ll = geo.lonLat(columns: [30.5], rows: [20.5])
        let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(1.7), name: "o")
        var settings = ViewshedSettings(computesHeights: true, threads: 1)
        let one = try Viewshed.compute(observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t")
        settings.threads = 3
        let three = try Viewshed.compute(observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t")
        #expect(one.classes == three.classes)
        #expect(one.minimumVisibleHeightMetres.map(\.bitPattern) == three.minimumVisibleHeightMetres.map(\.bitPattern))
        #expect(one.horizon == three.horizon)
    }

    /// The minimum visible height is what makes a hidden target visible: raising every
    /// target by it (plus a centimetre) makes it visible, and by it less a centimetre (where
    /// that is positive) leaves it hidden.
    @Test("the minimum visible target height is the threshold of the target height")
    func minimumHeightIsTheThreshold() throws {
        let cell = 0.0003
        let (grid, geo) = syntheticGrid(width: 60, height: 60, west: 6, north: 45, cell: cell) { c, r in
            800 + 90 * sin(Double(c) / 7) * cos(Double(r) / 5)
        }
        let ll = geo.lonLat(columns: [30.5], rows: [20.5])
        let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(1.7), name: "o")
        let base = try Viewshed.compute(
            observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(computesHeights: true), demName: "t")
        var tested = 0
        for i in stride(from: 0, to: 3600, by: 7) where base.classes[i] == ViewshedClass.hidden.rawValue {
            let m = Double(base.minimumVisibleHeightMetres[i])
            #expect(m > 0)
            let above = try Viewshed.compute(
                observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(targetHeightMetres: m + 0.01), demName: "t")
            #expect(above.classes[i] == ViewshedClass.visible.rawValue)
            if m > 0.01 {
                let below = try Viewshed.compute(
                    observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(targetHeightMetres: m - 0.01),
                    demName: "t")
                #expect(below.classes[i] == ViewshedClass.hidden.rawValue)
            }
            tested += 1
            if tested == 12 { break }
        }
        #expect(tested == 12)
    }

    @Test("range limits: distance, azimuth and pitch make cells out of range")
    func rangeLimits() throws {
        let cell = 0.0003
        let (grid, geo) = syntheticGrid(width: 61, height: 61, west: 6, north: 45, cell: cell) { _, _ in 100 }
        let ll = geo.lonLat(columns: [30.5], rows: [30.5])
        let observer = ViewshedObserver(longitude: ll.longitudes[0], latitude: ll.latitudes[0], height: .aboveGround(1.7), name: "o")
        let settings = ViewshedSettings(minimumDistanceMetres: 100, maximumDistanceMetres: 500, azimuthDegrees: (350, 10))
        let v = try Viewshed.compute(observer: observer, terrain: grid, georeference: geo, settings: settings, demName: "t")
        // Due north of the observer, 200 m away (column 30, about 6.7 cells up): visible.
        #expect(v.classes[(30 - 7) * 61 + 30] == ViewshedClass.visible.rawValue)
        // Due east, south, too near and too far: out of range.
        #expect(v.classes[30 * 61 + 40] == ViewshedClass.outOfRange.rawValue)
        #expect(v.classes[40 * 61 + 30] == ViewshedClass.outOfRange.rawValue)
        #expect(v.classes[29 * 61 + 30] == ViewshedClass.outOfRange.rawValue)
        #expect(v.classes[0 * 61 + 30] == ViewshedClass.outOfRange.rawValue)
        // Pitch: a flat plain seen from 1.7 m lies below the level: a pitch range above it leaves nothing.
        let up = try Viewshed.compute(
            observer: observer, terrain: grid, georeference: geo, settings: ViewshedSettings(pitchDegrees: 1...90), demName: "t")
        #expect(up.count(of: .visible) == 0)
    }

    @Test("an observer outside the DEM or on no data is an error naming it")
    func observerErrors() throws {
        let (grid, geo) = syntheticGrid(width: 10, height: 10, west: 6, north: 45, cell: 0.001) { c, _ in c == 5 ? .nan : 10 }
        #expect(throws: ViewshedError.observerOutside(observer: "far", dem: "t")) {
            try Viewshed.compute(
                observer: ViewshedObserver(longitude: 7, latitude: 45, height: .aboveGround(1), name: "far"), terrain: grid,
                georeference: geo, settings: ViewshedSettings(), demName: "t")
        }
        #expect(throws: ViewshedError.observerOnNoData(observer: "void", dem: "t")) {
            try Viewshed.compute(
                observer: ViewshedObserver(longitude: 6.0055, latitude: 44.9955, height: .aboveGround(1), name: "void"), terrain: grid,
                georeference: geo, settings: ViewshedSettings(), demName: "t")
        }
        // With its height given it stands anywhere inside.
        let v = try Viewshed.compute(
            observer: ViewshedObserver(longitude: 6.0055, latitude: 44.9955, height: .absolute(50), name: "void"), terrain: grid,
            georeference: geo, settings: ViewshedSettings(), demName: "t")
        #expect(v.count(of: .unknown) >= 10)
    }
}
