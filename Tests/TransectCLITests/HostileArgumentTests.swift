import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport
@testable import TransectCLI

/// Single values that used to trap, exhaust memory or print `inf`: each is now refused where it
/// enters, with exit 2 naming the option and the limit.
@Suite("hostile numbers on the command line")
struct HostileArgumentTests {
    static let from = "--from=-119.52,37.72", to = "--to=-119.50,37.73"

    /// A tiny geographic DEM and a three-point CSV track in `dir`.
    static func inputs(_ dir: TemporaryDirectory) throws {
        try OutputSafetyTests.inputs(dir)
    }

    static let cases: [([String], String)] = [
        (["profile", "--dem", "dem.tif", from, to, "--step", "1e-12"], "samples, more than 10,000,000"),
        (["profile", "--dem", "dem.tif", from, to, "--samples", "9223372036854775807"], "option '--samples'"),
        (["profile", "--dem", "dem.tif", from, to, "--samples", "20000000"], "raise --max-samples"),
        (["profile", "--dem", "dem.tif", "--track", "track.csv", "--max-segment", "1e-300"], "option '--max-segment'"),
        (["track", "--in", "track.csv", "--simulate", "--max-segment", "1e-300"], "more than 10,000,000"),
        (["track", "--in", "track.csv", "--simulate", "--max-segment", "1e-6"], "use a longer segment"),
        (["track", "--in", "track.csv", "--simulate", "--speed", "1e-6"], "use a higher speed"),
        (["render", "--track", "track.csv", "--max-segment", "1e-300", "-o", "x.png"], "option '--max-segment'"),
        (["render", "--extent=-inf,37.7,inf,37.8", "-o", "x.png"], "option '--extent'"),
        (["render", "--extent=1e308,0,1.7e308,1", "-o", "x.png"], "option '--extent'"),
        (["render", "--extent=0x1p3,0,9,1", "-o", "x.png"], "option '--extent'"),
        (["render", "--extent=-119.6,37.7,-119.5,37.8", "--margin", "1e308", "-o", "x.png"], "option '--margin'"),
        (["render", "--extent-crs=-1e308,0,1e308,1", "--frame-crs", "EPSG:32611", "-o", "x.png"], "option '--extent-crs'"),
        (["render", "--extent=-119.6,37.7,-119.5,37.8", "--dpi", "1e308", "-o", "x.png"], "option '--dpi'"),
        (["render", "--extent=-119.6,37.7,-119.5,37.8", "--size", "40000x10", "-o", "x.png"], "cairo cannot draw more than 32,767 pixels a side"),
        (["render", "--extent=-119.6,37.7,-119.5,37.8", "--size", "10x99999999999999999999", "-o", "x.png"], "option '--size'"),
        (["render", "--dem", "dem.tif", "--z-factor", "1e308", "-o", "x.png"], "option '--z-factor'"),
        (["render", "--dem", "dem.tif", "--altitude", "91", "-o", "x.png"], "option '--altitude'"),
        (["profile", "--dem", "dem.tif", from, to, "--chart", "c.png", "--chart-size", "99999x300"], "cairo cannot draw"),
        (["measure", "--from", "1,2,1e308", "--to", "1,3,0"], "beyond ±100,000 km"),
        (["measure", "--from", "1,2,0x1p3", "--to", "1,3,0"], "is not a number"),
        (["measure", "--from", "1,2,nan", "--to", "1,3,0"], "is not a finite number"),
        (["measure", "--from", "1,2", "--to", "1,3", "--above-ground", "1e308"], "option '--above-ground'"),
        (["measure", "--from", "--to", "1,2"], "option '--from' needs a value"),
        (["profile", "--dem", "dem.tif", from, to, "--observer-height", "1e308"], "option '--observer-height'"),
        (["profile", "--dem", "dem.tif", from, to, "--curvature", "inf"], "option '--curvature'"),
        (["track", "--in", "track.csv", "--stats", "--gain-threshold", "1e308"], "option '--gain-threshold'"),
        (["render", "--track", "track.csv", "--every", "9223372036854775807", "--frames", "f"], "option '--every'"),
    ]

    @Test("refused with exit 2 naming the option, writing nothing", arguments: cases)
    func refused(arguments: [String], message: String) throws {
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        let args = arguments.map { ["dem.tif", "track.csv", "x.png", "c.png", "f"].contains($0) ? dir.file($0) : $0 }
        let r = transect(args)
        #expect(r.code == 2, "\(r.err)")
        #expect(r.err.hasPrefix("Error: ") && r.err.contains(message), "\(r.err)")
        #expect(OutputSafetyTests.extraFiles(dir, besides: ["dem.tif", "pairs.csv", "track.csv", "places.csv"]).isEmpty)
    }

    @Test("the real executable exits 2 on the values that used to trap (signal 4), never by a signal")
    func noTraps() throws {
        try #require(TransectExecutable.path != nil, Comment(rawValue: TransectExecutable.missing))
        let dir = TemporaryDirectory()
        try Self.inputs(dir)
        for (arguments, _) in Self.cases.prefix(10) {
            let r = try TransectExecutable.run(arguments, directory: dir.path)
            #expect(r.code == 2, "\(arguments): \(r.err)")
        }
    }

    @Test("a DEM cell beyond ±100,000 km is an error naming the DEM, never an infinite distance")
    func absurdDEMHeight() throws {
        let dir = TemporaryDirectory()
        SyntheticDEM.write(
            path: dir.file("huge.tif"), width: 60, height: 40, geoTransform: [-119.53, 0.001, 0, 37.74, 0, -0.001],
            crs: "EPSG:4326"
        ) { _, _ in 1e300 }
        let r = transect(["measure", "--dem", dir.file("huge.tif"), Self.from, Self.to])
        #expect(r.code == 1 && r.err.contains("huge.tif") && r.err.contains("beyond ±100,000 km"), "\(r.err)")
        #expect(!r.out.contains("inf"))
    }
}
