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
                return Shape(
                    lines: lines, width: ms.map(\.width).max()! + 16 * s,
                    height: lineHeight * Double(lines.count) - 2 * s + 10 * s, lineHeight: lineHeight, ascent: ms[0].ascent, scale: s)
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

    /// Candidate boxes, best first, with the shape each one holds.
    static func candidates(_ shapes: [Shape], line: [(Double, Double)], width: Double, height: Double, scale s: Double) -> [(Box, Shape)] {
        guard let a = line.first, let b = line.last else { return [] }
        let mid = line[line.count / 2]
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
        canvas.rectangle(box, fill: Color.white.withAlpha(0.92), stroke: Color(hex: 0xC8102E), strokeWidth: 1.5 * s, radius: 4 * s)
        for (k, line) in shape.lines.enumerated() {
            canvas.text(
                line, x: box.x + 8 * s, y: box.y + 5 * s + shape.ascent + Double(k) * shape.lineHeight, size: size * s,
                color: Color(hex: 0x1A1A1A))
        }
    }
}
