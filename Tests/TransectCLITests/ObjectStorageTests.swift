import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

/// DEMs read from an S3-compatible server on 127.0.0.1 (moto's, installed by `make test` into
/// `.build/moto-venv`; ``LocalObjectStore``): the same bytes as the local file, few requests,
/// and exit 75 when the server is not there or stops answering. Every child process gets its
/// `AWS_*` settings in its own environment, and PROJ's network endpoint points at a closed
/// loopback port, so nothing leaves the machine.
@Suite("DEMs from object storage (/vsis3/ on a local server)", .serialized)
struct ObjectStorageTests {
    typealias Store = LocalObjectStore

    @Test("measure, profile and render over /vsis3/ give the local COG's bytes; a point query costs a header and a block read")
    func sameBytes() throws {
        let dir = TemporaryDirectory()
        for sub in ["local", "remote"] { try FileManager.default.createDirectory(atPath: dir.file(sub), withIntermediateDirectories: true) }
        try Store.writeCOG(dir.file("local/dem.tif"), in: dir.path)
        guard let server = try Store.start(in: dir.path, objects: ["dem.tif": dir.file("local/dem.tif")]) else { return }
        let port = server.port

        let remote = "/vsis3/bucket/dem.tif"
        let line = ["--from=-119.60,37.74", "--to=-119.50,37.80"]
        for (name, arguments) in [("measure", ["measure"] + line), ("profile", ["profile"] + line + ["--format", "csv"])] {
            let local = try Store.transect(arguments + ["--allow-network", "--dem", "dem.tif"], in: dir.file("local"), port: port)
            let network = try Store.transect(arguments + ["--allow-network", "--dem", remote], in: dir.file("remote"), port: port)
            #expect(local.code == 0 && network.code == 0, "\(name): \(local.err) \(network.err)")
            #expect(!local.out.isEmpty)
            #expect(network.out == local.out, "\(name)")
        }
        let render = ["render", "--measure=-119.60,37.74:-119.50,37.80", "-o", "map.png", "--allow-network"]
        let localRender = try Store.transect(render + ["--dem", "dem.tif"], in: dir.file("local"), port: port)
        let networkRender = try Store.transect(render + ["--dem", remote], in: dir.file("remote"), port: port)
        #expect(localRender.code == 0 && networkRender.code == 0, "\(localRender.err) \(networkRender.err)")
        let localPNG = try Data(contentsOf: URL(fileURLWithPath: dir.file("local/map.png")))
        let networkPNG = try Data(contentsOf: URL(fileURLWithPath: dir.file("remote/map.png")))
        #expect(localPNG.count > 1000)
        // The same image; only the text chunks, which name the DEM, differ.
        #expect(Store.chunksWithoutText(networkPNG) == Store.chunksWithoutText(localPNG))
        #expect(networkPNG.count - localPNG.count == "/vsis3/bucket/dem.tif".utf8.count - "dem.tif".utf8.count)

        // info --stats: opening reads the header in one request, one point one more.
        let info = try Store.transect(["info", "--stats", "--format", "json", "--allow-network", "--dem", remote], in: dir.path, port: port)
        try #require(info.code == 0, Comment(rawValue: info.err))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any])
        let network = try #require(object["network"] as? [String: [String: Int]])
        let open = try #require(network["open"])
        let point = try #require(network["point"])
        #expect((open["get"] ?? 0) + (open["head"] ?? 0) + (open["other"] ?? 0) == 1, "\(open)")
        #expect((point["get"] ?? 0) + (point["head"] ?? 0) + (point["other"] ?? 0) == 1, "\(point)")
        #expect((open["bytes"] ?? 0) > 0 && (open["bytes"] ?? 0) < localPNG.count)
        let localInfo = try Store.transect(["info", "--stats", "--format", "json", "--dem", "dem.tif"], in: dir.file("local"), port: port)
        #expect(localInfo.out.contains("\"get\": 0"), "\(localInfo.out)")
    }

    @Test("measure with both endpoints' taps in one 512² block of the COG: the header and that block, two requests in all")
    func pointQueryCost() throws {
        let dir = TemporaryDirectory()
        try Store.writeCOG(dir.file("dem.tif"), in: dir.path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dir.file("dem.tif"))[.size] as? Int)
        guard let server = try Store.start(in: dir.path, objects: ["dem.tif": dir.file("dem.tif")]) else { return }
        // Cells (40, 49) and (76, 85): block (0, 0), away from its edges.
        let measure = ["measure", "--from=-119.66,37.85", "--to=-119.65,37.84", "--allow-network"]
        let local = try Store.transect(measure + ["--dem", "dem.tif"], in: dir.path, port: server.port)
        // GDAL prints its count of requests and bytes on stdout at exit.
        let counted = try Store.transect(
            measure + ["--dem", "/vsis3/bucket/dem.tif"], in: dir.path, port: server.port, extra: ["CPL_VSIL_SHOW_NETWORK_STATS": "YES"])
        try #require(local.code == 0 && counted.code == 0, "\(local.err) \(counted.err)")
        let statistics = try Store.splitStatistics(counted.out)
        #expect(statistics.output == local.out)
        #expect(statistics.requests == 2, "\(counted.out)")
        // The header (16 KiB) and one of the six full-resolution blocks, far less than the file.
        #expect(statistics.bytes > 16384 && statistics.bytes < size / 3, "\(statistics.bytes) of \(size)")
    }

    @Test("a STAC item collection whose asset is the COG on the server: measure gives the local file's bytes, both ways of naming it")
    func stacItems() throws {
        let dir = TemporaryDirectory()
        try Store.writeCOG(dir.file("dem.tif"), in: dir.path)
        guard let server = try Store.start(in: dir.path, objects: ["dem.tif": dir.file("dem.tif")]) else { return }
        // The item's projection as the COG's own geotransform and size (gdalinfo's).
        let info = try Store.run("/usr/bin/env", ["gdalinfo", "-json", dir.file("dem.tif")], in: dir.path)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any])
        let gt = try #require(json["geoTransform"] as? [Double])
        let size = try #require(json["size"] as? [Int])
        let item: [String: Any] = [
            "type": "Feature", "stac_version": "1.0.0", "id": "yosemite", "collection": "dem",
            "stac_extensions": ["https://stac-extensions.github.io/projection/v1.1.0/schema.json"],
            "geometry": NSNull(), "bbox": [gt[0], gt[3] + Double(size[1]) * gt[5], gt[0] + Double(size[0]) * gt[1], gt[3]],
            "properties": [
                "datetime": "2020-01-01T00:00:00Z", "proj:epsg": 4326, "proj:shape": [size[1], size[0]],
                "proj:transform": [gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]],
            ],
            "assets": ["elevation": ["href": "/vsis3/bucket/dem.tif", "type": "image/tiff; application=geotiff", "roles": ["data"]]],
        ]
        let collection: [String: Any] = ["type": "FeatureCollection", "features": [item]]
        try JSONSerialization.data(withJSONObject: collection).write(to: URL(fileURLWithPath: dir.file("items.json")))

        let line = ["--from=-119.60,37.74", "--to=-119.50,37.80", "--allow-network"]
        for format in ["text", "json"] {
            let local = try Store.transect(["measure", "--format", format] + line + ["--dem", "dem.tif"], in: dir.path, port: server.port)
            try #require(local.code == 0 && !local.out.isEmpty, Comment(rawValue: local.err))
            for dem in ["items.json", "STACIT:\"items.json\":asset=elevation"] {
                let stac = try Store.transect(["measure", "--format", format] + line + ["--dem", dem], in: dir.path, port: server.port)
                #expect(stac.code == 0, "\(dem): \(stac.err)")
                // JSON names the DEM; everything else is the same bytes.
                let named =
                    "\"dem\": "
                    + String(decoding: try JSONSerialization.data(withJSONObject: [dem], options: .withoutEscapingSlashes), as: UTF8.self).dropFirst()
                    .dropLast()
                #expect(stac.out.replacingOccurrences(of: named, with: "\"dem\": \"dem.tif\"") == local.out, "\(dem)")
            }
        }
        // Without --allow-network the item list is refused before anything is read.
        let refused = try Store.transect(["measure", "--from=-119.60,37.74", "--to=-119.50,37.80", "--dem", "items.json"], in: dir.path, port: server.port)
        #expect(refused.code != 0 && refused.err.contains("--allow-network"), "\(refused)")
    }

    @Test("a server that answers the header and then is gone: measure and render fail with exit 75, one line and no file")
    func serverGoneAfterHeader() throws {
        let dir = TemporaryDirectory()
        try Store.writeCOG(dir.file("dem.tif"), in: dir.path)
        // Serves one ranged GET from the COG (the header read), then closes its socket and
        // exits, so the next request finds nothing listening.
        let script = """
            import re, socket, sys
            data = open(sys.argv[1], 'rb').read()
            server = socket.socket(); server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(('127.0.0.1', int(sys.argv[2]))); server.listen(1); server.settimeout(60)
            open(sys.argv[3], 'w').close()
            connection, _ = server.accept()
            request = b''
            while b'\\r\\n\\r\\n' not in request:
                chunk = connection.recv(65536)
                if not chunk: break
                request += chunk
            match = re.search(rb'[Rr]ange: bytes=(\\d+)-(\\d+)', request)
            start, end = (int(match.group(1)), min(int(match.group(2)), len(data) - 1)) if match else (0, len(data) - 1)
            body = data[start:end + 1]
            connection.sendall(b'HTTP/1.1 206 Partial Content\\r\\nContent-Range: bytes %d-%d/%d\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n' % (start, end, len(data), len(body)) + body)
            connection.close(); server.close()
            """
        let remote = "/vsis3/bucket/dem.tif"
        let line = ["--from=-119.60,37.74", "--to=-119.50,37.80"]
        for arguments in [["measure"] + line, ["render", "-o", "map.png"], ["render", "--measure=-119.60,37.74:-119.50,37.80", "-o", "map.png"]] {
            let port = try Store.freePort()
            let ready = dir.file("listening-\(port)")
            let server = try TransectExecutable.Run(
                ["python3", "-c", script, dir.file("dem.tif"), "\(port)", ready], directory: dir.path, executable: "/usr/bin/env")
            defer {
                kill(server.process.processIdentifier, SIGKILL)
                server.process.waitUntilExit()
            }
            var waits = 0
            while !FileManager.default.fileExists(atPath: ready) && server.process.isRunning && waits < 3000 {
                usleep(10_000)
                waits += 1
            }
            try #require(FileManager.default.fileExists(atPath: ready), "the one-request server did not start")
            let result = try Store.transect(arguments + ["--allow-network", "--dem", remote], in: dir.path, port: port)
            #expect(result.code == 75, "\(arguments[0]): \(result)")
            #expect(result.out.isEmpty)
            #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
            #expect(result.err.hasPrefix("Error: DEM '\(remote)': read failed: "), "\(result.err)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("map.png")))
        }
    }

    @Test("--allow-network leaves PROJ offline: a NAD83 DEM measures and profiles as without it, grid server unreachable")
    func nad83WithNetworkAllowed() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let port = try Store.freePort()
        let line = ["--from=-119.60,37.74", "--to=-119.50,37.80", "--dem", dem]
        for arguments in [["measure", "--format", "json"] + line, ["profile", "--format", "csv"] + line] {
            // PROJ_NETWORK unset (empty): PROJ's network stays off unless it says ON.
            let offline = try Store.run(
                try #require(TransectExecutable.path), arguments, in: dir.path,
                environment: Store.environment(port: port).merging(["PROJ_NETWORK": ""]) { $1 })
            let allowed = try Store.run(
                try #require(TransectExecutable.path), arguments + ["--allow-network"], in: dir.path,
                environment: Store.environment(port: port).merging(["PROJ_NETWORK": ""]) { $1 })
            #expect(offline.code == 0 && allowed.code == 0, "\(arguments[0]): \(offline.err) \(allowed.err)")
            #expect(!offline.out.isEmpty)
            #expect(allowed.out == offline.out, "\(arguments[0])")
        }
    }

    @Test("/vsis3/ against a closed port on 127.0.0.1 fails at once with exit 75 and one line naming the path")
    func refused() throws {
        let dir = TemporaryDirectory()
        let port = try Store.freePort()
        let remote = "/vsis3/bucket/dem.tif"
        for arguments in [
            ["info", "--allow-network", "--dem", remote], ["measure", "--allow-network", "--dem", remote, "--from=-119.6,37.74", "--to=-119.5,37.8"],
        ] {
            let result = try Store.transect(arguments, in: dir.path, port: port)
            #expect(result.code == 75, "\(result)")
            #expect(result.out.isEmpty)
            let lines = result.err.split(separator: "\n")
            #expect(lines.count == 1, "\(result.err)")
            #expect(result.err.hasPrefix("Error: DEM '\(remote)': cannot open: "), "\(result.err)")
        }
        // Without --allow-network the path is refused before any request: a usage error.
        let refused = try Store.transect(["info", "--dem", remote], in: dir.path, port: port)
        #expect(refused.code == 2)
    }
}
