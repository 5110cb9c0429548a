import TransectGDAL

/// A viewshed drawn over a map: hidden ground shaded, unknown ground tinted, what the observers
/// see left as the basemap shows it, with a legend of the three.
public struct ViewshedOverlay {
    /// Where the classes come from.
    public enum Source {
        /// A visibility raster `transect viewshed` wrote.
        case file(String)
        /// Classes computed for this map, on a raster of `width × height` cells on
        /// `geoTransform` in the CRS `wkt` (the DEM's grid).
        case raster(classes: [UInt8], width: Int, height: Int, geoTransform: [Double], wkt: String, label: String)
    }

    public var source: Source

    public init(_ source: Source) { self.source = source }

    /// The colours over the basemap: hidden ground under a dark veil, unknown ground under a
    /// violet one, visible and out-of-range ground untouched.
    static let hidden = Color(hex: 0x1B1F3A).withAlpha(0.55)
    static let unknown = Color(hex: 0x9B4DCA).withAlpha(0.45)
    /// The legend's swatch of visible ground: the basemap's own, under no veil.
    static let visibleSwatch = Color(hex: 0xF3EFE6)

    /// The veil a class lays over the terrain of a perspective view: RGB and opacity, as over a
    /// map.
    static func veil(_ c: UInt8) -> SIMD4<Float> {
        let colour: Color
        switch c {
        case 0: colour = hidden
        case 2: colour = unknown
        default: return .zero
        }
        return SIMD4(Float(colour.r), Float(colour.g), Float(colour.b), Float(colour.a))
    }

    /// The classes in the frame's pixels (1, out of range, where the raster does not reach).
    func classes(in frame: MapFrame) throws -> [UInt8] {
        switch source {
        case .file(let path): try ViewshedRaster.warped(path: path, into: frame.grid)
        case .raster(let classes, let width, let height, let geoTransform, let wkt, let label):
            try ViewshedRaster.warped(
                classes: classes, width: width, height: height, geoTransform: geoTransform, wkt: wkt, into: frame.grid, label: label)
        }
    }

    /// Paints the veils over `canvas`, whose basemap is already painted.
    func paint(on canvas: Canvas, frame: MapFrame) throws {
        let cells = try classes(in: frame)
        var rgba = [UInt8](repeating: 0, count: cells.count * 4)
        for (i, c) in cells.enumerated() {
            let colour: Color
            switch c {
            case 0: colour = Self.hidden
            case 2: colour = Self.unknown
            default: continue
            }
            // Straight (not premultiplied) RGBA, as GeoreferencedImage gives drawRGBA.
            rgba[4 * i] = UInt8((colour.r * 255).rounded())
            rgba[4 * i + 1] = UInt8((colour.g * 255).rounded())
            rgba[4 * i + 2] = UInt8((colour.b * 255).rounded())
            rgba[4 * i + 3] = UInt8((colour.a * 255).rounded())
        }
        canvas.drawRGBA(rgba)
    }
}
