import Testing
import TransectSupport

@Suite("Ready flags: an item of a shared loop waits for earlier items and sees what they wrote")
struct ReadyFlagsTests {
    /// Plain memory the loop's items write, each its own slot.
    final class Slots: @unchecked Sendable {
        let values: UnsafeMutableBufferPointer<Int>
        init(count: Int) {
            values = .allocate(capacity: count)
            values.initialize(repeating: 0)
        }
        deinit { values.deallocate() }
    }

    /// Item k waits for the items it reads (k − 1 and k / 2, as a block's rays wait for their
    /// parents) and writes its own slot from theirs: on any number of workers the slots are the
    /// serial loop's, which a read of a slot not yet written (0) would break.
    @Test("waits order the items' writes", arguments: [1, 2, 3])
    func waitsOrderWrites(threads: Int) {
        let count = 5_000
        let flags = ReadyFlags(count: count)
        defer { flags.deallocate() }
        let slots = Slots(count: count)
        for round in 0..<3 {
            flags.lowerAll()
            for k in 0..<count { slots.values[k] = 0 }
            sharedParallelLoop(threads: threads)(count) { k in
                guard k > 0 else {
                    slots.values[0] = 1
                    flags.raise(0)
                    return
                }
                flags.wait(for: k - 1)
                flags.wait(for: k / 2)
                slots.values[k] = (slots.values[k - 1] &+ slots.values[k / 2]) % 1_000_003
                flags.raise(k)
            }
            var expected = [Int](repeating: 0, count: count)
            expected[0] = 1
            for k in 1..<count { expected[k] = (expected[k - 1] &+ expected[k / 2]) % 1_000_003 }
            #expect(Array(slots.values) == expected, "round \(round)")
            #expect((0..<count).allSatisfy { flags.isRaised($0) })
        }
        flags.lowerAll()
        #expect(!(0..<count).contains { flags.isRaised($0) })
    }
}
