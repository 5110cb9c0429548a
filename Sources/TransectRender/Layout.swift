/// What a map or chart placed, where: the boxes its text and symbols occupy, in image pixels
/// (x right, y down, origin at the top-left corner).
///
/// The renderer decides every box before it draws, so the layout is exactly what the image
/// shows. Written as JSON (`render --layout`, `profile --chart-layout`):
///
/// ```json
/// {"width": 640, "height": 400,
///  "elements": [{"kind": "title", "text": "Yosemite", "box": [7.5, 7.5, 180.25, 41], "anchor": [93.88, 24.25], "placed": true}],
///  "dropped": [{"kind": "legend", "text": null, "placed": false}],
///  "lines": [{"kind": "measurement", "measurement": 1, "width": 9, "points": [[812.4, 377.2], …]}]}
/// ```
///
/// Every element in `elements` was drawn (`placed` is always true); what could not be drawn is
/// listed in `dropped` instead. A label's anchor is the point it names (a place, a fix, the
/// point of the measurement line it stands beside or its number, a chart mark); a decoration's
/// anchor is its box's centre. A label that stands further from its anchor than
/// ``Planner/leaderDistance`` (at 96 dpi) has a `leader`, the line drawn from its box towards
/// the anchor, ending short of the marker (`null` otherwise). A measurement's label, its ends'
/// markers and its number's marker carry the measurement's place in the request, from 1
/// (`measurement`; `null` for everything else). `lines` are the lines labels keep clear of:
/// measurement lines and tracks on maps, the sight line and the terrain on charts, each with
/// the width it is drawn with.
public struct Layout: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var elements: [Element] = []
    public var dropped: [Dropped] = []
    public var lines: [Line] = []
    /// What the notes call labels of kind `label` ("place labels" on maps).
    var labelNoun = "place labels"

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public enum Kind: String, Sendable, CaseIterable {
        case title, legend
        case northArrow = "north_arrow"
        case scaleBar = "scale_bar"
        case attribution
        case measurementLabel = "measurement_label"
        case label, marker
    }

    public struct Element: Sendable, Equatable {
        public var kind: Kind
        public var text: String?
        /// x0, y0, x1, y1 in pixels.
        public var box: (x0: Double, y0: Double, x1: Double, y1: Double)
        public var anchor: (x: Double, y: Double)
        /// The leader line from the label's box towards its anchor, when it has one.
        public var leader: (from: (x: Double, y: Double), to: (x: Double, y: Double))?
        /// The measurement this element belongs to, from 1.
        public var measurement: Int?

        public static func == (a: Element, b: Element) -> Bool {
            a.kind == b.kind && a.text == b.text && a.box == b.box && a.anchor == b.anchor && a.measurement == b.measurement
                && (a.leader == nil) == (b.leader == nil)
                && (a.leader.map { l in b.leader.map { l.from == $0.from && l.to == $0.to } ?? false } ?? true)
        }
    }

    public enum LineKind: String, Sendable {
        case measurement, trail
        case sightLine = "sight_line"
        case terrain
        /// A perspective view's legs of the measurement.
        case direct, horizontal, vertical
    }

    /// A line of the figure that labels keep clear of, in pixels, drawn `width` pixels wide.
    public struct Line: Sendable, Equatable {
        public var kind: LineKind
        public var measurement: Int?
        public var width: Double
        public var points: [(Double, Double)]

        public static func == (a: Line, b: Line) -> Bool {
            a.kind == b.kind && a.measurement == b.measurement && a.width == b.width && a.points.count == b.points.count
                && zip(a.points, b.points).allSatisfy { $0 == $1 }
        }
    }

    public struct Dropped: Sendable, Equatable {
        public var kind: Kind
        public var text: String?
    }

    /// The layout of a figure laid out in units `factor` pixels wide: every box, anchor,
    /// leader and line in pixels (the figure's own size is in pixels already).
    func scaled(by factor: Double) -> Layout {
        guard factor != 1 else { return self }
        func px(_ p: (Double, Double)) -> (Double, Double) { (p.0 * factor, p.1 * factor) }
        var out = self
        out.elements = elements.map { e in
            var e = e
            e.box = (e.box.x0 * factor, e.box.y0 * factor, e.box.x1 * factor, e.box.y1 * factor)
            e.anchor = px(e.anchor)
            e.leader = e.leader.map { (from: px($0.from), to: px($0.to)) }
            return e
        }
        out.lines = lines.map { line in
            var line = line
            line.width *= factor
            line.points = line.points.map(px)
            return line
        }
        return out
    }

    mutating func add(
        _ kind: Kind, _ text: String?, box: Box, anchor: (Double, Double)? = nil, leader: ((Double, Double), (Double, Double))? = nil,
        measurement: Int? = nil
    ) {
        elements.append(
            Element(
                kind: kind, text: text, box: (box.x, box.y, box.maxX, box.maxY),
                anchor: anchor ?? (box.x + box.width / 2, box.y + box.height / 2), leader: leader.map { ($0.0, $0.1) },
                measurement: measurement))
    }

    mutating func drop(_ kind: Kind, _ text: String?) { dropped.append(Dropped(kind: kind, text: text)) }

    /// The dropped elements counted by kind, as one stderr note each; empty when all fitted.
    public var notes: [String] {
        var notes: [String] = []
        for kind in Kind.allCases {
            let n = dropped.filter { $0.kind == kind }.count
            guard n > 0 else { continue }
            let name: String
            switch kind {
            case .title: name = "title"
            case .legend: name = "legend"
            case .northArrow: name = "north arrow"
            case .scaleBar: name = "scale bar"
            case .attribution: name = "attribution"
            case .measurementLabel: name = n == 1 ? "measurement label" : "measurement labels"
            case .label: name = n == 1 ? "label" : "labels"
            case .marker: name = "markers"
            }
            if kind == .marker {
                notes.append("note: \(n) place \(n == 1 ? "marker" : "markers") under or beside a measurement label or under a decoration left out")
            } else if kind == .label {
                let total = n + elements.filter { $0.kind == .label }.count
                notes.append("note: \(n) of \(total) \(labelNoun) could not be placed without overlapping and \(n == 1 ? "was" : "were") left out")
            } else {
                notes.append("note: \(n == 1 ? "the" : String(n)) \(name) left out: no room in \(width)x\(height) pixels without overlapping")
            }
        }
        return notes
    }
}
