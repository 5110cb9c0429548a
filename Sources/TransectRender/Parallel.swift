import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Work split into fixed pieces spread over threads. The pieces never depend on the thread
/// count and each writes only its own part of the result, so the result is the same for any
/// count.
public enum Parallel {
    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1: the default thread
    /// count.
    public static var onlineProcessors: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Calls `body` with each of `0..<count`, on `threads` threads (the caller's among them),
    /// thread k taking pieces k, k + threads, …; on the calling thread alone when `threads` is 1.
    static func forEach(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
        let workers = min(max(threads, 1), count)
        guard workers > 1 else {
            for piece in 0..<count { body(piece) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for piece in stride(from: worker, to: count, by: workers) { body(piece) }
        }
    }

    /// The rows of piece `k` when `height` rows go in pieces of `rows`.
    static func rows(_ k: Int, of rows: Int, height: Int) -> Range<Int> { (k * rows)..<min(height, (k + 1) * rows) }
}
