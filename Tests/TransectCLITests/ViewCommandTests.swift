import Foundation
import Testing
import TransectCLITestSupport
import TransectGeodesy
import TransectAnalysis
import TransectPerspective
import TransectGDAL
import TransectRender
import TransectTestSupport

/// `transect view` on synthetic DEMs: what hides what, against the line of sight `profile`
/// computes; determinism; the options' errors.
@Suite("transect view")
struct ViewCommandTests {
    /// A plain at 1,000 m with a cone 600 m high and 800 m in radius at (0°, 0.02°N); cells of
    /// 0.0003° (about 33 m) from 0.03°W to 0.03°E, 0.01°S to 0.05°N.
    static func writeCone(_ path: String) {
        let step = 0.0003
        SyntheticDEM.write(path: path, width: 200, height: 200, geoTransform: [-0.03, step, 0, 0.05, 0, -step], crs: "EPSG:4326") { c, r in
            let lon = -0.03 + (Double(c) + 0.5) * step
            let lat = 0.05 - (Double(r) + 0.5) * step
            let d = ((lon * 111_320) * (lon * 111_320) + ((lat - 0.02) * 110_574) * ((lat - 0.02) * 110_574)).squareRoot()
            return 1000 + max(0, 600 * (1 - d / 800))
        }
    }

    static func anchors(_ path: String) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let points = try #require(json["points"] as? [[String: Any]])
        var byName: [String: [String: Any]] = [:]
        for p in points { byName[p["name"] as? String ?? ""] = p }
        return byName
    }

    /// From 100 m above the plain south of the cone: the point behind the cone is hidden, the
    /// one beside it in sight, as the line of sight of `profile` finds them.
    @Test("a cone hides the point behind it, in agreement with the profile's line of sight")
    func coneHides() throws {
        let dir = TemporaryDirectory()
        Self.writeCone(dir.file("cone.tif"))
        let r = transect(
            "view", "--dem", dir.file("cone.tif"), "--camera", "0,0,1100", "--heading", "0", "--pitch", "90", "--fov", "90",
            "--size", "400x250", "--from", "0,0.04", "--to", "0.025,0.04", "--anchors", dir.file("a.json"), "-o", dir.file("v.png"))
        #expect(r.code == 0, "\(r.err)")
        let a = try Self.anchors(dir.file("a.json"))
        let hidden = try #require(a["start"])
        let seen = try #require(a["end"])
        #expect(hidden["visible"] as? Bool == false)
        #expect(seen["visible"] as? Bool == true)
        let model = try ElevationModel([dir.file("cone.tif")])
        let camera = GeoPoint(longitude: 0, latitude: 0)
        for (target, visible) in [(GeoPoint(longitude: 0, latitude: 0.04), false), (GeoPoint(longitude: 0.025, latitude: 0.04), true)] {
            let request = ProfileRequest(
                path: ProfilePath(vertices: [camera, target]), maxSamples: 100_000, observerHeightMetres: 100, targetHeightMetres: 0,
                curvature: 1 - ViewCamera.defaultRefraction)
            let sight = try #require(try model.profile(request).lineOfSight)
            #expect(sight.verdict == (visible ? .visible : .obstructed))
        }
    }

    /// From 3 km south-west of the valley's middle, 33 m above Half Dome's published summit
    /// point: the point lies 4 m under the sight line over the dome's own higher shoulder, 49 m
    /// nearer the camera, well within what the terrain's sampling can be wrong by there (the
    /// depth tolerance of `TerrainView.isVisible(_:)`); the end is drawn on the summit, and
    /// the anchors file says so. The corner, inside the dome, stays hidden.
    @Test("a measurement end drawn on a summit seen at a grazing angle is visible in the anchors")
    func summitEndVisible() throws {
        let dir = TemporaryDirectory()
        let r = transect(
            "view", "--dem", try SharedData.path("yosemite_valley_ned1as.tif"), "--from", "-119.5329397,37.7460363", "--to",
            "-119.573611,37.729722", "--look-at", "-119.553,37.738", "--distance", "3000", "--heading", "0", "--pitch", "70", "--size",
            "800x500", "--anchors", dir.file("a.json"), "-o", dir.file("v.png"))
        #expect(r.code == 0, "\(r.err)")
        let a = try Self.anchors(dir.file("a.json"))
        let start = try #require(a["start"])
        let x = try #require(start["x"] as? Double)
        let y = try #require(start["y"] as? Double)
        #expect(x >= 0 && x < 800 && y >= 0 && y < 500, "the summit end is in the image: \(x), \(y)")
        #expect(start["visible"] as? Bool == true)
        #expect(a["corner"]?["visible"] as? Bool == false)
    }

    @Test("the same PNG and anchors on one thread and on two")
    func threads() throws {
        let dir = TemporaryDirectory()
        Self.writeCone(dir.file("cone.tif"))
        for n in ["1", "2"] {
            let r = transect(
                "view", "--dem", dir.file("cone.tif"), "--size", "320x200", "--from", "-0.01,0.0", "--to", "0.0,0.02", "--threads", n,
                "--anchors", dir.file("a\(n).json"), "-o", dir.file("v\(n).png"))
            #expect(r.code == 0, "\(r.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("v1.png"))) == Data(contentsOf: URL(fileURLWithPath: dir.file("v2.png"))))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("a1.json"))) == Data(contentsOf: URL(fileURLWithPath: dir.file("a2.json"))))
    }

    @Test("a scene file sets the same keys, points as [lon, lat], paths relative to it; flags win")
    func scene() throws {
        let dir = TemporaryDirectory()
        Self.writeCone(dir.file("cone.tif"))
        let scene =
            #"{"dem": ["cone.tif"], "from": [0, 0.04], "to": [0.025, 0.04, 1000], "camera": [0, 0, 1100], "heading": 0, "#
            + #""pitch": 90, "fov": 90, "size": [400, 250], "anchors": "a.json", "out": "v.png"}"#
        try scene.write(toFile: dir.file("scene.json"), atomically: true, encoding: .utf8)
        let r = transect("view", "--scene", dir.file("scene.json"), "--size", "200x125")
        #expect(r.code == 0, "\(r.err)")
        let a = try Self.anchors(dir.file("a.json"))
        #expect(a["start"]?["visible"] as? Bool == false)
        #expect(a["end"]?["z"] as? Double == 1000)
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("a.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["width"] as? Int == 200 && json["height"] as? Int == 125)
    }

    @Test("a track is draped on the terrain: its vertices are anchors at the DEM's heights, and it is drawn")
    func track() throws {
        let dir = TemporaryDirectory()
        Self.writeCone(dir.file("cone.tif"))
        try "lon,lat\n-0.01,0.01\n0.01,0.01\n".write(toFile: dir.file("t.csv"), atomically: true, encoding: .utf8)
        let common = ["view", "--dem", dir.file("cone.tif"), "--camera", "0,-0.01,1400", "--heading", "0", "--pitch", "60", "--size", "320x200"]
        #expect(transect(common + ["-o", dir.file("bare.png")]).code == 0)
        let r = transect(common + ["--track", dir.file("t.csv"), "--anchors", dir.file("a.json"), "-o", dir.file("v.png")])
        #expect(r.code == 0, "\(r.err)")
        let a = try Self.anchors(dir.file("a.json"))
        for name in ["track 1 vertex 1", "track 1 vertex 2"] {
            let p = try #require(a[name], "\(a.keys.sorted())")
            #expect(abs((p["z"] as? Double ?? 0) - 1000) < 1e-9)  // the cone's flat base, 1000 m to a few ulp (1.1e−13 m); z prints in full
            #expect(p["visible"] as? Bool == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("bare.png"))) != Data(contentsOf: URL(fileURLWithPath: dir.file("v.png"))))
    }

    @Test("an orbit writes its frames, each looking at the same point")
    func orbit() throws {
        let dir = TemporaryDirectory()
        Self.writeCone(dir.file("cone.tif"))
        let r = transect(
            "view", "--dem", dir.file("cone.tif"), "--size", "160x100", "--look-at", "0,0.02", "--distance", "4000", "--orbit", "3",
            "--frames", dir.file("orbit"))
        #expect(r.code == 0, "\(r.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("orbit")).sorted()
        #expect(names == ["view_0000.png", "view_0001.png", "view_0002.png"])
    }

    @Test(
        "bad usage is refused with one line and exit 2, before anything is written",
        arguments: [
            (["-o", "x.png"], "missing --dem PATH"),
            (["--dem", "d.tif"], "missing -o/--out FILE (or --frames DIR --orbit N)"),
            (["--dem", "d.tif", "-o", "x.png", "--orbit", "3"], "option '--orbit': its frames go to --frames DIR"),
            (["--dem", "d.tif", "--frames", "f"], "option '--frames': writes an orbit's frames"),
            (["--dem", "d.tif", "-o", "x.png", "--distance", "100"], "option '--distance': is the camera's distance from --look-at"),
            (["--dem", "d.tif", "-o", "x.png", "--look-at", "0,0"], "option '--look-at': places the camera --distance metres from the point; give --distance"),
            (["--dem", "d.tif", "-o", "x.png", "--camera", "0,0,10", "--look-at", "0,0"], "option '--look-at': places the camera"),
            (["--dem", "d.tif", "-o", "x.png", "--from", "0,0"], "missing --to LON,LAT[,Z]"),
            (["--dem", "d.tif", "-o", "x.png", "--fov", "0"], "option '--fov'"),
            (["--dem", "d.tif", "-o", "x.png", "--refraction", "12"], "option '--refraction'"),
            (["--dem", "d.tif", "-o", "x.png", "--pitch", "nan"], "option '--pitch'"),
        ])
    func usage(arguments: [String], message: String) {
        expectUsageError(["view"] + arguments, message)
    }

    @Test("a DEM that cannot be read is bad data: exit 1, no image")
    func badDEM() {
        let dir = TemporaryDirectory()
        let r = transect("view", "--dem", dir.file("missing.tif"), "-o", dir.file("v.png"))
        #expect(r.code == 1)
        #expect(r.err.hasPrefix("Error: "))
        #expect(!FileManager.default.fileExists(atPath: dir.file("v.png")))
    }
}
