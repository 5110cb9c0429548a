#if canImport(Glibc)
import Glibc
#endif
import TransectAnalysis
import TransectGDAL
import TransectGeodesy

/// Scale bar, north arrow, title, attribution and legend, sized for the map's scale factor
/// (dpi / 96) and placed by the ``Planner`` among the measurement labels placed before them:
/// each goes to its corner when that corner is free and is left out (and counted) when not.
/// Space goes to them in this order: title, scale bar, north arrow, attribution, legend.
struct Decorations {
    let canvas: Canvas
    let frame: MapFrame
    let spec: MapSpec
    let s: Double
    var title: (text: String, box: Box)?
    var scale: (box: Box, length: Double, unit: LengthUnit, pixels: Double, note: String?)?
    var arrowBox: Box?
    var attributionBox: Box?
    var legendBox: Box?
    /// The viewshed's legend: visible, hidden and unknown ground.
    var viewshedBox: Box?

    /// What the legend holds: the tint's ramp, and below it a swatch of the no-data colour when
    /// the frame holds no data.
    enum Legend { case ramp, withNoData }

    static let textColor = Color(hex: 0x1A1A1A)
    /// The legend's ramp box, and the row the no-data swatch adds below it.
    static let legendHeight = 190.0, noDataRowHeight = 20.0
    /// The viewshed legend's rows: visible, hidden, unknown.
    static let viewshedRows = [("visible", ViewshedOverlay.visibleSwatch), ("hidden", ViewshedOverlay.hidden), ("unknown", ViewshedOverlay.unknown)]
    static let titleSize = 20.0, attributionSize = 10.0, scaleTextSize = 11.0, scaleNoteSize = 10.0
    /// Under the scale bar of a frame whose scale varies by more than
    /// ``MapFrame/noteworthyScaleVariation``: where the bar's length holds.
    static let scaleNote = "at the map's centre"

    init(canvas: Canvas, frame: MapFrame, spec: MapSpec, legend: Legend?, planner: inout Planner) {
        self.canvas = canvas
        self.frame = frame
        self.spec = spec
        let s = spec.scale
        self.s = s
        let w = Double(frame.width)
        let h = Double(frame.height)
        let margin = 10 * s
        let arrowSize = (w: 46 * s, h: 64 * s)
        if let text = spec.title {
            // As wide as leaves room for the north arrow; shortened with an ellipsis past that.
            let room = w - 2 * margin - arrowSize.w - margin - 20 * s
            if let fitted = Self.ellipsized(text, width: room, canvas: canvas, size: Self.titleSize * s, bold: true) {
                let m = canvas.measure(fitted, size: Self.titleSize * s, bold: true)
                let box = Box(x: margin, y: margin, width: m.width + 20 * s, height: m.ascent + m.descent + 14 * s)
                if let placed = planner.decoration(.title, fitted, [box]) { title = (fitted, placed) }
            } else {
                planner.layout.drop(.title, text)
            }
        }
        if let mpp = Self.groundMetresPerPixel(frame), mpp > 0 {
            let maxPixels = min(w * 0.3, 320 * s)
            let unit: LengthUnit
            switch spec.units {
            case .metric: unit = maxPixels * mpp >= 1000 ? .kilometres : .metres
            case .imperial: unit = maxPixels * mpp >= LengthUnit.miles.metres ? .miles : .feet
            case .fixed(let u): unit = u
            }
            let length = NiceNumbers.floorNice(unit.convert(metres: maxPixels * mpp))
            let pixels = length * unit.metres / mpp
            // Measured at the centre, the bar holds there; say so where it holds nowhere else.
            let note = (frame.scaleVariation ?? 0) > MapFrame.noteworthyScaleVariation ? Self.scaleNote : nil
            let noteWidth = note.map { canvas.measure($0, size: Self.scaleNoteSize * s).width + 16 * s } ?? 0
            let text = NiceNumbers.label(length, step: length) + " " + unit.rawValue + (note.map { " " + $0 } ?? "")
            let boxHeight = (note == nil ? 42 : 52) * s
            let box = Box(x: margin, y: h - margin - boxHeight, width: max(pixels + 60 * s, noteWidth), height: boxHeight)
            // Bottom left; bottom right where a measurement's end holds that corner.
            let right = Box(x: w - margin - box.width, y: box.y, width: box.width, height: box.height)
            if pixels.isFinite, pixels > 0, let placed = planner.decoration(.scaleBar, text, [box, right]) {
                scale = (placed, length, unit, pixels, note)
            } else if !(pixels.isFinite && pixels > 0) {
                planner.layout.drop(.scaleBar, nil)
            }
        }
        arrowBox = planner.decoration(.northArrow, "N", [Box(x: w - margin - arrowSize.w, y: margin, width: arrowSize.w, height: arrowSize.h)])
        if let text = spec.attribution {
            let m = canvas.measure(text, size: Self.attributionSize * s)
            let bw = m.width + 10 * s
            let bh = m.ascent + m.descent + 6 * s
            // Bottom right; one row up where the scale bar or a label holds the corner.
            attributionBox = planner.decoration(
                .attribution, text,
                [
                    Box(x: w - margin - bw, y: h - margin - bh, width: bw, height: bh),
                    Box(x: w - margin - bw, y: h - margin - 2 * bh - 4 * s, width: bw, height: bh),
                ])
        }
        if let legend {
            let lw = 74 * s
            let lh = (Self.legendHeight + (legend == .withNoData ? Self.noDataRowHeight : 0)) * s
            let below = (arrowBox?.maxY ?? 0) + margin
            legendBox = planner.decoration(
                .legend, spec.units.heightUnit.rawValue,
                [
                    Box(x: w - margin - lw, y: below, width: lw, height: lh),
                    Box(x: w - margin - lw, y: margin, width: lw, height: lh),
                ])
        }
    }

    /// Reserves the viewshed legend's box: top left under the title, or bottom left over the
    /// scale bar.
    mutating func reserveViewshedLegend(planner: inout Planner) {
        let margin = 10 * s
        let lw = 96 * s
        let lh = (12 + 18 * Double(Self.viewshedRows.count)) * s
        let below = (title?.box.maxY ?? 0) + margin
        let above = (scale?.box.y ?? Double(frame.height) - margin) - margin - lh
        viewshedBox = planner.decoration(
            .legend, "viewshed", [Box(x: margin, y: below, width: lw, height: lh), Box(x: margin, y: above, width: lw, height: lh)])
    }

    func drawViewshedLegend() {
        guard let box = viewshedBox else { return }
        canvas.rectangle(box, fill: Color.white.withAlpha(0.85), radius: 4 * s)
        for (k, (label, colour)) in Self.viewshedRows.enumerated() {
            let swatch = Box(x: box.x + 10 * s, y: box.y + (8 + 18 * Double(k)) * s, width: 16 * s, height: 12 * s)
            // The veils as they lie over the basemap's light ground.
            canvas.rectangle(swatch, fill: ViewshedOverlay.visibleSwatch)
            if k > 0 { canvas.rectangle(swatch, fill: colour) }
            canvas.rectangle(swatch, fill: nil, stroke: Color(hex: 0x999999), strokeWidth: 0.75 * s)
            canvas.text(label, x: swatch.maxX + 6 * s, y: swatch.maxY - 1 * s, size: 10 * s, color: Self.textColor)
        }
    }

    /// `text`, or its longest word-boundary prefix with "…", whose width fits `width`; nil when
    /// not even one word does.
    static func ellipsized(_ text: String, width: Double, canvas: Canvas, size: Double, bold: Bool) -> String? {
        guard width > 0 else { return nil }
        if canvas.measure(text, size: size, bold: bold).width <= width { return text }
        var words = text.split(separator: " ").map(String.init)
        while words.count > 1 {
            words.removeLast()
            let candidate = words.joined(separator: " ").trimmingTrailingPunctuation + "…"
            if canvas.measure(candidate, size: size, bold: bold).width <= width { return candidate }
        }
        return nil
    }

    func draw(legend: (low: Double, high: Double, noData: Bool)?) {
        if scale != nil { drawScaleBar() }
        if arrowBox != nil { drawNorthArrow() }
        if let (text, box) = title {
            canvas.rectangle(box, fill: Color.white.withAlpha(0.85), radius: 4 * s)
            let m = canvas.measure(text, size: Self.titleSize * s, bold: true)
            canvas.text(text, x: box.x + 10 * s, y: box.y + 7 * s + m.ascent, size: Self.titleSize * s, color: Self.textColor, bold: true)
        }
        if let attribution = spec.attribution, let box = attributionBox {
            let m = canvas.measure(attribution, size: Self.attributionSize * s)
            canvas.text(
                attribution, x: box.x + 5 * s, y: box.y + 3 * s + m.ascent, size: Self.attributionSize * s, color: Color(hex: 0x333333),
                halo: Color.white.withAlpha(0.85), haloWidth: 2 * s)
        }
        if let legend, legendBox != nil { drawLegend(low: legend.low, high: legend.high, noData: legend.noData) }
        if viewshedBox != nil { drawViewshedLegend() }
    }

    /// Ground metres per pixel across the frame's centre, measured on the ellipsoid (so a UTM
    /// scale factor or Mercator's stretch is accounted for).
    static func groundMetresPerPixel(_ frame: MapFrame) -> Double? {
        let cx = Double(frame.width) / 2
        let cy = Double(frame.height) / 2
        guard let ends = try? frame.geographic(of: [(cx - 50, cy), (cx + 50, cy)]),
            ends.allSatisfy({ $0.latitude.isFinite })
        else { return nil }
        let d = Geodesic.wgs84.inverse(from: ends[0], to: ends[1]).distanceMetres
        return d / 100
    }

    func drawScaleBar() {
        guard let (box, length, unit, pixels, note) = scale else { return }
        let x0 = box.x + 8 * s
        let y0 = box.y + 24 * s
        canvas.rectangle(box, fill: Color.white.withAlpha(0.8), radius: 4 * s)
        for k in 0..<4 {
            let seg = Box(x: x0 + pixels * Double(k) / 4, y: y0, width: pixels / 4, height: 6 * s)
            canvas.rectangle(seg, fill: k % 2 == 0 ? Self.textColor : .white, stroke: Self.textColor, strokeWidth: 1 * s)
        }
        canvas.text("0", x: x0 - 3 * s, y: y0 - 5 * s, size: Self.scaleTextSize * s, color: Self.textColor)
        let text = NiceNumbers.label(length, step: length) + " " + unit.rawValue
        let m = canvas.measure(text, size: Self.scaleTextSize * s)
        canvas.text(text, x: x0 + pixels - m.width / 2, y: y0 - 5 * s, size: Self.scaleTextSize * s, color: Self.textColor)
        if let note { canvas.text(note, x: x0, y: y0 + 19 * s, size: Self.scaleNoteSize * s, color: Self.textColor) }
    }

    /// Points to true north at the frame's centre: the direction in which latitude grows there.
    func drawNorthArrow() {
        guard let arrowBox else { return }
        let cx = Double(frame.width) / 2
        let cy = Double(frame.height) / 2
        guard let centre = try? frame.geographic(of: [(cx, cy)]).first, centre.latitude.isFinite,
            let pix = try? frame.pixels(of: [centre, GeoPoint(longitude: centre.longitude, latitude: min(centre.latitude + 0.01, 89.999))])
        else { return }
        let dx = pix[1].0 - pix[0].0
        let dy = pix[1].1 - pix[0].1
        let angle = atan2(dx, -dy)
        let ax = arrowBox.x + arrowBox.width / 2
        let ay = arrowBox.y + 38 * s
        let r = 17.0 * s
        func rotated(_ x: Double, _ y: Double) -> (Double, Double) {
            (ax + x * cos(angle) - y * sin(angle), ay + x * sin(angle) + y * cos(angle))
        }
        canvas.circle(ax, ay, radius: r + 5 * s, fill: Color.white.withAlpha(0.8))
        canvas.polygon([rotated(0, -r), rotated(7 * s, r * 0.6), rotated(0, r * 0.25)], fill: Self.textColor)
        canvas.polygon([rotated(0, -r), rotated(-7 * s, r * 0.6), rotated(0, r * 0.25)], fill: Color(hex: 0x777777))
        let n = canvas.measure("N", size: 13 * s, bold: true)
        let top = rotated(0, -r - 12 * s)
        canvas.text(
            "N", x: top.0 - n.width / 2, y: top.1 + n.ascent / 2 - 1 * s, size: 13 * s, color: Self.textColor, bold: true,
            halo: Color.white.withAlpha(0.9), haloWidth: 2 * s)
    }

    func drawLegend(low: Double, high: Double, noData: Bool) {
        guard let box = legendBox else { return }
        let h = spec.units.heightUnit
        let lo = h.convert(metres: low)
        let hi = h.convert(metres: high)
        canvas.rectangle(box, fill: Color.white.withAlpha(0.85), radius: 4 * s)
        let barX = box.x + 10 * s
        let barTop = box.y + 12 * s
        let rampBottom = box.y + Self.legendHeight * s
        let barHeight = rampBottom - box.y - 24 * s
        let steps = 64
        for k in 0..<steps {
            let t = 1 - (Double(k) + 0.5) / Double(steps)
            let c = BasemapPainter.rampColor(t)
            canvas.rectangle(
                Box(x: barX, y: barTop + barHeight * Double(k) / Double(steps), width: 14 * s, height: barHeight / Double(steps) + 0.5),
                fill: Color(c.0, c.1, c.2))
        }
        let step = NiceNumbers.step(span: hi - lo, target: 4)
        for v in NiceNumbers.ticks(lo: lo, hi: hi, step: step) {
            let y = barTop + barHeight * (1 - (v - lo) / max(hi - lo, 1e-9))
            canvas.polyline([(barX + 14 * s, y), (barX + 18 * s, y)], color: Self.textColor, width: 1 * s)
            canvas.text(NiceNumbers.label(v, step: step), x: barX + 21 * s, y: y + 4 * s, size: 10 * s, color: Self.textColor)
        }
        canvas.text(h.rawValue, x: barX, y: rampBottom - 1 * s, size: 9 * s, color: Color(hex: 0x555555))
        guard noData else { return }
        // No data in its own colour, as the basemap paints it, under the ramp.
        let swatch = Box(x: barX, y: rampBottom + 4 * s, width: 14 * s, height: 10 * s)
        canvas.rectangle(swatch, fill: Palette.noData, stroke: Color(hex: 0x999999), strokeWidth: 0.75 * s)
        canvas.text("no data", x: barX + 18 * s, y: swatch.maxY, size: 9 * s, color: Self.textColor)
    }
}
