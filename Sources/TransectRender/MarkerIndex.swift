/// The points markers stand on (places, measurement ends and numbers, track fixes), bucketed
/// over the image, to answer the question a reader asks of a label: is any other marker as near
/// to it as its own?
///
/// Complexity: `insert` is O(1); `clear(of:by:except:)` costs the buckets the box grown by the
/// distance overlaps plus the points in them.
struct MarkerIndex {
    let bucketSize: Double
    let columns: Int
    let rows: Int
    /// Each point with the track it is a fix of (0 for none).
    private var buckets: [[(x: Double, y: Double, track: Int)]]

    init(width: Double, height: Double) {
        let spanX = width.isFinite ? max(width, 1) : 1
        let spanY = height.isFinite ? max(height, 1) : 1
        let size = max(32, max(spanX, spanY) / Double(LabelPlacer.maximumBucketsPerSide))
        bucketSize = size
        columns = min(LabelPlacer.maximumBucketsPerSide, max(1, Int((spanX / size).rounded(.up))))
        rows = min(LabelPlacer.maximumBucketsPerSide, max(1, Int((spanY / size).rounded(.up))))
        buckets = Array(repeating: [], count: columns * rows)
    }

    /// Points closer than this to one of a label's own points stand on that point: a place on a
    /// measurement's end is the same spot to a reader.
    static let samePoint = 0.5

    /// Adds a marker at `p`, a fix of track `track` (from 1) when given.
    mutating func insert(_ p: (Double, Double), track: Int? = nil) {
        guard p.0.isFinite, p.1.isFinite else { return }
        buckets[bucket(p.1, rows) * columns + bucket(p.0, columns)].append((p.0, p.1, track ?? 0))
    }

    /// Whether every marker within `distance` pixels of `box` stands on one of `own` or under
    /// the box (one a label covers is left out, or kept off by the placers); the fixes of
    /// `track.number`, if given, need only keep `track.distance` away.
    func clear(of box: Box, by distance: Double, except own: [(Double, Double)], track: (number: Int, distance: Double)? = nil) -> Bool {
        let grown = box.inset(-distance)
        guard grown.x.isFinite, grown.y.isFinite, grown.maxX.isFinite, grown.maxY.isFinite else { return true }
        for r in bucket(grown.y, rows)...bucket(grown.maxY, rows) {
            for c in bucket(grown.x, columns)...bucket(grown.maxX, columns) {
                for p in buckets[r * columns + c] where Planner.distance((p.x, p.y), box) < distance && !box.contains(p.x, p.y) {
                    if let track, p.track == track.number, Planner.distance((p.x, p.y), box) >= track.distance { continue }
                    let isOwn = own.contains { abs($0.0 - p.x) <= Self.samePoint && abs($0.1 - p.y) <= Self.samePoint }
                    if !isOwn { return false }
                }
            }
        }
        return true
    }

    private func bucket(_ v: Double, _ count: Int) -> Int {
        Int(min(max((v / bucketSize).rounded(.down), 0), Double(count - 1)))
    }
}
