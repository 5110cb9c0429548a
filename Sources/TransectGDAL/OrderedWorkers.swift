#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TransectSupport

/// Batches worked on by several threads, their results handed back in input order: the
/// `--threads` pipeline of `measure --pairs`.
///
/// The calling thread reads batch after batch (`read`) and hands each to a worker, keeping at
/// most ``batchesPerWorker`` per worker in flight, so memory stays flat; it takes the results back in the order
/// the batches were read (`emit`). Batch `k` goes to worker `k mod threads`, each worker owns
/// its `State` (a ``TerrainMeasurer`` with its own DEM dataset, say: GDAL handles are not
/// thread-safe, so no two workers share one) and works on one batch at a time, on a serial
/// queue. A batch's result depends on the batch alone, so the results, and the bytes made
/// from them, are the same for any thread count.
///
/// Errors keep their place: an error reading batch `k`, or one working on it, is thrown after
/// the results of batches 0 … k − 1 have been emitted, and an error `emit` throws stops the
/// run. Either way the workers finish what they hold before the error is thrown.
///
/// ```swift
/// try OrderedWorkers.run(threads: 2, first: measurer, make: { try openMeasurer() },
///                        read: { try reader.nextLines(rows: 4096) },
///                        work: { measurer, lines in try measure(lines, with: measurer) },
///                        emit: { output.write($0) })
/// ```
public enum OrderedWorkers {
    /// Batches each worker may hold, done or not: enough queued work that a worker need not
    /// wait for the calling thread (which a busy machine may not schedule for a while) to read
    /// and hand out the next one, few enough that memory stays small.
    public static let batchesPerWorker = 6

    /// The most workers a run starts: the processors online (at least 1). A worker beyond them
    /// cannot run at the same time as the others, yet it holds its own state (a DEM dataset
    /// and its window cache) and its batches in flight, so `--threads 256` on a small machine
    /// took a 2,000,000-row batch from 72 MB to 2.19 GB for no speed.
    public static var processors: Int {
        #if canImport(Glibc) || canImport(Darwin)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 1
        #endif
    }

    /// The workers a run of `threads` starts: no more than ``processors``.
    public static func workers(threads: Int) -> Int { max(1, min(threads, processors)) }

    /// Runs the pipeline.
    /// - Parameters:
    ///   - threads: workers (1 or more); with 1 everything runs on the calling thread.
    ///   - first: the first worker's state, moved to it: the caller must not touch it again.
    ///   - make: the state of each further worker, made on that worker when its first batch
    ///     arrives (a one-batch input makes none).
    ///   - read: the next batch, or nil at the end (calling thread).
    ///   - work: a batch's result, on the batch's worker.
    ///   - emit: takes each result, in input order (calling thread).
    ///   - inFlight: batches each worker may hold (``batchesPerWorker`` unless the batches are
    ///     large).
    public static func run<State, Input: Sendable, Output: Sendable>(
        threads: Int, inFlight perWorker: Int = batchesPerWorker, first: State, make: @escaping @Sendable () throws -> State,
        read: () throws -> Input?, work: @escaping @Sendable (inout State, Input) throws -> Output,
        emit: (Output) throws -> Void
    ) throws {
        precondition(threads >= 1, "at least one thread")
        let threads = workers(threads: threads)
        if threads == 1 {
            var state = first
            while let input = try read() { try emit(try work(&state, input)) }
            return
        }
        let workers = (0..<threads).map { k in Worker<State>(k == 0 ? .success(first) : nil) }
        var inFlight: [Handoff<Output>] = []
        var head = 0
        var batches = 0
        var readError: Error?
        var atEnd = false
        defer {
            // Whatever happened, the workers finish before their states go.
            for handoff in inFlight[head...] { handoff.ready.wait() }
        }
        while true {
            while !atEnd && inFlight.count - head < perWorker * threads {
                let input: Input?
                do { input = try read() } catch {
                    readError = error
                    atEnd = true
                    break
                }
                guard let input else {
                    atEnd = true
                    break
                }
                let handoff = Handoff<Output>()
                let worker = workers[batches % threads]
                batches += 1
                inFlight.append(handoff)
                worker.queue.async {
                    handoff.value = Result {
                        if worker.state == nil { worker.state = Result { try make() } }
                        var state = try worker.state!.get()
                        // Moved out for the batch, so that what the state holds has one owner
                        // (arrays it keeps are then reused in place, not copied on write).
                        worker.state = nil
                        defer { worker.state = .success(state) }
                        return try work(&state, input)
                    }
                    handoff.ready.signal()
                }
            }
            guard head < inFlight.count else { break }
            let handoff = inFlight[head]
            handoff.ready.wait()
            head += 1
            if head > 64 {
                inFlight.removeFirst(head)
                head = 0
            }
            // Taken, and let go of: a done batch must not hold its bytes until the compaction.
            let value = handoff.value!
            handoff.value = nil
            try emit(value.get())
        }
        if let readError { throw readError }
    }

    /// A worker: its state and the serial queue that alone touches it.
    private final class Worker<State>: @unchecked Sendable {
        // Safe: `state` is read and written only by blocks on `queue`, a serial queue, so by
        // one thread at a time and in order (the first worker's state is moved in before any
        // block runs).
        var state: Result<State, Error>?
        let queue = DispatchQueue(label: "transect.worker")

        init(_ state: Result<State, Error>?) { self.state = state }
    }

    /// A batch's result, passed from its worker to the calling thread.
    private final class Handoff<Output>: @unchecked Sendable {
        // Safe: `value` is written once, by the worker, before `ready.signal()`, and read by the
        // calling thread only after `ready.wait()` returned.
        var value: Result<Output, Error>?
        let ready = DispatchSemaphore(value: 0)
    }

    /// Values the calling thread hands back for the workers to use again (a batch's output
    /// buffer, once written), so that a long run does not allocate, and fault in, fresh memory
    /// for every batch. Holds at most `capacity` values; more are let go of.
    public final class Recycler<Value: Sendable>: @unchecked Sendable {
        // Safe: `values` is touched only between `lock.wait()` and `lock.signal()`.
        private var values: [Value] = []
        private let lock = DispatchSemaphore(value: 1)
        private let capacity: Int

        public init(capacity: Int) {
            self.capacity = capacity
            values.reserveCapacity(capacity)
        }

        /// A value handed back earlier, or nil when there is none.
        public func take() -> Value? {
            lock.wait()
            defer { lock.signal() }
            return values.popLast()
        }

        /// Hands `value` back (it is dropped when `capacity` values are already held).
        public func put(_ value: Value) {
            lock.wait()
            defer { lock.signal() }
            if values.count < capacity { values.append(value) }
        }
    }
}
