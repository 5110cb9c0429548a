import Foundation
import Testing
import TransectCLITestSupport
import TransectGeodesy
import TransectAnalysis
import TransectFormats
import TransectGDAL
import TransectRender
import TransectTestSupport
@testable import TransectCLI
@testable import TransectSupport

@Suite("transect track and trails")
struct TrackCommandTests {
    static var sample: String { SharedData.packageRoot.appendingPathComponent("data/location_history_sample.json").path }

    @Test("--stats --format json has every documented key, with the sample's 91 points in one segment")
    func statsJSON() throws {
        let result = transect("track", "--in", Self.sample, "--stats", "--format", "json")
        #expect(result.code == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        for key in [
            "name", "method", "points", "segments", "dropped", "times", "length_2d_m", "length_3d_m", "elevation_source", "elevations",
            "gain_threshold_m", "elevation_gain_m", "elevation_loss_m", "min_elevation_m", "max_elevation_m", "duration_s", "elapsed_s",
            "moving_time_s", "stopped_time_s", "avg_speed_mps", "max_speed_mps", "max_speed_window_s", "max_speed_window_m",
            "max_speed_raw_mps", "bbox_deg",
        ] {
            #expect(o.keys.contains(key), "missing \(key)")
        }
        #expect(o.count == 25, "\(o.keys.sorted())")
        #expect(o["points"] as? Int == 91 && o["segments"] as? Int == 1)
        #expect(o["method"] as? String == "transect")
        #expect(o["max_speed_window_s"] as? Double == 60 && o["max_speed_window_m"] as? Double == 200)
        #expect((o["dropped"] as? [String: Int])?["zero_zero"] == 0)
    }

    @Test("--simulate writes one fix per densified vertex, 1 s apart from 2000-01-01, in the documented CSV columns")
    func simulateCSV() throws {
        let dir = TemporaryDirectory()
        let result = transect("track", "--in", Self.sample, "--simulate", "--out", dir.file("fixes.csv"))
        #expect(result.code == 0)
        let lines = try String(contentsOfFile: dir.file("fixes.csv"), encoding: .utf8).split(separator: "\n")
        #expect(lines[0] == "time,lon,lat,elevation_m,course_deg,speed_mps,segment")
        #expect(lines[1].hasPrefix("2000-01-01T00:00:00Z,") && lines[2].hasPrefix("2000-01-01T00:00:01Z,"))
        // Densified to 50 m: every step's speed (metres per 1 s) is at most 50.
        let speeds = try lines.dropFirst().map { try #require(Double($0.split(separator: ",", omittingEmptySubsequences: false)[5])) }
        #expect(speeds.allSatisfy { $0 <= 50 + 1e-6 })
        let again = transect("track", "--in", Self.sample, "--simulate", "--format", "csv")
        #expect(again.out == (try String(contentsOfFile: dir.file("fixes.csv"), encoding: .utf8)))
    }

    @Test(
        "a --format the mode does not take is a usage error before the track is read",
        arguments: [
            ([String](), "'xml' is not text or json (statistics) or gpx, geojson, csv or gpkg (a track)"),
            (["--simulate"], "'xml' is not text or json (statistics) or gpx, geojson, csv or gpkg (a track)"),
        ])
    func formatRefusedFirst(mode: [String], problem: String) {
        let dir = TemporaryDirectory()
        // The file does not exist: reading it would fail with exit 1 and another message.
        let result = transect(["track", "--in", dir.file("absent.csv"), "--format", "xml"] + mode)
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("Error: option '--format': \(problem)\nUsage: "))
        #expect(result.out.isEmpty)
    }

    @Test("--simulate --format follows --out's extension when absent, and --format names the format when given")
    func simulateFormatDefault() throws {
        let dir = TemporaryDirectory()
        let gpx = transect("track", "--in", Self.sample, "--simulate", "--out", dir.file("fixes.gpx"))
        #expect(gpx.code == 0, "\(gpx.err)")
        #expect(try String(contentsOfFile: dir.file("fixes.gpx"), encoding: .utf8).hasPrefix("<?xml"))
        let named = transect("track", "--in", Self.sample, "--simulate", "--format", "gpx")
        #expect(named.out == (try String(contentsOfFile: dir.file("fixes.gpx"), encoding: .utf8)))
        let text = transect("track", "--in", Self.sample)
        #expect(text.code == 0 && text.out.hasPrefix("Track         "))
    }

    @Test("--speed that would make too many fixes: a usage error with the count length / speed + 1")
    func speedLimit() throws {
        let track = try TrackFile.load(path: Self.sample).track
        let fixes = track.lengthMetres() / 0.001 + Double(track.segments.count)
        let result = transect("track", "--in", Self.sample, "--simulate", "--speed", "0.001")
        #expect(result.code == 2)
        // Grouped by threes, written out digit by digit.
        let digits = Array(String(Int(fixes.rounded(.up))))
        let count = String(digits.enumerated().flatMap { k, d in k > 0 && (digits.count - k) % 3 == 0 ? [",", d] : [d] })
        #expect(result.err.contains("Error: option '--speed': 0.001 m/s would make \(count) fixes, more than 10,000,000; use a higher speed\n"))
    }

    // Before issue 9 a fix repeating the time before it was dropped with its position; now only
    // invalid positions drop a fix and the repeated time is counted under "times".
    @Test("invalid positions are dropped and reported, a repeated time keeps its fix; a track with none left is an error")
    func cleaning() throws {
        let dir = TemporaryDirectory()
        try
            "lon,lat,time,accuracy\n10,45,2020-01-01T00:00:00Z,5\n0,0,2020-01-01T00:00:01Z,5\n10.001,45,2020-01-01T00:00:02Z,-1\n10.002,45,2020-01-01T00:00:02Z,5\n10.003,45,2020-01-01T00:00:02Z,5\n"
            .write(toFile: dir.file("t.csv"), atomically: true, encoding: .utf8)
        let result = transect("track", "--in", dir.file("t.csv"), "--format", "json")
        #expect(result.code == 0)
        #expect(result.err.contains("dropped 2 invalid fixes (1 zero zero, 1 negative accuracy)"))
        #expect(result.err.contains("2 of 3 fixes have usable times (1 repeats an earlier time)"))
        let o = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(o["points"] as? Int == 3)
        #expect(o["dropped"] as? [String: Int] == ["zero_zero": 1, "out_of_range": 0, "negative_accuracy": 1])
        #expect(o["times"] as? [String: Int] == ["usable": 2, "repeated": 1, "backwards": 0, "missing": 0, "steps": 1])
        try "lon,lat\n0,0\n".write(toFile: dir.file("empty.csv"), atomically: true, encoding: .utf8)
        let empty = transect("track", "--in", dir.file("empty.csv"))
        #expect(empty.code == 1 && empty.err.contains("no valid fixes"))
        // The fix dropped is said before the failure it leads to.
        #expect(empty.err.hasPrefix("note: '\(dir.file("empty.csv"))': dropped 1 invalid fix (1 zero zero)\n"))
        #expect(transect("track", "--in", dir.file("t.csv"), "--start-time", "yesterday", "--simulate").code == 2)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("--dem with a track outside it: the recorded elevations, said on stderr and in JSON, not a zero gain")
    func demMissesTrack() throws {
        let walk = try SharedData.path("gpx/srtmpy_setnjica-kod-karojbe.gpx")
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let withDEM = transect("track", "--dem", dem, "--in", walk, "--stats", "--format", "json")
        #expect(withDEM.code == 0, "\(withDEM.err)")
        #expect(withDEM.err.contains("1,852 of 1,852 fixes lie outside the DEM '\(dem)'"))
        let recorded = transect("track", "--in", walk, "--stats", "--format", "json")
        let a = try Self.json(withDEM.out)
        let b = try Self.json(recorded.out)
        // The DEM gave none of them: the source is named for what was used.
        #expect(a["elevation_source"] as? String == "recorded" && b["elevation_source"] as? String == "recorded")
        #expect(a["elevations"] as? [String: Int] == ["dem": 0, "recorded": 1_852, "none": 0])
        #expect((a["elevation_gain_m"] as? Double).map { $0 > 100 } == true)
        #expect(a["elevation_gain_m"] as? Double == b["elevation_gain_m"] as? Double)
        let text = transect("track", "--dem", dem, "--in", walk, "--stats")
        #expect(text.out.contains("(recorded elevations: 0 from the DEM, 1,852 recorded)"))
    }

    @Test("--dem over part of a track: the DEM inside (a plane, sampled exactly), the recorded elevation outside")
    func demCoversPart() throws {
        let dir = TemporaryDirectory()
        InfoCommandTests.writeDEM(dir.file("plane.tif"))
        // Bilinear on 100 + column + row with 0.001° cells: z = 99 + 1000 (lon − 10) + 1000 (45.1 − lat).
        try "lon,lat,ele\n10.05,45.05,1\n10.1,45.02,1\n11,45.05,5000\n".write(toFile: dir.file("t.csv"), atomically: true, encoding: .utf8)
        let result = transect("track", "--dem", dir.file("plane.tif"), "--in", dir.file("t.csv"), "--format", "json")
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains("1 of 3 fixes lie outside the DEM"))
        let o = try Self.json(result.out)
        #expect(o["elevations"] as? [String: Int] == ["dem": 2, "recorded": 1, "none": 0])
        #expect(o["elevation_source"] as? String == "dem+recorded")
        // 1e-6 m: the plane's values are sums of small integers; the query points' degrees are not
        // exact binary fractions, which moves them by ~1e-11 m.
        let minimum = try #require(o["min_elevation_m"] as? Double)
        let gain = try #require(o["elevation_gain_m"] as? Double)
        // 1 µm against the ~1e-11 m above.
        #expect(abs(minimum - 199) < 1e-6 && o["max_elevation_m"] as? Double == 5000)
        #expect(abs(gain - (279 - 199 + 5000 - 279)) < 1e-6)  // 1 µm against the ~1e-11 m above
        // The simulation keeps the same elevations: first fix on the plane, last recorded.
        let sim = transect("track", "--dem", dir.file("plane.tif"), "--in", dir.file("t.csv"), "--simulate", "--max-segment", "100000")
        #expect(sim.code == 0, "\(sim.err)")
        let rows = sim.out.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let first = try #require(rows.first.flatMap { Double($0[3]) })
        let last = try #require(rows.last.flatMap { Double($0[3]) })
        #expect(abs(first - 199) < 1e-6 && last == 5000)  // 1 µm against the ~1e-11 m above
    }

    @Test("--stats --max-segment on minute-rounded times: inserted points carry no time, so no step lasts a fraction of a run")
    func densifiedCoarseTimes() throws {
        let dir = TemporaryDirectory()
        // 25 fixes 1e-4° apart along a meridian (about 11.1 m), 5 s apart, times rounded down to
        // the minute: runs of 12 fixes, each time step about 12 × 11.1 m in 60 s ≈ 2.2 m/s.
        var csv = "lon,lat,time\n"
        for k in 0..<25 {
            let t = Int((5 * Double(k) / 60).rounded(.down)) * 60
            csv += "14,\(46 + Double(k) * 1e-4),2020-01-01T00:\(t / 60 < 10 ? "0" : "")\(t / 60):00Z\n"
        }
        try csv.write(toFile: dir.file("coarse.csv"), atomically: true, encoding: .utf8)
        let dense = try Self.json(transect("track", "--in", dir.file("coarse.csv"), "--stats", "--max-segment", "2", "--format", "json").out)
        let plain = try Self.json(transect("track", "--in", dir.file("coarse.csv"), "--stats", "--format", "json").out)
        let raw = try #require(dense["max_speed_raw_mps"] as? Double)
        #expect(raw > 2 && raw < 2.5, "\(raw)")
        // The same steps over legs cut into 2 m pieces: equal up to rounding of the pieces.
        #expect(abs(raw - (plain["max_speed_raw_mps"] as? Double ?? 0)) < 1e-9)
        #expect(dense["times"] as? [String: Int] == plain["times"] as? [String: Int])
        #expect((dense["points"] as? Int).map { $0 > 100 } == true)
    }

    @Test(
        "--dem that gives no fix an elevation, on a track that records none: exit 1 naming the DEM, for --stats and --simulate",
        arguments: [["--stats"], ["--simulate"]])
    func demGivesNothing(mode: [String]) throws {
        let dir = TemporaryDirectory()
        InfoCommandTests.writeDEM(dir.file("plane.tif"))
        try "lon,lat\n11,45\n11.1,45\n".write(toFile: dir.file("t.csv"), atomically: true, encoding: .utf8)
        let result = transect(["track", "--dem", dir.file("plane.tif"), "--in", dir.file("t.csv")] + mode)
        #expect(result.code == 1)
        #expect(result.err.contains("'\(dir.file("plane.tif"))'") && result.err.contains("no fix lies on data"))
        #expect(result.err.split(separator: "\n").count == 1 && result.out.isEmpty)
    }

    @Test(
        "speeds in the text follow --units: km/h, mph, knots; JSON keeps m/s with the raw maximum beside",
        arguments: [("metric", "km/h", 3.6), ("imperial", "mph", 3600 / 1609.344), ("nmi", "kn", 3600 / 1852.0)])
    func speedUnits(units: String, symbol: String, perMetrePerSecond: Double) throws {
        let walk = try SharedData.path("gpx/srtmpy_setnjica-kod-karojbe.gpx")
        let o = try Self.json(transect("track", "--in", walk, "--format", "json").out)
        let maxSpeed = try #require(o["max_speed_mps"] as? Double)
        let raw = try #require(o["max_speed_raw_mps"] as? Double)
        // Karojba holds glitches a minute's window mostly sets aside: the two differ.
        #expect(maxSpeed < raw / 2)
        let text = transect("track", "--in", walk, "--units", units).out
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Speed") })
        let expected =
            "max \(NumberFormatting.grouped(maxSpeed * perMetrePerSecond)) \(symbol) over 60 s and 200 m (raw \(NumberFormatting.grouped(raw * perMetrePerSecond)) \(symbol))"
        #expect(line.hasSuffix(expected), "\(line)")
    }

    @Test("a self-overlapping trail has one uniform colour where it overlaps itself")
    func overlapDoesNotDarken() throws {
        let dir = TemporaryDirectory()
        // Out east along a parallel and back along the same line, then north across it: the
        // trail covers its own middle two and three times.
        try """
        {"type": "LineString", "coordinates": [[10.0, 45.002], [10.02, 45.002], [10.004, 45.002], [10.012, 44.99], [10.012, 45.01]]}
        """.write(toFile: dir.file("loop.geojson"), atomically: true, encoding: .utf8)
        let result = transect(
            "render", "--track", dir.file("loop.geojson"), "--max-segment", "100000", "--basemap", "none",
            "--decorations", "none", "--size", "400x400", "-o", dir.file("trail.png"))
        #expect(result.code == 0, "\(result.err)")
        let image = try PNGFile.readRGBA(path: dir.file("trail.png"))
        let frame = try #require(transectFrame(dir.file("trail.png")))
        func colour(lon: Double, lat: Double) throws -> [UInt8] {
            let p = try frame.pixels(of: [GeoPoint(longitude: lon, latitude: lat)])[0]
            let k = 4 * (Int(p.1) * image.width + Int(p.0))
            return Array(image.pixels[k..<(k + 3)])
        }
        // The accent colour at 50 % over white.
        let accent = TrailOverlay.accent
        let expected = [accent.r, accent.g, accent.b].map { UInt8((($0 * 255) * 0.5 + 255 * 0.5).rounded()) }
        let once = try colour(lon: 10.012, lat: 44.997)  // the north leg only
        let twice = try colour(lon: 10.017, lat: 45.002)  // out and back
        let thrice = try colour(lon: 10.012, lat: 45.002)  // out, back, and the north leg across them
        for c in [once, twice, thrice] {
            // One level of 255: cairo composites in 8-bit premultiplied steps, which may round the
            // other way from the exact half-and-half blend.
            #expect(zip(c, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(c) vs \(expected)")
        }
        #expect(twice == once && thrice == once)
    }

    @Test("a track that fits opens at 1:10,000 (2.6458 m per pixel at 96 dpi); one that does not is fitted")
    func sampleScale() throws {
        let dir = TemporaryDirectory()
        let walk = try SharedData.path("gpx/srtmpy_setnjica-kod-karojbe.gpx")
        #expect(transect("render", "--track", walk, "-o", dir.file("walk.png")).code == 0)
        let world = try String(contentsOfFile: dir.file("walk.pgw"), encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        // The world file prints the shortest round-trip form (exact); the pixel is the scale's arithmetic in another order, a few ulp of 2.6 m (4.4e−16 m).
        #expect(abs(world[0] - 10_000 * 0.0254 / 96) < 1e-9)
        #expect(transect("render", "--track", Self.sample, "-o", dir.file("sample.png")).code == 0)
        let fitted = try String(contentsOfFile: dir.file("sample.pgw"), encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        // The sample route spans ~9 km: at 1:10,000 it would need over 3,000 pixels.
        #expect(fitted[0] > 5)
    }

    @Test("--frames writes numbered frames, each showing the fixes up to its own")
    func frames() throws {
        let dir = TemporaryDirectory()
        let result = transect("render", "--track", Self.sample, "--size", "320x200", "--frames", dir.file("frames"), "--every", "300")
        #expect(result.code == 0, "\(result.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("frames")).sorted()
        #expect(names == ["frame_0001.png", "frame_0002.png", "frame_0003.png"])
        let a = try PNGFile.readRGBA(path: dir.file("frames/frame_0001.png"))
        let c = try PNGFile.readRGBA(path: dir.file("frames/frame_0003.png"))
        #expect(a.pixels != c.pixels)
    }

    @Test("profile --track follows the track with distance along it")
    func profileTrack() throws {
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let route = SharedData.packageRoot.appendingPathComponent("data/half_dome_route.geojson").path
        let result = transect("profile", "--dem", dem, "--track", route, "--format", "json")
        #expect(result.code == 0, "\(result.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let stats = try #require(o["stats"] as? [String: Any])
        let track = try TrackFile.load(path: route).track
        let length = TrackStatistics(track: track, elevations: track.points.map(\.elevationMetres)).length2DMetres
        let horizontal = try #require(stats["horizontal_length_m"] as? Double)
        let gain = try #require(stats["elevation_gain_m"] as? Double)
        #expect(abs(horizontal - length) < 1e-3)  // JSON prints six decimals; 1 mm also covers the profile path's and the track's sums
        // Happy Isles (~1,230 m) to Half Dome (~2,690 m): a climb of well over a kilometre.
        #expect(gain > 1400)
    }
}

/// The frame a rendered PNG records in its world file and .aux.xml, read back through GDAL.
func transectFrame(_ path: String) -> MapFrame? {
    guard let world = try? String(contentsOfFile: PNGFile.worldFilePath(for: path), encoding: .utf8) else { return nil }
    let v = world.split(separator: "\n").compactMap { Double($0) }
    guard v.count == 6, let image = try? PNGFile.readRGBA(path: path),
        let aux = try? String(contentsOfFile: path + ".aux.xml", encoding: .utf8),
        let srs = aux.range(of: "<SRS")?.upperBound,
        let start = aux.range(of: ">", range: srs..<aux.endIndex)?.upperBound,
        let end = aux.range(of: "</SRS>")?.lowerBound,
        let crs = try? TransectGDAL.SpatialReference(String(aux[start..<end]).replacingOccurrences(of: "&quot;", with: "\""))
    else { return nil }
    let minX = v[4] - v[0] / 2
    let maxY = v[5] - v[3] / 2
    return MapFrame(
        crs: crs, minX: minX, minY: maxY + v[3] * Double(image.height), maxX: minX + v[0] * Double(image.width), maxY: maxY,
        width: image.width, height: image.height)
}
