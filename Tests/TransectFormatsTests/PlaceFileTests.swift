import Foundation
import Testing
import TransectCore
import TransectTestSupport
@testable import TransectFormats

@Suite("place and scene files")
struct PlaceFileTests {
    @Test("the Yosemite places file (from landmarks.csv) reads every row")
    func yosemitePlaces() throws {
        let path = SharedData.packageRoot.appendingPathComponent("data/yosemite_places.csv").path
        let places = try PlaceFile.read(path: path)
        #expect(places.count == 14)
        #expect(places[0] == NamedPoint(name: "Half Dome", point: GeoPoint(longitude: -119.5329397, latitude: 37.7460363)))
        // Names and coordinates are those of ../shared/data/landmarks.csv.
        let landmarks = try String(contentsOfFile: try SharedData.path("landmarks.csv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",") }
        #expect(places.map(\.name) == landmarks.map { String($0[0]) })
        #expect(places.map(\.point.longitude) == landmarks.map { Double($0[1])! })
    }

    @Test("GeoJSON points with names; quoted CSV names; bad rows are refused with the row number")
    func formats() throws {
        let dir = TemporaryDirectory()
        try """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "A"}, "geometry": {"type": "Point", "coordinates": [10.5, 45.25]}},
          {"type": "Feature", "properties": {"title": "B"}, "geometry": {"type": "Point", "coordinates": [-3, 40, 650]}},
          {"type": "Feature", "properties": {"name": "line"}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}
        """.write(toFile: dir.file("p.geojson"), atomically: true, encoding: .utf8)
        let geo = try PlaceFile.read(path: dir.file("p.geojson"))
        #expect(geo == [NamedPoint(name: "A", point: GeoPoint(longitude: 10.5, latitude: 45.25)),
                        NamedPoint(name: "B", point: GeoPoint(longitude: -3, latitude: 40))])
        try "lat,lon,name\n45,10,\"Col, du Mont\"\n".write(toFile: dir.file("q.csv"), atomically: true, encoding: .utf8)
        #expect(try PlaceFile.read(path: dir.file("q.csv")) == [NamedPoint(name: "Col, du Mont", point: GeoPoint(longitude: 10, latitude: 45))])
        try "name,lon,lat\nX,10,95\n".write(toFile: dir.file("bad.csv"), atomically: true, encoding: .utf8)
        #expect(throws: FormatError.malformed(path: dir.file("bad.csv"), reason: "line 2: latitude 95 is beyond ±90°")) {
            try PlaceFile.read(path: dir.file("bad.csv"))
        }
        try "title,x\n".write(toFile: dir.file("nohead.csv"), atomically: true, encoding: .utf8)
        #expect(throws: FormatError.malformed(path: dir.file("nohead.csv"), reason: "line 1: header needs name, lon and lat columns")) {
            try PlaceFile.read(path: dir.file("nohead.csv"))
        }
    }

    @Test("a scene becomes the flags it stands for, with paths relative to the scene kept relative")
    func scene() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("a/b"), withIntermediateDirectories: true)
        try """
        {"dem": ["../../shared/dem.tif"], "size": [800, 600], "multidirectional": true, "fit": false,
         "measure": [{"from": [1, 2], "to": [3, 4]}, "5,6:7,8"], "title": "T", "out": "out/map.png"}
        """.write(toFile: dir.file("a/b/s.json"), atomically: true, encoding: .utf8)
        let known: Set<String> = ["dem", "size", "multidirectional", "fit", "measure", "title", "out"]
        let args = try SceneFile.arguments(path: dir.file("a/b/s.json"), knownOptions: known, flags: ["multidirectional", "fit"])
        let base = dir.path + "/a/b"
        #expect(args == ["--dem", dir.path + "/shared/dem.tif", "--measure", "1,2:3,4", "--measure", "5,6:7,8",
                         "--multidirectional", "--out", base + "/out/map.png", "--size", "800x600", "--title", "T"])
        #expect(SceneFile.normalised("data/../../shared/x.tif") == "../shared/x.tif")
        #expect(SceneFile.normalised("./a/./b/../c") == "a/c")
        try "{\"colour\": \"red\"}".write(toFile: dir.file("u.json"), atomically: true, encoding: .utf8)
        #expect(throws: FormatError.malformed(path: dir.file("u.json"), reason: "unknown setting 'colour'")) {
            try SceneFile.arguments(path: dir.file("u.json"), knownOptions: known, flags: [])
        }
    }
}
