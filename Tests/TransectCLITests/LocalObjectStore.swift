import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

/// What the object-storage tests share: moto's S3-compatible server on 127.0.0.1 (installed by
/// `make test` into `.build/moto-venv`), the child processes' environment, the COG they read
/// and GDAL's count of the requests a run made. Nothing here talks to any address but
/// 127.0.0.1.
enum LocalObjectStore {
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
    ) throws -> (code: Int32, out: String, err: String) {
        try TransectExecutable.Run(arguments, directory: directory, executable: executable, environment: environment).wait(timeout: 120)
    }

    /// Runs the built `transect` against the server on `port`, with `extra` in its environment.
    static func transect(
        _ arguments: [String], in directory: String, port: Int, extra: [String: String] = [:]
    ) throws -> (code: Int32, out: String, err: String) {
        let path = try #require(TransectExecutable.path, Comment(rawValue: TransectExecutable.missing))
        return try run(path, arguments, in: directory, environment: environment(port: port).merging(extra) { $1 })
    }

    /// Writes a Cloud-Optimized GeoTIFF of the Yosemite DEM (512² blocks) at `path`, labelled
    /// WGS84 (so no PROJ grid is involved), through `gdal_translate`.
    static func writeCOG(_ path: String, in directory: String) throws {
        let translate = try run(
            "/usr/bin/env", ["gdal_translate", "-q", "-of", "COG", "-a_srs", "EPSG:4326", try SharedData.path("yosemite_valley_ned1as.tif"), path],
            in: directory)
        try #require(translate.code == 0, Comment(rawValue: translate.err))
    }

    /// A moto server on a free loopback port with bucket `bucket` holding `objects` (key →
    /// local file). Killed when released.
    final class Server {
        let port: Int
        let run: TransectExecutable.Run

        init(port: Int, run: TransectExecutable.Run) {
            self.port = port
            self.run = run
        }

        // moto's server does not stop on SIGTERM.
        deinit {
            kill(run.process.processIdentifier, SIGKILL)
            run.process.waitUntilExit()
        }
    }

    /// Starts the server and uploads `objects`; nil, after saying why, when moto is missing or
    /// cannot be started.
    static func start(in directory: String, objects: [String: String]) throws -> Server? {
        guard motoInstalled else {
            print(motoMissing)
            return nil
        }
        let port = try freePort()
        let server = Server(
            port: port,
            run: try TransectExecutable.Run(
                ["-H", "127.0.0.1", "-p", "\(port)"], directory: directory, executable: motoServer, environment: environment(port: port)))
        // The bucket and the objects, through boto3 (moto's dependency), retrying while the
        // server starts.
        let upload = try run(
            python,
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
                for k in range(1, len(sys.argv), 2):
                    s3.upload_file(sys.argv[k], 'bucket', sys.argv[k + 1])
                """,
            ] + objects.sorted { $0.key < $1.key }.flatMap { [$0.value, $0.key] }, in: directory, environment: environment(port: port))
        guard upload.code == 0 else {
            print("moto could not be started or used (\(upload.err.split(separator: "\n").last ?? "")); skipping the object-storage test")
            return nil
        }
        return server
    }

    /// What GDAL counted, printed at the end of a run's stdout with
    /// `CPL_VSIL_SHOW_NETWORK_STATS=YES`: the run's own output, and requests and bytes summed
    /// over GDAL's methods (GET, HEAD, …).
    static func splitStatistics(_ out: String) throws -> (output: String, requests: Int, bytes: Int) {
        let marker = "Network statistics:\n"
        let range = try #require(out.range(of: marker), "no network statistics in \(out)")
        let json = try JSONSerialization.jsonObject(with: Data(out[range.upperBound...].utf8))
        let methods = try #require((json as? [String: Any])?["methods"] as? [String: [String: Int]])
        let requests = methods.values.reduce(0) { $0 + ($1["count"] ?? 0) }
        let bytes = methods.values.reduce(0) { $0 + ($1["downloaded_bytes"] ?? 0) }
        return (String(out[..<range.lowerBound]), requests, bytes)
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
}
