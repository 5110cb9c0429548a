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
        guard let box = ink.place(candidates) else {
            layout.drop(kind, text)
            return nil
        }
        layout.add(kind, text, box: box)
        return box
    }

    /// A label at the first candidate that overlaps no decoration, label or marker (and, with
    /// `avoidingTrail`, no track line if any candidate manages that).
    ///
    /// `preferring` lists further placers to keep clear of, most wanted first: the first
    /// candidate clear of all of them wins, else the first clear of all but the last, and so on.
    mutating func label(
        _ kind: Layout.Kind, _ text: String, anchor: (Double, Double), _ candidates: [Box], avoidingTrail: Bool = false,
        preferring more: [LabelPlacer] = []
    ) -> Box? {
        let free = candidates.filter { ink.fits($0) && marks.fits($0) }
        let preferring = (avoidingTrail ? [trail] : []) + more
        var chosen: Box? = nil
        for n in stride(from: preferring.count, through: 0, by: -1) {
            if let box = free.first(where: { c in preferring.prefix(n).allSatisfy { $0.fits(c) } }) {
                chosen = box
                break
            }
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
                let x = a.0 + (b.0 - a.0) * t
                let y = a.1 + (b.1 - a.1) * t
                trail.reserve(Box(x: x - half, y: y - half, width: 2 * half, height: 2 * half))
            }
        }
    }

    /// The part of the segment `a`–`b` inside the image grown by `margin`, or nil when none is
    /// (or an end is not finite).
    func clip(_ a: (Double, Double), _ b: (Double, Double), margin: Double) -> ((Double, Double), (Double, Double))? {
        guard a.0.isFinite, a.1.isFinite, b.0.isFinite, b.1.isFinite else { return nil }
        let dx = b.0 - a.0
        let dy = b.1 - a.1
        var t0 = 0.0
        var t1 = 1.0
        // Each edge as p·t ≤ q: left, right, top, bottom.
        for (p, q) in [
            (-dx, a.0 + margin), (dx, Double(layout.width) + margin - a.0),
            (-dy, a.1 + margin), (dy, Double(layout.height) + margin - a.1),
        ] {
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
        let dx = max(box.x - p.0, 0, p.0 - box.maxX)
        let dy = max(box.y - p.1, 0, p.1 - box.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}
