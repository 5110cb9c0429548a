import CGDAL
import Foundation
import Testing
import TransectRaster
import TransectTestSupport
@testable import TransectGDAL

/// Shading in frames finer than the DEM: the resampling rule, and the shade of a paraboloid
/// against its closed form, with no steps where bilinear tiles meet.
@Suite("Elevation resampling: smooth shading past the DEM's resolution")
struct ElevationResamplingTests {
    /// DEM cells, metres; the DEM is `cells` × `cells` of them, NW corner at (x0, y0), UTM 11N.
    static let cell = 30.0, cells = 40, x0 = 500_000.0, y0 = 4_200_000.0
    /// Radius of curvature of the paraboloid, metres: its slope grows by 1/R per metre, so by
    /// 30/800 = 0.0375 from one cell centre to the next.
    static let radius = 800.0
    /// The paraboloid's axis, at the middle of the DEM.
    static let axisX = x0 + 600, axisY = y0 - 600

    static func height(x: Double, y: Double) -> Double {
        1000 + ((x - axisX) * (x - axisX) + (y - axisY) * (y - axisY)) / (2 * radius)
    }

    static func writeParaboloid(_ path: String) {
        SyntheticDEM.write(
            path: path, width: cells, height: cells, geoTransform: [x0, cell, 0, y0, 0, -cell],
            crs: "EPSG:32611", type: GDT_Float32
        ) { c, r in
            height(x: x0 + (Double(c) + 0.5) * cell, y: y0 - (Double(r) + 0.5) * cell)
        }
    }

    /// The closed-form shade at a point: 1 + 254·cos(incidence) between the paraboloid's normal
    /// (−∂z/∂x, −∂z/∂y, 1) and the light of `HillshadeParameters()` (azimuth 315°, altitude 45°),
    /// unrounded.
    static func trueShade(x: Double, y: Double) -> Double {
        let p = (x - axisX) / radius
        let q = (y - axisY) / radius  // ∂z/∂east, ∂z/∂north
        let a = 315 * Double.pi / 180
        let e = 45 * Double.pi / 180
        let cosIncidence = (-p * sin(a) * cos(e) - q * cos(a) * cos(e) + sin(e)) / (1 + p * p + q * q).squareRoot()
        return 1 + 254 * max(cosIncidence, 0)
    }

    /// A frame 10× finer than the DEM (3 m pixels) over cells 4…36 each way: 320 × 320 pixels,
    /// aligned so every tenth row and column of pixel boundaries is a DEM cell edge.
    static let zoom = 10, margin = 4
    static var fineFrame: FrameGrid {
        get throws {
            let pixel = cell / Double(zoom)
            let size = (cells - 2 * margin) * zoom
            return FrameGrid(
                crs: try SpatialReference("EPSG:32611"),
                geoTransform: [x0 + Double(margin) * cell, pixel, 0, y0 - Double(margin) * cell, 0, -pixel],
                width: size, height: size)
        }
    }

    /// Shading errors against the closed form, split by where they fall.
    struct Steps: CustomStringConvertible {
        /// Largest |S − S_true| over the measured pixels, grey levels.
        var worstValue = 0.0
        /// Largest |ΔS − ΔS_true| of a three-pixel step (S[i+3] − S[i], along rows and along
        /// columns) whose span holds a line of DEM cell centres, where bilinear tiles meet…
        var worstAcrossSeams = 0.0
        /// …and of one whose span lies inside a tile.
        var worstWithinTiles = 0.0
        var description: String {
            "value error ≤ \(worstValue), step error across seams ≤ \(worstAcrossSeams), within tiles ≤ \(worstWithinTiles)"
        }
    }

    /// Warps the paraboloid into the fine frame with `resampling`, shades it as a bare hillshade
    /// map does (the frame's own pixel size, edges computed) and measures it against the closed
    /// form on every pixel but the frame's outermost ring (whose neighbours are extrapolated).
    static func measure(_ model: ElevationModel, resampling: ElevationResampling?) throws -> Steps {
        let frame = try fineFrame
        let n = frame.width
        let pixel = frame.geoTransform[1]
        let z = try model.warped(into: frame, resampling: resampling)
        #expect(!z.contains { $0.isNaN })
        let shade = Hillshade.shade(
            elevations: z, width: n, height: n, cellWidth: pixel, cellHeight: pixel,
            parameters: HillshadeParameters(), computeEdges: true)
        func x(_ i: Int) -> Double { frame.geoTransform[0] + (Double(i) + 0.5) * pixel }
        func y(_ j: Int) -> Double { frame.geoTransform[3] - (Double(j) + 0.5) * pixel }
        var steps = Steps()
        for j in 1..<(n - 1) {
            for i in 1..<(n - 1) {
                steps.worstValue = max(steps.worstValue, abs(Double(shade[j * n + i]) - trueShade(x: x(i), y: y(j))))
            }
        }
        // Cell centres lie midway between pixels 4 and 5 of each run of ten (the frame starts on
        // a cell edge), so the step from pixel k to k + 3 spans a seam when k % 10 is 2, 3 or 4;
        // Horn's 3 × 3 kernel spreads a seam's jump over the three steps around it, so three
        // pixels is the span that holds all of it.
        for line in 1..<(n - 1) {
            for k in 1..<(n - 4) {
                let seam = (2...4).contains(k % zoom)
                let alongRow =
                    Double(Int(shade[line * n + k + 3]) - Int(shade[line * n + k]))
                    - (trueShade(x: x(k + 3), y: y(line)) - trueShade(x: x(k), y: y(line)))
                let alongColumn =
                    Double(Int(shade[(k + 3) * n + line]) - Int(shade[k * n + line]))
                    - (trueShade(x: x(line), y: y(k + 3)) - trueShade(x: x(line), y: y(k)))
                let worst = max(abs(alongRow), abs(alongColumn))
                if seam {
                    steps.worstAcrossSeams = max(steps.worstAcrossSeams, worst)
                } else {
                    steps.worstWithinTiles = max(steps.worstWithinTiles, worst)
                }
            }
        }
        return steps
    }

    @Test("10× finer than the DEM, the shade of a paraboloid is its closed form: no steps where DEM cells meet")
    func noStepsAtCellEdges() throws {
        let dir = TemporaryDirectory()
        Self.writeParaboloid(dir.file("dem.tif"))
        let model = try ElevationModel([dir.file("dem.tif")])
        #expect(try model.resampling(for: Self.fineFrame) == .cubicSpline)

        // The cubic B-spline of a quadratic is the quadratic plus a constant (h²/3 times its
        // curvature), and Horn's differences are exact on a quadratic, so each grey level is
        // the closed form rounded: within ½ level, plus Float rounding of elevations near
        // 1 000 m (~6e−5 m, ~0.005 of a level here). A three-pixel step therefore differs from
        // the closed form's by at most two half levels, across seams as within tiles.
        let smooth = try Self.measure(model, resampling: nil)
        #expect(smooth.worstValue <= 0.5 + 0.05, "\(smooth)")
        #expect(smooth.worstAcrossSeams <= 1 + 0.1 && smooth.worstWithinTiles <= 1 + 0.1, "\(smooth)")

        // The measurement has teeth: bilinear tiles of the same DEM shade each tile with its
        // secant slope, so the whole change of slope between two cell centres (0.0375, several
        // grey levels) lands at the seam, and the value strays by half of it.
        let tiles = try Self.measure(model, resampling: .bilinear)
        #expect(tiles.worstAcrossSeams >= 3, "\(tiles)")
        #expect(tiles.worstValue >= 1.5, "\(tiles)")
    }

    @Test("the rule: cubic spline only where a frame pixel covers less than one DEM cell")
    func switchRule() throws {
        let dir = TemporaryDirectory()
        Self.writeParaboloid(dir.file("dem.tif"))
        let model = try ElevationModel([dir.file("dem.tif")])
        let utm = try SpatialReference("EPSG:32611")
        func frame(pixel: Double, size: Int) -> FrameGrid {
            FrameGrid(crs: utm, geoTransform: [Self.x0, pixel, 0, Self.y0, 0, -pixel], width: size, height: size)
        }
        // The DEM's own grid: one cell per pixel, bilinear, so a bare hillshade is gdaldem's.
        #expect(try model.sourceCellsPerFramePixel(for: frame(pixel: 30, size: 40)) == 1)
        #expect(try model.resampling(for: frame(pixel: 30, size: 40)) == .bilinear)
        #expect(try model.resampling(for: frame(pixel: 60, size: 20)) == .bilinear)
        #expect(try model.resampling(for: frame(pixel: 29, size: 40)) == .cubicSpline)
        // A frame reaching far beyond the DEM is judged by its pixel size, not by the share of
        // it the DEM covers.
        #expect(try model.resampling(for: frame(pixel: 45, size: 400)) == .bilinear)
        #expect(try model.resampling(for: frame(pixel: 3, size: 4000)) == .cubicSpline)
        // In another CRS the rule compares areas on the ground: Web Mercator stretches lengths by
        // 1/cos(latitude) ≈ 1.26 here, so a 36 m Mercator pixel is about 28.6 m on the ground.
        let mercator = try SpatialReference("EPSG:3857")
        let centre = try CoordinateTransformer(from: utm, to: mercator).transform(x: Self.axisX, y: Self.axisY)!
        func mercatorFrame(pixel: Double) -> FrameGrid {
            FrameGrid(
                crs: mercator, geoTransform: [centre.x - 10 * pixel, pixel, 0, centre.y + 10 * pixel, 0, -pixel],
                width: 20, height: 20)
        }
        #expect(try model.resampling(for: mercatorFrame(pixel: 36)) == .cubicSpline)
        #expect(try model.resampling(for: mercatorFrame(pixel: 40)) == .bilinear)
    }

    @Test("a no-data hole stays a hole of the same pixels in a fine frame, whichever the resampling")
    func holeKeepsItsShape() throws {
        let dir = TemporaryDirectory()
        SyntheticDEM.write(
            path: dir.file("dem.tif"), width: Self.cells, height: Self.cells,
            geoTransform: [Self.x0, Self.cell, 0, Self.y0, 0, -Self.cell], crs: "EPSG:32611",
            type: GDT_Float32, noData: -9999
        ) { c, r in
            (16..<24).contains(c) && (16..<24).contains(r)
                ? -9999
                : Self.height(x: Self.x0 + (Double(c) + 0.5) * Self.cell, y: Self.y0 - (Double(r) + 0.5) * Self.cell)
        }
        let model = try ElevationModel([dir.file("dem.tif")])
        let smooth = try model.warped(into: Self.fineFrame)
        let tiles = try model.warped(into: Self.fineFrame, resampling: .bilinear)
        let holes = smooth.indices.filter { smooth[$0].isNaN }
        #expect(holes == tiles.indices.filter { tiles[$0].isNaN })
        // Cell (20, 20)'s centre is nan; a cell three away from the hole has data.
        let n = try Self.fineFrame.width
        let centre = (20 - Self.margin) * 10 + 5
        #expect(smooth[centre * n + centre].isNaN)
        #expect(!smooth[(centre - 70) * n + centre].isNaN && !holes.isEmpty && holes.count < smooth.count / 4)
    }
}
