/// Rows of a point-pairs batch as columns, as the reader hands them to the measurement: each
/// row's two ends as written (in the input CRS), its given heights, its id and the first
/// problem the reader found with its coordinates or its heights.
///
/// ```swift
/// var batch = PairsBatch(firstNumber: 1)
/// batch.append(from: (-119.5, 37.7), to: (-119.6, 37.8), heights: (nil, 12), id: "a")
/// batch.id(0)   // "a"
/// ```
public struct PairsBatch: Sendable {
    /// The number of the first row among all the rows (from 1); row `k` is `firstNumber + k`.
    public var firstNumber: Int
    /// X (longitude or easting) of each row's `from` and `to`: `2k`, `2k + 1`; `nan` where the
    /// row's coordinates have a problem.
    public var xs: [Double] = []
    /// Y (latitude or northing), as ``xs``.
    public var ys: [Double] = []
    /// Given heights of `from` and `to`, metres, `nan` where none is given.
    public var heights: [Double] = []
    /// The first problem with a row's coordinates, by row index.
    public var coordinateProblems: [Int: String] = [:]
    /// The first problem with a row's heights, by row index.
    public var heightProblems: [Int: String] = [:]
    /// UTF-8 of the rows' ids, one after the other (none when the row numbers are the ids).
    public var idBytes: [UInt8] = []
    /// Where each row's id ends in ``idBytes``; empty when the row numbers are the ids.
    public var idEnds: [Int] = []

    public init(firstNumber: Int) { self.firstNumber = firstNumber }

    /// The number of rows.
    public var count: Int { xs.count / 2 }

    /// The number of row `k` among all the rows.
    public func number(_ k: Int) -> Int { firstNumber + k }

    /// Row `k`'s id: its `id` field, else its number.
    public func id(_ k: Int) -> String {
        guard !idEnds.isEmpty else { return String(number(k)) }
        let start = k == 0 ? 0 : idEnds[k - 1]
        return String(decoding: idBytes[start..<idEnds[k]], as: UTF8.self)
    }

    /// Calls `body` with row `k`'s id bytes, or nil when its number is its id.
    public func withID<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard !idEnds.isEmpty else { return body(nil) }
        let start = k == 0 ? 0 : idEnds[k - 1]
        return idBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<idEnds[k]])) }
    }

    /// Appends a row: `nil` heights are not given; `id` nil when the row numbers are the ids.
    public mutating func append(
        from: (x: Double, y: Double), to: (x: Double, y: Double), heights given: (from: Double?, to: Double?), id: String?
    ) {
        xs += [from.x, to.x]
        ys += [from.y, to.y]
        heights += [given.from ?? .nan, given.to ?? .nan]
        if let id {
            idBytes += Array(id.utf8)
            idEnds.append(idBytes.count)
        }
    }

    /// Rows `range` as a batch of their own: the same rows, numbers, ids and problems, indexed
    /// from 0. The whole batch when `range` is all of it.
    public func rows(_ range: Range<Int>) -> PairsBatch {
        if range == 0..<count { return self }
        var part = PairsBatch(firstNumber: firstNumber + range.lowerBound)
        part.xs = Array(xs[2 * range.lowerBound..<2 * range.upperBound])
        part.ys = Array(ys[2 * range.lowerBound..<2 * range.upperBound])
        part.heights = Array(heights[2 * range.lowerBound..<2 * range.upperBound])
        for (k, problem) in coordinateProblems where range.contains(k) { part.coordinateProblems[k - range.lowerBound] = problem }
        for (k, problem) in heightProblems where range.contains(k) { part.heightProblems[k - range.lowerBound] = problem }
        if !idEnds.isEmpty {
            let first = range.lowerBound == 0 ? 0 : idEnds[range.lowerBound - 1]
            let last = range.isEmpty ? first : idEnds[range.upperBound - 1]
            part.idBytes = Array(idBytes[first..<last])
            part.idEnds = idEnds[range].map { $0 - first }
        }
        return part
    }
}
