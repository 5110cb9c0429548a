import Foundation
import Testing
import TransectSupport
@testable import TransectFormats

@Suite("scene files")
struct SceneFileTests {
    let known: Set<String> = ["dem", "size", "extent", "measure", "places", "title", "out", "hillshade-z", "legend", "basemap"]
    let flags: Set<String> = ["legend"]

    func arguments(_ text: String, path: String = "scenes/s.json") throws(FormatError) -> [String] {
        try SceneFile.arguments(data: Data(text.utf8), path: path, knownOptions: known, flags: flags)
    }

    @Test("keys sorted into flags; numbers as written; lists, sizes and measures; paths relative to the scene")
    func values() throws {
        let args = try arguments(
            #"{"title": "T", "size": [1600, 1000], "hillshade_z": 1.5e0, "legend": true, "dem": ["../d.tif"], "measure": [{"from": [-119.5, 37.25], "to": [-119.25, 37]}, "1,2:3,4"]}"#
        )
        #expect(
            args == [
                "--dem", "d.tif", "--hillshade-z", "1.5", "--legend", "--measure", "-119.5,37.25:-119.25,37",
                "--measure", "1,2:3,4", "--size", "1600x1000", "--title", "T",
            ])
        #expect(try arguments(#"{"legend": false}"#) == [])
    }

    @Test("frames, geoid and layout are paths relative to the scene; the geoid keyword egm96 is kept as written")
    func framesAndGeoid() throws {
        let options: Set<String> = ["frames", "geoid", "layout"]
        func args(_ text: String) throws(FormatError) -> [String] {
            try SceneFile.arguments(data: Data(text.utf8), path: "scenes/s.json", knownOptions: options, flags: [])
        }
        #expect(
            try args(#"{"frames": "out/frames", "geoid": "../grids/g.gtx"}"#)
                == ["--frames", "scenes/out/frames", "--geoid", "grids/g.gtx"])
        #expect(try args(#"{"geoid": "egm96"}"#) == ["--geoid", "egm96"])
        #expect(try args(#"{"layout": "boxes.json"}"#) == ["--layout", "scenes/boxes.json"])
        #expect(try args(#"{"geoid": "/usr/share/g.gtx", "frames": "/tmp/f"}"#) == ["--frames", "/tmp/f", "--geoid", "/usr/share/g.gtx"])
        // Only the exact keyword: a file that happens to be called EGM96 beside the scene is a path.
        #expect(try args(#"{"geoid": "EGM96"}"#) == ["--geoid", "scenes/EGM96"])
    }

    @Test(
        "bad scenes: named errors",
        arguments: [
            (#"[1]"#, "is not a JSON object"),
            (#"{"colour": "red"}"#, "unknown setting 'colour'"),
            (#"{"legend": 1}"#, "'legend' must be true or false"),
            (#"{"title": null}"#, "'title' has a value of the wrong kind"),
            (#"{"measure": {"from": ["a", 1], "to": [1, 2]}}"#, "a measure needs \"from\" and \"to\" as [lon, lat]"),
            (#"{"size": 0x10}"#, "line 1: is not valid JSON (unexpected 'x' where ',' or '}' should be)"),
            (#"{"size": 1e999}"#, "line 1: is not valid JSON (1e999 is beyond the range of a double)"),
            ("{\"title\":\n\"a\u{0}b\"}", "line 2: is not valid JSON (a NUL byte in a string)"),
            ("{\"title\": \"a\\u0000b\"}", "line 1: is not valid JSON (a NUL character (\\u0000) in a string)"),
        ])
    func errors(text: String, reason: String) {
        #expect(throws: FormatError.malformed(path: "scenes/s.json", reason: reason)) { try arguments(text) }
    }

    @Test("nesting beyond the limit is refused by name, not a crash")
    func deep() {
        let depth = JSON.maximumDepth + 1
        let text = "{\"title\": " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(throws: FormatError.malformed(path: "scenes/s.json", reason: "line 1: JSON nesting is deeper than \(JSON.maximumDepth) levels (the limit)")) {
            try arguments(text)
        }
    }
}
