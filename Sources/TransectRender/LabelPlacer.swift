/// Keeps labels from overlapping one another, the markers and the decorations: each placed box
/// is remembered, and a candidate is accepted only when it lies inside the image and touches
/// none of them.
struct LabelPlacer {
    let width: Double
    let height: Double
    private(set) var taken: [Box] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func reserve(_ box: Box) { taken.append(box) }

    func fits(_ box: Box) -> Bool {
        box.x >= 2 && box.y >= 2 && box.maxX <= width - 2 && box.maxY <= height - 2 && !taken.contains { $0.intersects(box) }
    }

    /// The first candidate that fits, reserved; nil when none does.
    mutating func place(_ candidates: [Box]) -> Box? {
        guard let box = candidates.first(where: fits) else { return nil }
        taken.append(box)
        return box
    }
}

/// Place names: a label with a halo beside the marker, at the first of eight positions that fits.
enum PlaceLabel {
    static let size = 13.0

    static func draw(_ name: String, at p: (Double, Double), canvas: Canvas, placer: inout LabelPlacer, gap first: Double = 7) -> Bool {
        let m = canvas.measure(name, size: size)
        let w = m.width + 4, h = m.ascent + m.descent + 2
        var candidates: [Box] = []
        // Close to the marker first; further out where another marker sits on it.
        for gap in [first, first + 6, first + 17, first + 30] { candidates += Self.candidates(p, w: w, h: h, gap: gap) }
        guard let box = placer.place(candidates) else { return false }
        canvas.text(name, x: box.x + 2, y: box.y + 1 + m.ascent, size: size, color: Color(hex: 0x1A1A1A),
                    halo: Color.white.withAlpha(0.9), haloWidth: 2.5)
        return true
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
}

/// The measurement's label box: beside the line's middle, on whichever side and at whichever
/// distance first covers neither endpoint nor another label.
enum MeasurementLabel {
    static let size = 13.0

    static func draw(_ label: String, line: [(Double, Double)], canvas: Canvas, placer: inout LabelPlacer) {
        let m = canvas.measure(label, size: size)
        let w = m.width + 16, h = m.ascent + m.descent + 10
        let a = line.first!, b = line.last!
        let mid = line[line.count / 2]
        var nx = -(b.1 - a.1), ny = b.0 - a.0
        let len = (nx * nx + ny * ny).squareRoot()
        if len > 0 { nx /= len; ny /= len } else { nx = 0; ny = -1 }
        var candidates: [Box] = []
        for distance in [24.0, 48, 80, 120, 170] {
            for side in [1.0, -1.0] {
                let cx = mid.0 + side * nx * (distance + h / 2), cy = mid.1 + side * ny * (distance + h / 2)
                candidates.append(Box(x: cx - w / 2, y: cy - h / 2, width: w, height: h))
            }
        }
        // Along the edges as a last resort.
        candidates += [Box(x: 12, y: placer.height - h - 40, width: w, height: h), Box(x: 12, y: 60, width: w, height: h)]
        let box = placer.place(candidates) ?? candidates[0]
        canvas.rectangle(box, fill: Color.white.withAlpha(0.92), stroke: Color(hex: 0xC8102E), strokeWidth: 1.5, radius: 4)
        canvas.text(label, x: box.x + 8, y: box.y + 5 + m.ascent, size: size, color: Color(hex: 0x1A1A1A))
    }
}
