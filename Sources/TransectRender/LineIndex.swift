/// The lines of a figure that no label may cross (measurement lines, trails, leader lines, a
/// chart's sight line and terrain line), as segments each drawn `half` pixels either side of
/// its centre, bucketed over the image as ``LabelPlacer`` buckets boxes.
///
/// A box crosses a segment when the segment meets the box grown by the segment's half width
/// on every side (Liang–Barsky clipping against that rectangle): the rectangle holds the
/// stroke's round-capped outline, so a box that does not cross a line keeps at least `half`
/// pixels from its centre, as much as the stroke covers. A segment goes into every bucket its
/// grown bounding box overlaps and a box is compared only with the segments of its own
/// buckets; the decisions are those of comparing it with every segment, for the reason
/// ``LabelPlacer`` gives.
///
/// Complexity: `insert` costs the buckets a segment's bounding box overlaps; `crosses` the
/// buckets the box overlaps plus the segments in them.
struct LineIndex {
    struct Segment {
        var a: (x: Double, y: Double)
        var b: (x: Double, y: Double)
        var half: Double
    }

    let width: Double
    let height: Double
    let bucketSize: Double
    let columns: Int
    let rows: Int
    private var buckets: [[Int]]
    private(set) var segments: [Segment] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
        let spanX = width.isFinite ? max(width, 1) : 1
        let spanY = height.isFinite ? max(height, 1) : 1
        let size = max(32, max(spanX, spanY) / Double(LabelPlacer.maximumBucketsPerSide))
        bucketSize = size
        columns = min(LabelPlacer.maximumBucketsPerSide, max(1, Int((spanX / size).rounded(.up))))
        rows = min(LabelPlacer.maximumBucketsPerSide, max(1, Int((spanY / size).rounded(.up))))
        buckets = Array(repeating: [], count: columns * rows)
    }

    /// Adds the polyline's segments, each clipped to the image grown by `half` (a part outside
    /// it can meet no box that fits in the image); a polyline of one point is a dot.
    mutating func insert(_ line: [(Double, Double)], half: Double) {
        let pairs = line.count == 1 ? [(line[0], line[0])] : Array(zip(line, line.dropFirst()))
        for (start, end) in pairs {
            guard
                let (a, b) = Self.clip(
                    start, end, to: Box(x: -half, y: -half, width: width + 2 * half, height: height + 2 * half))
            else { continue }
            let k = segments.count
            segments.append(Segment(a: a, b: b, half: half))
            let (c0, c1) = span(min(a.0, b.0) - half, max(a.0, b.0) + half, count: columns)
            let (r0, r1) = span(min(a.1, b.1) - half, max(a.1, b.1) + half, count: rows)
            for r in r0...r1 {
                for c in c0...c1 { buckets[r * columns + c].append(k) }
            }
        }
    }

    /// Whether any segment, `half` pixels either side, meets `box`.
    func crosses(_ box: Box) -> Bool {
        guard box.x.isFinite, box.y.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return false }
        let (c0, c1) = span(box.x, box.maxX, count: columns)
        let (r0, r1) = span(box.y, box.maxY, count: rows)
        for r in r0...r1 {
            for c in c0...c1 {
                for k in buckets[r * columns + c] {
                    let s = segments[k]
                    if Self.clip(s.a, s.b, to: box.inset(-s.half)) != nil { return true }
                }
            }
        }
        return false
    }

    /// Whether any segment, `half` pixels either side, meets the segment `a`–`b` (itself of no
    /// width): tested against the segment's stroke outline as a rectangle per segment, as
    /// `crosses(_:)` tests a box, by clipping `a`–`b` to each stored segment's bounding box
    /// grown by its half width and then measuring the distance between the two segments.
    func crosses(segment a: (Double, Double), _ b: (Double, Double)) -> Bool {
        let bounds = Box(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(b.0 - a.0), height: abs(b.1 - a.1))
        guard bounds.x.isFinite, bounds.y.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else { return false }
        let (c0, c1) = span(bounds.x, bounds.maxX, count: columns)
        let (r0, r1) = span(bounds.y, bounds.maxY, count: rows)
        for r in r0...r1 {
            for c in c0...c1 {
                for k in buckets[r * columns + c] {
                    let s = segments[k]
                    if Self.segmentDistance(a, b, s.a, s.b) <= s.half { return true }
                }
            }
        }
        return false
    }

    /// The least distance between the segments `a`–`b` and `c`–`d`: 0 where they cross, else
    /// the least distance from an end of one to the other.
    static func segmentDistance(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double)) -> Double {
        func orientation(_ p: (Double, Double), _ q: (Double, Double), _ r: (Double, Double)) -> Double {
            (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
        }
        let o1 = orientation(a, b, c)
        let o2 = orientation(a, b, d)
        let o3 = orientation(c, d, a)
        let o4 = orientation(c, d, b)
        if (o1 > 0) != (o2 > 0) && (o3 > 0) != (o4 > 0) && o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0 { return 0 }
        return min(distance(a, c, d), distance(b, c, d), distance(c, a, b), distance(d, a, b))
    }

    /// The part of the segment `a`–`b` inside `box` (Liang–Barsky), or nil when none is or an
    /// end is not finite.
    static func clip(_ a: (Double, Double), _ b: (Double, Double), to box: Box) -> ((Double, Double), (Double, Double))? {
        guard a.0.isFinite, a.1.isFinite, b.0.isFinite, b.1.isFinite else { return nil }
        let dx = b.0 - a.0
        let dy = b.1 - a.1
        var t0 = 0.0
        var t1 = 1.0
        // Each edge as p·t ≤ q: left, right, top, bottom.
        for (p, q) in [(-dx, a.0 - box.x), (dx, box.maxX - a.0), (-dy, a.1 - box.y), (dy, box.maxY - a.1)] {
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

    /// Distance in pixels from `box` to the nearest point of the polyline (0 where they meet).
    static func distance(_ box: Box, _ line: [(Double, Double)]) -> Double {
        let pairs = line.count == 1 ? [(line[0], line[0])] : Array(zip(line, line.dropFirst()))
        var best = Double.infinity
        for (a, b) in pairs { best = min(best, distance(box, a, b)) }
        return best
    }

    /// Distance from `box` to the segment `a`–`b`: 0 when they meet, else the least of the
    /// distances from the segment's ends to the box and from the box's corners to the segment.
    static func distance(_ box: Box, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        if clip(a, b, to: box) != nil { return 0 }
        var best = min(Planner.distance(a, box), Planner.distance(b, box))
        for c in [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)] {
            best = min(best, distance(c, a, b))
        }
        return best
    }

    /// Distance from the point `p` to the segment `a`–`b`.
    static func distance(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0
        let dy = b.1 - a.1
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(max(((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length2, 0), 1) : 0
        let x = a.0 + t * dx - p.0
        let y = a.1 + t * dy - p.1
        return (x * x + y * y).squareRoot()
    }

    private func span(_ low: Double, _ high: Double, count: Int) -> (Int, Int) {
        let last = Double(count - 1)
        let a = min(max((low / bucketSize).rounded(.down), 0), last)
        let b = min(max((high / bucketSize).rounded(.down), 0), last)
        return (Int(a), Int(b))
    }
}
