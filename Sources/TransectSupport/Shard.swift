/// Which of `count` shards holds which rows: contiguous ranges in order, row r (from 1) of R in
/// shard ⌊(r − 1)·N/R⌋ + 1, so the shards' rows, in shard order, are the rows of the whole.
public struct Shard: Sendable, Equatable {
    /// This shard, from 1.
    public let index: Int
    /// How many shards there are.
    public let count: Int

    public init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "a shard is K/N with 1 ≤ K ≤ N")
        self.index = index
        self.count = count
    }

    /// The rows (from 1) of `total` that this shard holds; empty when there are fewer rows than
    /// shards and none falls here.
    public func rows(of total: Int) -> ClosedRange<Int>? {
        let first = Self.ceilingDivide((index - 1) * total, count) + 1
        let last = Self.ceilingDivide(index * total, count)
        return first <= last ? first...last : nil
    }

    private static func ceilingDivide(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }

    /// `K/N`.
    public var text: String { "\(index)/\(count)" }
}
