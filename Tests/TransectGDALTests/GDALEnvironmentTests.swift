import CGDAL
import Testing
@testable import TransectGDAL

/// The one funnel through which GDAL calls turn into typed errors.
@Suite("gdal { }: the error funnel")
struct GDALEnvironmentTests {
    @Test("a failed call throws GDAL's own message; a stale message from an earlier call does not leak")
    func funnel() throws {
        prepareGDAL()
        let missing = "/nonexistent-transect-dir/x.tif"
        #expect(throws: TerrainError.self) {
            _ = try gdal {
                GDALOpenEx(missing, UInt32(GDAL_OF_RASTER | GDAL_OF_VERBOSE_ERROR), nil, nil, nil)
            } orThrow: {
                .cannotOpen(path: missing, reason: $0)
            }
        }
        do {
            _ = try gdal {
                GDALOpenEx(missing, UInt32(GDAL_OF_RASTER | GDAL_OF_VERBOSE_ERROR), nil, nil, nil)
            } orThrow: {
                .cannotOpen(path: missing, reason: $0)
            }
        } catch {
            guard case .cannotOpen(_, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.contains("nonexistent-transect-dir"), "\(reason)")
        }
        // An error left over from before is cleared, so a call that fails silently reports the
        // fallback, not the old text.
        CPLErrorSetState(CE_Failure, CPLE_AppDefined, "stale message")
        do {
            try gdal {
                CE_Failure
            } orThrow: {
                .readFailed(path: "x", reason: $0)
            }
            Issue.record("no error")
        } catch {
            #expect(error == .readFailed(path: "x", reason: "unknown GDAL error"))
        }
        #expect(throws: Never.self) {
            try gdal {
                CE_None
            } orThrow: {
                .readFailed(path: "x", reason: $0)
            }
        }
        // A call that states its own success: OGR's error codes, TRUE/FALSE ints.
        CPLErrorSetState(CE_Failure, CPLE_AppDefined, "stale message")
        do {
            try gdal(fallback: "said nothing") {
                false
            } orThrow: {
                .badCRS("x", reason: $0)
            }
            Issue.record("no error")
        } catch {
            #expect(error == .badCRS("x", reason: "said nothing"))
        }
        #expect(throws: Never.self) {
            try gdal {
                true
            } orThrow: {
                .badCRS("x", reason: $0)
            }
        }
    }
}
