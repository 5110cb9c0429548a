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

/// Where the map's text and symbols go, decided before anything is drawn.
///
/// Two placers keep the rules apart: `ink` holds what must never overlap (title, legend, north
/// arrow, scale bar, attribution, measurement labels, place labels, and the measurement's
/// endpoint markers, which nothing may hide); `marks` holds every marker, which labels keep off
/// but decorations may cover. `trail` holds the track lines, which Start and End labels avoid
/// when any candidate lets them. Every decision is recorded in `layout`.
struct Planner {
    var ink: LabelPlacer
    var marks: LabelPlacer
    var trail: LabelPlacer
    var layout: Layout

    init(width: Int, height: Int) {
        ink = LabelPlacer(width: Double(width), height: Double(height))
        marks = ink
        trail = ink
        layout = Layout(width: width, height: height)
    }

    /// A marker at `anchor` occupying `box`; `protected` keeps decorations off it too.
    /// Markers wholly outside the image are not recorded.
    mutating func marker(_ box: Box, anchor: (Double, Double), text: String?, protected: Bool = false) {
        guard box.maxX > 0, box.x < Double(layout.width), box.maxY > 0, box.y < Double(layout.height) else { return }
        marks.reserve(box)
        if protected { ink.reserve(box) }
        layout.add(.marker, text, box: box, anchor: anchor)
    }

    /// A decoration at the first candidate that fits among the other decorations and labels.
    mutating func decoration(_ kind: Layout.Kind, _ text: String?, _ candidates: [Box]) -> Box? {
        guard let box = ink.place(candidates) else { layout.drop(kind, text); return nil }
        layout.add(kind, text, box: box)
        return box
    }

    /// A label at the first candidate that overlaps no decoration, label or marker (and, with
    /// `avoidingTrail`, no track line if any candidate manages that).
    ///
    /// `preferring` lists further placers to keep clear of, most wanted first: the first
    /// candidate clear of all of them wins, else the first clear of all but the last, and so on.
    mutating func label(_ kind: Layout.Kind, _ text: String, anchor: (Double, Double), _ candidates: [Box], avoidingTrail: Bool = false,
                        preferring more: [LabelPlacer] = []) -> Box? {
        let free = candidates.filter { ink.fits($0) && marks.fits($0) }
        let preferring = (avoidingTrail ? [trail] : []) + more
        var chosen: Box? = nil
        for n in stride(from: preferring.count, through: 0, by: -1) {
            if let box = free.first(where: { c in preferring.prefix(n).allSatisfy { $0.fits(c) } }) { chosen = box; break }
        }
        guard let box = chosen else {
            layout.drop(kind, text)
            return nil
        }
        ink.reserve(box)
        layout.add(kind, text, box: box, anchor: anchor)
        return box
    }

    /// Reserves a band `half` pixels either side of the polyline in `trail`.
    /// Each leg is first clipped to the image grown by `half` (Liang–Barsky), so the work
    /// follows the pixels a leg crosses, however long it is off the image.
    mutating func reserveLine(_ line: [(Double, Double)], half: Double) {
        let step = max(1, half)
        for (start, end) in zip(line, line.count > 1 ? Array(line.dropFirst()) : line) {
            guard let (a, b) = clip(start, end, margin: half) else { continue }
            let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
            let n = max(1, Int((length / step).rounded(.up)))
            for k in 0...n {
                let t = Double(k) / Double(n)
                let x = a.0 + (b.0 - a.0) * t, y = a.1 + (b.1 - a.1) * t
                trail.reserve(Box(x: x - half, y: y - half, width: 2 * half, height: 2 * half))
            }
        }
    }

    /// The part of the segment `a`–`b` inside the image grown by `margin`, or nil when none is
    /// (or an end is not finite).
    func clip(_ a: (Double, Double), _ b: (Double, Double), margin: Double) -> ((Double, Double), (Double, Double))? {
        guard a.0.isFinite, a.1.isFinite, b.0.isFinite, b.1.isFinite else { return nil }
        let dx = b.0 - a.0, dy = b.1 - a.1
        var t0 = 0.0, t1 = 1.0
        // Each edge as p·t ≤ q: left, right, top, bottom.
        for (p, q) in [(-dx, a.0 + margin), (dx, Double(layout.width) + margin - a.0),
                       (-dy, a.1 + margin), (dy, Double(layout.height) + margin - a.1)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                if t0 > t1 { return nil }
            }
        }
        return ((a.0 + t0 * dx, a.1 + t0 * dy), (a.0 + t1 * dx, a.1 + t1 * dy))
    }

    /// Whether `p` lies in the image (a label is only sought for a point that does).
    func shows(_ p: (Double, Double)) -> Bool {
        p.0 >= 0 && p.1 >= 0 && p.0 <= Double(layout.width) && p.1 <= Double(layout.height)
    }

    /// Distance in pixels from `p` to the nearest point of `box` (0 inside it).
    static func distance(_ p: (Double, Double), _ box: Box) -> Double {
        let dx = max(box.x - p.0, 0, p.0 - box.maxX), dy = max(box.y - p.1, 0, p.1 - box.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// Place names: a label with a halo beside the marker, at the first of eight positions around it
/// that fits, trying a little further out where another marker or label sits in the way, but
/// never more than ``maximumDistance`` × scale pixels from the place.
enum PlaceLabel {
    static let size = 13.0
    /// How far (at 96 dpi) a label may stand from the point it names, nearest edge to point: any
    /// further and a reader can no longer tell which marker it belongs to.
    static let maximumDistance = 24.0

    /// The label's box size for `name` at `scale`.
    static func boxSize(_ name: String, canvas: Canvas, scale: Double) -> (w: Double, h: Double) {
        let m = canvas.measure(name, size: size * scale)
        return (m.width + 4 * scale, m.ascent + m.descent + 2 * scale)
    }

    /// Candidates in order of preference: the eight positions at `first` pixels from the
    /// point, then further rings, keeping only those within the maximum distance.
    static func candidates(_ p: (Double, Double), w: Double, h: Double, first: Double, scale: Double) -> [Box] {
        let limit = maximumDistance * max(scale, 1)
        return [first, first + 6 * scale, first + 13 * scale].flatMap { candidates(p, w: w, h: h, gap: $0) }
            .filter { Planner.distance(p, $0) <= limit }
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

    static func draw(_ name: String, in box: Box, canvas: Canvas, scale: Double) {
        let m = canvas.measure(name, size: size * scale)
        canvas.text(name, x: box.x + 2 * scale, y: box.y + 1 * scale + m.ascent, size: size * scale, color: Color(hex: 0x1A1A1A),
                    halo: Color.white.withAlpha(0.9), haloWidth: 2.5 * scale)
    }
}

/// The measurement's label: beside the line's middle, on whichever side and at whichever
/// distance first covers neither endpoint nor another label; on one line where it fits, else
/// broken at its " | " separators into one line per distance; slid along the image's edge when
/// the line runs close to it.
enum MeasurementLabel {
    static let size = 13.0

    struct Shape {
        var lines: [String]
        var width: Double
        var height: Double
        var lineHeight: Double
        var ascent: Double
        /// Drawing sizes relative to 96 dpi for this shape.
        var scale: Double
    }

    /// The smallest text a measurement label shrinks to, in pixels, before it is left out.
    static let minimumTextPixels = 10.0

    /// The label's shapes, best first: on one line, then one line per distance; then both
    /// again at 80 % and 65 % of the size, while the text stays at least 10 px, for maps too
    /// small to hold the measurement at full size (the measurement is what the map is for).
    static func shapes(_ label: String, canvas: Canvas, scale: Double) -> [Shape] {
        var variants = [[label]]
        let parts = label.split(separator: " | ").map(String.init)
        if parts.count > 1 { variants.append(parts) }
        let scales = [1.0, 0.8, 0.65].map { $0 * scale }.enumerated().filter { $0.offset == 0 || size * $0.element >= minimumTextPixels }.map(\.element)
        return scales.flatMap { s in
            variants.map { lines in
                let ms = lines.map { canvas.measure($0, size: size * s) }
                let lineHeight = ms[0].ascent + ms[0].descent + 2 * s
                return Shape(lines: lines, width: ms.map(\.width).max()! + 16 * s,
                             height: lineHeight * Double(lines.count) - 2 * s + 10 * s, lineHeight: lineHeight, ascent: ms[0].ascent, scale: s)
            }
        }
    }

    /// Candidate boxes, best first, with the shape each one holds.
    static func candidates(_ shapes: [Shape], line: [(Double, Double)], width: Double, height: Double, scale s: Double) -> [(Box, Shape)] {
        let a = line.first!, b = line.last!
        let mid = line[line.count / 2]
        var nx = -(b.1 - a.1), ny = b.0 - a.0
        let len = (nx * nx + ny * ny).squareRoot()
        if len > 0 && len.isFinite { nx /= len; ny /= len } else { nx = 0; ny = -1 }
        var out: [(Box, Shape)] = []
        // The box's reach towards the line: its centre stands this much further out than its
        // nearest corner or edge, so `distance` is the clearance from the line itself.
        for (shape, support) in shapes.map({ ($0, $0.width / 2 * abs(nx) + $0.height / 2 * abs(ny)) }) + shapes.map({ ($0, $0.height / 2) }) {
            let w = shape.width, h = shape.height
            for distance in [12.0, 24, 48, 80, 120, 170] {
                for side in [1.0, -1.0] {
                    let cx = mid.0 + side * nx * (distance * s + support), cy = mid.1 + side * ny * (distance * s + support)
                    let box = Box(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
                    out.append((box, shape))
                    // Slid inside the image when it crosses an edge.
                    var inside = box
                    inside.x = min(max(inside.x, 4), width - w - 4)
                    inside.y = min(max(inside.y, 4), height - h - 4)
                    if inside != box { out.append((inside, shape)) }
                }
            }
        }
        return out
    }

    static func draw(_ shape: Shape, in box: Box, canvas: Canvas) {
        let s = shape.scale
        canvas.rectangle(box, fill: Color.white.withAlpha(0.92), stroke: Color(hex: 0xC8102E), strokeWidth: 1.5 * s, radius: 4 * s)
        for (k, line) in shape.lines.enumerated() {
            canvas.text(line, x: box.x + 8 * s, y: box.y + 5 * s + shape.ascent + Double(k) * shape.lineHeight, size: size * s,
                        color: Color(hex: 0x1A1A1A))
        }
    }
}
