#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large buffer with transparent huge pages (2 MiB on x86-64) when
/// its policy leaves that to the program (`madvise`, Debian's default): a buffer of hundreds of
/// megabytes first touched cell by cell then faults once every 2 MiB instead of every 4 KiB,
/// and its random reads miss the TLB less. Only the whole huge pages inside the buffer are
/// advised; where the kernel has no such pages, or refuses, nothing changes. The buffer's
/// contents are not touched: call it before first writing the buffer.
public enum HugePages {
    /// Buffers smaller than this are left alone (a huge page or two would gain nothing).
    public static let minimumBytes = 8 << 20

    public static func advise(_ start: UnsafeMutableRawPointer?, bytes: Int) {
        #if os(Linux)
        guard let start, bytes >= minimumBytes else { return }
        let page = 2 << 20
        let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: start) + bytes) & ~(page - 1)
        guard end > first, let base = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(base, end - first, MADV_HUGEPAGE)
        #endif
    }

    /// ``advise(_:bytes:)`` over a typed buffer.
    public static func advise<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
        advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes: buffer.count * MemoryLayout<T>.stride)
    }
}
