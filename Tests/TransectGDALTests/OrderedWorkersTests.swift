import Foundation
import Testing
import TransectGDAL

@Suite("OrderedWorkers: results in input order, and buffers handed back")
struct OrderedWorkersTests {
    @Test("every batch's result comes back in input order, whatever the thread count", arguments: [1, 2, 3])
    func order(threads: Int) throws {
        var next = 0
        var emitted: [Int] = []
        try OrderedWorkers.run(
            threads: threads, first: 0, make: { 0 },
            read: { () -> Int? in
                guard next < 200 else { return nil }
                next += 1
                return next
            },
            work: { calls, k in
                calls += 1
                return k * k
            },
            emit: { emitted.append($0) })
        #expect(emitted == (1...200).map { $0 * $0 })
    }

    @Test("--threads beyond the processors starts no more workers than there are processors")
    func workersBeyondProcessors() throws {
        final class Count: @unchecked Sendable {
            // Safe: guarded by `lock`.
            let lock = NSLock()
            var made = 0
        }
        let count = Count()
        var next = 0
        try OrderedWorkers.run(
            threads: 256, first: 0,
            make: {
                count.lock.withLock { count.made += 1 }
                return 0
            },
            read: { () -> Int? in
                guard next < 2000 else { return nil }
                next += 1
                return next
            },
            work: { _, k in k }, emit: { _ in })
        // The first worker's state is given; each further worker makes its own.
        #expect(count.made == OrderedWorkers.processors - 1)
        #expect(OrderedWorkers.workers(threads: 256) == OrderedWorkers.processors)
        #expect(OrderedWorkers.workers(threads: 1) == 1)
    }

    @Test("a recycler hands back what it was given, up to its capacity, and then nothing")
    func recycler() {
        let bin = OrderedWorkers.Recycler<[Int]>(capacity: 2)
        #expect(bin.take() == nil)
        bin.put([1])
        bin.put([2])
        bin.put([3])  // beyond the capacity: dropped
        let taken = [bin.take(), bin.take()].compactMap { $0 }
        #expect(taken.sorted { $0[0] < $1[0] } == [[1], [2]])
        #expect(bin.take() == nil)
    }
}
