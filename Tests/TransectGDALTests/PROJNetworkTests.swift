#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CGDAL
import Testing
@testable import TransectGDAL

/// PROJ fetches grids from the network only with --allow-network and PROJ_NETWORK=ON. Each
/// case runs in a child process, where GDAL is not yet set up and the environment can still be
/// changed.
@Suite("PROJ networking is off unless allowed and asked for")
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

    /// Writes a tiny ASCII grid DEM, opens it with `access` and removes it; false when it
    /// does not open.
    static func openTinyDEM(access: DataAccess) -> Bool {
        let path = "/tmp/transect-proj-network-\(getpid()).asc"
        let grid = "ncols 2\nnrows 2\nxllcorner 10\nyllcorner 45\ncellsize 0.1\n1 2\n3 4\n"
        guard let file = fopen(path, "w") else { return false }
        fputs(grid, file)
        fclose(file)
        let opened = (try? ElevationModel([path], access: access)) != nil
        unlink(path)
        return opened
    }

    @Test("with PROJ_NETWORK=ON, a model opened without network access leaves it off; with --allow-network it is on")
    func enabledOnlyWhenAllowed() async {
        await #expect(processExitsWith: .success) {
            setenv("PROJ_NETWORK", "ON", 1)
            guard Self.openTinyDEM(access: .local), OSRGetPROJEnableNetwork() == 0 else { exit(1) }
            guard Self.openTinyDEM(access: DataAccess(allowNetwork: true)) else { exit(2) }
            exit(OSRGetPROJEnableNetwork() == 1 ? 0 : 3)
        }
    }

    @Test("--allow-network alone is for DEMs: without PROJ_NETWORK=ON PROJ stays off the network")
    func allowNetworkAloneLeavesPROJOff() async {
        await #expect(processExitsWith: .success) {
            unsetenv("PROJ_NETWORK")
            guard Self.openTinyDEM(access: DataAccess(allowNetwork: true)) else { exit(1) }
            exit(OSRGetPROJEnableNetwork() == 0 ? 0 : 2)
        }
    }

    @Test("PROJ_NETWORK's values, as PROJ reads them")
    func asked() {
        for value in ["ON", "on", "YES", "True"] { #expect(GDALEnvironment.projNetworkAsked(value), "\(value)") }
        for value in [nil, "", "OFF", "NO", "0", "1"] { #expect(!GDALEnvironment.projNetworkAsked(value), "\(String(describing: value))") }
    }
}
