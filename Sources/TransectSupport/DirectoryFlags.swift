#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The inode flags of a directory that decide whether a file can be written into it by a
/// temporary renamed into place: an append-only directory (`chattr +a`) lets a file be created
/// but neither renamed nor removed, so a failed write would leave its temporary behind; an
/// immutable one (`chattr +i`) lets nothing be created. Linux's `FS_IOC_GETFLAGS`; elsewhere,
/// and on file systems that keep no such flags, none are set.
public enum DirectoryFlags {
    /// `FS_APPEND_FL` and `FS_IMMUTABLE_FL` of `linux/fs.h`.
    static let appendOnly = 0x20
    static let immutable = 0x10

    /// Why no file can be put in place in `directory` by a rename (a phrase: "is append-only
    /// (chattr +a)…"), or nil when nothing says so.
    public static func refusal(_ directory: String) -> String? {
        guard let flags = flags(of: directory) else { return nil }
        if flags & immutable != 0 { return "is immutable (chattr +i): nothing can be created in it" }
        if flags & appendOnly != 0 {
            return "is append-only (chattr +a): a file could be created in it but neither renamed into place nor removed"
        }
        return nil
    }

    /// The directory's inode flags; nil when they cannot be read.
    public static func flags(of directory: String) -> Int? {
        #if os(Linux)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // FS_IOC_GETFLAGS, _IOR('f', 1, long); the kernel writes an int into the long.
        var flags = 0
        guard ioctl(fd, 0x8008_6601, &flags) == 0 else { return nil }
        return flags & 0xFFFF_FFFF
        #else
        return nil
        #endif
    }
}
