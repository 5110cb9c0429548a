#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening an input that must be a regular file: a pairs file, a scene list or scene file, a
/// manifest, a journal, a merge part, a file to hash.
///
/// The open is non-blocking, so a FIFO with no writer does not stall it (a blocking `open`
/// waits for a writer forever), and `fstat` on the open descriptor (not the path, which may
/// change in between) decides: anything but a regular file (a FIFO, a character or block
/// device such as `/dev/zero`, a socket, a directory) is refused before a byte is read. The
/// descriptor is made blocking again before it is returned.
public enum RegularFile {
    /// A descriptor open to read the regular file at `path`; the caller closes it.
    ///
    /// - Throws: the `SystemError` of the failed `open` or `fstat`, or one whose ``SystemError/text``
    ///   says what `path` is instead (`EISDIR` for a directory, `EINVAL` otherwise).
    public static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        let fd = try SystemError.call(retryingInterrupts: true) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        var info = stat()
        do throws(SystemError) {
            try SystemError.call { fstat(fd, &info) }
            if let kind = kind(of: info.st_mode) {
                let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
                throw SystemError(code: isDirectory ? EISDIR : EINVAL, detail: isDirectory ? "is a directory" : "is \(kind), not a regular file")
            }
            let flags = try SystemError.call { fcntl(fd, F_GETFL) }
            try SystemError.call { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// What a file of mode `mode` is when it is not a regular file (`a FIFO (named pipe)`),
    /// or nil for a regular file.
    public static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
