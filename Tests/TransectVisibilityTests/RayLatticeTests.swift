import Foundation
import Testing
import TransectGeodesy
import TransectRaster
import TransectSupport

@testable import TransectVisibility

@Suite("The rays' lattice: its estimate of its own interpolation error, and the spacing it takes")
struct RayLatticeTests {
    static let serial: ParallelLoop = { n, body in for k in 0..<n { body(k) } }

    /// A `size` × `size` geographic raster of `cell`° cells whose north-west corner is at
    /// 10° E, 50° N, the observer at the centre of cell (40, 60), and the half cell its rays
    /// step by.
    static func raster(cell: Double, size: Int) throws -> (GeographicGeoreference, ViewshedObserver, step: Double) {
        let (_, geo) = syntheticGrid(width: size, height: size, west: 10, north: 50, cell: cell) { _, _ in 0 }
        let at = geo.lonLat(columns: [40.5], rows: [60.5])
        let observer = ViewshedObserver(longitude: at.longitudes[0], latitude: at.latitudes[0], height: .aboveGround(2), name: "o")
        return (geo, observer, try Viewshed.sampleStep(column: 40.5, row: 60.5, georeference: geo, geodesic: .wgs84))
    }

    /// The lattice with a node every `cells` cells over the raster's plane, its estimate, and
    /// the farthest its interpolated pixel positions lie from Karney's direct problem and the
    /// georeference, in cells, at the middle of every lattice cell and of its sides away from
    /// the lattice's edge (where the interpolation is farthest off).
    static func errors(cell: Double, size: Int, cells: Int) throws -> (estimate: Double, measured: Double) {
        let (geo, observer, step) = try raster(cell: cell, size: size)
        let extent = 0.5 * Double(size) * 2 * step
        let lattice = try RayLattice(
            observer: observer, xRange: -extent...extent, yRange: -extent...extent, spacing: Double(2 * cells) * step, georeference: geo,
            geodesic: .wgs84, parallel: serial, threads: 1)
        var worst = 0.0
        for j in 1..<(lattice.down - 2) {
            for i in 1..<(lattice.across - 2) {
                for (fu, fv) in [(0.5, 0.5), (0.5, 0.0), (0.0, 0.5)] {
                    let x = lattice.x0 + (Double(i) + fu) * lattice.spacing
                    let y = lattice.y0 + (Double(j) + fv) * lattice.spacing
                    let reached = Geodesic.wgs84.direct(
                        from: GeoPoint(longitude: observer.longitude, latitude: observer.latitude), azimuths: [atan2(x, y) * 180 / .pi],
                        distances: [(x * x + y * y).squareRoot()])
                    let exact = geo.pixelCoordinates(longitudes: [reached[0].longitude], latitudes: [reached[0].latitude])
                    let (column, row) = lattice.pixel(x: x, y: y)
                    worst = max(worst, hypot(column - exact.columns[0], row - exact.rows[0]))
                }
            }
        }
        return (lattice.interpolationError(), worst)
    }

    /// Cell sides (degrees) and cells between nodes.
    static let cases: [(Double, Int)] = [(1.0 / 3600, 64), (1.0 / 3600, 32), (1.0 / 3600, 16), (3.0 / 3600, 16), (1.0 / 12, 16)]

    @Test(
        "the estimate bounds the error measured against Karney's direct problem, and is within twice it",
        arguments: cases)
    func estimateBracketsTheError(cell: Double, cells: Int) throws {
        let (estimate, measured) = try Self.errors(cell: cell, size: 801, cells: cells)
        #expect(measured <= 1.05 * estimate && estimate <= 2 * measured, "estimate \(estimate), measured \(measured) cells")
    }

    /// A raster's cell side (degrees), the lattice's cells between nodes, a chord's samples.
    struct ChordCase: Sendable, CustomTestStringConvertible {
        let cell: Double
        let cells: Int
        let samples: Int
        var testDescription: String { "\(cell * 3600)″ cells, nodes every \(cells), chords of \(samples) samples" }
    }

    static let chordCases: [ChordCase] = [
        ChordCase(cell: 1.0 / 3600, cells: 32, samples: 64), ChordCase(cell: 1.0 / 3600, cells: 32, samples: 256),
        ChordCase(cell: 3.0 / 3600, cells: 16, samples: 128), ChordCase(cell: 1.0 / 12, cells: 16, samples: 64),
    ]

    /// The lattice's estimate of how far a ray's chord of `samples` samples strays from its
    /// path, and the farthest measured: rays every 7.5° from the observer, chords from the eye
    /// and from 100 and 200 cells out, their middles against Karney's direct problem and the
    /// georeference.
    static func chordErrors(cell: Double, cells: Int, samples: Int) throws -> (estimate: Double, measured: Double) {
        let (geo, observer, step) = try raster(cell: cell, size: 801)
        let extent = 400 * 2 * step
        let lattice = try RayLattice(
            observer: observer, xRange: -extent...extent, yRange: -extent...extent, spacing: Double(2 * cells) * step, georeference: geo,
            geodesic: .wgs84, parallel: serial, threads: 1)
        let length = Double(samples) * step
        var worst = 0.0
        for azimuth in stride(from: 0.0, to: 360, by: 7.5) {
            for start in [0.0, 200 * step, 400 * step] {
                let reached = Geodesic.wgs84.direct(
                    from: GeoPoint(longitude: observer.longitude, latitude: observer.latitude), azimuths: [azimuth, azimuth, azimuth],
                    distances: [start, start + length / 2, start + length])
                let exact = geo.pixelCoordinates(longitudes: reached.map(\.longitude), latitudes: reached.map(\.latitude))
                let chordColumn = (exact.columns[0] + exact.columns[2]) / 2
                let chordRow = (exact.rows[0] + exact.rows[2]) / 2
                worst = max(worst, hypot(exact.columns[1] - chordColumn, exact.rows[1] - chordRow))
            }
        }
        return (lattice.chordError(length: length), worst)
    }

    @Test(
        "the chords' estimate bounds their stray measured against Karney's direct problem, within eight times it",
        arguments: chordCases)
    func chordEstimateBracketsTheError(chord: ChordCase) throws {
        let (estimate, measured) = try Self.chordErrors(cell: chord.cell, cells: chord.cells, samples: chord.samples)
        #expect(measured <= 1.05 * estimate && estimate <= 8 * measured, "estimate \(estimate), measured \(measured) cells")
    }

    @Test("rays over cells of 0.2″ take a knot every 128 samples, over 1″ and 3″ every 64th: the longest chords within a thousandth of a cell")
    func knotStepFollowsTheChords() throws {
        for (cell, knotStep) in [(0.2 / 3600, 128), (1.0 / 3600, 64), (3.0 / 3600, 64)] {
            let (geo, observer, step) = try Self.raster(cell: cell, size: 801)
            let extent = 400 * 2 * step
            let lattice = try RayLattice(
                observer: observer, extent: (-extent...extent, -extent...extent), farthest: 2 * extent, step: step, georeference: geo,
                geodesic: .wgs84, parallel: Self.serial, threads: 1)
            let chosen = lattice.knotStep(sampleStep: step)
            #expect(chosen == knotStep, "\(cell * 3600)″ cells: \(chosen) samples, chords off \(lattice.chordError(length: Double(chosen) * step))")
            #expect(lattice.chordError(length: Double(chosen) * step) <= Viewshed.latticeTolerance || chosen == Viewshed.knotSteps.last)
        }
    }

    @Test("rays over cells of 0.2″ take a node every 64 cells, of 1″ and 3″ every 32nd, of 5″ every 16th: each the coarsest within a thousandth of a cell")
    func spacingFollowsTheError() throws {
        for (cell, cells) in [(0.2 / 3600, 64), (1.0 / 3600, 32), (3.0 / 3600, 32), (5.0 / 3600, 16)] {
            let (geo, observer, step) = try Self.raster(cell: cell, size: 801)
            let extent = 400 * 2 * step
            let lattice = try RayLattice(
                observer: observer, extent: (-extent...extent, -extent...extent), farthest: 2 * extent, step: step, georeference: geo,
                geodesic: .wgs84, parallel: Self.serial, threads: 1)
            let every = lattice.spacing / (2 * step)
            // The spacing is the cell count times two steps, divided back: a whole number to rounding.
            #expect(abs(every - Double(cells)) < 1e-9, "\(cell * 3600)″ cells: every \(every), error \(lattice.interpolationError())")
            #expect(lattice.interpolationError() <= Viewshed.latticeTolerance)
        }
    }
}
