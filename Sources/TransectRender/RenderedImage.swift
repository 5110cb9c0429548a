/// A finished image: opaque RGB bytes and what the renderer wants the user to know.
public struct RenderedImage {
    /// Where the pixels are: RGB bytes, or the canvas they were drawn on, which the PNG writer
    /// reads in place (no copy of the image).
    enum Pixels {
        case rgb([UInt8])
        case canvas(Drawn)
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
    /// (composited over white) on the first read.
    public var rgb: [UInt8] {
        get {
            switch pixels {
            case .rgb(let bytes): bytes
            case .canvas(let drawn): drawn.rgb
            }
        }
        set { pixels = .rgb(newValue) }
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
