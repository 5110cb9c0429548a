import CCairo

/// A cairo surface to draw on, in pixels: an ARGB32 image, or an SVG or PDF document whose
/// page is the image's pixels at the document's dpi. Owns the surface and its context, and is
/// the only place that calls cairo: everything else draws through its methods. The pixel
/// methods (`putRGB`, `withPixels`, …) are for image canvases; a document canvas takes images
/// by ``paint(_:)``, which embeds them at their pixels.
/// The corresponding cairo functions are `cairo_image_surface_create`,
/// `cairo_pdf_surface_create_for_stream`, `cairo_svg_surface_create_for_stream` and `cairo_create`.
final class Canvas {
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    let width: Int
    let height: Int
    let fonts: Fonts
    /// Text sizes are multiplied by this (`--font-scale`); boxes follow, as they are measured.
    var fontScale = 1.0
    /// The bytes of a document canvas, written by cairo as it goes; nil for an image.
    private let sink: DocumentSink?
    private let document: VectorDocument?

    /// An image canvas of `width` × `height` pixels.
    convenience init(width: Int, height: Int) throws(RenderError) {
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(s) == CAIRO_STATUS_SUCCESS
        else {
            throw .drawing("cannot make a \(width) × \(height) image (out of memory?)")
        }
        try self.init(surface: s, width: width, height: height, sink: nil, document: nil)
    }

    /// A document canvas: drawing in pixels of a `width` × `height` figure, on a page of
    /// `width` × `height` × 72 / dpi points.
    convenience init(document: VectorDocument, width: Int, height: Int) throws(RenderError) {
        let sink = DocumentSink()
        let points = document.pagePoints ?? (Double(width) * 72 / document.dpi, Double(height) * 72 / document.dpi)
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let made: OpaquePointer? =
            switch document.kind {
            case .pdf: cairo_pdf_surface_create_for_stream(DocumentSink.write, closure, points.0, points.1)
            case .svg: cairo_svg_surface_create_for_stream(DocumentSink.write, closure, points.0, points.1)
            }
        guard let s = made, cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            throw .drawing("cannot make a \(document.kind.rawValue.uppercased()) document (out of memory?)")
        }
        switch document.kind {
        case .pdf:
            // The dates cairo would take from the clock, fixed so the same figure is the same bytes.
            cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, document.date)
            cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, document.date)
            cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "transect")
        case .svg:
            // Width and height in points, so the figure has its physical size wherever it goes.
            cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PT)
        }
        try self.init(surface: s, width: width, height: height, sink: sink, document: document)
        cairo_scale(cr, points.0 / Double(width), points.1 / Double(height))
    }

    private init(surface s: OpaquePointer, width: Int, height: Int, sink: DocumentSink?, document: VectorDocument?) throws(RenderError) {
        guard let c = cairo_create(s), cairo_status(c) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw .drawing("cannot make a cairo context")
        }
        surface = s
        cr = c
        self.width = width
        self.height = height
        self.sink = sink
        self.document = document
        do {
            fonts = try Fonts.shared()
        } catch {
            cairo_destroy(c)
            cairo_surface_destroy(s)
            throw error
        }
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

    /// True for an SVG or PDF canvas.
    var isDocument: Bool { sink != nil }

    /// Ends a document canvas and returns its bytes: the PDF, or the SVG with cairo's
    /// process-wide surface numbers renumbered from 1 in order of appearance, so a figure's
    /// bytes do not depend on what the process drew before it.
    /// The corresponding cairo function is `cairo_surface_finish`.
    func finishDocument() throws(RenderError) -> [UInt8] {
        guard let sink, let document else { preconditionFailure("finishDocument() on an image canvas") }
        try check()
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .drawing(String(cString: cairo_status_to_string(status))) }
        return document.kind == .svg ? SVGIdentifiers.renumbered(sink.bytes) : sink.bytes
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
        precondition(!other.isDocument, "only an image canvas can be painted onto another")
        cairo_set_source_surface(cr, other.surface, 0, 0)
        cairo_paint(cr)
    }

    /// The image as opaque RGB bytes (the canvas is composited over white first).
    func rgbBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        withPixels { data, stride in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    Self.overWhite(row: data + y * stride, width: width, into: UnsafeMutableBufferPointer(rebasing: dst[(y * width * 3)...]))
                }
            }
        }
        return out
    }

    /// One row of premultiplied ARGB32 pixels as opaque RGB bytes, composited over white.
    static func overWhite(row data: UnsafePointer<UInt8>, width: Int, into dst: UnsafeMutableBufferPointer<UInt8>) {
        let row = UnsafeRawPointer(data).assumingMemoryBound(to: UInt32.self)
        var d = 0
        for x in 0..<width {
            let p = row[x]
            let inverse = 255 - (p >> 24)
            // Premultiplied colour over white: c + (255 − a).
            dst[d] = UInt8(((p >> 16) & 0xff) + inverse)
            dst[d + 1] = UInt8(((p >> 8) & 0xff) + inverse)
            dst[d + 2] = UInt8((p & 0xff) + inverse)
            d += 3
        }
    }

    // MARK: Drawing

    /// Draws everything after this `factor` times larger: one unit is `factor` pixels.
    /// The corresponding cairo function is `cairo_scale`.
    func scale(by factor: Double) {
        if factor != 1 { cairo_scale(cr, factor, factor) }
    }

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
        cairo_set_font_size(cr, size * fontScale)
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
        if isDocument {
            // A document keeps its text as text, in the embedded font: selectable and searchable.
            cairo_new_path(cr)
            cairo_move_to(cr, 0, 0)
            cairo_show_text(cr, text)
        } else {
            cairo_fill(cr)
        }
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
