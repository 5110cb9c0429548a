/// Place names: a label with a halo beside the marker, at the first of eight positions around it
/// that fits, trying a little further out where another marker or label sits in the way, up to
/// ``Planner/leaderDistance`` × scale pixels from the place; past that, further rings joined to
/// the marker by a leader line.
enum PlaceLabel {
    static let size = 13.0
    /// The rings (at 96 dpi, the gap between the marker and the box) a label tries with a leader.
    static let leaderGaps = [34.0, 48, 66, 90, 120, 160]
    /// The leader's colour.
    static let leaderColor = Color(hex: 0x333333)

    /// The label's box size for `name` at `scale`.
    static func boxSize(_ name: String, canvas: Canvas, scale: Double) -> (w: Double, h: Double) {
        let m = canvas.measure(name, size: size * scale)
        return (m.width + 4 * scale, m.ascent + m.descent + 2 * scale)
    }

    /// Candidates in order of preference: the eight positions at `first` pixels from the
    /// point, then further rings, keeping only those within ``Planner/leaderDistance``; then
    /// the rings of ``leaderGaps``, which need a leader.
    static func candidates(_ p: (Double, Double), w: Double, h: Double, first: Double, scale: Double) -> [Box] {
        let limit = Planner.leaderDistance * scale
        return [first, first + 6 * scale, first + 13 * scale].flatMap { candidates(p, w: w, h: h, gap: $0) }
            .filter { Planner.distance(p, $0) <= limit } + leaderGaps.flatMap { candidates(p, w: w, h: h, gap: $0 * scale) }
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
