import CGDAL
import Foundation
import Testing
import TransectSupport

@testable import TransectGDAL

@Suite("Transfer failures: a read that stops mid-way on a network DEM is worth retrying", .serialized)
struct TransferFailureTests {
    /// Reports `message` through GDAL's error machinery, as a driver does (`CPLError`).
    static func report(_ number: CPLErrorNum, _ message: String) {
        message.withCString { text in
            withVaList([text]) { CPLErrorV(CE_Failure, number, "%s", $0) }
        }
    }

    /// The error the funnel makes of a call that runs `before`, reports `messages` and fails,
    /// read as a block of `path`.
    static func failure(of messages: [(CPLErrorNum, String)], path: String, before: () -> Void = {}) -> TerrainError? {
        prepareGDAL()
        do throws(TerrainError) {
            try gdal {
                before()
                for (number, message) in messages { report(number, message) }
                return CE_Failure
            } orThrow: {
                .readFailed(path: path, reason: $0)
            }
            return nil
        } catch {
            return error
        }
    }

    static let shortRead = "TIFFFillTile:Read error at row 4294967295, col 4294967295, tile 0; got 0 bytes, expected 1075690"
    static let blockFailed = "/vsis3/bucket/dem.tif, band 1: IReadBlock failed at X offset 0, Y offset 0: TIFFReadEncodedTile() failed."

    @Test("a short read before the block's failure: both in the reason, and temporary on a network path only")
    func shortReadIsTemporary() throws {
        let network = try #require(Self.failure(of: [(CPLE_AppDefined, Self.shortRead), (CPLE_AppDefined, Self.blockFailed)], path: "/vsis3/bucket/dem.tif"))
        #expect(network == .readFailed(path: "/vsis3/bucket/dem.tif", reason: Self.shortRead + " (" + Self.blockFailed + ")"))
        #expect(network.isTemporary)
        let local = try #require(Self.failure(of: [(CPLE_AppDefined, Self.shortRead), (CPLE_AppDefined, Self.blockFailed)], path: "/data/dem.tif"))
        #expect(!local.isTemporary)
    }

    @Test("a block that arrived and does not decode is not temporary; the next call forgets the last one's transfer")
    func decodeErrorIsNot() throws {
        _ = Self.failure(of: [(CPLE_FileIO, "curl error: Connection reset by peer")], path: "/vsis3/bucket/dem.tif")
        let corrupt = try #require(
            Self.failure(of: [(CPLE_AppDefined, "ZIPDecode:Decoding error at scanline 0"), (CPLE_AppDefined, Self.blockFailed)], path: "/vsis3/bucket/dem.tif"))
        #expect(corrupt == .readFailed(path: "/vsis3/bucket/dem.tif", reason: Self.blockFailed))
        #expect(!corrupt.isTemporary)
    }

    @Test("curl's and the HTTP layer's errors are transfers; the first one is kept")
    func firstTransferKept() throws {
        let error = try #require(
            Self.failure(
                of: [(CPLE_HttpResponse, "HTTP response code: 0 - Failed to connect to 127.0.0.1"), (CPLE_FileIO, "second"), (CPLE_AppDefined, "last")],
                path: "/vsicurl/http://127.0.0.1:9/dem.tif"))
        #expect(error == .readFailed(path: "/vsicurl/http://127.0.0.1:9/dem.tif", reason: "HTTP response code: 0 - Failed to connect to 127.0.0.1 (last)"))
        #expect(error.isTemporary)
        #expect(TransferFailure.isTransfer(number: CPLE_FileIO, message: "anything"))
        #expect(TransferFailure.isTransfer(number: CPLE_AppDefined, message: "Read error on strip 3; got 10 bytes, expected 400"))
        #expect(!TransferFailure.isTransfer(number: CPLE_AppDefined, message: "LZWDecode: Corrupted LZW table at scanline 0"))
        #expect(!TransferFailure.isTransfer(number: CPLE_AWSAccessDenied, message: "Access Denied"))
    }

    @Test("a call whose reads ran on another thread and that failed without a message of its own takes that thread's transfer")
    func otherThread() throws {
        let error = try #require(
            Self.failure(
                of: [], path: "/vsis3/bucket/dem.tif",
                before: {
                    let done = DispatchSemaphore(value: 0)
                    let worker = Thread {
                        Self.report(CPLE_AppDefined, "Read error at row 0, col 0, tile 0; got 0 bytes, expected 10")
                        done.signal()
                    }
                    worker.start()
                    done.wait()
                }))
        guard case .readFailed(_, let reason) = error else { throw error }
        #expect(reason.hasSuffix(" (" + GDALMessage.unknown + ")"), "\(reason)")
        #expect(error.isTemporary, "\(reason)")
        // A call with a message of its own keeps to its own thread.
        let own = try #require(
            Self.failure(
                of: [(CPLE_AppDefined, Self.blockFailed)], path: "/vsis3/bucket/dem.tif",
                before: {
                    let done = DispatchSemaphore(value: 0)
                    let worker = Thread {
                        Self.report(CPLE_AppDefined, "Read error at row 0, col 0, tile 0; got 0 bytes, expected 10")
                        done.signal()
                    }
                    worker.start()
                    done.wait()
                }))
        #expect(own == .readFailed(path: "/vsis3/bucket/dem.tif", reason: Self.blockFailed))
    }

    @Test("an answer with an error status is not temporary")
    func errorStatusIsNot() {
        #expect(!TerrainError.readFailed(path: "/vsis3/bucket/dem.tif", reason: "HTTP response code: 404").isTemporary)
        #expect(!TerrainError.cannotOpen(path: "/vsis3/bucket/dem.tif", reason: "Read error at row 0; got 0 bytes, expected 10").isTemporary)
    }
}
