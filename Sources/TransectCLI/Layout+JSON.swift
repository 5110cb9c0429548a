import TransectFormats
import TransectRender
import TransectSupport

// Extended across modules on purpose: `Layout` is the renderer's record of what it placed; its
// JSON form is a command's output file, written with the command line's one JSON writer.
extension Layout {
    /// The layout file of `--layout` and `--chart-layout`: what was placed (`elements`, each
    /// with its box and anchor in image pixels, y down) and what was left out (`dropped`),
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
        ])
    }
}
