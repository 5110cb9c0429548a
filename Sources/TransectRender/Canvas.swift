import CCairo

/// A cairo image surface to draw on, ARGB32. Owns the surface and its context, and is the only
/// place that calls cairo: everything else draws through its methods.
/// The corresponding cairo functions are `cairo_image_surface_create` and `cairo_create`.
final class Canvas {
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    let width: Int
    let height: Int
    let fonts: Fonts

    init(width: Int, height: Int) throws(RenderError) {
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(s) == CAIRO_STATUS_SUCCESS
        else {
            throw .drawing("cannot make a \(width) × \(height) image (out of memory?)")
        }
        guard let c = cairo_create(s), cairo_status(c) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw .drawing("cannot make a cairo context")
        }
        surface = s
        cr = c
        self.width = width
        self.height = height
        fonts = try Fonts.shared()
        // Text is drawn the same on every machine: grey antialiasing, no hinting.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
        // Lines join and end round, so a line of no length is a dot.
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    // MARK: Pixels

    /// Fills the whole surface from opaque RGB bytes (3 per pixel, row-major).
    func putRGB(_ rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        rgb.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let row = (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
                var s = y * width * 3
                for x in 0..<width {
                    row[x] = 0xff00_0000 | UInt32(src[s]) << 16 | UInt32(src[s + 1]) << 8 | UInt32(src[s + 2])
                    s += 3
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Fills the whole surface with grey levels (one byte per pixel); level 0 (no data) becomes
    /// `noData`, or stays black when `noData` is nil.
    func putGrey(_ grey: [UInt8], noData: Color?) {
        precondition(grey.count == width * height)
        let nd = Self.opaque(noData)
        withMutablePixels { data, stride in
            grey.withUnsafeBufferPointer { Self.putGrey($0, rows: 0..<height, width: width, noData: nd, into: data, stride: stride) }
        }
    }

    /// `noData` as an opaque ARGB32 word, black when nil.
    static func opaque(_ c: Color?) -> UInt32 {
        c.map { 0xff00_0000 | UInt32(($0.r * 255).rounded()) << 16 | UInt32(($0.g * 255).rounded()) << 8 | UInt32(($0.b * 255).rounded()) }
            ?? 0xff00_0000
    }

    /// Rows `rows` of `grey` (`width` bytes a row) as opaque ARGB32 into `data` (`stride` bytes a
    /// row), level 0 as `noData`: one piece of ``putGrey(_:noData:)``, for threads that each
    /// fill their own rows.
    static func putGrey(
        _ grey: UnsafeBufferPointer<UInt8>, rows: Range<Int>, width: Int, noData: UInt32, into data: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        for y in rows {
            let row = (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            let base = y * width
            for x in 0..<width {
                let v = UInt32(grey[base + x])
                row[x] = v == 0 ? noData : 0xff00_0000 | v << 16 | v << 8 | v
            }
        }
    }

    /// Calls `body` with the surface's pixels (ARGB32, premultiplied, `stride` bytes a row) to
    /// write, and tells cairo they changed.
    /// The corresponding cairo functions are `cairo_image_surface_get_data` and
    /// `cairo_surface_mark_dirty`.
    func withMutablePixels<R>(_ body: (_ data: UnsafeMutablePointer<UInt8>, _ stride: Int) -> R) -> R {
        cairo_surface_flush(surface)
        defer { cairo_surface_mark_dirty(surface) }
        return body(cairo_image_surface_get_data(surface)!, Int(cairo_image_surface_get_stride(surface)))
    }

    /// Calls `body` with the surface's pixels (ARGB32, premultiplied, `stride` bytes a row) to
    /// read, where cairo keeps them: no copy.
    func withPixels<R, E: Error>(_ body: (_ data: UnsafePointer<UInt8>, _ stride: Int) throws(E) -> R) throws(E) -> R {
        cairo_surface_flush(surface)
        return try withExtendedLifetime(self) { () throws(E) -> R in
            try body(cairo_image_surface_get_data(surface)!, Int(cairo_image_surface_get_stride(surface)))
        }
    }

    /// Draws straight-alpha RGBA bytes over what is there (for image basemaps).
    func drawRGBA(_ rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4)
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return }
        defer { cairo_surface_destroy(image) }
        cairo_surface_flush(image)
        let stride = Int(cairo_image_surface_get_stride(image))
        let data = cairo_image_surface_get_data(image)!
        for y in 0..<height {
            let row = (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in 0..<width {
                let s = (y * width + x) * 4
                let a = UInt32(rgba[s + 3])
                // cairo wants premultiplied alpha.
                let r = (UInt32(rgba[s]) * a + 127) / 255
                let g = (UInt32(rgba[s + 1]) * a + 127) / 255
                let b = (UInt32(rgba[s + 2]) * a + 127) / 255
                row[x] = a << 24 | r << 16 | g << 8 | b
            }
        }
        cairo_surface_mark_dirty(image)
        cairo_save(cr)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Paints `other` over this canvas, its top-left corner on this one's.
    /// The corresponding cairo functions are `cairo_set_source_surface` and `cairo_paint`.
    func paint(_ other: Canvas) {
        cairo_set_source_surface(cr, other.surface, 0, 0)
        cairo_paint(cr)
    }

    /// The image as opaque RGB bytes (the canvas is composited over white first).
    func rgbBytes() -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var out = [UInt8](repeating: 0, count: width * height * 3)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let row = (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
                var d = y * width * 3
                for x in 0..<width {
                    let p = row[x]
                    let a = p >> 24
                    let inverse = 255 - a
                    // Premultiplied colour over white: c + (255 − a).
                    dst[d] = UInt8(((p >> 16) & 0xff) + inverse)
                    dst[d + 1] = UInt8(((p >> 8) & 0xff) + inverse)
                    dst[d + 2] = UInt8((p & 0xff) + inverse)
                    d += 3
                }
            }
        }
        return out
    }

    // MARK: Drawing

    func setColor(_ c: Color) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }

    func fill(_ c: Color) {
        setColor(c)
        cairo_paint(cr)
    }

    func polyline(_ points: [(Double, Double)], color: Color, width: Double, dash: [Double] = []) {
        guard let first = points.first else { return }
        cairo_new_path(cr)
        cairo_move_to(cr, first.0, first.1)
        for p in points.dropFirst() { cairo_line_to(cr, p.0, p.1) }
        setColor(color)
        cairo_set_line_width(cr, width)
        if !dash.isEmpty { cairo_set_dash(cr, dash, Int32(dash.count), 0) }
        cairo_stroke(cr)
        if !dash.isEmpty { cairo_set_dash(cr, nil, 0, 0) }
    }

    func circle(_ x: Double, _ y: Double, radius: Double, fill: Color?, stroke: Color? = nil, strokeWidth: Double = 1) {
        cairo_new_path(cr)
        cairo_arc(cr, x, y, radius, 0, 2 * Double.pi)
        paintPath(fill: fill, stroke: stroke, strokeWidth: strokeWidth)
    }

    func rectangle(_ box: Box, fill: Color?, stroke: Color? = nil, strokeWidth: Double = 1, radius: Double = 0) {
        cairo_new_path(cr)
        if radius > 0 {
            let r = min(radius, box.width / 2, box.height / 2)
            cairo_arc(cr, box.maxX - r, box.y + r, r, -Double.pi / 2, 0)
            cairo_arc(cr, box.maxX - r, box.maxY - r, r, 0, Double.pi / 2)
            cairo_arc(cr, box.x + r, box.maxY - r, r, Double.pi / 2, Double.pi)
            cairo_arc(cr, box.x + r, box.y + r, r, Double.pi, 3 * Double.pi / 2)
            cairo_close_path(cr)
        } else {
            cairo_rectangle(cr, box.x, box.y, box.width, box.height)
        }
        paintPath(fill: fill, stroke: stroke, strokeWidth: strokeWidth)
    }

    /// Fills and then strokes the current path, either being optional.
    private func paintPath(fill: Color?, stroke: Color?, strokeWidth: Double) {
        if let fill {
            setColor(fill)
            if stroke != nil { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
        }
        if let stroke {
            setColor(stroke)
            cairo_set_line_width(cr, strokeWidth)
            cairo_stroke(cr)
        }
    }

    func polygon(_ points: [(Double, Double)], fill: Color) {
        guard let first = points.first else { return }
        cairo_new_path(cr)
        cairo_move_to(cr, first.0, first.1)
        for p in points.dropFirst() { cairo_line_to(cr, p.0, p.1) }
        cairo_close_path(cr)
        setColor(fill)
        cairo_fill(cr)
    }

    /// Draws what `body` draws as one layer, composited once at `opacity`: where shapes drawn
    /// in it overlap, they do not darken one another.
    /// The corresponding cairo functions are `cairo_push_group`, `cairo_pop_group_to_source`
    /// and `cairo_paint_with_alpha`.
    func group(opacity: Double, _ body: () -> Void) {
        cairo_push_group(cr)
        body()
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, opacity)
    }

    // MARK: Text

    private func selectFont(size: Double, bold: Bool) {
        cairo_set_font_face(cr, bold ? fonts.bold : fonts.regular)
        cairo_set_font_size(cr, size)
    }

    /// Width and height of `text`'s ink-independent box: advance width × (ascent + descent).
    func measure(_ text: String, size: Double, bold: Bool = false) -> (width: Double, ascent: Double, descent: Double) {
        selectFont(size: size, bold: bold)
        var te = cairo_text_extents_t()
        var fe = cairo_font_extents_t()
        cairo_text_extents(cr, text, &te)
        cairo_font_extents(cr, &fe)
        return (te.x_advance, fe.ascent, fe.descent)
    }

    /// Draws `text` with its baseline's left end at (x, y), with an optional halo.
    func text(
        _ text: String, x: Double, y: Double, size: Double, color: Color, bold: Bool = false,
        halo: Color? = nil, haloWidth: Double = 3, angle: Double = 0
    ) {
        selectFont(size: size, bold: bold)
        cairo_save(cr)
        cairo_translate(cr, x, y)
        if angle != 0 { cairo_rotate(cr, angle) }
        cairo_new_path(cr)
        cairo_move_to(cr, 0, 0)
        cairo_text_path(cr, text)
        if let halo {
            setColor(halo)
            cairo_set_line_width(cr, haloWidth * 2)
            cairo_stroke_preserve(cr)
        }
        setColor(color)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// cairo's status, as an error when drawing failed.
    func check() throws(RenderError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .drawing(String(cString: cairo_status_to_string(status)))
        }
    }
}
