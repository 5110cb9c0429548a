import Dispatch
import Testing

@testable import TransectSupport
@testable import TransectGeodesy
@testable import TransectRaster
@testable import TransectAnalysis
@testable import TransectPerspective

/// Views of synthetic terrain whose images are known in closed form.
@Suite("perspective terrain views of synthetic grids")
struct TerrainViewTests {
    static let serial: ParallelLoop = { n, body in for k in 0..<n { body(k) } }
    static let twoThreads: ParallelLoop = { n, body in
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            var k = worker
            while k < n {
                body(k)
                k += 2
            }
        }
    }

    /// A geographic grid from `west`…`east`, `south`…`north` with `step`° cells and heights `z`.
    static func grid(west: Double, south: Double, east: Double, north: Double, step: Double, z: (Double, Double) -> Float) -> TerrainGrid {
        let w = Int(((east - west) / step).rounded()) + 1
        let h = Int(((north - south) / step).rounded()) + 1
        var lons: [Double] = []
        var lats: [Double] = []
        var heights: [Float] = []
        for j in 0..<h {
            for i in 0..<w {
                let lon = west + Double(i) * step
                let lat = north - Double(j) * step
                lons.append(lon)
                lats.append(lat)
                heights.append(z(lon, lat))
            }
        }
        let metres = step * .pi / 180 * 6_371_000
        return TerrainGrid(
            width: w, height: h, longitudes: lons, latitudes: lats, heights: heights, cellWidthMetres: metres, cellHeightMetres: metres)
    }

    /// The first row from the top, in column `x`, with a sample that shows terrain.
    static func firstTerrainRow(_ view: TerrainView, x: Int) -> Int? {
        (0..<view.height).first { y in (0..<4).contains { view.inverseDepths[(y * view.width + x) * 4 + $0] > 0 } }
    }

    /// Sea-level plane seen level from height h: the horizon dips √(2h/R_eff) below the centre
    /// row, R_eff = R/(1 − K); a flat earth (K = 1) puts it on the centre row.
    @Test("a flat plane's horizon: its dip, and the centre row without curvature", arguments: [(100.0, 0.13), (250.0, 0.0), (2.0, 1.0)])
    func horizon(height h: Double, refraction k: Double) throws {
        let plane = Self.grid(west: -0.3, south: -0.1, east: 0.3, north: 1.6, step: 0.005) { _, _ in 0 }
        let style = ViewStyle(shadows: false)
        let scene = TerrainScene(grid: plane, style: style, parallel: Self.serial)
        let camera = ViewCamera(
            position: GeoPoint(longitude: 0, latitude: 0, heightMetres: h), headingDegrees: 0, pitchDegrees: 90,
            fieldOfViewDegrees: 10, width: 400, height: 300, refraction: k)
        let view = TerrainView.render(scene, camera: camera, style: style, parallel: Self.serial)
        let row = try #require(Self.firstTerrainRow(view, x: 200))
        let f = camera.frame.focalPixels
        let dip = k < 1 ? (2 * h / (LineOfSight.earthRadiusMetres / (1 - k))).squareRoot() : 0
        let expected = 150 + f * dip  // tan(dip) = dip to 1e-5 here
        // The horizon line crosses the first terrain row: its centre is within a pixel of it.
        #expect(abs(Double(row) + 0.5 - expected) <= 1, "row \(row), expected \(expected)")
    }

    /// A wall 100 m high on a plain of 10 m cells, the sun in the west at 45°: its shadow
    /// reaches 100 m east, the vertices 10…90 m behind it (100 m is at the shadow's very tip).
    @Test("a wall's cast shadow is as long as the wall is high over tan(altitude)")
    func wallShadow() {
        let w = 101
        let heights = (0..<(w * 5)).map { k in Float(k % w == 50 ? 100 : 0) }
        let grid = TerrainGrid(
            width: w, height: 5, longitudes: [Double](repeating: 0, count: w * 5), latitudes: [Double](repeating: 0, count: w * 5),
            heights: heights, cellWidthMetres: 10, cellHeightMetres: 10)
        var light = HillshadeParameters()
        light.azimuthDegrees = 270
        light.altitudeDegrees = 45
        let lit = TerrainScene.sunlit(grid, light: light)
        for row in 0..<5 {
            let shadowed = (0..<w).filter { lit[row * w + $0] < 1 }
            #expect(shadowed == Array(51...59), "row \(row)")
        }
    }

    static func hills() -> TerrainGrid {
        grid(west: -119.6, south: 37.70, east: -119.5, north: 37.78, step: 0.0005) { lon, lat in
            Float(1500 + 400 * _sin((lon + 119.6) * 90) * _cos((lat - 37.7) * 70) + 200 * _sin((lon + lat) * 300))
        }
    }

    @Test("the same bytes on one thread and on two")
    func threads() {
        let grid = Self.hills()
        let style = ViewStyle()
        let camera = ViewCamera(
            position: GeoPoint(longitude: -119.56, latitude: 37.69, heightMetres: 2600), headingDegrees: 10, pitchDegrees: 75,
            width: 320, height: 200)
        let one = TerrainView.render(TerrainScene(grid: grid, style: style, parallel: Self.serial), camera: camera, style: style, parallel: Self.serial)
        let two = TerrainView.render(
            TerrainScene(grid: grid, style: style, parallel: Self.twoThreads), camera: camera, style: style, parallel: Self.twoThreads)
        #expect(one.rgb == two.rgb)
        #expect(one.inverseDepths == two.inverseDepths)
        // Terrain and sky both show.
        #expect(one.inverseDepths.contains { $0 > 0 } && one.inverseDepths.contains { $0 == 0 })
    }

    @Test("every pixel below the horizon of a plane seen from above is terrain: no cracks between levels")
    func noCracks() {
        let grid = Self.hills()
        let style = ViewStyle(shadows: false)
        let scene = TerrainScene(grid: grid, style: style, parallel: Self.serial)
        let camera = ViewCamera(
            position: GeoPoint(longitude: -119.55, latitude: 37.74, heightMetres: 9000), headingDegrees: 0, pitchDegrees: 20,
            fieldOfViewDegrees: 40, width: 300, height: 200)
        let view = TerrainView.render(scene, camera: camera, style: style, parallel: Self.serial)
        // Looking 70° down from 9 km over a 9 km × 9 km grid: the middle of the image is all terrain.
        var holes = 0
        for y in 50..<150 {
            for x in 75..<225 where (0..<4).contains(where: { view.inverseDepths[(y * 300 + x) * 4 + $0] == 0 }) { holes += 1 }
        }
        #expect(holes == 0)
    }
}

private func _sin(_ x: Double) -> Double {
    // sin by its Taylor series after reduction to [−π, π]: the tests need a smooth surface, not libm.
    var y = x.truncatingRemainder(dividingBy: 2 * .pi)
    if y > .pi { y -= 2 * .pi } else if y < -.pi { y += 2 * .pi }
    var term = y
    var sum = y
    for n in 1..<12 {
        term *= -y * y / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}

private func _cos(_ x: Double) -> Double { _sin(x + .pi / 2) }
