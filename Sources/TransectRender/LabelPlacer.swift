/// Keeps labels from overlapping one another, the markers and the decorations: each placed box
/// is remembered, and a candidate is accepted only when it lies inside the image and touches
/// none of them.
///
/// The boxes are kept in a uniform grid of square buckets over the image. A box goes into every
/// bucket it overlaps (a title or legend into many), and a candidate is compared only with the
/// boxes of the buckets it overlaps. Two boxes that intersect share an interior point; the
/// bucket holding that point lies in both boxes' bucket ranges, so the candidate meets the
/// other box there. Bucket indices are clamped to the grid, which keeps that true for boxes
/// reaching past the image, and a floored division is monotonic, which keeps it true at bucket
/// edges. The decisions are therefore exactly those of comparing each candidate with every box.
///
/// Complexity: `reserve` and `fits` cost the number of buckets the box overlaps plus the boxes
/// in them, independent of how many boxes lie elsewhere; placing n labels of bounded size over
/// an image of bounded density is O(n).
struct LabelPlacer {
    let width: Double
    let height: Double
    /// Side of a bucket in pixels: a little larger than a place marker, a little smaller than a
    /// label, so a candidate overlaps a handful of buckets and each holds a handful of boxes.
    let bucketSize: Double
    let columns: Int
    let rows: Int
    /// Row-major, `columns × rows`; each holds the boxes that overlap it, in the order reserved.
    private var buckets: [[Box]]

    /// At most this many buckets on a side, however large the image: the bucket grows instead.
    static let maximumBucketsPerSide = 1024
    static let preferredBucketSize = 16.0

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
        // Only the image's extent matters for speed; clamping indices keeps any grid exact.
        let spanX = width.isFinite ? max(width, 1) : 1
        let spanY = height.isFinite ? max(height, 1) : 1
        let size = max(Self.preferredBucketSize, max(spanX, spanY) / Double(Self.maximumBucketsPerSide))
        bucketSize = size
        columns = min(Self.maximumBucketsPerSide, max(1, Int((spanX / size).rounded(.up))))
        rows = min(Self.maximumBucketsPerSide, max(1, Int((spanY / size).rounded(.up))))
        buckets = Array(repeating: [], count: columns * rows)
    }

    /// Remembers `box` so that no later candidate may overlap it.
    mutating func reserve(_ box: Box) {
        // A box with a NaN edge fails every comparison in `Box.intersects`, and a box that stays
        // outside the 2-pixel margin cannot meet a candidate that `fits` lets through; neither
        // can change a decision, so neither is stored.
        guard box.x < width - 2, box.maxX > 2, box.y < height - 2, box.maxY > 2 else { return }
        let (c0, c1) = span(box.x, box.maxX, count: columns)
        let (r0, r1) = span(box.y, box.maxY, count: rows)
        for r in r0...r1 {
            for c in c0...c1 { buckets[r * columns + c].append(box) }
        }
    }

    /// Whether `box` lies inside the image, 2 pixels clear of its edges, and overlaps no
    /// reserved box.
    func fits(_ box: Box) -> Bool {
        guard box.x >= 2 && box.y >= 2 && box.maxX <= width - 2 && box.maxY <= height - 2 else { return false }
        let (c0, c1) = span(box.x, box.maxX, count: columns)
        let (r0, r1) = span(box.y, box.maxY, count: rows)
        return buckets.withUnsafeBufferPointer { buckets in
            for r in r0...r1 {
                for c in c0...c1 {
                    for other in buckets[r * columns + c] where other.intersects(box) { return false }
                }
            }
            return true
        }
    }

    /// Whether the segment `a`–`b` passes through a reserved box other than those holding
    /// `except` (the marker a leader line goes to).
    func crosses(_ a: (Double, Double), _ b: (Double, Double), except: (Double, Double)) -> Bool {
        let bounds = Box(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(b.0 - a.0), height: abs(b.1 - a.1))
        guard bounds.x.isFinite, bounds.y.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else { return false }
        let (c0, c1) = span(bounds.x, bounds.maxX, count: columns)
        let (r0, r1) = span(bounds.y, bounds.maxY, count: rows)
        for r in r0...r1 {
            for c in c0...c1 {
                for other in buckets[r * columns + c] where !other.contains(except.0, except.1) {
                    if LineIndex.clip(a, b, to: other) != nil { return true }
                }
            }
        }
        return false
    }

    /// The first candidate that fits, reserved; nil when none does.
    mutating func place(_ candidates: [Box]) -> Box? {
        guard let box = candidates.first(where: fits) else { return nil }
        reserve(box)
        return box
    }

    /// The buckets from `low` to `high` along one axis, clamped to the grid. Both are finite or
    /// ±infinity here (callers have ruled out NaN); the clamping happens before `Int(_:)`.
    private func span(_ low: Double, _ high: Double, count: Int) -> (Int, Int) {
        let last = Double(count - 1)
        let a = min(max((low / bucketSize).rounded(.down), 0), last)
        let b = min(max((high / bucketSize).rounded(.down), 0), last)
        return (Int(a), Int(b))
    }
}
