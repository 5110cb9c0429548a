/// A finished image: opaque RGB bytes, or an SVG or PDF document, and what the renderer wants
/// the user to know.
public struct RenderedImage {
    /// Where the pixels are: RGB bytes, or the canvas they were drawn on, which the PNG writer
    /// reads in place (no copy of the image); or the finished document of a vector figure.
    enum Pixels {
        case rgb([UInt8])
        case canvas(Drawn)
        case document([UInt8])
    }

    /// A drawn image's canvas, and its RGB bytes once someone asks for them (made once).
    final class Drawn {
        let canvas: Canvas
        private(set) lazy var rgb: [UInt8] = canvas.rgbBytes()
        init(_ canvas: Canvas) { self.canvas = canvas }
    }
    var pixels: Pixels
    public var width: Int
    public var height: Int
    public var notes: [String]
    /// Where each piece of text and each symbol went.
    public var layout: Layout

    /// The pixels as opaque RGB bytes (3 per pixel, row-major); a drawn image's are made
    /// (composited over white) on the first read. A document has none.
    public var rgb: [UInt8] {
        get {
            switch pixels {
            case .rgb(let bytes): bytes
            case .canvas(let drawn): drawn.rgb
            case .document: preconditionFailure("a vector document has no pixels")
            }
        }
        set { pixels = .rgb(newValue) }
    }

    /// The SVG or PDF bytes of a vector figure; nil for a raster image.
    public var document: [UInt8]? {
        if case .document(let bytes) = pixels { bytes } else { nil }
    }

    /// The finished image of `canvas`: its document's bytes, or its pixels where cairo drew them.
    static func finished(
        _ canvas: Canvas, width: Int, height: Int, notes: [String], layout: Layout? = nil
    ) throws(RenderError) -> RenderedImage {
        try canvas.check()
        let pixels: Pixels = canvas.isDocument ? .document(try canvas.finishDocument()) : .canvas(.init(canvas))
        return RenderedImage(pixels: pixels, width: width, height: height, notes: notes, layout: layout)
    }

    public init(rgb: [UInt8], width: Int, height: Int, notes: [String], layout: Layout? = nil) {
        self.init(pixels: .rgb(rgb), width: width, height: height, notes: notes, layout: layout)
    }

    init(pixels: Pixels, width: Int, height: Int, notes: [String], layout: Layout? = nil) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.notes = notes
        self.layout = layout ?? Layout(width: width, height: height)
    }
}
