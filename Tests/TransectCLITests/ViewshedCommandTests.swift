import Foundation
import Testing
import TransectAnalysis
import TransectCLITestSupport
import TransectGDAL
import TransectGeodesy
import TransectTestSupport
import TransectVisibility

/// `transect viewshed` on the real Yosemite DEM against sight lines computed one by one (a
/// brute force sampling every half cell, and `profile`'s line of sight), against its UTM twin,
/// and its outputs read back with GDAL.
@Suite("transect viewshed", .serialized)
struct ViewshedCommandTests {
    /// Half Dome's DEM top (landmarks.csv), the observer 2 m above it.
    static let halfDome = GeoPoint(longitude: -119.533333, latitude: 37.745833)

    /// The Yosemite DEM and Half Dome's viewshed over it, computed once for the suite.
    static let yosemite: Result<Viewshed, Error> = Result {
        let model = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
        let run = try model.viewsheds(
            of: [ViewshedObserver(longitude: halfDome.longitude, latitude: halfDome.latitude, height: .aboveGround(2), name: "Half Dome")],
            settings: ViewshedSettings(threads: 2))
        return run.viewsheds[0]
    }

    /// The Yosemite DEM and Half Dome's viewshed over it.
    static func yosemiteRun() throws -> (ElevationModel, Viewshed) {
        (try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")]), try yosemite.get())
    }

    /// The brute force's verdict for the sight line from the eye to `target` (a cell centre):
    /// the geodesic sampled at N = ⌈D/(c/2)⌉ intervals through the DEM's own sampling (as
    /// `profile` reads it), judged as `LineOfSight` judges.
    static func bruteForce(model: ElevationModel, eye: Double, target: GeoPoint, targetZ: Double, cellMetres: Double) throws -> ViewshedClass {
        guard !targetZ.isNaN else { return .unknown }
        let line = Geodesic.wgs84.inverseLine(from: halfDome, to: target)
        let d = line.distanceMetres ?? 0
        let n = Int((d / (cellMetres / 2)).rounded(.up))
        guard n > 1 else { return .visible }
        let points = (1..<n).map { line.position(atDistance: d * Double($0) / Double(n)).point }
        let z = try model.elevations(at: points)
        let k = EarthCurvature.defaultCurvatureCoefficient / (2 * EarthCurvature.meanRadiusMetres)
        let reducedTarget = targetZ - k * d * d
        var unknown = false
        for i in 1..<n {
            let zi = z[i - 1]
            if zi.isNaN {
                unknown = true
                continue
            }
            let s = d * Double(i) / Double(n)
            if zi - k * s * s > eye + (reducedTarget - eye) * s / d { return .hidden }
        }
        return unknown ? .unknown : .visible
    }

    /// Where a cell centre lies in WGS84, and its height.
    static func centre(_ model: ElevationModel, column: Int, row: Int) throws -> (GeoPoint, Double) {
        let geo = try DEMGeoreference(model)
        let ll = try geo.lonLat(columns: [Double(column) + 0.5], rows: [Double(row) + 0.5])
        let z = try model.elevations(columns: [Double(column) + 0.5], rows: [Double(row) + 0.5], interpolation: .bilinear)[0]
        return (GeoPoint(longitude: ll.longitudes[0], latitude: ll.latitudes[0]), z)
    }

    /// Whether the 3 × 3 cells around (c, r) in `classes` all have one class.
    static func uniformAround(_ classes: [UInt8], width: Int, height: Int, column c: Int, row r: Int) -> Bool {
        let me = classes[r * width + c]
        for dr in -1...1 {
            for dc in -1...1 {
                let cc = c + dc
                let rr = r + dr
                guard cc >= 0, rr >= 0, cc < width, rr < height else { continue }
                if classes[rr * width + cc] != me { return false }
            }
        }
        return true
    }

    @Test("Yosemite from Half Dome: at most 0.1 % of 4,000 random cells differ from their own sight lines, each at a visibility edge")
    func yosemiteAgainstBruteForce() throws {
        guard SharedData.isAvailable else { return }
        let (model, v) = try Self.yosemiteRun()
        var random = SeededRandom(seed: 27)
        let cellMetres = 2 * v.sampleStepMetres
        var differ = 0
        var classes: [ViewshedClass: Int] = [:]
        for _ in 0..<4000 {
            let c = random.below(v.width)
            let r = random.below(v.height)
            let (target, z) = try Self.centre(model, column: c, row: r)
            let expected = try Self.bruteForce(model: model, eye: v.observerEyeMetres, target: target, targetZ: z, cellMetres: cellMetres)
            classes[expected, default: 0] += 1
            guard expected.rawValue != v.classes[r * v.width + c] else { continue }
            differ += 1
            // At an edge: some neighbour's own sight line has another verdict.
            var atEdge = false
            for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)] where !atEdge {
                let cc = c + dc
                let rr = r + dr
                guard cc >= 0, rr >= 0, cc < v.width, rr < v.height else { continue }
                let (t, zz) = try Self.centre(model, column: cc, row: rr)
                atEdge = try Self.bruteForce(model: model, eye: v.observerEyeMetres, target: t, targetZ: zz, cellMetres: cellMetres) != expected
            }
            #expect(atEdge, "cell \(c),\(r): \(v.classes[r * v.width + c]) against \(expected) away from any edge")
        }
        // Half Dome sees about a quarter of the DEM (gdal_viewshed's approximation: 22 %).
        #expect((classes[.visible] ?? 0) > 800 && (classes[.hidden] ?? 0) > 2000)
        // 0.1 % of 4,000 cells, the bound.
        #expect(differ <= 4, "\(differ) of 4,000 cells differ")
    }

    @Test("10,000 random cells: profile's line of sight agrees with the viewshed wherever the cell is not at an edge")
    func profileAgrees() throws {
        guard SharedData.isAvailable else { return }
        let (model, v) = try Self.yosemiteRun()
        var random = SeededRandom(seed: 10_000)
        var checked = 0
        var ownTerrain = 0
        var disagree: [String] = []
        for _ in 0..<10_000 {
            let c = random.below(v.width)
            let r = random.below(v.height)
            guard Self.uniformAround(v.classes, width: v.width, height: v.height, column: c, row: r) else { continue }
            let (target, _) = try Self.centre(model, column: c, row: r)
            let request = ProfileRequest(
                path: ProfilePath(vertices: [Self.halfDome, target]), spacing: .step(v.sampleStepMetres), maxSamples: 1_000_000,
                observerHeightMetres: 2, targetHeightMetres: 0)
            let sight = try #require(try model.profile(request).lineOfSight)
            let expected: ViewshedClass = sight.verdict == .visible ? .visible : (sight.verdict == .obstructed ? .hidden : .unknown)
            checked += 1
            guard expected.rawValue != v.classes[r * v.width + c] else { continue }
            // The viewshed takes terrain within half a sample step (a quarter cell) of the
            // target as the target's own, not an obstacle (its help says so); the profile's line
            // of sight judges every sample but the last. Where the profile's only obstruction
            // lies that near, the two models differ, not the answers.
            let profile = try model.profile(request)
            if let o = sight.firstObstruction, v.classes[r * v.width + c] == ViewshedClass.visible.rawValue,
                sight.lengthMetres - profile.profile.distancesMetres[o.index] < v.sampleStepMetres / 2,
                profile.profile.distancesMetres.indices.dropLast().allSatisfy({ i in
                    i == 0 || sight.lengthMetres - profile.profile.distancesMetres[i] < v.sampleStepMetres / 2
                        || sight.sightLineMetres(atDistance: profile.profile.distancesMetres[i]) >= profile.profile.elevationsMetres[i]
                })
            {
                ownTerrain += 1
                continue
            }
            disagree.append("\(c),\(r): profile \(sight.verdict), viewshed \(v.classes[r * v.width + c])")
        }
        #expect(disagree.isEmpty, "\(disagree.count) of \(checked): \(disagree.prefix(5))")
        // Most random cells lie away from edges, and few are hidden only by their own terrain
        // (2 of 9,000 when this was written).
        #expect(checked > 8000)
        #expect(ownTerrain <= 10)
    }
}
