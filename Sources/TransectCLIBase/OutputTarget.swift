#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// Where results go: the console's stdout, or a file written through an ``OutputTransaction``
/// (a temporary beside it, renamed into place on `commit`; removed on `abandon`, on failure
/// and on SIGINT/SIGTERM/SIGHUP, so a failed or interrupted run leaves no partial file).
package final class OutputTarget {
    private let console: Console
    private let path: String?
    private let transaction: OutputTransaction?
    /// True when this target made its transaction and so commits it.
    private let ownsTransaction: Bool
    private var file: UnsafeMutablePointer<FILE>?
    private var finished = false
    /// Bytes written to the file, and how many of them were sent on to the disk early.
    private var written = 0
    private var sentToDisk = 0

    /// Every so many bytes written to a file, the new ones are sent on to the disk at once
    /// (`sync_file_range`, on Linux) rather than all at the commit: the disk writes while the
    /// run computes, and the commit's `fsync` finds little left to wait for. It starts writes
    /// and waits for none; the bytes are the same either way.
    package static let sendToDiskBytes = 8 << 20

    /// A target for `path` (nil or `-`: stdout). With `transaction`, the file joins that
    /// transaction, which the caller commits; without, the target commits its own.
    package init(path: String?, console: Console, transaction: OutputTransaction? = nil) throws(CLIError) {
        self.console = console
        self.path = path
        guard let path, path != "-" else {
            self.transaction = nil
            ownsTransaction = false
            return
        }
        let t = transaction ?? OutputTransaction()
        self.transaction = t
        ownsTransaction = transaction == nil
        let temporary = try t.stage(path)
        do throws(SystemError) {
            file = try SystemError.call { fopen(temporary, "w") }
        } catch {
            throw .cannotWrite(path: path, reason: error.text)
        }
    }

    package func write(_ text: String) {
        if let file {
            fputs(text, file)
            wrote(text.utf8.count)
        } else {
            console.out(text)
        }
    }

    /// Writes the first `count` bytes of `bytes` (all of them when nil) in one call.
    package func write(_ bytes: OutputBytes, count: Int? = nil) {
        bytes.withBytes { all in
            let b = UnsafeBufferPointer(rebasing: all[0..<(count ?? all.count)])
            guard let base = b.baseAddress, !b.isEmpty else { return }
            if let file {
                fwrite(base, 1, b.count, file)
                wrote(b.count)
            } else {
                console.out(String(decoding: b, as: UTF8.self))
            }
        }
    }

    /// Counts `count` bytes written, and past ``sendToDiskBytes`` more, sends them to the disk.
    /// A failed flush leaves the stream's error for ``commit()`` to report.
    private func wrote(_ count: Int) {
        written += count
        guard written - sentToDisk >= Self.sendToDiskBytes, let file else { return }
        let from = sentToDisk
        sentToDisk = written
        guard fflush(file) == 0 else { return }
        #if os(Linux)
        _ = syncFileRange?(fileno(file), Int64(from), Int64(written - from), syncFileRangeWrite)
        #endif
    }

    /// Finishes the file; moves it into place when this target owns its transaction.
    package func commit() throws(CLIError) {
        guard !finished else { return }
        finished = true
        guard let file, let path, let transaction else { return }
        // The stream's first failure is the reason: a write or flush before the close.
        let flushed = Result { () throws(SystemError) in try SystemError.check { fflush(file) == 0 && ferror(file) == 0 } }
        let closed = Result { () throws(SystemError) in try SystemError.call { fclose(file) } }
        self.file = nil
        do throws(SystemError) {
            try flushed.get()
            _ = try closed.get()
        } catch {
            transaction.rollback()
            throw .cannotWrite(path: path, reason: error.text)
        }
        if ownsTransaction { try transaction.commit() }
    }

    /// Drops the partial file (and, through the shared transaction, the rest of the result).
    package func abandon() {
        guard !finished else { return }
        finished = true
        if let file { fclose(file) }
        file = nil
        transaction?.rollback()
    }

    deinit { abandon() }
}

#if os(Linux)
/// `sync_file_range(2)`, found at run time: a GNU extension that the Glibc module does not
/// declare. Nil where the C library lacks it, and then nothing is sent early.
private let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
    guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
}()
/// `SYNC_FILE_RANGE_WRITE` (Linux's <fcntl.h>, value 2): start writing the range's dirty pages,
/// wait for none.
private let syncFileRangeWrite: UInt32 = 2
#endif
