#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CGDAL
import Testing
@testable import TransectGDAL

/// PROJ fetches grids from the network only with --allow-network. Each case runs in a child
/// process, where GDAL is not yet set up and the environment can still be changed.
@Suite("PROJ networking is off unless allowed")
struct PROJNetworkTests {
    @Test("PROJ_NETWORK=ON turns PROJ networking on when nothing overrides it (the control)")
    func environmentTurnsItOn() async {
        await #expect(processExitsWith: .success) {
            setenv("PROJ_NETWORK", "ON", 1)
            exit(OSRGetPROJEnableNetwork() == 1 ? 0 : 1)
        }
    }

    @Test("after set-up PROJ networking is off even with PROJ_NETWORK=ON")
    func offAfterSetUp() async {
        await #expect(processExitsWith: .success) {
            setenv("PROJ_NETWORK", "ON", 1)
            prepareGDAL()
            exit(OSRGetPROJEnableNetwork() == 0 ? 0 : 1)
        }
    }

    @Test("a model opened without network access leaves it off; enabling it (--allow-network) turns it on")
    func enabledOnlyWhenAllowed() async {
        await #expect(processExitsWith: .success) {
            setenv("PROJ_NETWORK", "ON", 1)
            let path = "/tmp/transect-proj-network-\(getpid()).asc"
            let grid = "ncols 2\nnrows 2\nxllcorner 10\nyllcorner 45\ncellsize 0.1\n1 2\n3 4\n"
            guard let file = fopen(path, "w") else { exit(3) }
            fputs(grid, file)
            fclose(file)
            let opened = (try? ElevationModel([path])) != nil
            unlink(path)
            guard opened, OSRGetPROJEnableNetwork() == 0 else { exit(1) }
            GDALEnvironment.enablePROJNetwork()
            exit(OSRGetPROJEnableNetwork() == 1 ? 0 : 2)
        }
    }
}
