import CGDAL
import Foundation
import Testing
import TransectRaster
import TransectTestSupport

/// `Hillshade` against `gdaldem hillshade` (GDAL 3.6) run in the test on synthetic DEMs, against
/// the closed-form shading of planes, and the SIMD kernel against its scalar reference.
@Suite("Hillshade: gdaldem's shaded relief")
struct HillshadeTests {
    // MARK: - The synthetic DEM

    /// A UTM 11N grid (EPSG:32611) of 300 × 200 cells, NW corner at (500 000, 4 200 000).
    static let width = 300, height = 200

    /// A smooth but varied surface with cliffs, metres, at a cell centre `x`, `y` metres east and
    /// south of the NW corner: two sine families (wavelengths 0.6–5.7 km), five Gaussian hills and
    /// pits, a mesa with vertical 200 m walls, an 80 m diagonal step and a one-cell 35 m wall.
    static func surface(x: Double, y: Double) -> Double {
        var z = 1200 + 150 * sin(x / 900) * cos(y / 700) + 60 * sin((x + 2 * y) / 400) + 12 * cos(x / 97 - y / 131)
        let hills: [(x: Double, y: Double, h: Double, s: Double)] = [
            (1500, 1200, 400, 600), (5200, 4300, 650, 900), (7600, 1800, -250, 500),
            (3000, 5000, 300, 350), (8300, 5200, 180, 250),
        ]
        for hill in hills {
            let d2 = (x - hill.x) * (x - hill.x) + (y - hill.y) * (y - hill.y)
            z += hill.h * exp(-d2 / (2 * hill.s * hill.s))
        }
        if x - 0.5 * y > 4000 { z += 80 }
        if hypot(x - 6000, y - 1500) < 1200 { z += 200 }
        if abs(y - 3615) < 15 && x > 1000 && x < 7000 { z += 35 }
        return z
    }

    /// Writes the DEM as a Float32 GeoTIFF with `cellWidth` × `cellHeight` metre cells; cells for
    /// which `hole` holds get the no-data value −9999 (declared only when some cell is a hole).
    static func writeDEM(
        _ path: String, cellWidth: Double = 30, cellHeight: Double = 30,
        hole: ((Int, Int) -> Bool)? = nil
    ) {
        SyntheticDEM.write(
            path: path, width: width, height: height,
            geoTransform: [500_000, cellWidth, 0, 4_200_000, 0, -cellHeight], crs: "EPSG:32611",
            type: GDT_Float32, noData: hole == nil ? nil : -9999
        ) { c, r in
            if let hole, hole(c, r) { return -9999 }
            return surface(x: (Double(c) + 0.5) * 30, y: (Double(r) + 0.5) * 30)
        }
    }

    /// The DEM as GDAL reads it, as `Float` with no data (−9999) as `nan`.
    static func readElevations(_ path: String) -> [Float] {
        SyntheticDEM.readAll(path: path).values.map { $0 == -9999 ? .nan : Float($0) }
    }

    /// Runs `/usr/bin/gdaldem hillshade <dem> <out> -q <options>` and reads the grey levels back.
    static func gdaldem(_ dem: String, _ out: String, _ options: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gdaldem")
        process.arguments = ["hillshade", dem, out, "-q", "-of", "GTiff"] + options
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "gdaldem \(options) exited with \(process.terminationStatus)")
        return SyntheticDEM.readAll(path: out).values.map { UInt8(exactly: $0)! }
    }

    /// How closely two hillshades agree.
    struct Agreement: CustomStringConvertible {
        var withinOne = 0, total = 0, maxDifference = 0, noDataMismatches = 0, exact = 0
        var share: Double { Double(withinOne) / Double(max(total, 1)) }
        init(_ ours: [UInt8], _ theirs: [UInt8]) {
            total = ours.count
            for (a, b) in zip(ours, theirs) {
                let d = abs(Int(a) - Int(b))
                maxDifference = max(maxDifference, d)
                if d <= 1 { withinOne += 1 }
                if d == 0 { exact += 1 }
                if (a == 0) != (b == 0) { noDataMismatches += 1 }
            }
        }
        var description: String {
            "\(withinOne)/\(total) = \(share * 100)% within ±1 (\(exact) exact), max difference \(maxDifference), "
                + "\(noDataMismatches) cells 0 in one and not the other"
        }
    }

    // MARK: - Against gdaldem

    struct GDALCase: Sendable, CustomTestStringConvertible {
        let label: String
        let options: [String]
        let parameters: HillshadeParameters
        var computeEdges = false
        var cellHeight = 30.0
        var testDescription: String { label }
    }

    static let gdalCases: [GDALCase] = [
        GDALCase(label: "defaults (az 315, alt 45, z 1)", options: [], parameters: .init()),
        GDALCase(label: "-multidirectional", options: ["-multidirectional"], parameters: .init(multidirectional: true)),
        GDALCase(
            label: "-az 120 -alt 30 -z 2.5", options: ["-az", "120", "-alt", "30", "-z", "2.5"],
            parameters: .init(azimuthDegrees: 120, altitudeDegrees: 30, zFactor: 2.5)),
        GDALCase(
            label: "-az 10 -alt 70 -z 0.4 -s 0.8", options: ["-az", "10", "-alt", "70", "-z", "0.4", "-s", "0.8"],
            parameters: .init(azimuthDegrees: 10, altitudeDegrees: 70, zFactor: 0.4, scale: 0.8)),
        GDALCase(label: "-compute_edges", options: ["-compute_edges"], parameters: .init(), computeEdges: true),
        GDALCase(
            label: "-multidirectional -alt 60 -z 3 -compute_edges",
            options: ["-multidirectional", "-alt", "60", "-z", "3", "-compute_edges"],
            parameters: .init(altitudeDegrees: 60, zFactor: 3, multidirectional: true), computeEdges: true),
        GDALCase(
            label: "30 m × 20 m cells, -az 200 -compute_edges", options: ["-az", "200", "-compute_edges"],
            parameters: .init(azimuthDegrees: 200), computeEdges: true, cellHeight: 20),
    ]

    @Test(
        "matches gdaldem hillshade within ±1 grey level on ≥ 99.9 % of cells, no data at the same cells",
        arguments: gdalCases)
    func matchesGDALDEM(_ testCase: GDALCase) throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"), cellHeight: testCase.cellHeight)
        let theirs = try Self.gdaldem(dir.file("dem.tif"), dir.file("shade.tif"), testCase.options)
        let ours = Hillshade.shade(
            elevations: Self.readElevations(dir.file("dem.tif")), width: Self.width,
            height: Self.height, cellWidth: 30, cellHeight: testCase.cellHeight,
            parameters: testCase.parameters, computeEdges: testCase.computeEdges)
        let agreement = Agreement(ours, theirs)
        #expect(agreement.share >= 0.999, "\(agreement)")
        #expect(agreement.noDataMismatches == 0, "\(agreement)")
        // The edges are 0 exactly when gdaldem leaves them out.
        let edgeZeros = (0..<Self.width).filter { ours[$0] == 0 }.count
        #expect(edgeZeros == (testCase.computeEdges ? 0 : Self.width))
    }

    /// A no-data disc of radius 20 cells, a 3 × 1 slot and isolated cells, one on the left edge.
    static func hole(_ c: Int, _ r: Int) -> Bool {
        let dc = c - 120
        let dr = r - 90
        return dc * dc + dr * dr <= 400 || (r == 40 && (200...202).contains(c))
            || (c, r) == (250, 150) || (c, r) == (0, 60) || (c, r) == (299, 199)
    }

    @Test(
        "a DEM with a no-data hole: 0 in and around the hole as gdaldem writes it, or shaded to its rim with -compute_edges",
        arguments: [false, true])
    func noDataHole(computeEdges: Bool) throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"), hole: Self.hole)
        let options = computeEdges ? ["-compute_edges"] : []
        let theirs = try Self.gdaldem(dir.file("dem.tif"), dir.file("shade.tif"), options)
        let ours = Hillshade.shade(
            elevations: Self.readElevations(dir.file("dem.tif")), width: Self.width,
            height: Self.height, cellWidth: 30, cellHeight: 30, computeEdges: computeEdges)
        let agreement = Agreement(ours, theirs)
        #expect(agreement.share >= 0.999, "\(agreement)")
        #expect(agreement.noDataMismatches == 0, "\(agreement)")
        // Independently of gdaldem: the hole is 0, and its rim (cells with data next to it) is 0
        // exactly when edges are not computed.
        func at(_ c: Int, _ r: Int) -> UInt8 { ours[r * Self.width + c] }
        #expect(at(120, 90) == 0 && at(250, 150) == 0 && at(201, 40) == 0)
        let rim = [(120, 69), (141, 90), (99, 90), (120, 111), (249, 150), (251, 151), (200, 39), (203, 41)]
        for (c, r) in rim {
            #expect(!Self.hole(c, r))
            if computeEdges { #expect(at(c, r) > 0, "rim cell (\(c), \(r))") } else { #expect(at(c, r) == 0, "rim cell (\(c), \(r))") }
            #expect(theirs[r * Self.width + c] == at(c, r) || computeEdges, "gdaldem at rim cell (\(c), \(r))")
        }
    }

    @Test("the comparison has teeth: light from the opposite azimuth disagrees with gdaldem on most cells")
    func comparisonCanFail() throws {
        let dir = TemporaryDirectory()
        Self.writeDEM(dir.file("dem.tif"))
        let theirs = try Self.gdaldem(dir.file("dem.tif"), dir.file("shade.tif"), [])
        let ours = Hillshade.shade(
            elevations: Self.readElevations(dir.file("dem.tif")), width: Self.width,
            height: Self.height, cellWidth: 30, cellHeight: 30,
            parameters: .init(azimuthDegrees: 135))
        #expect(Agreement(ours, theirs).share < 0.5)
    }

    // MARK: - Closed form

    @Test(
        "a plane is shaded 1 + 254·cos(incidence) from its normal and the light vector",
        arguments: [
            (0.3, -0.1, 315.0, 45.0), (-0.8, 0.5, 315.0, 45.0), (0.05, 0.02, 90.0, 20.0),
            (1.5, 1.5, 45.0, 30.0), (0, 0, 0, 35.0), (-2.0, 0.1, 270.0, 10.0),
        ])
    func plane(_ slopeEast: Double, _ slopeNorth: Double, _ azimuth: Double, _ altitude: Double) {
        // z rises by slopeEast per metre east and slopeNorth per metre north; 25 m × 40 m cells.
        let w = 21
        let h = 13
        let dx = 25.0
        let dy = 40.0
        let z = (0..<(w * h)).map { k in
            Float(500 + slopeEast * dx * Double(k % w) - slopeNorth * dy * Double(k / w))
        }
        let grey = Hillshade.shade(
            elevations: z, width: w, height: h, cellWidth: dx, cellHeight: dy,
            parameters: .init(azimuthDegrees: azimuth, altitudeDegrees: altitude))
        let a = azimuth * .pi / 180
        let e = altitude * .pi / 180
        let light = (sin(a) * cos(e), cos(a) * cos(e), sin(e))  // east, north, up
        let n = (-slopeEast, -slopeNorth, 1.0)
        let norm = (n.0 * n.0 + n.1 * n.1 + 1).squareRoot()
        let cosIncidence = (light.0 * n.0 + light.1 * n.1 + light.2 * n.2) / norm
        let expected = 1 + 254 * max(cosIncidence, 0)
        for r in 1..<(h - 1) {
            for c in 1..<(w - 1) {
                // Float elevations near 500 m carry ~3e−5 m of rounding; ±1 covers a value near a half level.
                #expect(abs(Double(grey[r * w + c]) - expected) <= 1, "(\(c), \(r)): \(grey[r * w + c]) vs \(expected)")
            }
        }
        #expect(grey[0] == 0 && grey[w * h - 1] == 0)
    }

    // MARK: - SIMD against scalar

    /// A random-walk surface with steps, with holes: ~3 % single cells and a few 3 × 3 blocks.
    static func randomGrid(width: Int, height: Int, seed: UInt64) -> [Float] {
        var rng = SeededRandom(seed: seed)
        var z = [Float](repeating: 0, count: width * height)
        for r in 0..<height {
            for c in 0..<width {
                let west = c > 0 ? z[r * width + c - 1] : 800
                let north = r > 0 ? z[(r - 1) * width + c] : west
                z[r * width + c] =
                    0.5 * (west + north) + Float.random(in: -25...25, using: &rng)
                    + (Int.random(in: 0..<50, using: &rng) == 0 ? 300 : 0)
            }
        }
        for k in z.indices where Int.random(in: 0..<33, using: &rng) == 0 { z[k] = .nan }
        for _ in 0..<(width * height / 200) {
            let r0 = Int.random(in: 0..<height, using: &rng)
            let c0 = Int.random(in: 0..<width, using: &rng)
            for r in r0..<min(r0 + 3, height) { for c in c0..<min(c0 + 3, width) { z[r * width + c] = .nan } }
        }
        return z
    }

    static let kernelParameters: [HillshadeParameters] = [
        .init(), .init(azimuthDegrees: 77, altitudeDegrees: 20, zFactor: 3, scale: 1.3),
        .init(altitudeDegrees: 55, zFactor: 2, multidirectional: true),
    ]

    /// Identical `Float` operations in the same order on both paths, so exact agreement is the bar.
    @Test(
        "the SIMD kernel equals the scalar reference exactly on random grids with holes",
        arguments: [(1, 5), (2, 4), (3, 3), (7, 9), (8, 8), (9, 6), (10, 11), (15, 7), (17, 17), (33, 12), (100, 9), (131, 40)])
    func simdMatchesScalar(_ width: Int, _ height: Int) {
        let z = Self.randomGrid(width: width, height: height, seed: UInt64(width * 1000 + height))
        for parameters in Self.kernelParameters {
            for computeEdges in [false, true] {
                var simd = [UInt8](repeating: 0, count: width * height)
                var scalar = simd
                z.withUnsafeBufferPointer { e in
                    simd.withUnsafeMutableBufferPointer { o in
                        Hillshade.shade(
                            elevations: e, width: width, height: height, cellWidth: 30, cellHeight: 27,
                            parameters: parameters, computeEdges: computeEdges, rows: 0..<height, into: o)
                    }
                    scalar.withUnsafeMutableBufferPointer { o in
                        Hillshade.shadeScalar(
                            elevations: e, width: width, height: height, cellWidth: 30, cellHeight: 27,
                            parameters: parameters, computeEdges: computeEdges, rows: 0..<height, into: o)
                    }
                }
                let differing = zip(simd, scalar).filter { $0 != $1 }.count
                #expect(differing == 0, "\(width) × \(height), \(parameters), computeEdges \(computeEdges)")
                // The grid is not degenerate: with edges computed most cells have a grey level.
                if computeEdges && width >= 2 && height >= 2 {
                    #expect(simd.filter { $0 > 0 }.count * 2 > width * height)
                }
            }
        }
    }

    @Test("rows outside the requested range are untouched; two halves make the whole")
    func rowRanges() {
        let width = 45
        let height = 30
        let z = Self.randomGrid(width: width, height: height, seed: 99)
        let whole = Hillshade.shade(
            elevations: z, width: width, height: height, cellWidth: 10, cellHeight: 10,
            computeEdges: true)
        var halves = [UInt8](repeating: 77, count: width * height)
        z.withUnsafeBufferPointer { e in
            halves.withUnsafeMutableBufferPointer { o in
                Hillshade.shade(
                    elevations: e, width: width, height: height, cellWidth: 10, cellHeight: 10,
                    parameters: .init(), computeEdges: true, rows: 0..<13, into: o)
                #expect(o[(13 * width)...].allSatisfy { $0 == 77 })
                Hillshade.shade(
                    elevations: e, width: width, height: height, cellWidth: 10, cellHeight: 10,
                    parameters: .init(), computeEdges: true, rows: 13..<height, into: o)
            }
        }
        #expect(halves == whole)
    }
}
