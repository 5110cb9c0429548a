import Foundation
import Testing
import TransectCLITestSupport
import TransectGeodesy
import TransectAnalysis
import TransectGDAL
import TransectRender
import TransectTestSupport
@testable import TransectCLI
@testable import TransectSupport

@Suite("transect profile")
struct ProfileCommandTests {
    /// An azimuthal equidistant CRS centred at (10°E, 45°N): a point at geodesic distance s and
    /// azimuth α from the centre has coordinates (s·sin α, s·cos α) exactly (PROJ's ellipsoidal
    /// aeqd uses the geodesic). So a profile east from the centre runs along y = 0, the row
    /// of cell centres, and surfaces known in x, y are known along it in closed form.
    static let aeqd = "+proj=aeqd +lat_0=45 +lon_0=10 +datum=WGS84 +units=m +no_defs"
    static let centre = GeoPoint(longitude: 10, latitude: 45)

    /// A DEM of 10 m cells over x ∈ [−1000, 6000), y ∈ [−495, 505): row 49's centres lie on y = 0.
    static func writeSurface(_ path: String, noData: Double? = nil, _ z: @escaping (Double, Double) -> Double) {
        SyntheticDEM.write(
            path: path, width: 700, height: 100, geoTransform: [-1000, 10, 0, 505, 0, -10], crs: aeqd,
            noData: noData
        ) { c, r in z(-1000 + (Double(c) + 0.5) * 10, 505 - (Double(r) + 0.5) * 10) }
    }

    /// The point at distance `s` east of the centre.
    static func east(_ s: Double) -> GeoPoint {
        Geodesic.wgs84.direct(latitude1: 45, longitude1: 10, azimuth1Degrees: 90, distanceMetres: s).point
    }

    static func run(
        _ path: String, from: GeoPoint = centre, to: GeoPoint, step: Double? = 10, samples: Int? = nil,
        observer: Double = 1.7, target: Double = 0
    ) throws -> TerrainProfile {
        let spacing: ProfileRequest.Spacing = samples.map { .count($0) } ?? step.map { .step($0) } ?? .native
        return try ElevationModel([path]).profile(
            ProfileRequest(
                path: ProfilePath(vertices: [from, to]), spacing: spacing, maxSamples: 10_000_000, interpolation: .bilinear,
                observerHeightMetres: observer, targetHeightMetres: target, curvature: LineOfSight.defaultCurvature))
    }

    @Test("on a plane every statistic equals its closed form")
    func plane() throws {
        let dir = TemporaryDirectory()
        // z = 1000 + 0.1·x: a 10 % grade eastwards.
        Self.writeSurface(dir.file("plane.tif")) { x, _ in 1000 + 0.1 * x }
        let r = try Self.run(dir.file("plane.tif"), to: Self.east(5000))
        let s = r.statistics
        #expect(r.profile.count == 501)
        // 1 µm: distances are geodesics (1 µm against PROJ's aeqd, itself a geodesic) times the 10 % grade, with room.
        for (d, z) in zip(r.profile.distancesMetres, r.profile.elevationsMetres) { #expect(abs(z - (1000 + 0.1 * d)) < 1e-6) }
        #expect(abs(s.elevationGainMetres - 500) < 1e-6 && s.elevationLossMetres == 0)  // the same 1 µm
        #expect(abs(s.maxPositiveSlopePercent - 10) < 1e-6 && abs(s.averagePositiveSlopePercent - 10) < 1e-6)  // the same 1 µm
        #expect(s.maxNegativeSlopePercent == 0 && s.averageNegativeSlopePercent == 0)
        #expect(abs(s.horizontalLengthMetres - 5000) < 1e-6)  // 1 µm, the geodesic distance bound (our direct, then our inverse)
        #expect(abs(s.surfaceLengthWithDataMetres - (5000.0 * 5000 + 500 * 500).squareRoot()) < 1e-6)  // 1 µm, as the length
        #expect(abs(s.horizontalLengthWithDataMetres - 5000) < 1e-6)  // 1 µm, as the length
        let minimum = try #require(s.minimum)
        let maximum = try #require(s.maximum)
        #expect(abs(minimum.elevationMetres - 1000) < 1e-6 && minimum.index == 0)  // 1 µm, as the samples
        #expect(abs(maximum.elevationMetres - 1500) < 1e-6 && maximum.index == 500)  // 1 µm, as the samples
        #expect(abs(s.averageElevationMetres - 1250) < 1e-6)  // 1 µm, as the samples
        #expect(s.gapCount == 0 && s.gapLengthMetres == 0)
    }

    @Test("through the apex of a cone the profile follows the cone's formula at every sample")
    func cone() throws {
        let dir = TemporaryDirectory()
        // Apex at x = 2505 (a cell centre on y = 0), 2,000 m high, flanks falling 0.4 m per metre.
        Self.writeSurface(dir.file("cone.tif")) { x, y in 2000 - 0.4 * ((x - 2505) * (x - 2505) + y * y).squareRoot() }
        let r = try Self.run(dir.file("cone.tif"), to: Self.east(5000), step: 7)
        for (d, z) in zip(r.profile.distancesMetres, r.profile.elevationsMetres) {
            // 1 mm: on the row of centres bilinear reads the cone's flanks linearly, exact at the apex's centre; loose, no case forced it.
            #expect(abs(z - (2000 - 0.4 * abs(d - 2505))) < 1e-3, "at \(d) m")
        }
        let maximum = try #require(r.statistics.maximum)
        // Some sample lies within half a 7 m step of the apex, where the flanks fall 0.4 m a metre;
        // 1e-6 m for round-off.
        #expect(abs(maximum.elevationMetres - 2000) < 0.4 * 3.5 + 1e-6)
    }

    @Test("a no-data hole is a gap of the right length, skipped by the statistics")
    func hole() throws {
        let dir = TemporaryDirectory()
        // The plane, with cells between x = 1000 and 1500 (500 m) on no data.
        Self.writeSurface(dir.file("hole.tif"), noData: -9999) { x, _ in (1000..<1500).contains(x) ? -9999 : 1000 + 0.1 * x }
        // A 7 m step puts no sample on a cell edge (those are at multiples of 10 m), where the
        // half-weight rule would be decided by rounding: a sample is a gap exactly when its cell
        // is void (along the row of centres only two taps carry weight), so at 1,001 … 1,498 m.
        let r = try Self.run(dir.file("hole.tif"), to: Self.east(3000), step: 7)
        let s = r.statistics
        #expect(r.profile.count == 430)
        #expect(s.gapCount == 1)
        let gap = r.profile.elevationsMetres.indices.filter { r.profile.elevationsMetres[$0].isNaN }
        #expect(gap.first == 143 && gap.last == 214 && gap.count == 72)
        #expect(s.validCount == 430 - 72)
        // The gap runs from midpoint to midpoint: (994 + 1001)/2 to (1498 + 1505)/2.
        #expect(abs(s.gapLengthMetres - 504) < 1e-6)
        // Every sample with data reads the plane. The 73 steps of 7 m that touch the gap count
        // in neither length with data; the whole path's horizontal length keeps them.
        #expect(abs(s.horizontalLengthMetres - 3000) < 1e-6)
        #expect(abs(s.horizontalLengthWithDataMetres - (3000 - 73 * 7)) < 1e-6)  // 1 µm, the geodesic distance bound
        #expect(abs(s.surfaceLengthWithDataMetres - (3000 - 73 * 7) * 1.01.squareRoot()) < 1e-6)  // 1 µm, the geodesic distance bound (and the plane's grade)
        #expect(s.surfaceLengthWithDataMetres >= s.horizontalLengthWithDataMetres)
        // Gain skips the unknown stretch: 10 % of the horizontal length with data.
        #expect(abs(s.elevationGainMetres - 0.1 * (3000 - 73 * 7)) < 1e-6)
    }

    @Test("a ridge blocks the sight line at the right sample; lowered, the target is visible")
    func ridge() throws {
        let dir = TemporaryDirectory()
        // Flat at 0 m with a ridge of cells between x = 2000 and 2100.
        Self.writeSurface(dir.file("ridge.tif")) { x, _ in (2000..<2100).contains(x) ? 10 : 0 }
        let blocked = try Self.run(dir.file("ridge.tif"), to: Self.east(5000))
        let los = try #require(blocked.lineOfSight)
        #expect(los.verdict == .obstructed)
        // The sample at 2,000 m reads half the ridge (between centres 1995 and 2005); the one at
        // 1,990 m reads none of it. The sight line there is ~0.35 m up, the reduced terrain ~4.7 m.
        #expect(los.firstObstruction?.index == 200)
        let obstruction = try #require(los.firstObstruction)
        // The ridge's edge reads 1 m per m: the 1 µm geodesic bound on the sample's place is 1 µm of height.
        #expect(abs(obstruction.terrainMetres - 5) < 1e-6)
        Self.writeSurface(dir.file("low.tif")) { x, _ in (2000..<2100).contains(x) ? 0.2 : 0 }
        let clear = try Self.run(dir.file("low.tif"), to: Self.east(5000))
        #expect(clear.lineOfSight?.verdict == .visible)
        let clearance = try #require(clear.lineOfSight?.minimumClearance)
        #expect(clearance.clearanceMetres > 0)
    }

    @Test("on a flat DEM two 2 m masts lose sight of each other where the curvature model says")
    func masts() throws {
        let dir = TemporaryDirectory()
        SyntheticDEM.write(path: dir.file("flat.tif"), width: 300, height: 20, geoTransform: [-1000, 50, 0, 525, 0, -50], crs: Self.aeqd) { _, _ in 0 }
        let limit = (16 * LineOfSight.earthRadiusMetres / LineOfSight.defaultCurvature).squareRoot()
        for (factor, verdict) in [(0.995, LineOfSight.Verdict.visible), (1.005, .obstructed)] {
            let r = try Self.run(dir.file("flat.tif"), to: Self.east(limit * factor), samples: 1001, observer: 2, target: 2)
            #expect(r.lineOfSight?.verdict == verdict, "at \(factor) × \(limit) m")
        }
    }

    @Test("Yosemite: sample elevations equal GDAL's bilinear reading at the same positions")
    func yosemite() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let result = transect("profile", "--dem", dem, "--from", "-119.5329397,37.7460363", "--to", "-119.573056,37.730833", "--format", "json")
        #expect(result.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let samples = try #require(object["samples"] as? [[String: Any]])
        #expect(samples.count > 100)
        let raster = SyntheticDEM.readAll(path: dem)
        for sample in samples {
            let lon = try #require(sample["lon"] as? Double)
            let lat = try #require(sample["lat"] as? Double)
            // JSON positions carry 1e-9° (0.1 mm); the DEM's slopes here reach ~6 m/m, so 1e-3 m holds.
            let elevation = try #require(sample["elevation_m"] as? Double)
            #expect(abs(elevation - SyntheticDEM.bilinear(raster, x: lon, y: lat)) < 1e-3)  // the 1e-3 m above
        }
        let stats = try #require(object["stats"] as? [String: Any])
        #expect(stats["gap_count"] as? Int == 0)
        #expect(object["line_of_sight"] is [String: Any])
        let csv = transect("profile", "--dem", dem, "--from", "-119.5329397,37.7460363", "--to", "-119.573056,37.730833", "--format", "csv")
        #expect(csv.out.hasPrefix("distance_m,lon,lat,elevation_m\n0,-119.5329397,37.7460363,"))
        #expect(csv.out.split(separator: "\n").count == samples.count + 1)
    }

    @Test("gaps are null in JSON and empty in CSV")
    func gapsInOutput() throws {
        let dir = TemporaryDirectory()
        Self.writeSurface(dir.file("hole.tif"), noData: -9999) { x, _ in (1000..<1500).contains(x) ? -9999 : 5 }
        let to = Self.east(3000)
        let args = ["profile", "--dem", dir.file("hole.tif"), "--from", "10,45", "--to", "\(to.longitude),\(to.latitude)", "--step", "7"]
        #expect(transect(args + ["--format", "json"]).out.contains("\"elevation_m\": null}"))
        #expect(transect(args + ["--format", "csv"]).out.contains(",\n1008,"))
        let text = transect(args)
        #expect(text.out.contains("Gaps          1, 504.00 m in all"))
        #expect(text.out.contains("Length        horizontal 3.00 km; over steps with data: horizontal 2.49 km, surface 2.49 km\n"))
        #expect(text.out.contains("Line of sight UNKNOWN"))
    }

    /// The point `s` metres east of the centre, moved `north` metres north (y in the aeqd frame).
    static func east(_ s: Double, north: Double) -> GeoPoint {
        Geodesic.wgs84.direct(from: east(s), azimuthDegrees: 0, distanceMetres: north).point
    }

    static func text(_ p: GeoPoint) -> String { "\(p.longitude),\(p.latitude)" }

    @Test("a path with collinear legs keeps its line of sight; one that bends, or a track in segments, has none, and says why")
    func lineOfSightOnlyOnAStraightPath() throws {
        let dir = TemporaryDirectory()
        Self.writeSurface(dir.file("ridge.tif")) { x, _ in (2000..<2100).contains(x) ? 10 : 0 }
        let model = try ElevationModel([dir.file("ridge.tif")])
        func run(_ segments: [[GeoPoint]]) throws -> TerrainProfile {
            try model.profile(
                ProfileRequest(
                    path: ProfilePath(segments: segments), spacing: .step(10), maxSamples: 10_000_000,
                    interpolation: .bilinear, observerHeightMetres: 1.7, targetHeightMetres: 0,
                    curvature: LineOfSight.defaultCurvature))
        }
        // Three collinear legs: the same verdict, at the same sample, as the single leg.
        let single = try run([[Self.centre, Self.east(5000)]])
        let legs = try run([[Self.centre, Self.east(1200), Self.east(3100), Self.east(5000)]])
        #expect(legs.pathShape == .straight && legs.lineOfSight?.verdict == .obstructed)
        #expect(legs.lineOfSight?.firstObstruction?.terrainMetres == single.lineOfSight?.firstObstruction?.terrainMetres)
        // A 20 m detour north at 2.5 km: no verdict, and the vertex named.
        let bent = try run([[Self.centre, Self.east(2500, north: 20), Self.east(5000)]])
        #expect(bent.lineOfSight == nil)
        guard case .bends(let vertex, let offset) = bent.pathShape else {
            Issue.record("\(bent.pathShape)")
            return
        }
        #expect(vertex == 1 && abs(offset - 20) < 1e-3)  // 1 mm: the detour runs north, not quite at right angles to the geodesic, so 20 m only nearly
        let reason = "the path bends (vertex 2 lies 20.00 m off the geodesic from its first vertex to its last), and a sight line is straight"
        #expect(ProfileOutput.text(bent, units: .metric).contains("Line of sight NONE: \(reason)\n"))
        // Through the CLI: JSON null with the reason beside it; the straight path keeps its object.
        let base = ["profile", "--dem", dir.file("ridge.tif"), "--step", "10", "--format", "json", "--path", Self.text(Self.centre)]
        let bentJSON = transect(base + [Self.text(Self.east(2500, north: 20)), Self.text(Self.east(5000))])
        #expect(bentJSON.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bentJSON.out.utf8)) as? [String: Any])
        #expect(object["line_of_sight"] is NSNull)
        #expect(
            (object["line_of_sight_reason"] as? String)
                == "the path bends (vertex 2 lies 20 m off the geodesic from its first vertex to its last), and a sight line is straight")
        let straightJSON = transect(base + [Self.text(Self.east(3100)), Self.text(Self.east(5000))])
        let straight = try #require(try JSONSerialization.jsonObject(with: Data(straightJSON.out.utf8)) as? [String: Any])
        #expect((straight["line_of_sight"] as? [String: Any])?["verdict"] as? String == "obstructed")
        #expect(straight["line_of_sight_reason"] is NSNull)
        // A track in two segments, though both lie on the line: no verdict.
        let a = Self.east(100)
        let b = Self.east(2000)
        let c = Self.east(2600)
        let d = Self.east(4000)
        try """
        {"type": "MultiLineString", "coordinates": [[[\(a.longitude), \(a.latitude)], [\(b.longitude), \(b.latitude)]], [[\(c.longitude), \(c.latitude)], [\(d.longitude), \(d.latitude)]]]}
        """.write(toFile: dir.file("two.geojson"), atomically: true, encoding: .utf8)
        let track = transect("profile", "--dem", dir.file("ridge.tif"), "--track", dir.file("two.geojson"), "--step", "10")
        #expect(track.code == 0, "\(track.err)")
        #expect(track.out.contains("Line of sight NONE: the track has 2 separate segments, and a sight line is one straight line\n"))
    }

    @Test("the chart of a bent path draws no sight line; a straight one does, in its verdict's colour")
    func chartWithoutSightLine() throws {
        let dir = TemporaryDirectory()
        Self.writeSurface(dir.file("ridge.tif")) { x, _ in (2000..<2100).contains(x) ? 10 : 0 }
        // The chart's sight-line colours: visible, obstructed, unknown.
        let verdictColours: [[UInt8]] = [[0x1B, 0x9E, 0x4B], [0xC8, 0x10, 0x2E], [0xE0, 0x8E, 0x0B]]
        func colours(_ middle: GeoPoint, _ name: String) throws -> Set<[UInt8]> {
            let result = transect(
                "profile", "--dem", dir.file("ridge.tif"), "--step", "10", "--path", Self.text(Self.centre),
                Self.text(middle), Self.text(Self.east(5000)), "--chart", dir.file(name), "-o", dir.file(name + ".txt"))
            #expect(result.code == 0, "\(result.err)")
            let image = try PNGFile.readRGBA(path: dir.file(name))
            var seen = Set<[UInt8]>()
            for k in stride(from: 0, to: image.pixels.count, by: 4) { seen.insert(Array(image.pixels[k..<(k + 3)])) }
            return seen
        }
        let straight = try colours(Self.east(2500), "straight.png")
        #expect(straight.contains(verdictColours[1]))
        let bent = try colours(Self.east(2500, north: 20), "bent.png")
        #expect(verdictColours.allSatisfy { !bent.contains($0) })
    }

    @Test(
        "errors and edge cases",
        arguments: [
            (["--step", "0"], 2, "option '--step': must be above 0 m, not 0"),
            (["--step", "-5"], 2, "option '--step': must be above 0 m, not -5"),
            (["--step", "0.0001"], 2, "more than 10,000,000; use a larger --step or raise --max-samples"),
            (["--samples", "1"], 2, "is not a whole number from 2 to 1,000,000,000"),
            (["--step", "10", "--samples", "5"], 2, "give --step or --samples, not both"),
        ])
    func errors(extra: [String], code: Int32, message: String) throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let result = transect(["profile", "--dem", dem, "--from", "-119.5329397,37.7460363", "--to", "-119.573056,37.730833"] + extra)
        #expect(result.code == code)
        #expect(result.err.hasPrefix("Error: ") && result.err.contains(message), "stderr: \(result.err)")
    }

    @Test("endpoints outside the DEM are refused; identical endpoints give a one-sample profile")
    func endpoints() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let outside = transect("profile", "--dem", dem, "--from", "-119.5329397,37.7460363", "--to", "-118,37.7")
        #expect(outside.code == 1 && outside.err == "Error: point -118,37.7 is outside the DEM '\(dem)'\n")
        let same = transect("profile", "--dem", dem, "--from", "-119.5329397,37.7460363", "--to", "-119.5329397,37.7460363", "--format", "json")
        #expect(same.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(same.out.utf8)) as? [String: Any])
        #expect((object["samples"] as? [Any])?.count == 1)
        #expect((object["line_of_sight"] as? [String: Any])?["verdict"] as? String == "visible")
        let path = transect("profile", "--dem", dem, "--path", "-119.60,37.72", "-119.55,37.74", "-119.50,37.76", "--samples", "101", "--format", "json")
        #expect(path.code == 0)
    }

    @Test("profile: --crs is for --from/--to/--path, --max-segment for --track")
    func profileOptionsNeedTheirPartner() {
        let dir = TemporaryDirectory()
        // The track is not read before the refusal: it does not exist.
        expectUsageError(
            ["profile", "--track", dir.file("missing.csv"), "--crs", "32611"],
            "option '--crs': gives the CRS of --from/--to/--path points, not of a --track file")
        expectUsageError(
            ["profile", "--dem", dir.file("missing.tif"), "--from", "-119.5,37.7", "--to", "-119.6,37.8", "--max-segment", "10"],
            "option '--max-segment': densifies a --track before profiling it; give --track")
        // A bad --max-segment is refused before its track is read (the track does not exist).
        let bad = transect("profile", "--track", dir.file("missing.gpx"), "--max-segment", "abc")
        #expect(bad.code == 2, "\(bad.err)")
        #expect(bad.err.hasPrefix("Error: option '--max-segment': 'abc' is not"), "\(bad.err)")
        #expect(!bad.err.contains("missing.gpx"), "\(bad.err)")
    }

    @Test("profile: --chart and --chart-layout are checked before the DEM is opened and the profile computed")
    func profileChartFirst() {
        let dir = TemporaryDirectory()
        let missing = ["profile", "--dem", dir.file("missing.tif"), "--from", "-119.5,37.7", "--to", "-119.6,37.8"]
        expectUsageError(
            missing + ["--chart", "-"],
            "option '--chart': '-' is stdout, where the profile goes without -o; give -o FILE for the profile, or a FILE for the chart")
        expectUsageError(missing + ["--chart-layout", dir.file("c.json")], "option '--chart-layout': describes the chart; give --chart FILE")
        expectUsageError(
            ["profile", "--track", dir.file("missing.csv"), "--chart", "-"],
            "option '--chart': '-' is stdout, where the profile goes without -o; give -o FILE for the profile, or a FILE for the chart")
        // And the missing DEM is what stops a run whose options are sound.
        let sound = transect(missing)
        #expect(sound.code == 1, "\(sound.err)")
    }
}
