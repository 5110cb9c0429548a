import TransectGeodesy

/// A location history drawn as the location-history sample draws it: the track as one path
/// 10 px wide in an accent colour at 50 % opacity (round joins and caps; overlapping parts of
/// one track do not darken, because the whole path is composited once), every fix as a 14 px
/// black circle with a 2 px white outline, the last fix marked as the current location, and the
/// start and end labelled.
public struct TrailOverlay: Sendable {
    /// The track's segments; no line joins one segment to the next.
    public var segments: [[GeoPoint]]
    /// The fixes, in time order.
    public var fixes: [GeoPoint]
    /// Label of the first fix, and of the last.
    public var startLabel: String
    public var endLabel: String

    public init(segments: [[GeoPoint]], fixes: [GeoPoint], startLabel: String = "Start", endLabel: String = "End") {
        self.segments = segments
        self.fixes = fixes
        self.startLabel = startLabel
        self.endLabel = endLabel
    }

    /// The accent colour of the track line (drawn at 50 % opacity).
    public static let accent = Color(hex: 0x0079C1)
    /// The current-location marker.
    static let current = Color(hex: 0x1A73E8)

    /// This trail as it stood after `count` fixes: the line up to the last of them.
    public func prefix(_ count: Int) -> TrailOverlay {
        var remaining = count
        var shown: [[GeoPoint]] = []
        for segment in segments where remaining > 0 {
            let part = Array(segment.prefix(remaining))
            remaining -= part.count
            shown.append(part)
        }
        // Before the last fix the marked position is where the history has got to, not its end.
        return TrailOverlay(
            segments: shown, fixes: Array(fixes.prefix(count)), startLabel: startLabel,
            endLabel: count < fixes.count ? "Now" : endLabel)
    }

    /// The diameter of a fix symbol at 96 dpi: a 6 px circle with its 2 px outline.
    static let fixSymbol = 14.0

    /// The trail on screen: its line, the fixes drawn, and how many there were.
    struct Plan {
        var lines: [[(Double, Double)]]
        var fixes: [(Double, Double)]
        /// Indices into the trail's fixes of those drawn.
        var drawn: [Int]
        /// The spacing the symbols were thinned to, in pixels; nil when every fix is drawn.
        var thinnedTo: Double?
    }

    /// Where the trail goes at `scale` (dpi / 96). Where fixes lie closer on screen than their
    /// symbols (the median gap between consecutive fixes under one symbol's diameter), drawing
    /// them all would be a smear of outlines: then only fixes at least two diameters from the
    /// previous one drawn are kept, and always the first and the last (the current location).
    /// At the sample's 1:10,000 a 50 m step is 19 px, so every fix is drawn there.
    func plan(frame: MapFrame, scale: Double) throws -> Plan {
        let lines = try segments.filter { !$0.isEmpty }.map { try frame.pixels(of: $0) }
        let pts = try frame.pixels(of: fixes)
        var gaps = zip(pts, pts.dropFirst()).map { a, b in ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot() }
        gaps.sort()
        let symbol = Self.fixSymbol * scale
        guard pts.count > 2, let median = gaps.isEmpty ? nil : gaps[gaps.count / 2], median < symbol else {
            return Plan(lines: lines, fixes: pts, drawn: Array(pts.indices), thinnedTo: nil)
        }
        let spacing = 2 * symbol
        func far(_ a: (Double, Double), _ b: (Double, Double)) -> Bool {
            (b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1) >= spacing * spacing
        }
        var drawn = [0]
        for k in 1..<(pts.count - 1) where far(pts[drawn.last!], pts[k]) { drawn.append(k) }
        // The last fix is always drawn; the one before it gives way when too close to it.
        if drawn.count > 1, !far(pts[drawn.last!], pts[pts.count - 1]) { drawn.removeLast() }
        drawn.append(pts.count - 1)
        return Plan(lines: lines, fixes: pts, drawn: drawn, thinnedTo: spacing)
    }

    /// Reserves the trail's markers and line; the line goes to the placer Start and End avoid.
    func reserve(_ plan: Plan, scale s: Double, track: Int, planner: inout Planner) {
        for line in plan.lines { planner.reserveLine(line, width: 10 * s, kind: .trail) }
        for (n, k) in plan.drawn.enumerated() {
            let p = plan.fixes[k]
            let r = n == plan.drawn.count - 1 ? 14 * s : 8 * s
            planner.marker(
                Box(x: p.0 - r, y: p.1 - r, width: 2 * r, height: 2 * r), anchor: p, text: n == plan.drawn.count - 1 ? "current" : "fix",
                protected: n == plan.drawn.count - 1, track: track)
        }
    }

    /// Places the Start and End labels, off the line.
    func label(_ plan: Plan, canvas: Canvas, scale s: Double, track: Int, planner: inout Planner) -> [(String, PlacedLabel)] {
        guard let first = plan.fixes.first, let last = plan.fixes.last else { return [] }
        var out: [(String, PlacedLabel)] = []
        let start = PlaceLabel.boxSize(startLabel, canvas: canvas, scale: s)
        if planner.shows(first),
            let box = planner.label(
                .label, startLabel, anchor: first, PlaceLabel.candidates(first, w: start.w, h: start.h, first: 9 * s, scale: s),
                owner: Planner.Owner(markers: [first], rim: 8 * s, track: track))
        {
            out.append((startLabel, box))
        }
        if plan.fixes.count > 1, planner.shows(last) {
            let end = PlaceLabel.boxSize(endLabel, canvas: canvas, scale: s)
            if let box = planner.label(
                .label, endLabel, anchor: last, PlaceLabel.candidates(last, w: end.w, h: end.h, first: 16 * s, scale: s),
                owner: Planner.Owner(markers: [last], rim: 14 * s, track: track))
            {
                out.append((endLabel, box))
            }
        }
        return out
    }

    /// Draws the line (stroked opaque into a group, then painted once at 50 %) and the fixes.
    func draw(_ plan: Plan, on canvas: Canvas, scale s: Double) {
        canvas.group(opacity: 0.5) {
            for pts in plan.lines {
                // A segment of one fix is a line of no length, which the round caps draw as a dot.
                canvas.polyline(pts.count == 1 ? [pts[0], pts[0]] : pts, color: Self.accent, width: 10 * s)
            }
        }
        for k in plan.drawn.dropLast() {
            let p = plan.fixes[k]
            canvas.circle(p.0, p.1, radius: 6 * s, fill: .black, stroke: .white, strokeWidth: 2 * s)
        }
        guard let k = plan.drawn.last else { return }
        // The current location: the last fix, ringed.
        let last = plan.fixes[k]
        canvas.circle(last.0, last.1, radius: 13 * s, fill: Self.current.withAlpha(0.25))
        canvas.circle(last.0, last.1, radius: 7 * s, fill: Self.current, stroke: .white, strokeWidth: 2.5 * s)
    }
}
