import CCairo
import TransectCore
import TransectGDAL

/// A measurement to draw: its endpoints and the label it prints.
public struct MeasurementOverlay: Sendable {
    public var start: GeoPoint
    public var end: GeoPoint
    public var label: String
    public init(start: GeoPoint, end: GeoPoint, label: String) { self.start = start; self.end = end; self.label = label }
}

/// A labelled place.
public struct Place: Sendable, Hashable {
    public var name: String
    public var longitude: Double
    public var latitude: Double
    public init(name: String, longitude: Double, latitude: Double) { self.name = name; self.longitude = longitude; self.latitude = latitude }
}

/// Everything a map shows.
public struct MapSpec {
    public var frame: MapFrame
    public var basemap: Basemap
    public var measurements: [MeasurementOverlay] = []
    public var places: [Place] = []
    public var trails: [TrailOverlay] = []
    public var title: String?
    /// The attribution line (usually naming the DEM).
    public var attribution: String?
    /// Scale bar, north arrow, title, attribution and legend; off for bare basemaps.
    public var decorations = true
    public var units: UnitSystem = .metric

    public init(frame: MapFrame, basemap: Basemap) {
        self.frame = frame
        self.basemap = basemap
    }
}

/// A finished image: opaque RGB bytes and what the renderer wants the user to know.
public struct RenderedImage {
    public var rgb: [UInt8]
    public var width: Int
    public var height: Int
    public var notes: [String]
}

/// Draws maps: basemap, overlays, decorations.
public enum MapRenderer {
    public static func render(_ spec: MapSpec, dem: ElevationModel?) throws -> RenderedImage {
        let painted = try basemap(spec, dem: dem)
        // One map: draw straight onto the basemap's canvas instead of a copy of it.
        return try render(spec, basemap: painted, onto: painted.canvas)
    }

    /// The basemap alone, to draw several maps of one frame (animation frames) over it.
    public struct PaintedBasemap {
        let canvas: Canvas
        let legend: (low: Double, high: Double)?
        /// The basemap's pixels, opaque RGB.
        public var rgb: [UInt8] { canvas.rgbBytes() }
    }

    /// Paints the basemap of `spec` (terrain, image or canvas with graticule).
    public static func basemap(_ spec: MapSpec, dem: ElevationModel?) throws -> PaintedBasemap {
        let frame = spec.frame
        let canvas = try Canvas(width: frame.width, height: frame.height)
        var legend: (low: Double, high: Double)?

        // Basemap.
        if let dem, spec.basemap.usesDEM {
            let z = try dem.warped(into: frame.grid)
            guard z.contains(where: { !$0.isNaN }) else { throw RenderError.noCoverage(dem: dem.label) }
            switch spec.basemap {
            case .hillshade(let p):
                let shade = BasemapPainter.shade(z, frame: frame, parameters: p)
                canvas.putGrey(shade, noData: spec.decorations ? Palette.noData : nil)
            case .lightGray(let p):
                canvas.putRGB(BasemapPainter.lightGray(BasemapPainter.shade(z, frame: frame, parameters: p)))
            case .tint(let p):
                let valid = z.filter { !$0.isNaN }
                let lo = Double(valid.min()!), hi = Double(valid.max()!)
                let shade = BasemapPainter.shade(z, frame: frame, parameters: p)
                canvas.putRGB(BasemapPainter.tint(z, shade: shade, low: lo, high: hi))
                legend = (lo, hi)
            case .none, .image: break
            }
        } else {
            canvas.fill(spec.basemap == .none ? Color.white : Palette.canvas)
            if case .image(let path) = spec.basemap {
                canvas.drawRGBA(try GeoreferencedImage.warped(path: path, into: frame.grid))
            } else if spec.basemap != .none {
                // No terrain: a light canvas with a graticule (`none` asks for a plain canvas).
                try Graticule.draw(on: canvas, frame: frame)
            }
        }

        return PaintedBasemap(canvas: canvas, legend: legend)
    }

    /// Draws the overlays and decorations of `spec` over a painted basemap.
    public static func render(_ spec: MapSpec, basemap: PaintedBasemap) throws -> RenderedImage {
        let canvas = try Canvas(width: spec.frame.width, height: spec.frame.height)
        cairo_set_source_surface(canvas.cr, basemap.canvas.surface, 0, 0)
        cairo_paint(canvas.cr)
        return try render(spec, basemap: basemap, onto: canvas)
    }

    static func render(_ spec: MapSpec, basemap: PaintedBasemap, onto canvas: Canvas) throws -> RenderedImage {
        let frame = spec.frame
        let legend = basemap.legend
        var notes: [String] = []
        var placer = LabelPlacer(width: Double(frame.width), height: Double(frame.height))
        // Decorations first reserve their corners so labels keep clear of them.
        let decorations = spec.decorations ? Decorations(canvas: canvas, frame: frame, spec: spec) : nil
        if let decorations { for box in decorations.reserved { placer.reserve(box) } }

        // Trails under the measurements.
        for trail in spec.trails { try trail.draw(on: canvas, frame: frame, placer: &placer) }

        // Measurements: lines and markers, then their label boxes.
        var measured: [([(Double, Double)], MeasurementOverlay)] = []
        for m in spec.measurements {
            let plan = ProfilePlan(vertices: [m.start, m.end], spacing: .count(257))
            let line = try frame.pixels(of: (0..<plan.longitudes.count).map { GeoPoint(longitude: plan.longitudes[$0], latitude: plan.latitudes[$0]) })
            canvas.polyline(line, color: Color.white.withAlpha(0.85), width: 6)
            canvas.polyline(line, color: Color(hex: 0xC8102E), width: 2.5)
            measured.append((line, m))
        }
        for (line, _) in measured {
            for p in [line.first!, line.last!] {
                canvas.circle(p.0, p.1, radius: 6, fill: .white, stroke: Color(hex: 0xC8102E), strokeWidth: 2.5)
                placer.reserve(Box(x: p.0 - 9, y: p.1 - 9, width: 18, height: 18))
            }
        }
        for (line, m) in measured { MeasurementLabel.draw(m.label, line: line, canvas: canvas, placer: &placer) }

        // Places.
        let placePixels = try frame.pixels(of: spec.places.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) })
        var visible: [(Place, (Double, Double))] = []
        for (place, p) in zip(spec.places, placePixels) where p.0 >= 0 && p.1 >= 0 && p.0 <= Double(frame.width) && p.1 <= Double(frame.height) {
            visible.append((place, p))
            placer.reserve(Box(x: p.0 - 5, y: p.1 - 5, width: 10, height: 10))
        }
        var dropped = 0
        for (place, p) in visible {
            canvas.circle(p.0, p.1, radius: 4, fill: Color(hex: 0x222222), stroke: .white, strokeWidth: 1.5)
            if !PlaceLabel.draw(place.name, at: p, canvas: canvas, placer: &placer) { dropped += 1 }
        }
        if dropped > 0 {
            notes.append("note: \(dropped) of \(visible.count) place labels could not be placed without overlapping and were left out")
        }
        decorations?.draw(legend: legend)
        try canvas.check()
        return RenderedImage(rgb: canvas.rgbBytes(), width: frame.width, height: frame.height, notes: notes)
    }
}
