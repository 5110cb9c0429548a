#if canImport(Glibc)
import Glibc
#endif
import TransectCore
import TransectGDAL

/// Scale bar, north arrow, title, attribution and legend. Their boxes are known before the
/// labels are placed, so labels keep clear of them.
struct Decorations {
    let canvas: Canvas
    let frame: MapFrame
    let spec: MapSpec
    let reserved: [Box]
    let scaleBox: Box
    let arrowBox: Box
    let titleBox: Box?
    let attributionBox: Box?

    static let textColor = Color(hex: 0x1A1A1A)

    init(canvas: Canvas, frame: MapFrame, spec: MapSpec) {
        self.canvas = canvas
        self.frame = frame
        self.spec = spec
        let w = Double(frame.width), h = Double(frame.height)
        scaleBox = Box(x: 12, y: h - 52, width: min(w * 0.3, 320) + 60, height: 42)
        arrowBox = Box(x: w - 58, y: 12, width: 46, height: 64)
        if let title = spec.title {
            let m = canvas.measure(title, size: 20, bold: true)
            titleBox = Box(x: 12, y: 12, width: m.width + 20, height: m.ascent + m.descent + 14)
        } else {
            titleBox = nil
        }
        if let attribution = spec.attribution {
            let m = canvas.measure(attribution, size: 10)
            attributionBox = Box(x: w - m.width - 18, y: h - m.ascent - m.descent - 12, width: m.width + 10, height: m.ascent + m.descent + 6)
        } else {
            attributionBox = nil
        }
        var boxes = [scaleBox, arrowBox] + [titleBox, attributionBox].compactMap { $0 }
        if case .tint = spec.basemap { boxes.append(Self.legendBox(width: w)) }
        reserved = boxes
    }

    static func legendBox(width: Double) -> Box { Box(x: width - 86, y: 90, width: 74, height: 190) }

    func draw(legend: (low: Double, high: Double)?) {
        drawScaleBar()
        drawNorthArrow()
        if let title = spec.title, let box = titleBox {
            canvas.rectangle(box, fill: Color.white.withAlpha(0.85), radius: 4)
            let m = canvas.measure(title, size: 20, bold: true)
            canvas.text(title, x: box.x + 10, y: box.y + 7 + m.ascent, size: 20, color: Self.textColor, bold: true)
        }
        if let attribution = spec.attribution, let box = attributionBox {
            let m = canvas.measure(attribution, size: 10)
            canvas.text(attribution, x: box.x + 5, y: box.y + 3 + m.ascent, size: 10, color: Color(hex: 0x333333),
                        halo: Color.white.withAlpha(0.85), haloWidth: 2)
        }
        if let legend { drawLegend(low: legend.low, high: legend.high) }
    }

    /// Ground metres per pixel across the frame's centre, measured on the ellipsoid (so a UTM
    /// scale factor or Mercator's stretch is accounted for).
    func groundMetresPerPixel() -> Double? {
        let cx = Double(frame.width) / 2, cy = Double(frame.height) / 2
        guard let ends = try? frame.geographic(of: [(cx - 50, cy), (cx + 50, cy)]),
              ends.allSatisfy({ $0.latitude.isFinite }) else { return nil }
        let d = Geodesic.wgs84.inverse(from: ends[0], to: ends[1]).distanceMetres
        return d / 100
    }

    func drawScaleBar() {
        guard let mpp = groundMetresPerPixel(), mpp > 0 else { return }
        let maxPixels = scaleBox.width - 60
        // The largest round length in display units that fits.
        let unit: LengthUnit
        switch spec.units {
        case .metric: unit = maxPixels * mpp >= 1000 ? .kilometres : .metres
        case .imperial: unit = maxPixels * mpp >= LengthUnit.miles.metres ? .miles : .feet
        case .fixed(let u): unit = u
        }
        let length = NiceNumbers.floorNice(unit.convert(metres: maxPixels * mpp))
        let pixels = length * unit.metres / mpp
        let x0 = scaleBox.x + 8, y0 = scaleBox.y + 24
        canvas.rectangle(Box(x: scaleBox.x, y: scaleBox.y, width: pixels + 60, height: scaleBox.height), fill: Color.white.withAlpha(0.8), radius: 4)
        for k in 0..<4 {
            let seg = Box(x: x0 + pixels * Double(k) / 4, y: y0, width: pixels / 4, height: 6)
            canvas.rectangle(seg, fill: k % 2 == 0 ? Self.textColor : .white, stroke: Self.textColor, strokeWidth: 1)
        }
        canvas.text("0", x: x0 - 3, y: y0 - 5, size: 11, color: Self.textColor)
        let text = NiceNumbers.label(length, step: length) + " " + unit.rawValue
        let m = canvas.measure(text, size: 11)
        canvas.text(text, x: x0 + pixels - m.width / 2, y: y0 - 5, size: 11, color: Self.textColor)
    }

    /// Points to true north at the frame's centre: the direction in which latitude grows there.
    func drawNorthArrow() {
        let cx = Double(frame.width) / 2, cy = Double(frame.height) / 2
        guard let centre = try? frame.geographic(of: [(cx, cy)]).first, centre.latitude.isFinite,
              let pix = try? frame.pixels(of: [centre, GeoPoint(longitude: centre.longitude, latitude: min(centre.latitude + 0.01, 89.999))]) else { return }
        let dx = pix[1].0 - pix[0].0, dy = pix[1].1 - pix[0].1
        let angle = atan2(dx, -dy)
        let ax = arrowBox.x + arrowBox.width / 2, ay = arrowBox.y + 38
        let r = 17.0
        func rotated(_ x: Double, _ y: Double) -> (Double, Double) {
            (ax + x * cos(angle) - y * sin(angle), ay + x * sin(angle) + y * cos(angle))
        }
        canvas.circle(ax, ay, radius: r + 5, fill: Color.white.withAlpha(0.8))
        canvas.polygon([rotated(0, -r), rotated(7, r * 0.6), rotated(0, r * 0.25)], fill: Self.textColor)
        canvas.polygon([rotated(0, -r), rotated(-7, r * 0.6), rotated(0, r * 0.25)], fill: Color(hex: 0x777777))
        let n = canvas.measure("N", size: 13, bold: true)
        let top = rotated(0, -r - 12)
        canvas.text("N", x: top.0 - n.width / 2, y: top.1 + n.ascent / 2 - 1, size: 13, color: Self.textColor, bold: true,
                    halo: Color.white.withAlpha(0.9), haloWidth: 2)
    }

    func drawLegend(low: Double, high: Double) {
        let h = spec.units.heightUnit
        let lo = h.convert(metres: low), hi = h.convert(metres: high)
        let box = Self.legendBox(width: Double(frame.width))
        canvas.rectangle(box, fill: Color.white.withAlpha(0.85), radius: 4)
        let barX = box.x + 10, barTop = box.y + 12, barHeight = box.height - 24
        let steps = 64
        for k in 0..<steps {
            let t = 1 - (Double(k) + 0.5) / Double(steps)
            let c = BasemapPainter.rampColor(t)
            canvas.rectangle(Box(x: barX, y: barTop + barHeight * Double(k) / Double(steps), width: 14, height: barHeight / Double(steps) + 0.5),
                             fill: Color(c.0, c.1, c.2))
        }
        let step = NiceNumbers.step(span: hi - lo, target: 4)
        for v in NiceNumbers.ticks(lo: lo, hi: hi, step: step) {
            let y = barTop + barHeight * (1 - (v - lo) / max(hi - lo, 1e-9))
            canvas.polyline([(barX + 14, y), (barX + 18, y)], color: Self.textColor, width: 1)
            canvas.text(NiceNumbers.label(v, step: step), x: barX + 21, y: y + 4, size: 10, color: Self.textColor)
        }
        canvas.text(h.rawValue, x: barX, y: box.maxY - 1, size: 9, color: Color(hex: 0x555555))
    }
}

/// Lines of constant longitude and latitude, for maps without terrain.
enum Graticule {
    static func draw(on canvas: Canvas, frame: MapFrame) throws {
        let w = Double(frame.width), h = Double(frame.height)
        // The frame's lon/lat bounds, from its edges sampled every 32 px.
        var edge: [(Double, Double)] = []
        for k in stride(from: 0.0, through: w, by: 32) { edge += [(k, 0), (k, h)] }
        for k in stride(from: 0.0, through: h, by: 32) { edge += [(0, k), (w, k)] }
        let geo = try frame.geographic(of: edge).filter { $0.latitude.isFinite }
        guard let minLon = geo.map(\.longitude).min(), let maxLon = geo.map(\.longitude).max(),
              let minLat = geo.map(\.latitude).min(), let maxLat = geo.map(\.latitude).max() else { return }
        let step = NiceNumbers.step(span: max(maxLon - minLon, maxLat - minLat), target: 6)
        let color = Color(hex: 0xB8B4AC)
        for lon in NiceNumbers.ticks(lo: minLon, hi: maxLon, step: step) {
            let pts = try frame.pixels(of: stride(from: minLat, through: maxLat, by: (maxLat - minLat) / 64).map { GeoPoint(longitude: lon, latitude: $0) })
            canvas.polyline(pts, color: color, width: 1)
            if let bottom = pts.first, bottom.0 > 30, bottom.0 < w - 60 {
                canvas.text(degrees(lon, step: step, positive: "E", negative: "W"), x: bottom.0 + 3, y: h - 64, size: 10, color: Color(hex: 0x8A857C))
            }
        }
        for lat in NiceNumbers.ticks(lo: minLat, hi: maxLat, step: step) {
            let pts = try frame.pixels(of: stride(from: minLon, through: maxLon, by: (maxLon - minLon) / 64).map { GeoPoint(longitude: $0, latitude: lat) })
            canvas.polyline(pts, color: color, width: 1)
            if let left = pts.first, left.1 > 90, left.1 < h - 70 {
                canvas.text(degrees(lat, step: step, positive: "N", negative: "S"), x: 6, y: left.1 - 3, size: 10, color: Color(hex: 0x8A857C))
            }
        }
    }

    static func degrees(_ v: Double, step: Double, positive: String, negative: String) -> String {
        NiceNumbers.label(abs(v), step: step) + "°" + (v == 0 ? "" : (v > 0 ? positive : negative))
    }
}
