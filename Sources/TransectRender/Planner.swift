/// Where the map's text and symbols go, decided before anything is drawn.
///
/// Two placers keep the rules apart: `ink` holds what must never overlap (title, legend, north
/// arrow, scale bar, attribution, measurement labels, place labels, and the measurement's
/// endpoint markers, which nothing may hide); `marks` holds every marker, which labels keep off
/// but decorations may cover. `lines` holds the measurement lines and tracks and `leaders` the
/// leader lines drawn so far: no label crosses either, nor does a decoration cover a leader.
/// `markers` holds where every marker stands, so that no label lands nearer another marker than
/// its own. Every decision is recorded in `layout`.
struct Planner {
    var ink: LabelPlacer
    var marks: LabelPlacer
    var lines: LineIndex
    var leaders: LineIndex
    var markers: MarkerIndex
    var layout: Layout
    /// Drawing sizes relative to 96 dpi: the margins below are given at 96 dpi.
    var scale = 1.0

    init(width: Int, height: Int, scale: Double = 1) {
        ink = LabelPlacer(width: Double(width), height: Double(height))
        marks = ink
        lines = LineIndex(width: Double(width), height: Double(height))
        leaders = lines
        markers = MarkerIndex(width: Double(width), height: Double(height))
        layout = Layout(width: width, height: height)
        self.scale = scale
    }

    /// How far (at 96 dpi) a label may stand from what it names, nearest edge to point (or to
    /// the line, for a measurement's label), without a leader line: any further and a reader can
    /// no longer tell at a glance which marker it belongs to.
    static let leaderDistance = 24.0

    /// A marker at `anchor` occupying `box`; `protected` keeps decorations off it too.
    /// Markers wholly outside the image are not recorded.
    mutating func marker(
        _ box: Box, anchor: (Double, Double), text: String?, protected: Bool = false, measurement: Int? = nil, track: Int? = nil
    ) {
        guard box.maxX > 0, box.x < Double(layout.width), box.maxY > 0, box.y < Double(layout.height) else { return }
        marks.reserve(box)
        if protected { ink.reserve(box) }
        markers.insert(anchor, track: track)
        layout.add(.marker, text, box: box, anchor: anchor, measurement: measurement)
    }

    /// A decoration at the first candidate that fits among the other decorations and labels
    /// and covers no leader line.
    mutating func decoration(_ kind: Layout.Kind, _ text: String?, _ candidates: [Box]) -> Box? {
        guard let box = candidates.first(where: { ink.fits($0) && !leaders.crosses($0) }) else {
            layout.drop(kind, text)
            return nil
        }
        ink.reserve(box)
        layout.add(kind, text, box: box)
        return box
    }

    /// What a label names: the points of its own markers (the first is the one its leader
    /// goes to) and, for a measurement's label, its own line and the other measurements' lines.
    struct Owner {
        var markers: [(Double, Double)]
        var line: [(Double, Double)]? = nil
        var otherLines: [[(Double, Double)]] = []
        /// How far from the anchor a leader line stops: the marker's radius and a gap.
        var rim: Double = 0
        var measurement: Int? = nil
        /// Markers that give way to this label: it keeps them further than its own marker or line
        /// (``PlacedLabel/yieldingClearance(scale:)``) where a candidate allows, and the caller
        /// leaves out those it stands nearer.
        var yielding: MarkerIndex? = nil
        /// The track whose Start or End this labels, from 1. Its other fixes are points of one
        /// line rather than things of their own: a label joined to its fix by a leader need only
        /// keep them out of the distance at which a label reads as beside a marker
        /// (``leaderDistance``); every other marker keeps the usual clearance.
        var track: Int? = nil
    }

    /// How far every other marker must stand from a label that stands `own` pixels from its own
    /// marker or line: beside it, 1.5 times as far plus 2 px; with a leader, 4 px further.
    static func clearance(own: Double, leader: Bool, scale s: Double) -> Double {
        leader ? own + 4 * s : 1.5 * own + 2 * s
    }

    /// A label at the first candidate that overlaps no decoration, label or marker, crosses no
    /// line, stands nearer its own marker (or line) than any other marker (or measurement line),
    /// and, where it stands more than ``leaderDistance`` away, whose leader line crosses no
    /// label, decoration or other marker.
    ///
    /// "Nearer" has a margin a reader can see: a label beside its marker keeps every other
    /// marker at least 1.5 times as far plus 2 px; one with a leader, which says whose it is,
    /// 4 px further than its own. `preferring` lists further placers to keep clear of, most
    /// wanted first, after keeping leader lines off the figure's lines (and, after the first of
    /// them, the owner's yielding markers at a distance): the first candidate
    /// clear of all of them wins, else the first clear of all but the last, and so on.
    mutating func label(
        _ kind: Layout.Kind, _ text: String, anchor: (Double, Double), _ candidates: [Box], owner: Owner? = nil,
        anchors: [(Double, Double)]? = nil, preferring more: [LabelPlacer] = []
    ) -> PlacedLabel? {
        let s = scale
        var free: [PlacedLabel] = []
        for (k, box) in candidates.enumerated() where ink.fits(box) && marks.fits(box) && !lines.crosses(box) && !leaders.crosses(box) {
            // A candidate of its own anchor (a point along a line) has that point for its own.
            let anchor = anchors?[k] ?? anchor
            var owner = owner ?? Owner(markers: [anchor])
            if anchors != nil { owner.markers.insert(anchor, at: 0) }
            let own = owner.line.map { LineIndex.distance(box, $0) } ?? Planner.distance(anchor, box)
            let leader = own > Self.leaderDistance * s ? leaderLine(box, to: anchor, rim: owner.rim) : nil
            let clearance = Self.clearance(own: own, leader: leader != nil, scale: s)
            let track = owner.track.flatMap { t in leader.map { _ in (t, Self.leaderDistance * s) } }
            guard markers.clear(of: box, by: clearance, except: owner.markers, track: track) else { continue }
            guard owner.otherLines.allSatisfy({ LineIndex.distance(box, $0) >= clearance }) else { continue }
            if let leader {
                guard !ink.crosses(leader.from, leader.to, except: anchor), !marks.crosses(leader.from, leader.to, except: anchor)
                else { continue }
            }
            free.append(PlacedLabel(box: box, leader: leader, clearance: clearance, own: own, anchor: anchor))
        }
        let (lineIndex, leaderIndex) = (lines, leaders)
        var preferring: [(PlacedLabel) -> Bool] =
            [{ p in p.leader.map { !lineIndex.crosses(segment: $0.from, $0.to) && !leaderIndex.crosses(segment: $0.from, $0.to) } ?? true }]
            + more.map { placer in { p in placer.fits(p.box) } }
        if let owner, let points = owner.yielding {
            let clear: (PlacedLabel) -> Bool = { p in points.clear(of: p.box, by: p.yieldingClearance(scale: s), except: [p.anchor] + owner.markers) }
            preferring.insert(clear, at: min(2, preferring.count))
        }
        var chosen: PlacedLabel? = nil
        for n in stride(from: preferring.count, through: 0, by: -1) {
            if let c = free.first(where: { c in preferring.prefix(n).allSatisfy { $0(c) } }) {
                chosen = c
                break
            }
        }
        guard let placed = chosen else {
            layout.drop(kind, text)
            return nil
        }
        ink.reserve(placed.box)
        if let leader = placed.leader { leaders.insert([leader.from, leader.to], half: PlacedLabel.leaderHalfWidth * s) }
        layout.add(
            kind, text, box: placed.box, anchor: placed.anchor, leader: placed.leader.map { ($0.from, $0.to) }, measurement: owner?.measurement)
        return placed
    }

    /// The leader from the point of `box` nearest `anchor` to `rim` pixels short of `anchor`;
    /// nil when the box is nearer than that.
    func leaderLine(_ box: Box, to anchor: (Double, Double), rim: Double) -> PlacedLabel.Leader? {
        let from = (min(max(anchor.0, box.x), box.maxX), min(max(anchor.1, box.y), box.maxY))
        let dx = anchor.0 - from.0
        let dy = anchor.1 - from.1
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > rim + 1, length.isFinite else { return nil }
        let t = (length - rim) / length
        return PlacedLabel.Leader(from: from, to: (from.0 + dx * t, from.1 + dy * t))
    }

    /// Adds a line of the figure, drawn `width` pixels wide: labels keep clear of it by a
    /// pixel (at 96 dpi) beyond its stroke, and the layout records it.
    mutating func reserveLine(_ line: [(Double, Double)], width: Double, kind: Layout.LineKind, measurement: Int? = nil) {
        lines.insert(line, half: width / 2 + scale)
        layout.lines.append(Layout.Line(kind: kind, measurement: measurement, width: width, points: line))
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

/// Where a label went, and the leader line that joins it to what it names when it stands
/// further than ``Planner/leaderDistance`` from it.
struct PlacedLabel {
    struct Leader {
        var from: (Double, Double)
        var to: (Double, Double)
    }
    var box: Box
    var leader: Leader?
    /// How far other markers must stand from the box (``Planner/clearance(own:leader:scale:)``).
    var clearance: Double = 0
    /// How far the box stands from its own marker or line.
    var own: Double = 0
    /// The point it names (``Planner/label(_:_:anchor:_:owner:anchors:preferring:)``'s anchor).
    var anchor: (Double, Double) = (0, 0)

    /// How far a yielding marker must stand from the box to stay: 2 px (at 96 dpi) further than
    /// the label's own marker or line.
    func yieldingClearance(scale s: Double) -> Double { own + 2 * s }

    /// A leader is a 1 px line (at 96 dpi) on a 3 px halo: what labels keep clear of.
    static let leaderHalfWidth = 1.5

    /// Draws the leader, if any: a white halo, then the line in `color`.
    func drawLeader(on canvas: Canvas, color: Color, scale s: Double) {
        guard let leader else { return }
        canvas.polyline([leader.from, leader.to], color: Color.white.withAlpha(0.85), width: 2 * Self.leaderHalfWidth * s)
        canvas.polyline([leader.from, leader.to], color: color, width: 1 * s)
    }
}
