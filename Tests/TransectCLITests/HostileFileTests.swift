import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport
@testable import TransectCLI

/// Broken and hostile files through the commands: exit 1 naming the file (and line), never a
/// crash, never a partial output file.
@Suite("hostile files through the commands")
struct HostileFileTests {
    static func write(_ bytes: [UInt8], _ path: String) { _ = FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
    static func write(_ text: String, _ path: String) { write(Array(text.utf8), path) }

    @Test("pairs: a NUL in a field, a directory and an endless line are errors naming the input; no output file")
    func pairs() throws {
        let dir = TemporaryDirectory()
        try OutputSafetyTests.inputs(dir)
        Self.write(Array("from_lon,from_lat,to_lon,to_lat\n-119.52,37.7".utf8) + [0] + Array("5,-119.5,37.73\n".utf8), dir.file("nul.csv"))
        var r = transect(["measure", "--dem", dir.file("dem.tif"), "--pairs", dir.file("nul.csv"), "-o", dir.file("out.csv")])
        #expect(r.code == 1 && r.err.contains("nul.csv") && r.err.contains("line 2") && r.err.contains("NUL"), "\(r.err)")
        #expect(r.err.hasSuffix("\n") && !r.err.contains("\u{0}"))
        r = transect(["measure", "--dem", dir.file("dem.tif"), "--pairs", dir.path, "-o", dir.file("out.csv")])
        #expect(r.code == 1 && r.err.contains("is a directory"), "\(r.err)")
        r = transect(["measure", "--dem", dir.file("dem.tif"), "--pairs", "/dev/zero", "-o", dir.file("out.csv")])
        #expect(r.code == 1 && r.err == "Error: cannot read '/dev/zero': is a character device, not a regular file\n", "\(r.err)")
        Self.write([UInt8](repeating: UInt8(ascii: "x"), count: 70_000), dir.file("long.csv"))
        r = transect(["measure", "--dem", dir.file("dem.tif"), "--pairs", dir.file("long.csv"), "-o", dir.file("out.csv")])
        #expect(r.code == 1 && r.err.contains("longer than 65536 bytes"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.csv")))
        #expect(OutputSafetyTests.extraFiles(dir, besides: ["dem.tif", "pairs.csv", "track.csv", "places.csv", "nul.csv", "long.csv"]).isEmpty)
    }

    @Test(
        "tracks and places: hidden DTDs, hex floats, absurd wkids and longitudes are refused by name",
        arguments: [
            (
                "u7.gpx",
                "<?xml version=\"1.0\"" + String(repeating: " ", count: 300) + "encoding=\"UTF-7\"?>\n<!DOCTYPE g [<!ENTITY a \"b\">]><gpx version=\"1.1\"/>",
                "UTF-7"
            ),
            ("entity.gpx", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<!-- x -->\n<!DOCTYPE g [<!ENTITY a \"b\">]></gpx>", "line"),
            ("hex.csv", "lon,lat\n1,2\n0x1p3,3\n", "line 3"),
            ("wkid.json", #"{"spatialReference":{"wkid":1e300},"paths":[[[1,2],[3,4]]]}"#, "wkid"),
            ("wkid2.json", #"{"spatialReference":{"wkid":-1e19},"paths":[[[1,2],[3,4]]]}"#, "wkid"),
        ] as [(String, String, String)])
    func tracks(name: String, text: String, message: String) {
        let dir = TemporaryDirectory()
        Self.write(text, dir.file(name))
        let r = transect(["track", "--in", dir.file(name), "--stats"])
        #expect(r.code == 1 && r.err.contains(name) && r.err.contains(message), "\(r.err)")
    }

    @Test("places with a longitude of 1e308 are refused with the file and line, before any drawing")
    func places() {
        let dir = TemporaryDirectory()
        Self.write("name,lon,lat\nA,-119.5,37.7\nB,1e308,37.7\n", dir.file("places.csv"))
        let r = transect(["render", "--places", dir.file("places.csv"), "-o", dir.file("map.png")])
        #expect(r.code == 1 && r.err.contains("places.csv") && r.err.contains("line 3"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("map.png")))
    }

    @Test("a valid GeoJSON 800 levels deep is read; one past the nesting limit is refused saying so")
    func deepGeoJSON() {
        let dir = TemporaryDirectory()
        let line = #"{"type":"LineString","coordinates":[[-119.52,37.72],[-119.5,37.73]]}"#
        var deep = line
        for _ in 0..<400 { deep = #"{"type":"GeometryCollection","geometries":["# + deep + "]}" }
        Self.write(deep, dir.file("deep.geojson"))
        var r = transect(["track", "--in", dir.file("deep.geojson"), "--stats"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("Points        2"))
        Self.write(String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000), dir.file("deeper.geojson"))
        r = transect(["track", "--in", dir.file("deeper.geojson"), "--stats"])
        #expect(r.code == 1 && r.err.contains("nesting"), "\(r.err)")
    }
}
