import Foundation
import Testing
import TransectAnalysis
import TransectCLITestSupport
import TransectTestSupport

/// gpxpy itself, called in the test as the oracle for `track --method gpxpy`.
enum GPXPyOracle {
    /// Debian's python3; the python3 on PATH may be another.
    static let python = "/usr/bin/python3"

    /// Why gpxpy cannot be had: the test is skipped with this.
    struct Unavailable: Error, CustomStringConvertible { let description: String }

    /// The directory to put first on gpxpy's `sys.path`: "" when `python` imports it already
    /// (Debian's python3-gpxpy), else `directory` after pip installed gpxpy from PyPI there.
    static func install(into directory: TemporaryDirectory) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: python) else { throw Unavailable(description: "\(python) is not installed") }
        if (try? TransectExecutable.run(["-c", "import gpxpy"], directory: "/", executable: python, timeout: 60))?.code == 0 { return "" }
        let pip = try TransectExecutable.run(
            ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", "--target", directory.path, "gpxpy"],
            directory: directory.path, executable: python, timeout: 600)
        guard pip.code == 0 else {
            let why = pip.err.split(separator: "\n").last.map(String.init) ?? "exit \(pip.code)"
            throw Unavailable(
                description: "gpxpy is not installed for \(python) (Debian's python3-gpxpy) and pip cannot install it from PyPI: \(why)")
        }
        return directory.path
    }

    /// gpxpy's figures of each GPX file: `length_2d`, `length_3d`, `duration` (nil for its
    /// None), `moving`, `stopped`, `max_speed`, `uphill`, `downhill`, and its version.
    static func figures(of files: [String], site: String, directory: TemporaryDirectory) throws -> [[String: Any]] {
        let script = """
            import sys, json
            if sys.argv[1]:
                sys.path.insert(0, sys.argv[1])
            import gpxpy
            out = []
            for path in sys.argv[2:]:
                with open(path, encoding='utf-8') as f:
                    g = gpxpy.parse(f)
                m = g.get_moving_data()
                u = g.get_uphill_downhill()
                out.append({'length_2d': g.length_2d(), 'length_3d': g.length_3d(), 'duration': g.get_duration(),
                            'moving': m.moving_time, 'stopped': m.stopped_time, 'max_speed': m.max_speed,
                            'uphill': u.uphill, 'downhill': u.downhill, 'version': gpxpy.__version__})
            print(json.dumps(out))
            """
        let run = try TransectExecutable.run(["-c", script, site] + files, directory: directory.path, executable: python, timeout: 300)
        try #require(run.code == 0, "\(run.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
    }
}

@Suite("track --method gpxpy against gpxpy itself; gpx-studio's and the default's figures in JSON")
struct TrackMethodTests {
    /// Our JSON keys and gpxpy's names for the same figures.
    static let pairs = [
        ("length_2d_m", "length_2d"), ("length_3d_m", "length_3d"), ("duration_s", "duration"), ("moving_time_s", "moving"),
        ("stopped_time_s", "stopped"), ("max_speed_mps", "max_speed"), ("elevation_gain_m", "uphill"), ("elevation_loss_m", "downhill"),
    ]

    /// Runs `track --method gpxpy --format json` on each file and holds every figure to gpxpy's.
    static func expectGPXPy(on files: [String]) throws {
        let dir = TemporaryDirectory()
        let site: String
        do { site = try GPXPyOracle.install(into: dir) } catch let why as GPXPyOracle.Unavailable { try Test.cancel("\(why)") }
        let oracle = try GPXPyOracle.figures(of: files, site: site, directory: dir)
        try #require(oracle.count == files.count)
        for (file, expected) in zip(files, oracle) {
            let run = transect("track", "--in", file, "--method", "gpxpy", "--format", "json")
            try #require(run.code == 0, "\(file): \(run.err)")
            let ours = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            #expect(ours["method"] as? String == "gpxpy")
            #expect((ours["dropped"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true, "\(file): gpxpy keeps every point")
            for (key, name) in pairs {
                let theirs = expected[name] as? Double
                let mine = ours[key] as? Double
                #expect((theirs == nil) == (mine == nil), "\(file) \(key): ours \(String(describing: mine)), gpxpy \(String(describing: theirs))")
                guard let theirs, let mine else { continue }
                // 1e-6 relative as asked: the JSON prints 6 decimals (9 for speeds), times are
                // whole microseconds on both sides, and the sums agree to a few ulps.
                let close = abs(mine - theirs) <= 1e-6 * abs(theirs)
                #expect(close, "\(file) \(key): ours \(mine), gpxpy \(expected["version"] ?? "?") \(theirs)")
            }
        }
    }

    @Test("the four shared GPX tracks: gpxpy's length 2D/3D, duration, moving and stopped time, maximum speed, uphill, downhill")
    func sharedTracks() throws {
        let files = try [
            "gpx/gpxpy_Mojstrovka.gpx", "gpx/gpxpy_cerknicko-jezero.gpx", "gpx/gpxpy_korita-zbevnica.gpx", "gpx/srtmpy_setnjica-kod-karojbe.gpx",
        ].map { try SharedData.path($0) }
        try Self.expectGPXPy(on: files)
    }

    /// A GPX file of two tracks in three segments with a long jump (0.4°, two hours) between
    /// segments: stops at one place, slow creeping, walking, cycling, 150 m glitches, one step
    /// of 0.25° inside a segment (gpxpy's haversine), a time that goes back, fixes without
    /// time or elevation, elevations of 0 m (gpxpy treats them as none for speed), times with
    /// 3, 6 and 7 decimals. With `untimedEnd`, the last segment's last two fixes have no time
    /// (gpxpy's duration is then None) and a one-fix segment follows.
    static func builtGPX(seed: UInt64, untimedEnd: Bool) -> String {
        var random = SeededRandom(seed: seed)
        var lat = 46.05
        var lon = 14.5
        var ele = 300.0
        var t = 1_620_000_000
        var gpx = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        func point(_ time: String?, _ elevation: String?) -> String {
            "<trkpt lat=\"\(lat)\" lon=\"\(lon)\">" + (elevation.map { "<ele>\($0)</ele>" } ?? "") + (time.map { "<time>\($0)</time>" } ?? "")
                + "</trkpt>\n"
        }
        func stamp(_ seconds: Int, _ random: inout SeededRandom) -> String {
            let whole = Timestamp.iso8601(Double(seconds)).dropLast()  // without its Z
            let digits = [0, 3, 6, 7][random.below(4)]
            let fraction = digits == 0 ? "" : "." + String((0..<digits).map { _ in Character(String(random.below(10))) })
            return whole + fraction + "Z"
        }
        let segments = [(0, 140), (0, 90), (1, 120)]
        for (index, (trackNumber, count)) in segments.enumerated() {
            if index == 0 || segments[index - 1].0 != trackNumber { gpx += "<trk><name>built \(trackNumber)</name>\n" }
            gpx += "<trkseg>\n"
            for i in 0..<count {
                let end = index == segments.count - 1 && untimedEnd && i >= count - 2
                let timed = end ? false : (i < 2 || i >= count - 2 || random.below(30) != 0)
                let elevation = random.below(25) == 0 ? nil : random.below(40) == 0 ? "0" : "\(ele)"
                gpx += point(timed ? stamp(t, &random) : nil, elevation)
                // The next fix: a step of 1 to 10 s in one of the kinds of motion.
                t += [1, 2, 5, 10][random.below(4)]
                if i == 50 { t -= 40 }  // the clock goes back once
                let kind = random.below(10)
                let metres =
                    kind < 2 ? 0 : kind == 2 ? 0.2 : kind < 8 ? random.uniform(3, 12) : kind == 8 ? random.uniform(20, 60) : 150
                let azimuth = random.uniform(0, 2 * Double.pi)
                lat += metres * cos(azimuth) / 111_320
                lon += metres * sin(azimuth) / (111_320 * cos(lat * Double.pi / 180))
                if index == 0 && i == 70 { lat += 0.25 }
                if kind >= 2 { ele += random.uniform(-4, 4) }
            }
            gpx += "</trkseg>\n"
            if index == segments.count - 1 || segments[index + 1].0 != trackNumber { gpx += "</trk>\n" }
            lon += 0.4
            t += 7200
        }
        if untimedEnd { gpx += "<trk><name>one fix</name><trkseg>\n" + point(stamp(t, &random), "\(ele)") + "</trkseg></trk>\n" }
        return gpx + "</gpx>\n"
    }

    @Test("built tracks of several segments with a long jump between them, stops, glitches and untidy times: gpxpy's numbers")
    func builtTracks() throws {
        let dir = TemporaryDirectory()
        let files = [(1, false), (2, true), (3, false)].map { seed, untimedEnd in
            let path = dir.file("built-\(seed).gpx")
            try? Self.builtGPX(seed: UInt64(seed), untimedEnd: untimedEnd).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // The files hold what they are meant to: three or four segments, and a jump of 0.4°.
        let j = try #require(
            try JSONSerialization.jsonObject(with: Data(transect("track", "--in", files[1], "--format", "json").out.utf8)) as? [String: Any])
        #expect(j["segments"] as? Int == 4 && j["name"] as? String == "built 0")
        try Self.expectGPXPy(on: files)
    }

    @Test("gpx-studio and gpxpy in JSON: the method named, figures a method lacks null, the default's parameters only under it")
    func methodsInJSON() throws {
        let walk = try SharedData.path("gpx/srtmpy_setnjica-kod-karojbe.gpx")
        var seen: [String: [String: Any]] = [:]
        for method in ["transect", "gpxpy", "gpx-studio"] {
            let run = transect("track", "--in", walk, "--method", method, "--format", "json")
            try #require(run.code == 0, "\(run.err)")
            let o = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            #expect(o["method"] as? String == method && o["name"] as? String == "6/30/2013 17:42")
            // The same keys whatever the method, so a reader needs no case for each.
            #expect(o.count == 25, "\(method): \(o.keys.sorted())")
            seen[method] = o
        }
        let studio = try #require(seen["gpx-studio"])
        #expect(studio["length_3d_m"] is NSNull && studio["stopped_time_s"] is NSNull)
        for key in ["gain_threshold_m", "max_speed_window_s", "max_speed_window_m", "max_speed_raw_mps"] {
            #expect(studio[key] is NSNull && seen["gpxpy"]?[key] is NSNull, "\(key)")
            #expect(seen["transect"]?[key] is Double, "\(key)")
        }
        // What the data holds is the same in every method: points, times, the clock time, the box.
        for key in ["points", "segments", "elapsed_s", "min_elevation_m", "max_elevation_m"] {
            #expect(seen["gpxpy"]?[key] as? Double == seen["transect"]?[key] as? Double && studio[key] as? Double == seen["transect"]?[key] as? Double)
        }
        // gpx.studio's haversine on its 6,371,008.8 m sphere is shorter than the ellipsoid here
        // (45° N, where the meridian's radius of curvature is about 6,367 km and the prime
        // vertical's 6,389 km): a different length, not ours.
        let ours = try #require(seen["transect"]?["length_2d_m"] as? Double)
        let theirs = try #require(studio["length_2d_m"] as? Double)
        #expect(theirs != ours && abs(theirs / ours - 1) < 0.005)
        // The text says which method it followed, and gpx.studio gives no 3D length.
        let text = transect("track", "--in", walk, "--method", "gpx-studio").out
        #expect(text.contains("\nMethod        gpx-studio\n") && text.contains(" (2D)\n") && !text.contains("(3D)"))
    }

    @Test("an unknown --method is a usage error naming the three")
    func unknownMethod() {
        let result = transect("track", "--in", "absent.gpx", "--method", "strava")
        #expect(result.code == 2 && result.out.isEmpty)
        #expect(result.err.hasPrefix("Error: option '--method': 'strava' is not transect, gpxpy or gpx-studio\n"), "\(result.err)")
    }
}
