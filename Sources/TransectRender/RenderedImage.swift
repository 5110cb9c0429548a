/// A finished image: opaque RGB bytes and what the renderer wants the user to know.
public struct RenderedImage {
    public var rgb: [UInt8]
    public var width: Int
    public var height: Int
    public var notes: [String]
    /// Where each piece of text and each symbol went.
    public var layout: Layout

    public init(rgb: [UInt8], width: Int, height: Int, notes: [String], layout: Layout? = nil) {
        self.rgb = rgb
        self.width = width
        self.height = height
        self.notes = notes
        self.layout = layout ?? Layout(width: width, height: height)
    }
}
