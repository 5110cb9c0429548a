import Foundation
import Testing
import TransectTestSupport

/// DEMs read from an S3-compatible server on 127.0.0.1 (moto's, installed by `make test` into
/// `.build/moto-venv`): the same bytes as the local file, few requests, and a quick exit 75
/// when nothing answers. Every child process gets its `AWS_*` settings in its own environment,
/// and PROJ's network endpoint points at a closed loopback port, so nothing leaves the machine.
@Suite("DEMs from object storage (/vsis3/ on a local server)", .serialized)
struct ObjectStorageTests {
    static let venv = SharedData.packageRoot.appendingPathComponent(".build/moto-venv/bin").path
    static let motoServer = venv + "/moto_server"
    static let python = venv + "/python"
    static let motoMissing = "moto[server] is not installed in .build/moto-venv (make test installs it); skipping the object-storage test"
    static var motoInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: motoServer) && FileManager.default.isExecutableFile(atPath: python)
    }

    /// A port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The child processes' environment: the server, dummy credentials, path-style requests
    /// over plain HTTP, no proxies, and PROJ's grid server on a closed loopback port.
    static func environment(port: Int) -> [String: String] {
        [
            "AWS_S3_ENDPOINT": "127.0.0.1:\(port)", "AWS_HTTPS": "NO", "AWS_VIRTUAL_HOSTING": "FALSE",
            "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1",
            "AWS_NO_SIGN_REQUEST": "NO", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
            "http_proxy": "", "https_proxy": "", "HTTP_PROXY": "", "HTTPS_PROXY": "", "ALL_PROXY": "", "all_proxy": "",
            "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1", "PROJ_NETWORK_ENDPOINT": "http://127.0.0.1:9/",
        ]
    }

    /// Runs `executable` with `arguments`; its exit code and output.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String, environment: [String: String] = [:]
    )
        throws -> (code: Int32, out: String, err: String)
    {
        try TransectExecutable.Run(arguments, directory: directory, executable: executable, environment: environment).wait(timeout: 120)
    }

    static func transect(_ arguments: [String], in directory: String, port: Int) throws -> (code: Int32, out: String, err: String) {
        let path = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        return try run(path, arguments, in: directory, environment: environment(port: port))
    }

    @Test("measure, profile and render over /vsis3/ give the local COG's bytes; a point query costs a header and a block read")
    func sameBytes() throws {
        guard Self.motoInstalled else {
            print(Self.motoMissing)
            return
        }
        let dir = TemporaryDirectory()
        for sub in ["local", "remote"] { try FileManager.default.createDirectory(atPath: dir.file(sub), withIntermediateDirectories: true) }
        // A COG of the Yosemite DEM, labelled WGS84 (its NAD83 needs no PROJ grid then).
        let cog = dir.file("local/dem.tif")
        let translate = try Self.run(
            "/usr/bin/env", ["gdal_translate", "-q", "-of", "COG", "-a_srs", "EPSG:4326", try SharedData.path("yosemite_valley_ned1as.tif"), cog],
            in: dir.path)
        try #require(translate.code == 0, Comment(rawValue: translate.err))

        let port = try Self.freePort()
        let server = try TransectExecutable.Run(
            ["-H", "127.0.0.1", "-p", "\(port)"], directory: dir.path, executable: Self.motoServer, environment: Self.environment(port: port))
        // moto's server does not stop on SIGTERM.
        defer {
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
        }
        // The bucket and the object, through boto3 (moto's dependency), retrying while the
        // server starts.
        let upload = try Self.run(
            Self.python,
            [
                "-c",
                """
                import sys, time, boto3
                s3 = boto3.client('s3', endpoint_url='http://127.0.0.1:\(port)', region_name='us-east-1',
                                  aws_access_key_id='testing', aws_secret_access_key='testing')
                for attempt in range(100):
                    try:
                        s3.create_bucket(Bucket='bucket'); break
                    except Exception as e:
                        if attempt == 99: sys.exit('moto did not start: %s' % e)
                        time.sleep(0.2)
                s3.upload_file(sys.argv[1], 'bucket', 'dem.tif')
                """,
                cog,
            ], in: dir.path, environment: Self.environment(port: port))
        guard upload.code == 0 else {
            print("moto could not be started or used (\(upload.err.split(separator: "\n").last ?? "")); skipping the object-storage test")
            return
        }

        let remote = "/vsis3/bucket/dem.tif"
        let line = ["--from=-119.60,37.74", "--to=-119.50,37.80"]
        for (name, arguments) in [("measure", ["measure"] + line), ("profile", ["profile"] + line + ["--format", "csv"])] {
            let local = try Self.transect(arguments + ["--allow-network", "--dem", "dem.tif"], in: dir.file("local"), port: port)
            let network = try Self.transect(arguments + ["--allow-network", "--dem", remote], in: dir.file("remote"), port: port)
            #expect(local.code == 0 && network.code == 0, "\(name): \(local.err) \(network.err)")
            #expect(!local.out.isEmpty)
            #expect(network.out == local.out, "\(name)")
        }
        let render = ["render", "--measure=-119.60,37.74:-119.50,37.80", "-o", "map.png", "--allow-network"]
        let localRender = try Self.transect(render + ["--dem", "dem.tif"], in: dir.file("local"), port: port)
        let networkRender = try Self.transect(render + ["--dem", remote], in: dir.file("remote"), port: port)
        #expect(localRender.code == 0 && networkRender.code == 0, "\(localRender.err) \(networkRender.err)")
        let localPNG = try Data(contentsOf: URL(fileURLWithPath: dir.file("local/map.png")))
        let networkPNG = try Data(contentsOf: URL(fileURLWithPath: dir.file("remote/map.png")))
        #expect(localPNG.count > 1000)
        // The same image; only the text chunks, which name the DEM, differ.
        #expect(Self.chunksWithoutText(networkPNG) == Self.chunksWithoutText(localPNG))
        #expect(networkPNG.count - localPNG.count == "/vsis3/bucket/dem.tif".utf8.count - "dem.tif".utf8.count)

        // info --stats: opening reads the header in one request, one point one more.
        let info = try Self.transect(["info", "--stats", "--format", "json", "--allow-network", "--dem", remote], in: dir.path, port: port)
        try #require(info.code == 0, Comment(rawValue: info.err))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any])
        let network = try #require(object["network"] as? [String: [String: Int]])
        let open = try #require(network["open"])
        let point = try #require(network["point"])
        #expect((open["get"] ?? 0) + (open["head"] ?? 0) + (open["other"] ?? 0) == 1, "\(open)")
        #expect((point["get"] ?? 0) + (point["head"] ?? 0) + (point["other"] ?? 0) <= 1, "\(point)")
        #expect((open["bytes"] ?? 0) > 0 && (open["bytes"] ?? 0) < localPNG.count)
        let localInfo = try Self.transect(["info", "--stats", "--format", "json", "--dem", "dem.tif"], in: dir.file("local"), port: port)
        #expect(localInfo.out.contains("\"get\": 0"), "\(localInfo.out)")
    }

    /// A PNG's chunks, in order, without its text chunks (`tEXt`, `iTXt`, `zTXt`).
    static func chunksWithoutText(_ png: Data) -> [Data] {
        let bytes = [UInt8](png)
        var chunks: [Data] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 12 + length
            guard end <= bytes.count else { break }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if !["tEXt", "iTXt", "zTXt"].contains(type) { chunks.append(Data(bytes[offset..<end])) }
            offset = end
        }
        return chunks
    }

    @Test("--allow-network leaves PROJ offline: a NAD83 DEM measures and profiles as without it, grid server unreachable")
    func nad83WithNetworkAllowed() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let port = try Self.freePort()
        let line = ["--from=-119.60,37.74", "--to=-119.50,37.80", "--dem", dem]
        for arguments in [["measure", "--format", "json"] + line, ["profile", "--format", "csv"] + line] {
            // PROJ_NETWORK unset (empty): PROJ's network stays off unless it says ON.
            let offline = try Self.run(
                try #require(TransectExecutable.path), arguments, in: dir.path,
                environment: Self.environment(port: port).merging(["PROJ_NETWORK": ""]) { $1 })
            let allowed = try Self.run(
                try #require(TransectExecutable.path), arguments + ["--allow-network"], in: dir.path,
                environment: Self.environment(port: port).merging(["PROJ_NETWORK": ""]) { $1 })
            #expect(offline.code == 0 && allowed.code == 0, "\(arguments[0]): \(offline.err) \(allowed.err)")
            #expect(!offline.out.isEmpty)
            #expect(allowed.out == offline.out, "\(arguments[0])")
        }
    }

    @Test("/vsis3/ against a closed port on 127.0.0.1 fails at once with exit 75 and one line naming the path")
    func refused() throws {
        let dir = TemporaryDirectory()
        let port = try Self.freePort()
        let remote = "/vsis3/bucket/dem.tif"
        for arguments in [
            ["info", "--allow-network", "--dem", remote], ["measure", "--allow-network", "--dem", remote, "--from=-119.6,37.74", "--to=-119.5,37.8"],
        ] {
            let result = try Self.transect(arguments, in: dir.path, port: port)
            #expect(result.code == 75, "\(result)")
            #expect(result.out.isEmpty)
            let lines = result.err.split(separator: "\n")
            #expect(lines.count == 1, "\(result.err)")
            #expect(result.err.hasPrefix("Error: DEM '\(remote)': cannot open: "), "\(result.err)")
        }
        // Without --allow-network the path is refused before any request: a usage error.
        let refused = try Self.transect(["info", "--dem", remote], in: dir.path, port: port)
        #expect(refused.code == 2)
    }
}
