import TransectGDAL
import TransectGeodesy
import TransectSupport

/// Draws maps: basemap, overlays, decorations.
public enum MapRenderer {
    /// - Parameter threads: the threads to shade on; the image is the same for any count.
    public static func render(_ spec: MapSpec, dem: ElevationModel?, threads: Int = Parallel.onlineProcessors) throws -> RenderedImage {
        let painted = try basemap(spec, dem: dem, threads: threads)
        // One map: draw straight onto the basemap's canvas instead of a copy of it.
        painted.canvas.fontScale = spec.fontScale
        return try render(spec, basemap: painted, onto: painted.canvas)
    }

    /// The basemap alone, to draw several maps of one frame (animation frames) over it.
    public struct PaintedBasemap {
        let canvas: Canvas
        /// The tint's range in metres, and whether the frame holds no data (a void, or ground
        /// beyond the DEM), which the legend then shows as its own entry.
        let legend: (low: Double, high: Double, noData: Bool)?
        /// The basemap's pixels, opaque RGB.
        public var rgb: [UInt8] { canvas.rgbBytes() }
    }

    /// Paints the basemap of `spec` (terrain, image or canvas with graticule), shading on
    /// `threads` threads (the basemap is the same for any count).
    public static func basemap(_ spec: MapSpec, dem: ElevationModel?, threads: Int = Parallel.onlineProcessors) throws -> PaintedBasemap {
        let frame = spec.frame
        let canvas = try Canvas(width: frame.width, height: frame.height)
        var legend: (low: Double, high: Double, noData: Bool)?

        // Basemap.
        if let dem, spec.basemap.usesDEM {
            let z = try dem.warped(into: frame.grid, resampling: spec.resampling, threads: threads)
            guard z.contains(where: { !$0.isNaN }) else { throw RenderError.noCoverage(dem: dem.label) }
            switch spec.basemap {
            case .hillshade(let p):
                BasemapPainter.paintHillshade(
                    z, frame: frame, parameters: p, noData: spec.decorations ? Palette.noData : nil, on: canvas, threads: threads)
            case .lightGray(let p):
                canvas.putRGB(BasemapPainter.lightGray(BasemapPainter.shade(z, frame: frame, parameters: p, threads: threads)))
            case .tint(let p):
                let valid = z.filter { !$0.isNaN }
                let lo = Double(valid.min()!)
                let hi = Double(valid.max()!)
                let shade = BasemapPainter.shade(z, frame: frame, parameters: p, threads: threads)
                canvas.putRGB(BasemapPainter.tint(z, shade: shade, low: lo, high: hi))
                legend = (lo, hi, valid.count < z.count)
            case .none, .image: break
            }
        } else {
            canvas.fill(spec.basemap == .none ? Color.white : Palette.canvas)
            if case .image(let path) = spec.basemap {
                canvas.drawRGBA(try GeoreferencedImage.warped(path: path, into: frame.grid))
            } else if spec.basemap != .none {
                // No terrain: a light canvas with a graticule (`none` asks for a plain canvas).
                canvas.fontScale = spec.fontScale
                try Graticule.draw(on: canvas, frame: frame, scale: spec.scale)
            }
        }

        // A viewshed veils the basemap: part of the basemap's image in an SVG or PDF too.
        if let viewshed = spec.viewshed { try viewshed.paint(on: canvas, frame: frame) }
        return PaintedBasemap(canvas: canvas, legend: legend)
    }

    /// Draws the overlays and decorations of `spec` over a painted basemap, as an image or, with
    /// `document`, as an SVG or PDF whose basemap is one embedded image at the frame's pixels
    /// and whose overlays and decorations are vectors.
    public static func render(_ spec: MapSpec, basemap: PaintedBasemap, document: VectorDocument? = nil) throws -> RenderedImage {
        let canvas =
            try document.map { try Canvas(document: $0, width: spec.frame.width, height: spec.frame.height) }
            ?? Canvas(width: spec.frame.width, height: spec.frame.height)
        canvas.fontScale = spec.fontScale
        canvas.paint(basemap.canvas)
        return try render(spec, basemap: basemap, onto: canvas)
    }

    static func samePoint(_ a: (Double, Double), _ b: (Double, Double)) -> Bool {
        abs(a.0 - b.0) <= MarkerIndex.samePoint && abs(a.1 - b.1) <= MarkerIndex.samePoint
    }

    /// Plans every box first, in order of priority, then draws. Space goes to, in this order:
    /// measurement ends and trail fixes (and, with several measurements, the number on each
    /// line), measurement labels, place markers (those a measurement
    /// label or, later, a decoration covers are left out), title,
    /// scale bar, north arrow, attribution, legend, Start/End labels, place labels. An element
    /// that finds no room inside the image clear of those before it is left out, and counted in
    /// the notes; so at small sizes place labels go first, then the legend, the attribution, the
    /// north arrow, the scale bar, the title, and the measurement labels last. No label crosses
    /// a measurement line, a track or another label's leader line, and none stands nearer
    /// another marker than its own (``Planner/label(_:_:anchor:_:owner:anchors:preferring:)``).
    static func render(_ spec: MapSpec, basemap: PaintedBasemap, onto canvas: Canvas) throws -> RenderedImage {
        let frame = spec.frame
        let s = spec.scale
        var notes: [String] = []
        var planner = Planner(width: frame.width, height: frame.height, scale: s)

        // Markers first: nothing placed later may hide them.
        var trailPlans: [TrailOverlay.Plan] = []
        for (k, trail) in spec.trails.enumerated() {
            let plan = try trail.plan(frame: frame, scale: s)
            if let spacing = plan.thinnedTo {
                notes.append(
                    "note: the track's fixes lie closer on screen than their \(NumberFormatting.grouped(TrailOverlay.fixSymbol * s, decimals: 0)) px symbols: "
                        + "drew \(NumberFormatting.grouped(Double(plan.drawn.count), decimals: 0)) of \(NumberFormatting.grouped(Double(plan.fixes.count), decimals: 0)) "
                        + "(one per \(NumberFormatting.grouped(spacing, decimals: 0)) px, with the first and the current one) over the whole track's line")
            }
            trail.reserve(plan, scale: s, track: k + 1, planner: &planner)
            trailPlans.append(plan)
        }
        var measured: [([(Double, Double)], MeasurementOverlay)] = []
        for (k, m) in spec.measurements.enumerated() {
            let line = try frame.pixels(of: m.geodesicPoints)
            measured.append((line, m))
            planner.reserveLine(line, width: 6 * s, kind: .measurement, measurement: k + 1)
            for p in [line.first!, line.last!] {
                planner.marker(
                    Box(x: p.0 - 9 * s, y: p.1 - 9 * s, width: 18 * s, height: 18 * s), anchor: p, text: nil, protected: true, measurement: k + 1)
            }
        }
        // Several measurements are told apart by number: one on each line, and the same number
        // on its label.
        let badges = measured.count > 1 ? MeasurementLabel.badges(measured.map(\.0), planner: &planner, scale: s) : measured.map { _ in nil }
        // Then the text, most important first. Measurement labels keep off the decorations'
        // corners and the place markers, in that order, as far as they can.
        let placePixels = try frame.pixels(of: spec.places.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) })
        var placeMarks = LabelPlacer(width: Double(frame.width), height: Double(frame.height))
        // A measurement's label keeps as far from the places as from any marker where it can;
        // a place it then covers or stands too near gives way: left out, and counted.
        var placePoints = MarkerIndex(width: Double(frame.width), height: Double(frame.height))
        for p in placePixels {
            placeMarks.reserve(Box(x: p.0 - 5 * s, y: p.1 - 5 * s, width: 10 * s, height: 10 * s))
            placePoints.insert(p)
        }
        // Where the decorations would go on an empty map: measurement labels keep off these
        // corners when they can (after keeping off the line), so the title stays.
        var corners = LabelPlacer(width: Double(frame.width), height: Double(frame.height))
        if spec.decorations && !spec.measurements.isEmpty {
            var empty = Planner(width: frame.width, height: frame.height, scale: s)
            _ = Decorations(canvas: canvas, frame: frame, spec: spec, legend: basemap.legend.map { $0.noData ? .withNoData : .ramp }, planner: &empty)
            for e in empty.layout.elements { corners.reserve(Box(x: e.box.x0, y: e.box.y0, width: e.box.x1 - e.box.x0, height: e.box.y1 - e.box.y0)) }
        }
        var measurementLabels: [(MeasurementLabel.Shape, PlacedLabel)] = []
        for (k, (line, m)) in measured.enumerated() {
            let number = measured.count > 1 ? k + 1 : nil
            let shapes = MeasurementLabel.shapes(m.label, number: number, canvas: canvas, scale: s)
            let at = badges[k] ?? line[line.count / 2]
            let candidates = MeasurementLabel.candidates(shapes, line: line, at: at, width: Double(frame.width), height: Double(frame.height), scale: s)
            let owner = Planner.Owner(
                markers: [at, line.first!, line.last!], line: line, otherLines: measured.enumerated().filter { $0.offset != k }.map(\.element.0),
                rim: badges[k] == nil ? 0 : MeasurementLabel.badgeRadius * s + 1 * s, measurement: k + 1, yielding: placePoints)
            if let placed = planner.label(.measurementLabel, m.label, anchor: at, candidates.map(\.0), owner: owner, preferring: [corners, placeMarks]),
                let shape = candidates.first(where: { $0.0 == placed.box })?.1
            {
                measurementLabels.append((shape, placed))
            }
        }
        // Places: markers beside the measurement's label, then their labels after the decorations.
        var visible: [(Place, (Double, Double))] = []
        for (place, p) in zip(spec.places, placePixels) where p.0 >= 0 && p.1 >= 0 && p.0 <= Double(frame.width) && p.1 <= Double(frame.height) {
            // A place under a measurement's label is hidden by it, and one nearer to it than
            // the label's own line would be taken for what it names: left out, and counted.
            let box = Box(x: p.0 - 5 * s, y: p.1 - 5 * s, width: 10 * s, height: 10 * s)
            let onAnEnd = measured.contains { Self.samePoint($0.0.first!, p) || Self.samePoint($0.0.last!, p) }
            if measurementLabels.contains(where: { m in
                m.1.box.intersects(box) || (!onAnEnd && Planner.distance(p, m.1.box) < m.1.yieldingClearance(scale: s))
            }) {
                planner.layout.drop(.marker, place.name)
                continue
            }
            visible.append((place, p))
            planner.marker(Box(x: p.0 - 5 * s, y: p.1 - 5 * s, width: 10 * s, height: 10 * s), anchor: p, text: place.name)
        }

        var decorations =
            spec.decorations
            ? Decorations(canvas: canvas, frame: frame, spec: spec, legend: basemap.legend.map { $0.noData ? .withNoData : .ramp }, planner: &planner) : nil
        if spec.viewshed != nil { decorations?.reserveViewshedLegend(planner: &planner) }
        // A place whose marker a decoration covers is hidden by it: left out, and counted.
        let decorationBoxes = planner.layout.elements.filter { ![.marker, .measurementLabel, .label].contains($0.kind) }
            .map { Box(x: $0.box.x0, y: $0.box.y0, width: $0.box.x1 - $0.box.x0, height: $0.box.y1 - $0.box.y0) }
        visible = visible.filter { place, p in
            let box = Box(x: p.0 - 5 * s, y: p.1 - 5 * s, width: 10 * s, height: 10 * s)
            guard decorationBoxes.contains(where: { $0.intersects(box) }) else { return true }
            planner.layout.elements.removeAll { $0.kind == .marker && $0.text == place.name && $0.anchor == p }
            planner.layout.drop(.marker, place.name)
            return false
        }
        var trailLabels: [(String, PlacedLabel)] = []
        for (k, (trail, plan)) in zip(spec.trails, trailPlans).enumerated() {
            trailLabels += trail.label(plan, canvas: canvas, scale: s, track: k + 1, planner: &planner)
        }
        var placeLabels: [(String, PlacedLabel)] = []
        for (place, p) in visible {
            let size = PlaceLabel.boxSize(place.name, canvas: canvas, scale: s)
            if let placed = planner.label(
                .label, place.name, anchor: p, PlaceLabel.candidates(p, w: size.w, h: size.h, first: 7 * s, scale: s),
                owner: Planner.Owner(markers: [p], rim: 6 * s))
            {
                placeLabels.append((place.name, placed))
            }
        }
        notes += planner.layout.notes

        // Drawing, bottom to top.
        for (trail, plan) in zip(spec.trails, trailPlans) { trail.draw(plan, on: canvas, scale: s) }
        for (line, _) in measured {
            canvas.polyline(line, color: Color.white.withAlpha(0.85), width: 6 * s)
            canvas.polyline(line, color: MeasurementLabel.color, width: 2.5 * s)
        }
        for (line, _) in measured {
            for p in [line.first!, line.last!] {
                canvas.circle(p.0, p.1, radius: 6 * s, fill: .white, stroke: MeasurementLabel.color, strokeWidth: 2.5 * s)
            }
        }
        for (k, badge) in badges.enumerated() {
            if let badge { MeasurementLabel.drawBadge(k + 1, at: badge, canvas: canvas, scale: s) }
        }
        for (_, p) in visible {
            canvas.circle(p.0, p.1, radius: 4 * s, fill: Color(hex: 0x222222), stroke: .white, strokeWidth: 1.5 * s)
        }
        for (_, placed) in trailLabels + placeLabels { placed.drawLeader(on: canvas, color: PlaceLabel.leaderColor, scale: s) }
        for (_, placed) in measurementLabels { placed.drawLeader(on: canvas, color: MeasurementLabel.color, scale: s) }
        for (text, placed) in trailLabels + placeLabels { PlaceLabel.draw(text, in: placed.box, canvas: canvas, scale: s) }
        for (shape, placed) in measurementLabels { MeasurementLabel.draw(shape, in: placed.box, canvas: canvas) }
        decorations?.draw(legend: basemap.legend)
        // The PNG writer reads the canvas where cairo drew it.
        return try RenderedImage.finished(canvas, width: frame.width, height: frame.height, notes: notes, layout: planner.layout)
    }
}
