// Shared by every harness in Fuzz/: compiled into each harness binary next to `<harness>.swift`.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`, copied into `Data` (the parsers take
/// `Data`; libFuzzer owns the buffer only for the duration of the call).
func fuzzData(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let bytes, count > 0 else { return Data() }
    return Data(bytes: bytes, count: count)
}

/// One scratch file per harness process in /dev/shm (memory, not disk), rewritten on every
/// input, for readers that only take a path. Removed when libFuzzer exits normally.
///
/// The name carries the process id so that harnesses run side by side do not share a file.
struct ScratchFile: Sendable {
    let path: String

    /// - Parameters:
    ///   - harness: the harness name, for the file name.
    ///   - fileName: the last path component, whose extension the reader may look at.
    init(harness: String, fileName: String) {
        let directory = "/dev/shm/transect-fuzz-\(harness)-\(getpid())"
        mkdir(directory, 0o700)
        path = directory + "/" + fileName
        ScratchFile.registerCleanup(directory: directory, file: path)
    }

    /// Writes `data` over the file and returns its path.
    func write(_ data: Data) -> String {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot open the scratch file \(path)")
        defer { close(fd) }
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                precondition(n > 0, "cannot write the scratch file \(path)")
                offset += n
            }
        }
        return path
    }

    nonisolated(unsafe) private static var cleanup: [(directory: String, file: String)] = []

    private static func registerCleanup(directory: String, file: String) {
        if cleanup.isEmpty {
            atexit {
                for entry in ScratchFile.cleanup { unlink(entry.file); rmdir(entry.directory) }
            }
        }
        cleanup.append((directory, file))
    }
}
