/// Place names: a label with a halo beside the marker, at the first of eight positions around it
/// that fits, trying a little further out where another marker or label sits in the way, but
/// never more than ``maximumDistance`` × scale pixels from the place.
enum PlaceLabel {
    static let size = 13.0
    /// How far (at 96 dpi) a label may stand from the point it names, nearest edge to point: any
    /// further and a reader can no longer tell which marker it belongs to.
    static let maximumDistance = 24.0

    /// The label's box size for `name` at `scale`.
    static func boxSize(_ name: String, canvas: Canvas, scale: Double) -> (w: Double, h: Double) {
        let m = canvas.measure(name, size: size * scale)
        return (m.width + 4 * scale, m.ascent + m.descent + 2 * scale)
    }

    /// Candidates in order of preference: the eight positions at `first` pixels from the
    /// point, then further rings, keeping only those within the maximum distance.
    static func candidates(_ p: (Double, Double), w: Double, h: Double, first: Double, scale: Double) -> [Box] {
        let limit = maximumDistance * max(scale, 1)
        return [first, first + 6 * scale, first + 13 * scale].flatMap { candidates(p, w: w, h: h, gap: $0) }
            .filter { Planner.distance(p, $0) <= limit }
    }

    static func candidates(_ p: (Double, Double), w: Double, h: Double, gap: Double) -> [Box] {
        [
            Box(x: p.0 + gap, y: p.1 - h / 2, width: w, height: h),  // east
            Box(x: p.0 - gap - w, y: p.1 - h / 2, width: w, height: h),  // west
            Box(x: p.0 + gap - 2, y: p.1 - gap - h, width: w, height: h),  // north-east
            Box(x: p.0 + gap - 2, y: p.1 + gap, width: w, height: h),  // south-east
            Box(x: p.0 - gap - w + 2, y: p.1 - gap - h, width: w, height: h),  // north-west
            Box(x: p.0 - gap - w + 2, y: p.1 + gap, width: w, height: h),  // south-west
            Box(x: p.0 - w / 2, y: p.1 - gap - h, width: w, height: h),  // north
            Box(x: p.0 - w / 2, y: p.1 + gap, width: w, height: h),  // south
        ]
    }

    static func draw(_ name: String, in box: Box, canvas: Canvas, scale: Double) {
        let m = canvas.measure(name, size: size * scale)
        canvas.text(
            name, x: box.x + 2 * scale, y: box.y + 1 * scale + m.ascent, size: size * scale, color: Color(hex: 0x1A1A1A),
            halo: Color.white.withAlpha(0.9), haloWidth: 2.5 * scale)
    }
}
