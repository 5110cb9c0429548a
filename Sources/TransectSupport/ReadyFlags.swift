import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Flags that items of one ``sharedParallelLoop(threads:)`` raise when done and that later
/// items wait on: the loop hands items out in order, so an item that waits only on earlier
/// items waits on work a running worker holds (or, on one thread, has finished), never on work
/// no worker took.
///
/// A raise publishes everything its worker wrote before it (release), and a wait that sees it
/// sees those writes (acquire). `@unchecked Sendable` is safe because the flags are atomics,
/// and ``deallocate()`` is called once, after the loops that use them returned.
public struct ReadyFlags: @unchecked Sendable {
    private let flags: UnsafeMutablePointer<Atomic<Int>>
    public let count: Int

    /// `count` flags, all lowered.
    public init(count: Int) {
        self.count = max(count, 0)
        flags = .allocate(capacity: self.count)
        for k in 0..<self.count { (flags + k).initialize(to: Atomic<Int>(0)) }
    }

    /// Every flag lowered, between loops.
    public func lowerAll() {
        for k in 0..<count { flags[k].store(0, ordering: .relaxed) }
    }

    /// Flag `k` raised: what this worker wrote before is seen by whoever ``wait(for:)``s on it.
    public func raise(_ k: Int) {
        precondition(k >= 0 && k < count, "a flag of the set")
        flags[k].store(1, ordering: .releasing)
    }

    /// Returns once flag `k` is raised, spinning, then yielding the processor while it waits
    /// long (the worker it waits on may have been descheduled).
    public func wait(for k: Int) {
        precondition(k >= 0 && k < count, "a flag of the set")
        var spins = 0
        while flags[k].load(ordering: .acquiring) == 0 {
            spins += 1
            if spins > 1_000 { sched_yield() }
        }
    }

    /// Whether flag `k` is raised.
    public func isRaised(_ k: Int) -> Bool { flags[k].load(ordering: .acquiring) != 0 }

    /// Frees the flags.
    public func deallocate() {
        flags.deinitialize(count: count)
        flags.deallocate()
    }
}
