/// What a map or chart placed, where: the boxes its text and symbols occupy, in image pixels
/// (x right, y down, origin at the top-left corner).
///
/// The renderer decides every box before it draws, so the layout is exactly what the image
/// shows. Written as JSON (`render --layout`, `profile --chart-layout`):
///
/// ```json
/// {"width": 640, "height": 400,
///  "elements": [{"kind": "title", "text": "Yosemite", "box": [7.5, 7.5, 180.25, 41], "anchor": [93.88, 24.25], "placed": true}],
///  "dropped": [{"kind": "legend", "text": null, "placed": false}]}
/// ```
///
/// Every element in `elements` was drawn (`placed` is always true); what could not be drawn is
/// listed in `dropped` instead. A label's anchor is the point it names (a place, a fix, the
/// measurement line's middle, a chart mark); a decoration's anchor is its box's centre.
public struct Layout: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var elements: [Element] = []
    public var dropped: [Dropped] = []
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

        public static func == (a: Element, b: Element) -> Bool {
            a.kind == b.kind && a.text == b.text && a.box == b.box && a.anchor == b.anchor
        }
    }

    public struct Dropped: Sendable, Equatable {
        public var kind: Kind
        public var text: String?
    }

    /// The layout of a figure laid out in units `factor` pixels wide: every box and anchor in
    /// pixels (the figure's own size is in pixels already).
    func scaled(by factor: Double) -> Layout {
        guard factor != 1 else { return self }
        var out = self
        out.elements = elements.map { e in
            var e = e
            e.box = (e.box.x0 * factor, e.box.y0 * factor, e.box.x1 * factor, e.box.y1 * factor)
            e.anchor = (e.anchor.x * factor, e.anchor.y * factor)
            return e
        }
        return out
    }

    mutating func add(_ kind: Kind, _ text: String?, box: Box, anchor: (Double, Double)? = nil) {
        elements.append(
            Element(
                kind: kind, text: text, box: (box.x, box.y, box.maxX, box.maxY),
                anchor: anchor ?? (box.x + box.width / 2, box.y + box.height / 2)))
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
                notes.append("note: \(n) place \(n == 1 ? "marker" : "markers") under the measurement label or a decoration left out")
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
