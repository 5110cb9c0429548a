import Foundation
import Testing
import TransectGeodesy
import TransectTestSupport
@testable import TransectFormats
@testable import TransectSupport

@Suite("place and scene files")
struct PlaceFileTests {
    @Test("the Yosemite places file (from landmarks.csv) reads every row")
    func yosemitePlaces() throws {
        let path = SharedData.packageRoot.appendingPathComponent("data/yosemite_places.csv").path
        let places = try PlaceFile.read(path: path)
        #expect(places.count == 14)
        #expect(places[0] == NamedPoint(name: "Half Dome", point: GeoPoint(longitude: -119.5329397, latitude: 37.7460363)))
        // Names and coordinates are those of ../shared/data/landmarks.csv: the published point,
        // or the DEM's highest cell near it (dem_top_lon, dem_top_lat) where the file's
        // `coordinates` column says dem_top (the published point is on a cliff face or slope).
        let landmarks = try String(contentsOfFile: try SharedData.path("landmarks.csv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let chosen = try String(contentsOfFile: path, encoding: .utf8)
            .split(whereSeparator: \.isNewline).dropFirst().map { String($0.split(separator: ",").last!) }
        #expect(places.map(\.name) == landmarks.map { String($0[0]) })
        #expect(Set(chosen) == ["published", "dem_top"])
        #expect(chosen.filter { $0 == "dem_top" }.count == 4)
        for (k, place) in places.enumerated() {
            let (lon, lat) = chosen[k] == "dem_top" ? (6, 7) : (1, 2)
            #expect(place.point.longitude == Double(landmarks[k][lon])!, "\(place.name)")
            #expect(place.point.latitude == Double(landmarks[k][lat])!, "\(place.name)")
        }
        #expect(places.first { $0.name == "Glacier Point" }?.point == GeoPoint(longitude: -119.573611, latitude: 37.729722))
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
        #expect(
            geo == [
                NamedPoint(name: "A", point: GeoPoint(longitude: 10.5, latitude: 45.25)),
                NamedPoint(name: "B", point: GeoPoint(longitude: -3, latitude: 40)),
            ])
        try "lat,lon,name\n45,10,\"Col, du Mont\"\n".write(toFile: dir.file("q.csv"), atomically: true, encoding: .utf8)
        #expect(try PlaceFile.read(path: dir.file("q.csv")) == [NamedPoint(name: "Col, du Mont", point: GeoPoint(longitude: 10, latitude: 45))])
        try "name,lon,lat\nX,10,95\n".write(toFile: dir.file("bad.csv"), atomically: true, encoding: .utf8)
        #expect(throws: FormatError.malformed(path: dir.file("bad.csv"), reason: "line 2: latitude 95 is beyond ±90° (did you mean 95,10? points are LON,LAT)"))
        {
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
        #expect(
            args == [
                "--dem", dir.path + "/shared/dem.tif", "--measure", "1,2:3,4", "--measure", "5,6:7,8",
                "--multidirectional", "--out", base + "/out/map.png", "--size", "800x600", "--title", "T",
            ])
        #expect(SceneFile.normalised("data/../../shared/x.tif") == "../shared/x.tif")
        #expect(SceneFile.normalised("./a/./b/../c") == "a/c")
        try "{\"colour\": \"red\"}".write(toFile: dir.file("u.json"), atomically: true, encoding: .utf8)
        #expect(throws: FormatError.malformed(path: dir.file("u.json"), reason: "unknown setting 'colour'")) {
            try SceneFile.arguments(path: dir.file("u.json"), knownOptions: known, flags: [])
        }
    }
}

@Suite("place files: numbers, ranges and bytes checked where they are read")
struct PlaceFileCheckTests {
    func reason(_ text: String, path: String = "p.csv") -> String? {
        do {
            _ = try PlaceFile.read(data: Data(text.utf8), path: path)
            return nil
        } catch {
            if case .malformed(_, let r) = error { return r }
            return error.message
        }
    }

    @Test(
        "CSV: hex, nan, inf and out-of-range coordinates are refused with the line",
        arguments: [
            ("name,lon,lat\nA,1,2\n\nB,0x1p3,2\n", "line 4: lon '0x1p3' is not a number"),
            ("name,lon,lat\nA,nan,2\n", "line 2: lon 'nan' is not a number"),
            ("name,lon,lat\nA,1,inf\n", "line 2: lat 'inf' is not a number"),
            ("name,lon,lat\nA,1e308,2\n", "line 2: longitude 1e+308 is beyond ±540°"),
            ("name,lon,lat\nA,-541,2\n", "line 2: longitude -541 is beyond ±540°"),
            ("name,lon,lat\nA,100,-90.001\n", "line 2: latitude -90.001 is beyond ±90°"),
            ("name,lon,lat\nA,1\n", "line 2: has 2 fields, the header has 3"),
            ("name,lon,lat\nA,1,2\nB,3,\u{0}4\n", "line 3: contains a NUL byte"),
        ])
    func csv(text: String, expected: String) {
        #expect(reason(text) == expected)
    }

    @Test("CSV: ±540° of longitude and ±90° of latitude are accepted")
    func csvEdges() throws {
        let places = try PlaceFile.read(data: Data("name,lon,lat\nA,540,90\nB,-540,-90\n".utf8), path: "p.csv")
        #expect(places.map(\.point) == [GeoPoint(longitude: 540, latitude: 90), GeoPoint(longitude: -540, latitude: -90)])
    }

    @Test("GeoJSON: parsed by JSON.parse; out-of-range Points named; NUL refused; deep nesting refused by name")
    func geoJSON() {
        #expect(
            reason(#"{"type": "Feature", "properties": {"name": "Far"}, "geometry": {"type": "Point", "coordinates": [1e308, 0]}}"#, path: "p.geojson")
                == "Point 'Far': longitude 1e+308 is beyond ±540°")
        #expect(
            reason(#"{"type": "Point", "coordinates": [0, 91]}"#, path: "p.geojson")
                == "Point without a name: latitude 91 is beyond ±90° (did you mean 91,0? points are LON,LAT)")
        #expect(
            reason("{\"type\": \"Point\",\n\"coordinates\": [0, \u{0}1]}", path: "p.geojson")
                == "line 2: is not valid JSON (a NUL byte where a value should be)")
        #expect(
            reason(#"{"type": "Point", "coordinates": [NaN, 1]}"#, path: "p.geojson") == "line 1: is not valid JSON (unexpected 'N' where a value should be)")
        let deep = String(repeating: "[", count: JSON.maximumDepth + 1) + String(repeating: "]", count: JSON.maximumDepth + 1)
        #expect(reason(deep, path: "p.json") == "line 1: JSON nesting is deeper than \(JSON.maximumDepth) levels (the limit)")
    }

    @Test("a directory cannot be read, by name")
    func directory() {
        let dir = TemporaryDirectory()
        #expect(throws: FormatError.cannotRead(path: dir.path, reason: "is a directory")) { try PlaceFile.read(path: dir.path) }
    }

    /// Foundation's trimming is the oracle: the short way must give what it gives, for every
    /// ASCII character and a few that Foundation counts as spaces (or does not) at either end.
    @Test("a CSV field is trimmed as Foundation trims it")
    func trimmedFields() {
        let ends = (0...0x7F).map { String(UnicodeScalar(UInt8($0))) } + ["\u{A0}", "\u{2000}", "\u{200B}", "\u{3000}", "\u{FEFF}", "é", "e\u{301}", ""]
        for a in ends {
            for b in ends {
                for middle in ["", "12.5", " -7 ", "\u{A0}"] {
                    let field = a + middle + b
                    #expect(CSVLine.trimmed(field) == field.trimmingCharacters(in: .whitespaces), "\(Array(field.unicodeScalars))")
                }
            }
        }
    }
}
