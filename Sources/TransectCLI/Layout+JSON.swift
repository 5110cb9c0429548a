import TransectFormats
import TransectRender
import TransectSupport

// Extended across modules on purpose: `Layout` is the renderer's record of what it placed; its
// JSON form is a command's output file, written with the command line's one JSON writer.
extension Layout {
    /// The layout file of `--layout` and `--chart-layout`: what was placed (`elements`, each
    /// with its box, anchor and leader line in image pixels, y down, and the measurement it
    /// belongs to), what was left out (`dropped`) and the lines labels keep clear of (`lines`),
    /// written by the one JSON writer. Coordinates are rounded to 1/100 pixel.
    var json: JSON {
        func pixels(_ v: Double) -> JSON { .number(v, decimals: 2) }
        func text(_ s: String?) -> JSON { s.map { .string($0) } ?? .null }
        return .object([
            ("width", .number(Double(width))), ("height", .number(Double(height))),
            (
                "elements",
                .array(
                    elements.map { e in
                        .object([
                            ("kind", .string(e.kind.rawValue)), ("text", text(e.text)),
                            ("box", .array([e.box.x0, e.box.y0, e.box.x1, e.box.y1].map(pixels))),
                            ("anchor", .array([pixels(e.anchor.x), pixels(e.anchor.y)])), ("placed", .bool(true)),
                            (
                                "leader",
                                e.leader.map { l in .array([.array([pixels(l.from.x), pixels(l.from.y)]), .array([pixels(l.to.x), pixels(l.to.y)])]) }
                                    ?? .null
                            ),
                            ("measurement", e.measurement.map { .number(Double($0)) } ?? .null),
                        ])
                    })
            ),
            (
                "dropped",
                .array(
                    dropped.map { d in
                        .object([("kind", .string(d.kind.rawValue)), ("text", text(d.text)), ("placed", .bool(false))])
                    })
            ),
            (
                "lines",
                .array(
                    lines.map { l in
                        .object([
                            ("kind", .string(l.kind.rawValue)), ("measurement", l.measurement.map { .number(Double($0)) } ?? .null),
                            ("width", pixels(l.width)), ("points", .array(l.points.map { .array([pixels($0.0), pixels($0.1)]) })),
                        ])
                    })
            ),
        ])
    }
}
