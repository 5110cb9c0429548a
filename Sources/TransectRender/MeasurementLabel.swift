/// The measurement's label: beside the line's middle, on whichever side and at whichever
/// distance first covers neither endpoint nor another label; on one line where it fits, else
/// broken at its " | " separators into one line per distance; slid along the image's edge when
/// the line runs close to it. Further than ``Planner/leaderDistance`` from its line it is joined
/// to it by a leader line. With several measurements each line carries its number in a
/// circle (its badge), and the label stands beside the badge with the same number at its left.
enum MeasurementLabel {
    static let size = 13.0
    /// The measurement's colour: its line, its ends, its label's border, badge and leader.
    static let color = Color(hex: 0xC8102E)
    /// The badge's radius at 96 dpi.
    static let badgeRadius = 9.0

    struct Shape {
        var lines: [String]
        var width: Double
        var height: Double
        var lineHeight: Double
        var ascent: Double
        /// Drawing sizes relative to 96 dpi for this shape.
        var scale: Double
        /// The measurement's number, drawn in a badge at the label's left; nil for a lone one.
        var number: Int? = nil
        /// Where the text starts, from the box's left edge.
        var textInset: Double { (number == nil ? 8 : 8 + 2 * MeasurementLabel.badgeRadius + 6) * scale }
    }

    /// The smallest text a measurement label shrinks to, in pixels, before it is left out.
    static let minimumTextPixels = 10.0

    /// The label's shapes, best first: on one line, then one line per distance; then both
    /// again at 80 % and 65 % of the size, while the text stays at least 10 px, for maps too
    /// small to hold the measurement at full size (the measurement is what the map is for).
    static func shapes(_ label: String, number: Int? = nil, canvas: Canvas, scale: Double) -> [Shape] {
        var variants = [[label]]
        let parts = label.split(separator: " | ").map(String.init)
        if parts.count > 1 { variants.append(parts) }
        let scales = [1.0, 0.8, 0.65].map { $0 * scale }.enumerated().filter { $0.offset == 0 || size * $0.element >= minimumTextPixels }.map(\.element)
        return scales.flatMap { s in
            variants.map { lines in
                let ms = lines.map { canvas.measure($0, size: size * s) }
                let lineHeight = ms[0].ascent + ms[0].descent + 2 * s
                let badge = number == nil ? 0 : (2 * badgeRadius + 6) * s
                return Shape(
                    lines: lines, width: ms.map(\.width).max()! + 16 * s + badge,
                    height: max(lineHeight * Double(lines.count) - 2 * s + 10 * s, number == nil ? 0 : (2 * badgeRadius + 6) * s),
                    lineHeight: lineHeight, ascent: ms[0].ascent, scale: s, number: number)
            }
        }
    }

    /// The unit normal of the segment from `a` to `b` in pixels (its direction turned a quarter
    /// to the left, y down); (0, −1), straight up, when the segment has no length.
    static func unitNormal(from a: (Double, Double), to b: (Double, Double)) -> (x: Double, y: Double) {
        let nx = -(b.1 - a.1)
        let ny = b.0 - a.0
        let len = (nx * nx + ny * ny).squareRoot()
        guard len > 0 && len.isFinite else { return (0, -1) }
        return (nx / len, ny / len)
    }

    /// Candidate boxes beside the point `mid` of the line (its middle, or its badge), best
    /// first, with the shape each one holds.
    static func candidates(
        _ shapes: [Shape], line: [(Double, Double)], at mid: (Double, Double), width: Double, height: Double, scale s: Double
    ) -> [(Box, Shape)] {
        guard let a = line.first, let b = line.last else { return [] }
        let (nx, ny) = unitNormal(from: a, to: b)
        var out: [(Box, Shape)] = []
        // The box's reach towards the line: its centre stands this much further out than its
        // nearest corner or edge, so `distance` is the clearance from the line itself.
        for (shape, support) in shapes.map({ ($0, $0.width / 2 * abs(nx) + $0.height / 2 * abs(ny)) }) + shapes.map({ ($0, $0.height / 2) }) {
            let w = shape.width
            let h = shape.height
            for distance in [12.0, 24, 48, 80, 120, 170] {
                for side in [1.0, -1.0] {
                    let cx = mid.0 + side * nx * (distance * s + support)
                    let cy = mid.1 + side * ny * (distance * s + support)
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
        canvas.rectangle(box, fill: Color.white.withAlpha(0.92), stroke: color, strokeWidth: 1.5 * s, radius: 4 * s)
        if let number = shape.number {
            drawBadge(number, at: (box.x + (5 + badgeRadius) * s, box.y + box.height / 2), canvas: canvas, scale: s)
        }
        let top = box.y + (box.height - (shape.lineHeight * Double(shape.lines.count) - 2 * s)) / 2
        for (k, line) in shape.lines.enumerated() {
            canvas.text(
                line, x: box.x + shape.textInset, y: top + shape.ascent + Double(k) * shape.lineHeight, size: size * s,
                color: Color(hex: 0x1A1A1A))
        }
    }

    /// The number `n` in a white circle ringed in the measurement's colour, centred on `p`.
    static func drawBadge(_ n: Int, at p: (Double, Double), canvas: Canvas, scale s: Double) {
        canvas.circle(p.0, p.1, radius: badgeRadius * s, fill: .white, stroke: color, strokeWidth: 2 * s)
        let text = String(n)
        let m = canvas.measure(text, size: 11 * s, bold: true)
        canvas.text(text, x: p.0 - m.width / 2, y: p.1 + (m.ascent - m.descent) / 2, size: 11 * s, color: Color(hex: 0x1A1A1A), bold: true)
    }

    /// Where each line's badge goes: the first point along it, from its middle outwards, that
    /// the image shows, that covers no marker or badge placed before it and that stands clear of
    /// every other measurement line (a badge where two lines cross would name both); nil
    /// for a line with no such point. Each badge is reserved as a marker nothing may hide.
    static func badges(_ lines: [[(Double, Double)]], planner: inout Planner, scale s: Double) -> [(Double, Double)?] {
        let r = badgeRadius * s
        var out: [(Double, Double)?] = []
        for (k, line) in lines.enumerated() {
            var found: (Double, Double)? = nil
            for t in [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82] {
                let p = line[min(line.count - 1, Int((Double(line.count - 1) * t).rounded()))]
                let box = Box(x: p.0 - r - 1 * s, y: p.1 - r - 1 * s, width: 2 * r + 2 * s, height: 2 * r + 2 * s)
                guard planner.ink.fits(box), planner.marks.fits(box),
                    lines.enumerated().allSatisfy({ $0.offset == k || LineIndex.distance(box, $0.element) > 2 * s })
                else { continue }
                found = p
                planner.marker(box, anchor: p, text: String(k + 1), protected: true, measurement: k + 1)
                break
            }
            out.append(found)
        }
        return out
    }
}
