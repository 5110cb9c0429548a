import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

/// `--timeout S`: a network DEM whose server accepts the connection and never answers fails the
/// run within S seconds a request (exit 75, worth retrying), through GDAL's HTTP time-outs.
@Suite("--timeout: a silent server fails the run, exit 75")
struct NetworkTimeoutTests {
    /// A TCP socket listening on 127.0.0.1 that never accepts: the kernel completes each
    /// connection, and nothing ever answers. Closed when released.
    final class SilentServer {
        let descriptor: Int32
        let port: UInt16

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
                if fd >= 0 { close(fd) }
                throw CocoaError(.fileWriteUnknown)
            }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            descriptor = fd
            port = UInt16(bigEndian: address.sin_port)
        }

        deinit { close(descriptor) }
    }

    @Test("info, measure and profile of a DEM on a silent server exit 75 with curl's time-out, under --timeout 2")
    func silentServer() throws {
        let server = try SilentServer()
        let dem = "/vsicurl/http://127.0.0.1:\(server.port)/dem.tif"
        let dir = TemporaryDirectory()
        let line = ["--from", "-119.6,37.7", "--to", "-119.5,37.75"]
        for command in [["info", dem], ["measure", "--dem", dem] + line, ["profile", "--dem", dem] + line] {
            // Killed after 60 s (exit 1009): a run that waits on the server is the failure.
            let r = try TransectExecutable.run(command + ["--allow-network", "--timeout", "2"], directory: dir.path, timeout: 60)
            #expect(r.code == 75, "\(command[0]): exit \(r.code): \(r.err)")
            #expect(r.err.hasPrefix("Error: DEM '\(dem)': cannot open: "), "\(command[0]): \(r.err)")
            #expect(r.err.lowercased().contains("timed out"), "\(command[0]): \(r.err)")
            #expect(r.err.filter { $0 == "\n" }.count == 1, "\(command[0]): \(r.err)")
        }
    }

    @Test("--timeout is a whole number of seconds from 1 to 3,600, and needs --allow-network")
    func usage() {
        expectUsageError(["info", "/tmp/x.tif", "--timeout", "2"], "option '--timeout': bounds network reads; give --allow-network")
        expectUsageError(["info", "/tmp/x.tif", "--allow-network", "--timeout", "0"], "option '--timeout': ")
        expectUsageError(["info", "/tmp/x.tif", "--allow-network", "--timeout", "3601"], "option '--timeout': ")
    }
}
