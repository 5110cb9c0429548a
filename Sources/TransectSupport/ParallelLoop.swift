import Dispatch
import Synchronization

/// Runs `body(k)` for every k in 0..<count, in any order and on any threads; each call writes
/// only what item k owns. ``stripedParallelLoop(threads:)`` makes one on Dispatch;
/// `{ n, body in for k in 0..<n { body(k) } }` runs on the calling thread.
public typealias ParallelLoop = @Sendable (_ count: Int, _ body: @Sendable (Int) -> Void) -> Void

/// The parallel loop on `threads` workers: item k goes to worker k mod `threads` (1: the
/// calling thread). Items own their outputs, so the result is the same for any count.
public func stripedParallelLoop(threads: Int) -> ParallelLoop {
    let threads = max(1, threads)
    return { count, body in
        if threads == 1 || count <= 1 {
            for k in 0..<count { body(k) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: min(threads, count)) { worker in
            for k in stride(from: worker, to: count, by: threads) { body(k) }
        }
    }
}

/// The parallel loop on `threads` workers that take items in turn from a shared counter (1: the
/// calling thread): an item goes to whichever worker is free, so items of uneven cost keep
/// every worker busy where striping would leave one idle. Items own their outputs, so the result
/// is the same for any count and any order.
public func sharedParallelLoop(threads: Int) -> ParallelLoop {
    let workers = sharedWorkerLoop(threads: threads)
    return { count, body in workers(count) { _, k in body(k) } }
}

/// Runs `body(worker, k)` for every k in 0..<count on workers numbered 0..<`threads` (the
/// ``sharedParallelLoop(threads:)``'s items, each told which worker runs it): scratch of a
/// worker's own needs no lock. Which worker takes which item varies from run to run, so what
/// the workers' scratch holds must not depend on it once merged.
public typealias WorkerLoop = @Sendable (_ count: Int, _ body: @Sendable (_ worker: Int, _ item: Int) -> Void) -> Void

/// The shared loop of ``WorkerLoop`` on `threads` workers (1: the calling thread, worker 0).
public func sharedWorkerLoop(threads: Int) -> WorkerLoop {
    let threads = max(1, threads)
    return { count, body in
        if threads == 1 || count <= 1 {
            for k in 0..<count { body(0, k) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(threads, count)) { worker in
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                body(worker, k)
            }
        }
    }
}

/// Arrays filled item by item across a ``ParallelLoop``.
public enum ParallelFill {
    /// `[make(0), make(1), …, make(count − 1)]`, computed in fixed chunks of `chunk` items on
    /// the loop's workers; every item is its own, so the array is the same on any threads.
    /// Inlinable so the caller's module specialises it for its `T`, as it was when the caller
    /// shared this module: unspecialised, every item would be stored through value witnesses.
    @inlinable
    public static func array<T: Sendable>(count: Int, chunk: Int = 1 << 14, parallel: ParallelLoop, _ make: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        // The array's own storage, initialised in place: the loop returns only when every
        // chunk is done, before the storage is handed back.
        return [T](unsafeUninitializedCapacity: count) { storage, initialized in
            let box = Slots(base: storage.baseAddress!)
            parallel((count + chunk - 1) / chunk) { part in
                for k in (part * chunk)..<min(count, (part + 1) * chunk) { (box.base + k).initialize(to: make(k)) }
            }
            initialized = count
        }
    }

    /// Uninitialised slots that the workers initialise.
    ///
    /// `@unchecked Sendable` is safe because each worker initialises only the slots of its own
    /// chunk, and the array is handed back only after the loop has returned.
    @usableFromInline
    struct Slots<T>: @unchecked Sendable {
        @usableFromInline let base: UnsafeMutablePointer<T>
        @inlinable init(base: UnsafeMutablePointer<T>) { self.base = base }
    }
}
