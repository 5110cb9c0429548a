import Foundation
import Testing
import TransectCLITestSupport
import TransectSupport
import TransectTestSupport

/// GDAL's special dataset names through the command line's doors: `--dem` and a scene file's
/// `dem`, run as a separate process so that a GDAL crash is a failed exit code, not a lost run.
@Suite("hostile GDAL names: driver prefixes at --dem and in scenes")
struct HostileGDALNameTests {
    @Test(
        "MEM::: and GTIFF_DIR: as --dem and as a scene's dem exit 1 with one line naming the prefix",
        arguments: [
            ("MEM", "MEM:::DATAPOINTER=0x1,PIXELS=10,LINES=10"), ("GTIFF_DIR", "GTIFF_DIR:1:/etc/passwd"),
        ])
    func prefixes(prefix: String, name: String) throws {
        let dir = TemporaryDirectory()
        var r = try TransectExecutable.run(
            ["measure", "--dem", name, "--from", "-119.6,37.7", "--to", "-119.5,37.75"], directory: dir.path)
        #expect(r.code == 1, "\(r.err)")
        #expect(
            r.err
                == "Error: DEM '\(name)': uses GDAL's '\(prefix):' dataset name prefix, \(prefix == "MEM" ? "which makes GDAL read memory at whatever address the name gives" : "which makes a GDAL driver open what the rest of the name says, by its own rules"); Transect opens only files named plainly\n"
        )
        // A scene file in the working directory: its relative dem stays the name as written.
        try #"{"dem": "\#(name)", "size": [100, 80], "out": "o.png", "extent": [-119.6, 37.7, -119.5, 37.78]}"#.write(
            toFile: dir.file("s.json"), atomically: true, encoding: .utf8)
        r = try TransectExecutable.run(["render", "--scene", "s.json"], directory: dir.path)
        #expect(r.code == 1, "\(r.err)")
        #expect(r.err.contains("'\(prefix):' dataset name prefix"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("o.png")))
    }

    @Test("PROJ_DATA=/nonexistent is one Error: line and exit 1, from every command that needs PROJ")
    func missingPROJDatabase() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let commands: [[String]] = [
            ["measure", "--dem", dem, "--from", "-119.6,37.7", "--to", "-119.5,37.75"],
            ["measure", "--from", "500000,4180000,100", "--to", "501000,4180000,200", "--crs", "EPSG:32611"],
            ["profile", "--dem", dem, "--from", "-119.6,37.7", "--to", "-119.5,37.75"],
            ["info", dem],
            ["render", "--dem", dem, "-o", dir.file("r.png")],
            ["view", "--dem", dem, "-o", dir.file("v.png")],
        ]
        for command in commands {
            let r = try TransectExecutable.run(command, directory: dir.path, environment: ["PROJ_DATA": "/nonexistent", "PROJ_LIB": "/nonexistent"])
            #expect(r.code == 1, "\(command): \(r.err)")
            #expect(r.err.hasPrefix("Error: PROJ's database cannot be read (Cannot find proj.db; PROJ_DATA='/nonexistent'"), "\(command): \(r.err)")
            #expect(r.err.filter { $0 == "\n" }.count == 1, "\(command): \(r.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
