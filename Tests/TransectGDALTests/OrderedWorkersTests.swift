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
