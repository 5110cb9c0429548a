/// Which of `count` shards holds which rows: contiguous ranges in order, row r (from 1) of R in
/// shard ⌊(r − 1)·N/R⌋ + 1, so the shards' rows, in shard order, are the rows of the whole.
public struct Shard: Sendable, Equatable {
    /// The most shards a split may have: more than any job array engine runs (Slurm's
    /// `MaxArraySize` is at most 4,000,001; Kubernetes Indexed Jobs and AWS Batch arrays
    /// allow far fewer), and few enough that anything done once per shard stays bounded.
    public static let maximumCount = 10_000_000

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
    /// shards and none falls here (or `total` is not positive).
    ///
    /// Exact for every `index`, `count` and `total` an `Int` holds: the products
    /// (K − 1)·R and K·R are taken at double width, and their quotients by N are at most R.
    public func rows(of total: Int) -> ClosedRange<Int>? {
        guard total > 0 else { return nil }
        let first = Self.ceilingOfProduct(index - 1, total, over: count) + 1
        let last = Self.ceilingOfProduct(index, total, over: count)
        return first <= last ? first...last : nil
    }

    /// ⌈a·b / c⌉ for 0 ≤ a ≤ c, b ≥ 0, c ≥ 1, without overflow (the result is at most b).
    private static func ceilingOfProduct(_ a: Int, _ b: Int, over c: Int) -> Int {
        let product = a.multipliedFullWidth(by: b)
        let (quotient, remainder) = c.dividingFullWidth(product)
        return remainder > 0 ? quotient + 1 : quotient
    }

    /// `K/N`.
    public var text: String { "\(index)/\(count)" }
}
