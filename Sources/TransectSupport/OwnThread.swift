#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A body run on a thread of its own, started with `pthread_create` (not a worker of
/// Dispatch's pool, which a parallel loop on the calling thread needs whole), and joined.
public final class OwnThread {
    private var thread = pthread_t()
    private var started = false
    private let work: Work

    /// What the thread runs, let go once run.
    private final class Work {
        var body: (() -> Void)?
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread with a stack of `stackBytes`; nil, with `body` not run,
    /// when no thread can be started (`failure` then holds `pthread_create`'s error number).
    public init?(stackBytes: Int = 8 << 20, failure: UnsafeMutablePointer<Int32>? = nil, _ body: @escaping () -> Void) {
        work = Work(body)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        let context = Unmanaged.passRetained(work).toOpaque()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
                work.body?()
                work.body = nil
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            work.body = nil
            failure?.pointee = status
            return nil
        }
        started = true
    }

    /// Waits for the body to return.
    public func join() {
        guard started else { return }
        pthread_join(thread, nil)
        started = false
    }

    deinit { join() }
}
