import Foundation
import Testing
import TransectCLITestSupport
import TransectGeodesy
import TransectSupport
import TransectTestSupport

@testable import TransectCLI

@Suite("profile to a GeoPackage: the path, its samples and the first obstruction as layers")
struct ProfileLayerTests {
    static let halfDome = "-119.5329397,37.7460363"
    static let glacierPoint = "-119.573056,37.730833"

    /// The JSON output of the same profile, for the layers to agree with.
    static func json(_ args: [String]) throws -> [String: Any] {
        let r = transect(["profile"] + args + ["--format", "json"])
        #expect(r.code == 0, "\(r.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    }

    @Test("the layers hold the JSON's samples, statistics and verdict; two runs give the same bytes; SQLite finds the file sound")
    func layersAgreeWithJSON() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let args = ["--dem", dem, "--from", Self.halfDome, "--to", Self.glacierPoint]
        for run in 1...2 { #expect(transect(["profile"] + args + ["-o", dir.file("p\(run).gpkg")]).code == 0) }
        let bytes = try [1, 2].map { try Data(contentsOf: URL(fileURLWithPath: dir.file("p\($0).gpkg"))) }
        #expect(!bytes[0].isEmpty && bytes[0] == bytes[1])
        let object = try Self.json(args)
        let samples = try #require(object["samples"] as? [[String: Any]])
        let stats = try #require(object["stats"] as? [String: Any])
        let los = try #require(object["line_of_sight"] as? [String: Any])

        let profile = try ReadLayer(dir.file("p1.gpkg"), layer: 0)
        #expect(profile.name == "profile" && profile.features.count == 1)
        let line = try #require(profile.features.first)
        #expect(line.vertices.count == samples.count, "no gap: one part through every sample")
        #expect(line.fields["line_of_sight"] == los["verdict"] as? String)
        for key in ["horizontal_length_m", "elevation_gain_m", "max_positive_slope_pct", "min_elevation_m"] {
            let expected = try #require(stats[key] as? Double)
            #expect(line.fields[key].flatMap { $0.flatMap(Double.init) } == expected, "\(key)")
        }

        let points = try ReadLayer(dir.file("p1.gpkg"), layer: 1)
        #expect(points.name == "samples" && points.features.count == samples.count)
        for (feature, sample) in zip(points.features, samples) {
            #expect(feature.fields["distance_m"].flatMap { $0.flatMap(Double.init) } == sample["distance_m"] as? Double)
            #expect(feature.vertices.first.map { Fixed.format($0.x, decimals: 9) } == (sample["lon"] as? Double).map { Fixed.format($0, decimals: 9) })
            #expect(feature.vertices.first.map { Fixed.format($0.z, decimals: 6) } == (sample["elevation_m"] as? Double).map { Fixed.format($0, decimals: 6) })
        }

        let obstruction = try ReadLayer(dir.file("p1.gpkg"), layer: 2)
        #expect(obstruction.name == "obstruction")
        let first = los["first_obstruction"] as? [String: Any]
        #expect(obstruction.features.count == (first == nil ? 0 : 1))
        if let first, let point = obstruction.features.first {
            #expect(point.fields["distance_m"].flatMap { $0.flatMap(Double.init) } == first["distance_m"] as? Double)
        }

        if ExternalTool.available("sqlite3") {
            let check = try ExternalTool.run("sqlite3", [dir.file("p1.gpkg"), "PRAGMA integrity_check;"])
            #expect(check.out == "ok\n", "\(check.out)\(check.err)")
        }
    }

    @Test("a no-data hole splits the line: no part bridges the gap, and the gap's samples have no geometry")
    func gapSplitsTheLine() throws {
        let dir = TemporaryDirectory()
        let aeqd = "+proj=aeqd +lat_0=45 +lon_0=10 +datum=WGS84 +units=m +no_defs"
        // A plane on 10 m cells with x ∈ [1000, 1500) on no data, as ProfileCommandTests' hole.
        SyntheticDEM.write(path: dir.file("hole.tif"), width: 700, height: 100, geoTransform: [-1000, 10, 0, 505, 0, -10], crs: aeqd, noData: -9999) {
            c, _ in
            let x = -1000 + (Double(c) + 0.5) * 10
            return (1000..<1500).contains(x) ? -9999 : 1000 + 0.1 * x
        }
        let end = Geodesic.wgs84.direct(latitude1: 45, longitude1: 10, azimuth1Degrees: 90, distanceMetres: 3000).point
        let r = transect(
            "profile", "--dem", dir.file("hole.tif"), "--from", "10,45", "--to", "\(end.longitude),\(end.latitude)", "--step", "7", "-o",
            dir.file("hole.gpkg"))
        #expect(r.code == 0, "\(r.err)")
        let line = try #require(try ReadLayer(dir.file("hole.gpkg"), layer: 0).features.first)
        #expect(line.fields["gap_count"] == "1")
        let samples = try ReadLayer(dir.file("hole.gpkg"), layer: 1).features
        let gaps = samples.filter { $0.vertices.isEmpty }
        // The gap's samples at 1,001 … 1,498 m (ProfileCommandTests.hole): 72 of them.
        #expect(gaps.count == 72 && gaps.allSatisfy { $0.fields["elevation_m"] == .some(nil) })
        #expect(line.vertices.count == samples.count - gaps.count)
        let parts = try ExternalTool.available("ogrinfo") ? ExternalTool.run("ogrinfo", ["-al", "-q", dir.file("hole.gpkg"), "profile"]).out : ""
        if !parts.isEmpty { #expect(parts.contains("MULTILINESTRING Z ((") && parts.components(separatedBy: "),(").count == 2, "two parts") }
    }

    @Test("a profile's layers need a GeoPackage and a file")
    func usage() {
        let args = ["profile", "--from", Self.halfDome, "--to", Self.glacierPoint]
        expectUsageError(args + ["-o", "p.geojson"], "option '-o': a profile is three layers (profile, samples, obstruction), which only a GeoPackage holds")
        expectUsageError(args + ["--format", "gpkg"], "option '--format': a gpkg is written to a file: give -o FILE")
    }
}
