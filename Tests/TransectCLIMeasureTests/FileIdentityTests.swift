import Foundation
import Testing
import TransectCLIMeasure
import TransectTestSupport

/// `RunFiles`: outputs checked against every input, with the inputs' identities found once
/// (`settle()`) for a batch that checks many runs against them.
@Suite("RunFiles: outputs against inputs, inputs settled once")
struct FileIdentityTests {
    @Test("settled inputs are still refused as outputs, each file once; an input missing when settled is looked for again")
    func settle() throws {
        let dir = TemporaryDirectory()
        try "dem".write(toFile: dir.file("a.tif"), atomically: true, encoding: .utf8)
        var files = RunFiles()
        files.input("--dem", dir.file("a.tif"))
        files.input("--dem", dir.file("./a.tif"))
        files.input("--places", dir.file("later.csv"))
        files.settle()
        #expect(files.settled.count == 1)
        #expect(files.inputs.map(\.path) == [dir.file("later.csv")])
        var over = files
        over.output("-o", dir.file("a.tif"))
        #expect(
            throws: CLIError.usage(
                "option '-o': '\(dir.file("a.tif"))' is the input '\(dir.file("a.tif"))' (--dem); refusing to write over it", command: "render")
        ) {
            try over.check(command: "render")
        }
        // Made after the settling (by an earlier scene, say): still an input.
        try "lon,lat\n".write(toFile: dir.file("later.csv"), atomically: true, encoding: .utf8)
        over = files
        over.output("-o", dir.file("later.csv"))
        #expect(throws: CLIError.self) { try over.check(command: "render") }
        var other = files
        other.output("-o", dir.file("map.png"))
        #expect(throws: Never.self) { try other.check(command: "render") }
    }
}
