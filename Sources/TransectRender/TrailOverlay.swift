import CCairo
import TransectCore

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
        return TrailOverlay(segments: shown, fixes: Array(fixes.prefix(count)), startLabel: startLabel,
                            endLabel: count < fixes.count ? "Now" : endLabel)
    }

    func draw(on canvas: Canvas, frame: MapFrame, placer: inout LabelPlacer) throws {
        let cr = canvas.cr
        // The line: stroked opaque into a group, then painted once at 50 %.
        cairo_push_group(cr)
        for segment in segments where !segment.isEmpty {
            let pts = try frame.pixels(of: segment)
            cairo_new_path(cr)
            cairo_move_to(cr, pts[0].0, pts[0].1)
            for p in pts.dropFirst() { cairo_line_to(cr, p.0, p.1) }
            if pts.count == 1 { cairo_line_to(cr, pts[0].0, pts[0].1) }
            canvas.setColor(Self.accent)
            cairo_set_line_width(cr, 10)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_stroke(cr)
        }
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, 0.5)
        // The fixes.
        let fixPixels = try frame.pixels(of: fixes)
        for p in fixPixels.dropLast() {
            canvas.circle(p.0, p.1, radius: 6, fill: .black, stroke: .white, strokeWidth: 2)
        }
        guard let last = fixPixels.last, let first = fixPixels.first else { return }
        // The current location: the last fix, ringed.
        canvas.circle(last.0, last.1, radius: 13, fill: Self.current.withAlpha(0.25))
        canvas.circle(last.0, last.1, radius: 7, fill: Self.current, stroke: .white, strokeWidth: 2.5)
        // Start and end are labelled before the fixes claim their space, so they always find room
        // (over the trail if need be, legible by their halos); other labels then keep off the fixes.
        placer.reserve(Box(x: first.0 - 8, y: first.1 - 8, width: 16, height: 16))
        placer.reserve(Box(x: last.0 - 14, y: last.1 - 14, width: 28, height: 28))
        _ = PlaceLabel.draw(startLabel, at: first, canvas: canvas, placer: &placer)
        if fixPixels.count > 1 { _ = PlaceLabel.draw(endLabel, at: last, canvas: canvas, placer: &placer, gap: 16) }
        for p in fixPixels { placer.reserve(Box(x: p.0 - 8, y: p.1 - 8, width: 16, height: 16)) }
    }
}
