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
        let spanX = width.isFinite ? max(width, 1) : 1, spanY = height.isFinite ? max(height, 1) : 1
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

/// Place names: a label with a halo beside the marker, at the first of eight positions that fits.
enum PlaceLabel {
    static let size = 13.0

    static func draw(_ name: String, at p: (Double, Double), canvas: Canvas, placer: inout LabelPlacer, gap first: Double = 7) -> Bool {
        let m = canvas.measure(name, size: size)
        let w = m.width + 4, h = m.ascent + m.descent + 2
        var candidates: [Box] = []
        // Close to the marker first; further out where another marker sits on it.
        for gap in [first, first + 6, first + 17, first + 30] { candidates += Self.candidates(p, w: w, h: h, gap: gap) }
        guard let box = placer.place(candidates) else { return false }
        canvas.text(name, x: box.x + 2, y: box.y + 1 + m.ascent, size: size, color: Color(hex: 0x1A1A1A),
                    halo: Color.white.withAlpha(0.9), haloWidth: 2.5)
        return true
    }

    static func candidates(_ p: (Double, Double), w: Double, h: Double, gap: Double) -> [Box] {
        [
            Box(x: p.0 + gap, y: p.1 - h / 2, width: w, height: h),          // east
            Box(x: p.0 - gap - w, y: p.1 - h / 2, width: w, height: h),      // west
            Box(x: p.0 + gap - 2, y: p.1 - gap - h, width: w, height: h),    // north-east
            Box(x: p.0 + gap - 2, y: p.1 + gap, width: w, height: h),        // south-east
            Box(x: p.0 - gap - w + 2, y: p.1 - gap - h, width: w, height: h),// north-west
            Box(x: p.0 - gap - w + 2, y: p.1 + gap, width: w, height: h),    // south-west
            Box(x: p.0 - w / 2, y: p.1 - gap - h, width: w, height: h),      // north
            Box(x: p.0 - w / 2, y: p.1 + gap, width: w, height: h),          // south
        ]
    }
}

/// The measurement's label box: beside the line's middle, on whichever side and at whichever
/// distance first covers neither endpoint nor another label.
enum MeasurementLabel {
    static let size = 13.0

    static func draw(_ label: String, line: [(Double, Double)], canvas: Canvas, placer: inout LabelPlacer) {
        let m = canvas.measure(label, size: size)
        let w = m.width + 16, h = m.ascent + m.descent + 10
        let a = line.first!, b = line.last!
        let mid = line[line.count / 2]
        var nx = -(b.1 - a.1), ny = b.0 - a.0
        let len = (nx * nx + ny * ny).squareRoot()
        if len > 0 { nx /= len; ny /= len } else { nx = 0; ny = -1 }
        var candidates: [Box] = []
        for distance in [24.0, 48, 80, 120, 170] {
            for side in [1.0, -1.0] {
                let cx = mid.0 + side * nx * (distance + h / 2), cy = mid.1 + side * ny * (distance + h / 2)
                candidates.append(Box(x: cx - w / 2, y: cy - h / 2, width: w, height: h))
            }
        }
        // Along the edges as a last resort.
        candidates += [Box(x: 12, y: placer.height - h - 40, width: w, height: h), Box(x: 12, y: 60, width: w, height: h)]
        let box = placer.place(candidates) ?? candidates[0]
        canvas.rectangle(box, fill: Color.white.withAlpha(0.92), stroke: Color(hex: 0xC8102E), strokeWidth: 1.5, radius: 4)
        canvas.text(label, x: box.x + 8, y: box.y + 5 + m.ascent, size: size, color: Color(hex: 0x1A1A1A))
    }
}
