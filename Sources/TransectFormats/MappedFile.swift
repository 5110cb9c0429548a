#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectSupport

/// A regular file mapped read-only into memory, so a parser reads it in place: no copy of its
/// text is made, and the pages a parse has passed can be given back (``release(before:)``), so
/// a file of hundreds of megabytes costs the process only the pages near the cursor. A page
/// given back and read again is read again from the file.
///
/// Only for regular files of at most `limit` bytes; a file changed under a mapping while it is
/// read can end the process (SIGBUS on a truncated page), as with any mapped reader, so inputs
/// that may be written while they are read (pipes, stdin) are read by ``FileChunks`` instead.
final class MappedFile {
    let path: String
    let count: Int
    private let base: UnsafeMutableRawPointer?
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps `path`, refusing anything but a regular file and a file over `limit` bytes
    /// (naming `kind`, "track files", in the message).
    init(path: String, limit: Int, kind: String) throws(FormatError) {
        self.path = path
        let fd: Int32
        do throws(SystemError) { fd = try RegularFile.openForReading(path) } catch { throw .cannotRead(path: path, reason: error.text) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, reason: SystemError.text(errno)) }
        count = Int(info.st_size)
        guard count <= limit else {
            throw .cannotRead(path: path, reason: "is larger than \(TextInput.describe(bytes: limit)), the limit for \(kind)")
        }
        guard count > 0 else {
            base = nil
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw .cannotRead(path: path, reason: SystemError.text(errno))
        }
        base = mapped
        madvise(mapped, count, MADV_SEQUENTIAL)
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// The file's bytes, valid while this mapping lives.
    var bytes: UnsafeBufferPointer<UInt8> {
        guard let base else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Gives back the whole pages before `offset` (they are read from the file again if used).
    func release(before offset: Int) {
        guard let base else { return }
        let end = min(offset, count) / Self.pageSize * Self.pageSize
        guard end > 0 else { return }
        madvise(base, end, MADV_DONTNEED)
    }
}
