import Synchronization
import Testing
import TransectSupport

@Suite("Parallel loops: every item once, on any number of workers")
struct ParallelLoopTests {
    /// How many times `loop` ran each of `count` items of uneven cost (every seventh a thousand
    /// steps, the others one).
    static func runs(_ loop: ParallelLoop, count: Int) -> [Int] {
        let counts = Mutex([Int](repeating: 0, count: count))
        loop(count) { k in
            var x = 0
            for step in 0..<(k % 7 == 0 ? 1000 : 1) { x &+= step }
            let work = x
            counts.withLock { $0[k] += 1 + (work < 0 ? 1 : 0) }
        }
        return counts.withLock { $0 }
    }

    @Test("striped and shared loops run every item exactly once", arguments: [1, 2, 3, 8], [0, 1, 2, 5, 1000])
    func everyItemOnce(threads: Int, count: Int) {
        #expect(Self.runs(stripedParallelLoop(threads: threads), count: count) == [Int](repeating: 1, count: count))
        #expect(Self.runs(sharedParallelLoop(threads: threads), count: count) == [Int](repeating: 1, count: count))
    }

    @Test("a worker loop runs every item once, each on a worker in 0..<threads, no worker on two items at once", arguments: [1, 2, 3])
    func workerLoopNumbersItsWorkers(threads: Int) {
        let count = 2_000
        let seen = Mutex((runs: [Int](repeating: 0, count: count), busy: [Bool](repeating: false, count: threads), overlap: false))
        sharedWorkerLoop(threads: threads)(count) { worker, k in
            seen.withLock {
                $0.runs[k] += worker >= 0 && worker < threads ? 1 : 100
                if $0.busy[worker] { $0.overlap = true }
                $0.busy[worker] = true
            }
            var x = 0
            for step in 0..<(k % 5 == 0 ? 2000 : 10) { x &+= step }
            let work = x
            seen.withLock {
                $0.busy[worker] = work < 0
            }
        }
        let result = seen.withLock { $0 }
        #expect(result.runs == [Int](repeating: 1, count: count))
        #expect(!result.overlap)
    }

    @Test("ParallelFill over a shared loop gives the serial array")
    func fillMatchesSerial() {
        let made = ParallelFill.array(count: 10_000, chunk: 37, parallel: sharedParallelLoop(threads: 3)) { $0 * $0 }
        #expect(made == (0..<10_000).map { $0 * $0 })
    }
}
