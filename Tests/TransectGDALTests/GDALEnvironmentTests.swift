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

    @Test("the HTTP budget of S seconds: attempts × time-out + retries × delay ≤ S, for every S; 30 s is 3 attempts of 9 s, 1 s apart")
    func budget() {
        for seconds in 1...3600 {
            let b = GDALEnvironment.httpBudget(seconds: seconds)
            #expect(b.timeout >= 1 && b.connect >= 1 && b.connect <= min(b.timeout, 10), "\(seconds): \(b)")
            #expect((b.retries + 1) * b.timeout + b.retries * b.delay <= seconds, "\(seconds): \(b)")
        }
        let thirty = GDALEnvironment.httpBudget(seconds: 30)
        #expect(thirty.timeout == 9 && thirty.connect == 9 && thirty.retries == 2 && thirty.delay == 1)
        // What GDAL is then told, over the environment's values when --timeout is given.
        prepareGDAL()
        GDALEnvironment.configureTimeouts(seconds: 5, given: true)
        func option(_ key: String) -> String? { CPLGetConfigOption(key, nil).map { String(cString: $0) } }
        #expect(option("GDAL_HTTP_TIMEOUT") == "5" && option("GDAL_HTTP_MAX_RETRY") == "0" && option("GDAL_HTTP_CONNECTTIMEOUT") == "5")
        GDALEnvironment.configureTimeouts(seconds: DataAccess.defaultTimeoutSeconds, given: true)
    }
}
