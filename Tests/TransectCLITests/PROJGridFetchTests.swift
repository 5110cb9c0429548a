import Foundation
import Testing
import TransectTestSupport

/// With `--allow-network` and `PROJ_NETWORK=ON`, PROJ prefers an operation whose grid it
/// fetches (NAD83 → WGS84 through a NOAA HPGN grid for the Yosemite DEM). When the grid server
/// cannot be reached, the points have no answer, not a place outside the DEM: each command says
/// which grid could not be fetched and why, in one line, exits 75 (worth retrying) and writes
/// nothing. The server here is a closed port on 127.0.0.1.
@Suite("a transformation grid PROJ cannot fetch: one line naming it, exit 75, no output")
struct PROJGridFetchTests {
    @Test("measure, measure --pairs, profile and render")
    func unreachableGridServer() throws {
        let executable = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let dir = TemporaryDirectory()
        try "from_lon,from_lat,to_lon,to_lat\n-119.6,37.7,-119.5,37.75\n".write(toFile: dir.file("pairs.csv"), atomically: false, encoding: .utf8)
        let environment = [
            "PROJ_NETWORK": "ON", "PROJ_NETWORK_ENDPOINT": "http://127.0.0.1:9", "PROJ_USER_WRITABLE_DIRECTORY": dir.path,
            "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1",
        ]
        let ends = ["--from", "-119.6,37.7", "--to", "-119.5,37.75"]
        let runs: [(arguments: [String], output: String?)] = [
            (["measure", "--allow-network", "--dem", dem] + ends, nil),
            (["measure", "--allow-network", "--dem", dem, "--pairs", "pairs.csv", "-o", "measured.csv"], "measured.csv"),
            (["profile", "--allow-network", "--dem", dem] + ends + ["--samples", "5", "-o", "profile.csv"], "profile.csv"),
            (["render", "--allow-network", "--dem", dem, "--size", "200x150", "-o", "map.png"], "map.png"),
        ]
        for (arguments, output) in runs {
            let r = try TransectExecutable.run(arguments, directory: dir.path, executable: executable, environment: environment)
            #expect(r.code == 75, "\(arguments): \(r.err)")
            #expect(r.out.isEmpty, "\(arguments): \(r.out)")
            let lines = r.err.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(r.err)")
            let line = String(lines.first ?? "")
            #expect(line.hasPrefix("Error: cannot transform from EPSG:"), "\(arguments): \(line)")
            #expect(line.contains("http://127.0.0.1:9/") && line.contains(".tif") && line.lowercased().contains("connect"), "\(arguments): \(line)")
            if let output { #expect(!FileManager.default.fileExists(atPath: dir.file(output)), "\(arguments): \(output) written") }
        }
        // The control: PROJ's network off, the same command measures.
        var offline = environment
        offline["PROJ_NETWORK"] = "OFF"
        let r = try TransectExecutable.run(runs[0].arguments, directory: dir.path, executable: executable, environment: offline)
        #expect(r.code == 0 && r.err.isEmpty, "\(r.err)")
    }
}
