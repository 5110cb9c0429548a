import Foundation
import CGDAL
import Testing
import TransectAnalysis
import TransectCLITestSupport
import TransectGDAL
import TransectGeodesy
import TransectRender
import TransectTestSupport
import TransectVisibility

/// `transect viewshed` on the real Yosemite DEM against sight lines computed one by one (a
/// brute force sampling every half cell, and `profile`'s line of sight), against its UTM twin,
/// and its outputs read back with GDAL.
@Suite("transect viewshed", .serialized)
struct ViewshedCommandTests {
    /// Half Dome's DEM top (landmarks.csv), the observer's eye at 2,700 m, 15 m above it. An
    /// eye given above the datum is the same eye over the DEM and its UTM warp, whose
    /// resampling lowers the dome's top by 2.6 m: with the eye 2 m above each one's ground,
    /// half a valley's rim changes sides.
    static let halfDome = GeoPoint(longitude: -119.533333, latitude: 37.745833)
    static let eyeMetres = 2700.0

    /// The Yosemite DEM and Half Dome's viewshed over it, computed once for the suite.
    static let yosemite: Result<Viewshed, Error> = Result {
        let model = try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")])
        let run = try model.viewsheds(
            of: [ViewshedObserver(longitude: halfDome.longitude, latitude: halfDome.latitude, height: .absolute(eyeMetres), name: "Half Dome")],
            settings: ViewshedSettings(threads: 2))
        return run.viewsheds[0]
    }

    /// The Yosemite DEM and Half Dome's viewshed over it.
    static func yosemiteRun() throws -> (ElevationModel, Viewshed) {
        (try ElevationModel([try SharedData.path("yosemite_valley_ned1as.tif")]), try yosemite.get())
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

    @Test("Yosemite from Half Dome: at most 0.1 % of 12,000 random cells differ from their own sight lines, each at a visibility edge")
    func yosemiteAgainstBruteForce() throws {
        guard SharedData.isAvailable else { return }
        let (model, v) = try Self.yosemiteRun()
        var random = SeededRandom(seed: 27)
        let brute = SightLineBruteForce(model: model, observer: Self.halfDome, eyeMetres: v.observerEyeMetres, cellMetres: 2 * v.sampleStepMetres)
        func code(_ verdict: SightLineBruteForce.Verdict) -> UInt8 {
            switch verdict {
            case .visible: ViewshedClass.visible.rawValue
            case .hidden: ViewshedClass.hidden.rawValue
            case .unknown: ViewshedClass.unknown.rawValue
            }
        }
        var differ = 0
        var classes: [SightLineBruteForce.Verdict: Int] = [:]
        for _ in 0..<12_000 {
            let c = random.below(v.width)
            let r = random.below(v.height)
            let expected = try brute.verdict(column: c, row: r)
            classes[expected, default: 0] += 1
            guard code(expected) != v.classes[r * v.width + c] else { continue }
            differ += 1
            // At an edge: some neighbour's own sight line has another verdict.
            var atEdge = false
            for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)] where !atEdge {
                let cc = c + dc
                let rr = r + dr
                guard cc >= 0, rr >= 0, cc < v.width, rr < v.height else { continue }
                atEdge = try brute.verdict(column: cc, row: rr) != expected
            }
            #expect(atEdge, "cell \(c),\(r): \(v.classes[r * v.width + c]) against \(expected) away from any edge")
        }
        // Half Dome sees about a quarter of the DEM (gdal_viewshed's approximation: 22 %).
        #expect((classes[.visible] ?? 0) > 2400 && (classes[.hidden] ?? 0) > 6000)
        // 0.1 % of 12,000 cells, the issue's bound (7 differed when this was written).
        #expect(differ <= 12, "\(differ) of 12,000 cells differ")
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
            let (target, _) = try SightLineBruteForce(model: model, observer: Self.halfDome, eyeMetres: 0, cellMetres: 1).centre(column: c, row: r)
            let request = ProfileRequest(
                path: ProfilePath(vertices: [Self.halfDome, target]), spacing: .step(v.sampleStepMetres), maxSamples: 1_000_000,
                observerHeightMetres: Self.eyeMetres - v.observerGroundMetres, targetHeightMetres: 0)
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

    @Test("a DEM that wraps in longitude: an observer by its seam sees across it as over a cut that has no seam there; a pole in range is refused")
    func wrapsAroundTheSeam() throws {
        let dir = TemporaryDirectory()
        // Quarter-degree cells, the west edge half a cell west of 0° (as ETOPO5's is), heights
        // from sines periodic in longitude, so a cut holds the same cells at the same places.
        func height(longitude: Double, latitude: Double) -> Double {
            let l = longitude * .pi / 180
            let p = latitude * .pi / 180
            return 500 + 400 * sin(3 * l) * cos(2 * p) + 150 * sin(37 * l + 1) * cos(29 * p) + 60 * cos(71 * l) * sin(53 * p)
        }
        SyntheticDEM.write(
            path: dir.file("globe.tif"), width: 1440, height: 720, geoTransform: [-0.125, 0.25, 0, 90, 0, -0.25], crs: "EPSG:4326",
            type: GDT_Float32
        ) { c, r in height(longitude: Double(c) * 0.25, latitude: 89.875 - Double(r) * 0.25) }
        // The cut: 16° either side of 0°, no seam anywhere near. Its column j is the globe's
        // column j − 64 (mod 1440), and the observer's column a multiple of 8 in both (where the
        // globe is turned to), so the cells' exact distances are taken at the same cells.
        SyntheticDEM.write(
            path: dir.file("cut.tif"), width: 128, height: 720, geoTransform: [-16.125, 0.25, 0, 90, 0, -0.25], crs: "EPSG:4326",
            type: GDT_Float32
        ) { c, r in height(longitude: -16 + Double(c) * 0.25, latitude: 89.875 - Double(r) * 0.25) }
        let observer = ["--observer", "0.1,20,3000", "--max-distance", "600000"]
        for name in ["globe", "cut"] {
            let r = transect(["viewshed", "--dem", dir.file("\(name).tif")] + observer + ["-o", dir.file("\(name)_v.tif")])
            #expect(r.code == 0, "\(name): \(r.err)")
        }
        let globe = try ViewshedRaster.readBand(path: dir.file("globe_v.tif"))
        let cut = try ViewshedRaster.readBand(path: dir.file("cut_v.tif"))
        var inRange = 0
        var agree = 0
        var seen: Set<UInt8> = []
        var west = 0
        var east = 0
        for r in 0..<720 {
            for j in 0..<128 {
                let c = (j - 64 + 1440) % 1440
                let a = globe.values[r * 1440 + c]
                let b = cut.values[r * 128 + j]
                guard a != ViewshedClass.outOfRange.rawValue || b != ViewshedClass.outOfRange.rawValue else { continue }
                inRange += 1
                if a == b { agree += 1 }
                seen.insert(a)
                if c > 720 { west += 1 } else { east += 1 }
            }
        }
        // Cells on both sides of the seam are judged, visible and hidden ones, as over the cut.
        #expect(west > 500 && east > 500, "\(west) cells west of the seam, \(east) east")
        #expect(seen.contains(ViewshedClass.visible.rawValue) && seen.contains(ViewshedClass.hidden.rawValue))
        #expect(Double(agree) >= 0.999 * Double(inRange), "\(agree) of \(inRange) agree")
        // Nothing beyond the range is judged on the globe, where the cut has no cells.
        var beyond = 0
        for r in 0..<720 {
            for c in 64..<1376 where globe.values[r * 1440 + c] != ViewshedClass.outOfRange.rawValue { beyond += 1 }
        }
        #expect(beyond == 0)
        // A pole within the range: refused, naming the distance to it, and no file.
        let polar = transect(["viewshed", "--dem", dir.file("globe.tif"), "--observer", "0.1,85,3000", "--max-distance", "600000", "-o", dir.file("p.tif")])
        #expect(polar.code == 2 && polar.err.contains("would reach the pole"), "\(polar.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("p.tif")))
        // Among many observers, two near a pole (lines 4 and 7): whichever worker meets its
        // failure first, the run names the earliest, and the others stop early.
        let lines = (0..<24).map { i in i == 2 || i == 5 ? "\(i).1,86" : "\(i * 3).1,10" }
        try (["lon,lat"] + lines).joined(separator: "\n").write(toFile: dir.file("poles.csv"), atomically: true, encoding: .utf8)
        for threads in ["1", "2"] {
            let many = transect([
                "viewshed", "--dem", dir.file("globe.tif"), "--observers", dir.file("poles.csv"), "--max-distance", "600000",
                "--threads", threads, "-o", dir.file("p.tif"),
            ])
            #expect(many.code == 2 && many.err.contains("poles.csv line 4") && many.err.contains("would reach the pole"), "\(many.err)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("p.tif")))
        }
    }

    /// A geographic DEM of rolling hills (heights from sines, about 30 m cells), with a few
    /// cells of no data.
    static func writeHills(_ path: String, noData: Bool = false) {
        let cell = 0.0003
        SyntheticDEM.write(
            path: path, width: 90, height: 70, geoTransform: [7, cell, 0, 46, 0, -cell], crs: "EPSG:4326", noData: noData ? -9999 : nil
        ) { c, r in
            if noData && (40...42).contains(c) && (30...31).contains(r) { return -9999 }
            return 900 + 80 * sin(Double(c) / 8) * cos(Double(r) / 6) + 20 * sin(Double(c + r) / 3)
        }
    }

    /// `gdalinfo -json` of a file, parsed.
    static func gdalinfo(_ path: String) throws -> [String: Any] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gdalinfo")
        p.arguments = ["-json", path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a raster wider than a tile has overviews down to one tile, of the band's own classes, in a COG GDAL lays out as one")
    func overviewsDownToOneTile() throws {
        guard SharedData.isAvailable else { return }
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let r = transect(["viewshed", "--dem", dem, "--observer", "-119.533333,37.745833", "-o", dir.file("a.tif")])
        #expect(r.code == 0, "\(r.err)")
        let info = try Self.gdalinfo(dir.file("a.tif"))
        #expect((info["size"] as? [Int]) == [1027, 875])
        let structure = (info["metadata"] as? [String: Any])?["IMAGE_STRUCTURE"] as? [String: String]
        #expect(structure?["LAYOUT"] == "COG")
        let band = try #require((info["bands"] as? [[String: Any]])?.first)
        let overviews = (band["overviews"] as? [[String: Any]])?.compactMap { $0["size"] as? [Int] }
        // Halved, each side rounded up, until the overview fits in a 512-cell tile.
        #expect(overviews == [[514, 438], [257, 219]])
        // Each overview takes the nearest cell: only classes the band holds.
        for level in 0..<2 {
            let copy = dir.file("o\(level).tif")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/gdal_translate")
            p.arguments = ["-q", "-ovr", String(level), dir.file("a.tif"), copy]
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            let values = SyntheticDEM.readAll(path: copy).values
            #expect(Set(values).isSubset(of: [0, 1, 2, 255]) && values.contains(0) && values.contains(255), "overview \(level)")
        }
    }

    @Test("the raster is a COG (Zstandard) on the DEM's grid and CRS, the same bytes every run, with the classes and the settings gdalinfo shows")
    func outputsReadBack() throws {
        let dir = TemporaryDirectory()
        Self.writeHills(dir.file("hills.tif"), noData: true)
        let args = ["viewshed", "--dem", dir.file("hills.tif"), "--observer", "7.0100,45.9900", "--horizon", dir.file("h.csv")]
        let r = transect(args + ["-o", dir.file("a.tif")])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("Visible:") && r.out.contains("Unknown:"))
        #expect(transect(args.dropLast(2) + ["-o", dir.file("b.tif"), "--threads", "1"]).code == 0)
        // Observers from stdin: the same raster.
        let stdin = try TransectExecutable.Run(
            ["viewshed", "--dem", dir.file("hills.tif"), "--observers", "-", "-o", dir.file("c.tif")], directory: dir.path)
        stdin.stdin.fileHandleForWriting.write("lon,lat\n7.0100,45.9900\n".data(using: .utf8)!)
        try stdin.stdin.fileHandleForWriting.close()
        let (code, _, err) = stdin.wait()
        #expect(code == 0, "\(err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("c.tif"))) == (try Data(contentsOf: URL(fileURLWithPath: dir.file("a.tif")))))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("a.tif"))) == (try Data(contentsOf: URL(fileURLWithPath: dir.file("b.tif")))))
        let info = try Self.gdalinfo(dir.file("a.tif"))
        let dem = try Self.gdalinfo(dir.file("hills.tif"))
        #expect((info["size"] as? [Int]) == [90, 70])
        #expect((info["geoTransform"] as? [Double]) == (dem["geoTransform"] as? [Double]))
        let wkt = (info["coordinateSystem"] as? [String: Any])?["wkt"] as? String
        #expect(wkt != nil && wkt == (dem["coordinateSystem"] as? [String: Any])?["wkt"] as? String)
        let structure = (info["metadata"] as? [String: Any])?["IMAGE_STRUCTURE"] as? [String: String]
        #expect(structure?["LAYOUT"] == "COG" && structure?["COMPRESSION"] == "ZSTD", "\(structure ?? [:])")
        let band = try #require((info["bands"] as? [[String: Any]])?.first)
        #expect(band["type"] as? String == "Byte")
        let meta = (info["metadata"] as? [String: Any])?[""] as? [String: String]
        #expect(meta?["TRANSECT_PRODUCT"] == "visibility" && meta?["TRANSECT_CURVATURE_COEFFICIENT"] == "0.85714")
        let values = SyntheticDEM.readAll(path: dir.file("a.tif")).values
        #expect(Set(values).isSubset(of: [0, 2, 255]))
        #expect(values.contains(0) && values.contains(255) && values.contains(2))
        // The no-data cells themselves are unknown.
        #expect(values[30 * 90 + 41] == 2)
        // The horizon: a line per ray after the header.
        let horizon = try String(contentsOfFile: dir.file("h.csv"), encoding: .utf8).split(separator: "\n")
        #expect(horizon.first == "azimuth_deg,elevation_deg,distance_m,crosses_nodata")
        #expect(horizon.count > 100)

        // The least visible height: 0 where visible, above 0 where hidden, no data where unknown
        // (on the hills without their hole: a line through no data has no least height).
        Self.writeHills(dir.file("whole.tif"))
        let whole = ["viewshed", "--dem", dir.file("whole.tif"), "--observer", "7.0100,45.9900"]
        #expect(transect(whole + ["-o", dir.file("w.tif")]).code == 0)
        #expect(transect(whole + ["-o", dir.file("m.tif"), "--output", "min-height"]).code == 0)
        let heights = SyntheticDEM.readAll(path: dir.file("m.tif")).values
        let classes = SyntheticDEM.readAll(path: dir.file("w.tif")).values
        #expect(classes.contains(0) && !classes.contains(2))
        for i in 0..<classes.count {
            if classes[i] == 255 { #expect(heights[i] == 0) }
            if classes[i] == 0 { #expect(heights[i] > 0) }
        }
        // With the hole, the unknown cells have no least height.
        #expect(transect(args.dropLast(2) + ["-o", dir.file("mh.tif"), "--output", "min-height"]).code == 0)
        let holed = SyntheticDEM.readAll(path: dir.file("mh.tif")).values
        for i in 0..<values.count where values[i] == 2 { #expect(holed[i].isNaN) }
        let mband = try #require((try Self.gdalinfo(dir.file("m.tif"))["bands"] as? [[String: Any]])?.first)
        #expect(mband["type"] as? String == "Float32")
    }

    @Test("several observers: the count is the sum of their own viewsheds, the mask says which, visibility is any")
    func cumulative() throws {
        let dir = TemporaryDirectory()
        Self.writeHills(dir.file("hills.tif"))
        let observers = [("7.0100", "45.9900"), ("7.0200", "45.9880"), ("7.0050", "45.9850")]
        try
            ("name,lon,lat,height\n" + observers.enumerated().map { "o\($0.offset),\($0.element.0),\($0.element.1),\(2 + $0.offset)" }.joined(separator: "\n")
            + "\n")
            .write(toFile: dir.file("obs.csv"), atomically: true, encoding: .utf8)
        var singles: [[Double]] = []
        for (k, o) in observers.enumerated() {
            let r = transect(
                "viewshed", "--dem", dir.file("hills.tif"), "--observer", "\(o.0),\(o.1)", "--observer-height", "\(2 + k)", "-o", dir.file("s\(k).tif"))
            #expect(r.code == 0, "\(r.err)")
            singles.append(SyntheticDEM.readAll(path: dir.file("s\(k).tif")).values)
        }
        let base = ["viewshed", "--dem", dir.file("hills.tif"), "--observers", dir.file("obs.csv")]
        #expect(transect(base + ["-o", dir.file("count.tif")]).code == 0)
        #expect(transect(base + ["-o", dir.file("mask.tif"), "--output", "mask"]).code == 0)
        #expect(transect(base + ["-o", dir.file("any.tif"), "--output", "visibility"]).code == 0)
        let count = SyntheticDEM.readAll(path: dir.file("count.tif")).values
        let mask = SyntheticDEM.readAll(path: dir.file("mask.tif")).values
        let any = SyntheticDEM.readAll(path: dir.file("any.tif")).values
        var seenByTwo = 0
        for i in 0..<count.count {
            let seen = (0..<3).filter { singles[$0][i] == 255 }
            #expect(count[i] == Double(seen.count))
            #expect(mask[i] == Double(seen.reduce(0) { $0 | (1 << $1) }))
            #expect((any[i] == 255) == !seen.isEmpty)
            if seen.count >= 2 { seenByTwo += 1 }
        }
        #expect(seenByTwo > 100)
        let band = try #require((try Self.gdalinfo(dir.file("count.tif"))["bands"] as? [[String: Any]])?.first)
        #expect(band["type"] as? String == "UInt32")
    }

    @Test("bad requests: exit 2 naming the option, bad data exit 1 naming the DEM, and no file either way")
    func errors() throws {
        let dir = TemporaryDirectory()
        Self.writeHills(dir.file("hills.tif"), noData: true)
        let dem = ["viewshed", "--dem", dir.file("hills.tif")]
        expectUsageError(dem + ["-o", dir.file("v.tif")], "missing --observer LON,LAT[,Z] (or --observers FILE)")
        expectUsageError(dem + ["--observer", "7.01,45.99"], "missing -o FILE.tif")
        expectUsageError(dem + ["--observer", "7.01,45.99", "-o", dir.file("v.png")], "option '-o': '.png' is not a raster viewshed writes")
        expectUsageError(dem + ["--observer", "8,45.99", "-o", dir.file("v.tif")], "observer --observer 8,45.99 lies outside DEM")
        expectUsageError(
            dem + ["--observer", "7.01,45.99", "--observer", "7.02,45.99", "--output", "min-height", "-o", dir.file("v.tif")],
            "option '--output': min-height is one observer's")
        expectUsageError(
            dem + ["--observer", "7.01,45.99", "--curvature", "1", "--refraction", "0", "-o", dir.file("v.tif")],
            "give --curvature C or --refraction K (C = 1 − K), not both")
        expectUsageError(dem + ["--observer", "7.01,45.99", "--azimuth", "10", "-o", dir.file("v.tif")], "option '--azimuth': '10' is not two numbers A:B")
        expectUsageError(
            dem + ["--observer", "7.01,45.99", "--max-distance", "100", "--min-distance", "200", "-o", dir.file("v.tif")],
            "option '--max-distance': 100 m is not beyond --min-distance 200 m")
        // On no data, with its height above the ground: bad data.
        let r = transect(dem + ["--observer", "7.01245,45.99075", "-o", dir.file("v.tif")])
        #expect(r.code == 1, "\(r.err)")
        #expect(r.err.hasPrefix("Error: observer --observer 7.01245,45.99075 stands on no data in DEM"), "\(r.err)")
        try "lon,lat\n7.01,nope\n".write(toFile: dir.file("bad.csv"), atomically: true, encoding: .utf8)
        let bad = transect(dem + ["--observers", dir.file("bad.csv"), "-o", dir.file("v.tif")])
        #expect(bad.code == 1 && bad.err.contains("bad.csv") && bad.err.contains("line 2"), "\(bad.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["bad.csv", "hills.tif"])
        // An observer outside, on the last line of a file: refused before any is swept.
        try "lon,lat\n7.01,45.99\n8,45.99\n".write(toFile: dir.file("far.csv"), atomically: true, encoding: .utf8)
        expectUsageError(dem + ["--observers", dir.file("far.csv"), "-o", dir.file("v.tif")], "observer \(dir.file("far.csv")) line 3 lies outside DEM")
        // Over a DEM that wraps around the earth (ETOPO5, the default surface) a range reaching
        // a pole is refused, naming the DEM; a shorter one is swept.
        let global = transect("viewshed", "--observer", "6.86,45.83", "-o", dir.file("v.tif"))
        #expect(global.code == 2 && global.err.contains("wraps around the earth") && global.err.contains("--max-distance"), "\(global.err)")
        let elsewhere = TemporaryDirectory()
        let alps = transect("viewshed", "--observer", "6.86,45.83", "--max-distance", "300000", "-o", elsewhere.file("alps.tif"))
        #expect(alps.code == 0 && alps.out.contains("Visible:"), "\(alps.err)")
        // view --viewshed takes a visibility raster only.
        let notClasses = transect(
            "view", "--dem", dir.file("hills.tif"), "--viewshed", dir.file("hills.tif"), "--camera", "7.0135,45.9650,2500", "--pitch", "60",
            "-o", dir.file("x.png"))
        #expect(notClasses.code == 1 && notClasses.err.contains("is not a viewshed's visibility raster"), "\(notClasses.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["bad.csv", "far.csv", "hills.tif"])
    }

    /// The Yosemite DEM warped to UTM zone 11 at 30 m (bilinear), and Half Dome's viewshed on
    /// both: at every UTM cell away from an edge of either raster, the same verdict as the
    /// geographic cell it lies in (99.93 % when this was written; the rest lie where the warp's
    /// resampling moved a ridge).
    @Test("the Yosemite DEM and its UTM warp agree on at least 99.9 % of the cells they share away from edges")
    func utmTwinAgrees() throws {
        guard SharedData.isAvailable else { return }
        let dir = TemporaryDirectory()
        let warp = Process()
        warp.executableURL = URL(fileURLWithPath: "/usr/bin/gdalwarp")
        warp.arguments = [
            "-q", "-t_srs", "EPSG:32611", "-tr", "30", "30", "-r", "bilinear", try SharedData.path("yosemite_valley_ned1as.tif"), dir.file("utm.tif"),
        ]
        try warp.run()
        warp.waitUntilExit()
        try #require(warp.terminationStatus == 0)
        let (geoModel, geo) = try Self.yosemiteRun()
        let utmModel = try ElevationModel([dir.file("utm.tif")])
        let utm = try utmModel.viewsheds(
            of: [ViewshedObserver(longitude: Self.halfDome.longitude, latitude: Self.halfDome.latitude, height: .absolute(Self.eyeMetres), name: "Half Dome")],
            settings: ViewshedSettings(threads: 2)
        ).viewsheds[0]
        // UTM cell centres in WGS84, then in the geographic DEM's pixels.
        let utmGeo = try DEMGeoreference(utmModel)
        var columns: [Double] = []
        var rows: [Double] = []
        for r in 0..<utm.height {
            for c in 0..<utm.width {
                columns.append(Double(c) + 0.5)
                rows.append(Double(r) + 0.5)
            }
        }
        let ll = try utmGeo.lonLat(columns: columns, rows: rows)
        let px = try geoModel.pixelCoordinates(longitudes: ll.longitudes, latitudes: ll.latitudes)
        var shared = 0
        var same = 0
        for r in 0..<utm.height {
            for c in 0..<utm.width {
                let i = r * utm.width + c
                let gc = px.columns[i]
                let gr = px.rows[i]
                guard gc.isFinite, gr.isFinite, gc >= 1, gr >= 1, gc < Double(geo.width - 1), gr < Double(geo.height - 1) else { continue }
                let u = utm.classes[i]
                guard u == ViewshedClass.visible.rawValue || u == ViewshedClass.hidden.rawValue else { continue }
                guard Self.uniformAround(utm.classes, width: utm.width, height: utm.height, column: c, row: r),
                    Self.uniformAround(geo.classes, width: geo.width, height: geo.height, column: Int(gc), row: Int(gr))
                else { continue }
                shared += 1
                if geo.classes[Int(gr) * geo.width + Int(gc)] == u { same += 1 }
            }
        }
        #expect(shared > 500_000)
        // The issue's bound: 99.9 %.
        #expect(Double(same) >= 0.999 * Double(shared), "\(same) of \(shared) agree")
    }

    @Test("render --viewshed veils hidden ground and leaves visible ground as the basemap draws it, with a legend; --observer draws the same")
    func renderDrawsViewshed() throws {
        let dir = TemporaryDirectory()
        Self.writeHills(dir.file("hills.tif"))
        #expect(transect("viewshed", "--dem", dir.file("hills.tif"), "--observer", "7.0100,45.9900", "-o", dir.file("v.tif")).code == 0)
        let map = ["render", "--dem", dir.file("hills.tif"), "--size", "400x320", "--extent", "7,45.979,7.027,46", "--decorations", "none"]
        #expect(transect(map + ["-o", dir.file("plain.png")]).code == 0)
        let drawn = transect(map + ["--viewshed", dir.file("v.tif"), "-o", dir.file("veiled.png")])
        #expect(drawn.code == 0, "\(drawn.err)")
        let plain = try PNGFile.readRGBA(path: dir.file("plain.png"))
        let veiled = try PNGFile.readRGBA(path: dir.file("veiled.png"))
        // The viewshed's classes where each pixel's centre lies, by the map's georeference
        // (its world file and .aux.xml, read by GDAL).
        let model = try ElevationModel([dir.file("v.tif")])
        let frame = try ElevationModel([dir.file("veiled.png")])
        var darker = 0
        var same = 0
        var points: [(Int, Int)] = []
        for y in stride(from: 5, to: 320, by: 10) { for x in stride(from: 5, to: 400, by: 10) { points.append((x, y)) } }
        let lonlat = try DEMGeoreference(frame).lonLat(columns: points.map { Double($0.0) + 0.5 }, rows: points.map { Double($0.1) + 0.5 })
        let classes = try model.elevations(
            at: (0..<points.count).map { GeoPoint(longitude: lonlat.longitudes[$0], latitude: lonlat.latitudes[$0]) }, interpolation: .nearest)
        for (k, (x, y)) in points.enumerated() {
            let i = (y * 400 + x) * 4
            let a = Int(plain.pixels[i]) + Int(plain.pixels[i + 1]) + Int(plain.pixels[i + 2])
            let b = Int(veiled.pixels[i]) + Int(veiled.pixels[i + 1]) + Int(veiled.pixels[i + 2])
            if classes[k] == 0 {
                #expect(b < a, "pixel \(x),\(y) is hidden ground")
                darker += 1
            } else if classes[k] == 255 {
                #expect(b == a, "pixel \(x),\(y) is visible ground")
                same += 1
            }
        }
        #expect(darker > 100 && same > 100)
        // With decorations, the legend names the three classes.
        let layout = transect(
            [
                "render", "--dem", dir.file("hills.tif"), "--size", "400x320", "--viewshed", dir.file("v.tif"), "-o", dir.file("l.png"), "--layout",
                dir.file("l.json"),
            ])
        #expect(layout.code == 0, "\(layout.err)")
        #expect(try String(contentsOfFile: dir.file("l.json"), encoding: .utf8).contains("\"viewshed\""))
        // Computed on the spot: the same veil (an Observer marker added).
        let spot = transect(map + ["--observer", "7.0100,45.9900", "-o", dir.file("spot.png")])
        #expect(spot.code == 0, "\(spot.err)")
        let onTheSpot = try PNGFile.readRGBA(path: dir.file("spot.png")).pixels
        let alike = points.filter { (x, y) in (0..<3).allSatisfy { onTheSpot[(y * 400 + x) * 4 + $0] == veiled.pixels[(y * 400 + x) * 4 + $0] } }
        // All but the few under the marker and its label.
        #expect(alike.count >= points.count - 12, "\(points.count - alike.count) of \(points.count) differ")
        expectUsageError(
            map + ["--observer", "7.01,45.99", "--viewshed", dir.file("v.tif"), "-o", dir.file("x.png")], "give --viewshed FILE or --observer, not both")
        expectUsageError(["render", "--no-dem", "--observer", "7.01,45.99", "--extent", "7,45,8,46", "-o", dir.file("x.png")], "option '--observer'")
    }

    @Test("view --viewshed drapes the viewshed: hidden ground darker, and an all-visible raster changes nothing")
    func viewDrapesViewshed() throws {
        let dir = TemporaryDirectory()
        Self.writeHills(dir.file("hills.tif"))
        #expect(transect("viewshed", "--dem", dir.file("hills.tif"), "--observer", "7.0100,45.9900", "-o", dir.file("v.tif")).code == 0)
        // An all-visible raster on the same grid: the observer high above everything.
        #expect(transect("viewshed", "--dem", dir.file("hills.tif"), "--observer", "7.0100,45.9900,20000", "-o", dir.file("all.tif")).code == 0)
        #expect(Set(SyntheticDEM.readAll(path: dir.file("all.tif")).values) == [255])
        let view = [
            "view", "--dem", dir.file("hills.tif"), "--camera", "7.0135,45.9650,2500", "--heading", "0", "--pitch", "60", "--size", "320x200",
        ]
        #expect(transect(view + ["-o", dir.file("plain.png")]).code == 0)
        #expect(transect(view + ["--viewshed", dir.file("all.tif"), "-o", dir.file("all.png")]).code == 0)
        let draped = transect(view + ["--viewshed", dir.file("v.tif"), "-o", dir.file("draped.png")])
        #expect(draped.code == 0, "\(draped.err)")
        let plain = try PNGFile.readRGBA(path: dir.file("plain.png")).pixels
        #expect(try PNGFile.readRGBA(path: dir.file("all.png")).pixels == plain)
        let veiled = try PNGFile.readRGBA(path: dir.file("draped.png")).pixels
        var darker = 0
        var lighter = 0
        for i in stride(from: 0, to: plain.count, by: 4) {
            let a = Int(plain[i]) + Int(plain[i + 1]) + Int(plain[i + 2])
            let b = Int(veiled[i]) + Int(veiled[i + 1]) + Int(veiled[i + 2])
            if b < a { darker += 1 }
            if b > a + 3 { lighter += 1 }
        }
        #expect(darker > 2000)
        #expect(lighter == 0)
    }

    @Test("shards of the observers merge into one run's bytes, for N = 1, 2 and 3 and every product that joins", arguments: ["count", "mask", "visibility"])
    func shardsMerge(product: String) throws {
        let dir = TemporaryDirectory()
        Self.writeHills(dir.file("hills.tif"))
        let observers = (0..<5).map { "o\($0),\(7.003 + 0.005 * Double($0)),\(45.985 + 0.002 * Double($0))" }
        try ("name,lon,lat\n" + observers.joined(separator: "\n") + "\n").write(toFile: dir.file("obs.csv"), atomically: true, encoding: .utf8)
        let base = ["viewshed", "--dem", dir.file("hills.tif"), "--observers", dir.file("obs.csv"), "--output", product]
        #expect(transect(base + ["-o", dir.file("one.tif")]).code == 0)
        let one = try Data(contentsOf: URL(fileURLWithPath: dir.file("one.tif")))
        for n in 1...3 {
            var parts: [String] = []
            for k in 1...n {
                let part = dir.file("part\(k)of\(n).tif")
                let r = transect(base + ["--shard", "\(k)/\(n)", "-o", part])
                #expect(r.code == 0, "\(r.err)")
                #expect(FileManager.default.fileExists(atPath: part + ".manifest.json"))
                parts.append(part)
            }
            let merged = transect(["merge"] + parts.reversed() + ["-o", dir.file("merged\(n).tif")])
            #expect(merged.code == 0, "\(merged.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("merged\(n).tif"))) == one, "N = \(n)")
        }
        // A part missing, or changed after its manifest: refused, naming it.
        let missing = transect(["merge", dir.file("part1of3.tif"), dir.file("part3of3.tif"), "-o", dir.file("bad.tif")])
        #expect(missing.code == 1 && missing.err.contains("2/3"), "\(missing.err)")
        try Data([0]).write(to: URL(fileURLWithPath: dir.file("part2of2.tif")))
        let changed = transect(["merge", dir.file("part1of2.tif"), dir.file("part2of2.tif"), "-o", dir.file("bad.tif")])
        #expect(changed.code == 1 && changed.err.contains("part2of2.tif"), "\(changed.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("bad.tif")))
        expectUsageError(
            ["viewshed", "--dem", dir.file("hills.tif"), "--observer", "7.01,45.99", "--shard", "1/2", "-o", dir.file("x.tif")],
            "option '--shard': splits the observers of --observers FILE")
    }

    @Test("observers from a GeoPackage (ogr2ogr's, in WGS84 or in UTM) give the CSV's raster")
    func geoPackageObservers() throws {
        guard access("/usr/bin/ogr2ogr", X_OK) == 0 else {
            print("skipped: ogr2ogr (gdal-bin) is not installed")
            return
        }
        let dir = TemporaryDirectory()
        Self.writeHills(dir.file("hills.tif"))
        let rows = (0..<4).map { "o\($0),\(7.004 + 0.006 * Double($0)),\(45.986 + 0.002 * Double($0)),\(2 + $0)" }
        try ("name,lon,lat,height\n" + rows.joined(separator: "\n") + "\n").write(toFile: dir.file("obs.csv"), atomically: true, encoding: .utf8)
        func ogr2ogr(_ args: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ogr2ogr")
            p.arguments = args
            let err = Pipe()
            p.standardError = err
            try p.run()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            try #require(p.terminationStatus == 0, "ogr2ogr \(args): \(said)")
        }
        let open = ["-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat", "-oo", "AUTODETECT_TYPE=YES", "-a_srs", "EPSG:4326"]
        try ogr2ogr(["-f", "GPKG", dir.file("wgs84.gpkg"), dir.file("obs.csv")] + open)
        try ogr2ogr(["-f", "GPKG", "-s_srs", "EPSG:4326", "-t_srs", "EPSG:32632", dir.file("utm.gpkg"), dir.file("obs.csv")] + open.dropLast(2))
        let base = ["viewshed", "--dem", dir.file("hills.tif"), "--output", "count"]
        #expect(transect(base + ["--observers", dir.file("obs.csv"), "-o", dir.file("csv.tif")]).code == 0)
        let wgs = transect(base + ["--observers", dir.file("wgs84.gpkg"), "-o", dir.file("wgs.tif")])
        #expect(wgs.code == 0, "\(wgs.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("wgs.tif"))) == (try Data(contentsOf: URL(fileURLWithPath: dir.file("csv.tif")))))
        let utm = transect(base + ["--observers", dir.file("utm.gpkg"), "-o", dir.file("utm.tif")])
        #expect(utm.code == 0, "\(utm.err)")
        // Through UTM and back the observers move by nanometres: the same counts but at edges.
        let a = SyntheticDEM.readAll(path: dir.file("csv.tif")).values
        let b = SyntheticDEM.readAll(path: dir.file("utm.tif")).values
        #expect(zip(a, b).filter { $0 != $1 }.count <= a.count / 1000)
        let seenBySeveral = a.contains { $0 >= 2 }
        #expect(seenBySeveral)
        // A layer that is not one: an error naming it.
        try Data("not a geopackage".utf8).write(to: URL(fileURLWithPath: dir.file("bad.gpkg")))
        let bad = transect(base + ["--observers", dir.file("bad.gpkg"), "-o", dir.file("bad.tif")])
        #expect(bad.code == 1 && bad.err.hasPrefix("Error: layer '\(dir.file("bad.gpkg"))': cannot open"), "\(bad.err)")
    }
}
