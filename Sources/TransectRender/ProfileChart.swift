import TransectAnalysis
import TransectSupport

/// An elevation profile chart for reports: distance on x, elevation on y in the chosen units,
/// the terrain as a filled area that breaks at gaps, the sight line coloured by its verdict,
/// the obstruction and the extremes marked, and a title with the measurement's label.
public struct ProfileChart {
    public var profile: Profile
    public var statistics: ProfileStatistics
    /// The line of sight over `profile`; the chart draws its sight line (with the curvature it
    /// was computed with) and its verdict.
    public var lineOfSight: LineOfSight?
    public var title: String
    public var subtitle: String?
    public var units: UnitSystem
    public var width: Int
    public var height: Int
    /// The chart's resolution: it is laid out at 96 dpi and drawn `dpi / 96` times larger, so
    /// its text, lines and symbols have the same size in points at any dpi.
    public var dpi = 96.0
    /// Text sizes relative to the rest.
    public var fontScale = 1.0

    public init(
        profile: Profile, statistics: ProfileStatistics, lineOfSight: LineOfSight?,
        title: String, subtitle: String?, units: UnitSystem, width: Int = 1200, height: Int = 600
    ) {
        self.profile = profile
        self.statistics = statistics
        self.lineOfSight = lineOfSight
        self.title = title
        self.subtitle = subtitle
        self.units = units
        self.width = width
        self.height = height
    }

    static let terrainFill = Color(hex: 0xB9A88F, alpha: 0.9)
    static let terrainLine = Color(hex: 0x5C4B37)
    static let ink = Color(hex: 0x1A1A1A)
    static let grid = Color(hex: 0xDDDDDD)

    static func verdictColor(_ v: LineOfSight.Verdict?) -> Color {
        switch v {
        case .visible?: Color(hex: 0x1B9E4B)
        case .obstructed?: Color(hex: 0xC8102E)
        default: Color(hex: 0xE08E0B)
        }
    }

    /// The chart as an image or, with `document`, as an SVG or PDF of vectors.
    public func render(document: VectorDocument? = nil) throws -> RenderedImage {
        let canvas = try document.map { try Canvas(document: $0, width: self.width, height: self.height) } ?? Canvas(width: self.width, height: self.height)
        canvas.fontScale = fontScale
        canvas.fill(.white)
        // Laid out in 96-dpi pixels, drawn at the chart's dpi.
        let scale = dpi / 96
        canvas.scale(by: scale)
        let width = Double(self.width) / scale
        let height = Double(self.height) / scale
        let p = profile
        let xUnit = units.unit(for: max(p.lengthMetres, 1))
        let yUnit = units.heightUnit
        // Sight line heights in the terrain's frame, as the line of sight computed them.
        var sight: [Double] = []
        if let los = lineOfSight, p.count > 1 { sight = p.distancesMetres.map(los.sightLineMetres(atDistance:)) }
        let valid = p.elevationsMetres.filter { !$0.isNaN }
        var lo = (valid + sight).min() ?? 0
        var hi = (valid + sight).max() ?? 1
        if hi - lo < 1 {
            lo -= 0.5
            hi += 0.5
        }
        let pad = (hi - lo) * 0.08
        lo -= pad
        hi += pad
        // Axes in display units.
        let yLo = yUnit.convert(metres: lo)
        let yHi = yUnit.convert(metres: hi)
        // About six ticks, fewer where the chart is too short to keep 12 px labels 20 px apart
        // (the header's height is not known yet: the plot is at least this tall).
        let roughPlot = Double(height) - 78 - 62
        let yStep = NiceNumbers.step(span: yHi - yLo, target: min(6, max(2, Int(max(0, roughPlot) / 24))))
        let yMin = (yLo / yStep).rounded(.down) * yStep
        let yMax = (yHi / yStep).rounded(.up) * yStep
        let xMax = xUnit.convert(metres: max(p.lengthMetres, 1e-9))
        let xStep = NiceNumbers.step(span: xMax, target: 8)

        let tickLabels = NiceNumbers.ticks(lo: yMin, hi: yMax, step: yStep).map { NiceNumbers.label($0, step: yStep) }
        let labelWidth = tickLabels.map { canvas.measure($0, size: 12).width }.max() ?? 30
        let left = 36 + labelWidth + 14
        let right = 28.0
        // The header, row by row: the title (shortened to the width), the measurement on one
        // line or one line per distance, and the legend on the title's row where it fits
        // beside the title, else on a row of its own. Where that leaves the plot too little
        // height, the measurement keeps to one line or is left out, then the legend's own row.
        let room = Double(width) - left - right
        let bottom = 62.0
        let minimumPlot = max(50, 0.3 * Double(height))
        var legend = "Terrain"
        if let los = lineOfSight {
            legend += "   ╌ line of sight: \(los.verdict.rawValue)"
        }
        if statistics.gapCount > 0 { legend += "   gaps: \(statistics.gapCount) (no data)" }
        func planHeader(subtitleLines: Int, legendRow: Bool) -> (layout: Layout, header: Header, top: Double) {
            var layout = Layout(width: self.width, height: self.height)
            var header = Header(rows: [], legendBox: nil)
            var baseline = 30.0
            if let fitted = Decorations.ellipsized(title, width: room, canvas: canvas, size: 19, bold: true) {
                let m = canvas.measure(fitted, size: 19, bold: true)
                header.rows.append((fitted, baseline, 19, true, Color(hex: 0x1A1A1A)))
                layout.add(.title, fitted, box: Box(x: left, y: baseline - m.ascent, width: m.width, height: m.ascent + m.descent))
            } else {
                layout.drop(.title, title)
            }
            if let subtitle {
                let parts = subtitle.split(separator: " | ").map(String.init)
                let lines = canvas.measure(subtitle, size: 13).width <= room ? [subtitle] : parts
                if lines.count <= subtitleLines, lines.allSatisfy({ canvas.measure($0, size: 13).width <= room }) {
                    let m = canvas.measure(subtitle, size: 13)
                    let first = baseline + 24
                    for (k, line) in lines.enumerated() {
                        baseline = first + 17 * Double(k)
                        header.rows.append((line, baseline, 13, false, Color(hex: 0x444444)))
                    }
                    let w = lines.map { canvas.measure($0, size: 13).width }.max()!
                    layout.add(.measurementLabel, subtitle, box: Box(x: left, y: first - m.ascent, width: w, height: baseline + m.descent - first + m.ascent))
                } else {
                    layout.drop(.measurementLabel, subtitle)
                }
            }
            let lm = canvas.measure(legend, size: 12)
            let titleWidth = layout.elements.first(where: { $0.kind == .title }).map { $0.box.x1 - $0.box.x0 } ?? 0
            let legendWidth = lm.width + 34
            if titleWidth + 16 + legendWidth <= room {
                header.legendBox = Box(x: Double(width) - right - legendWidth - 6, y: 14, width: legendWidth, height: 24)
            } else if legendRow, legendWidth <= Double(width) - 16 {
                baseline += 24
                header.legendBox = Box(x: min(left - 8, Double(width) - 8 - legendWidth), y: baseline - 17, width: legendWidth, height: 24)
            }
            if let box = header.legendBox { layout.add(.legend, legend, box: box) } else { layout.drop(.legend, legend) }
            return (layout, header, max(56, baseline + 24))
        }
        let options = [(3, true), (1, true), (0, true), (0, false)]
        var planned = planHeader(subtitleLines: 3, legendRow: true)
        for (lines, row) in options.dropFirst() where Double(height) - planned.top - bottom < minimumPlot {
            planned = planHeader(subtitleLines: lines, legendRow: row)
        }
        var layout = planned.layout
        layout.labelNoun = "chart labels"
        let header = planned.header
        let top = planned.top
        let plot = Box(x: left, y: top, width: Double(width) - left - right, height: Double(height) - top - bottom)
        func px(_ metres: Double) -> Double { plot.x + plot.width * xUnit.convert(metres: metres) / xMax }
        func py(_ metres: Double) -> Double { plot.maxY - plot.height * (yUnit.convert(metres: metres) - yMin) / (yMax - yMin) }

        // Grid and ticks.
        for v in NiceNumbers.ticks(lo: yMin, hi: yMax, step: yStep) {
            let y = plot.maxY - plot.height * (v - yMin) / (yMax - yMin)
            canvas.polyline([(plot.x, y), (plot.maxX, y)], color: Self.grid, width: 1)
            let text = NiceNumbers.label(v, step: yStep)
            let m = canvas.measure(text, size: 12)
            canvas.text(text, x: plot.x - 8 - m.width, y: y + 4, size: 12, color: Self.ink)
        }
        for v in NiceNumbers.ticks(lo: 0, hi: xMax, step: xStep) {
            let x = plot.x + plot.width * v / xMax
            canvas.polyline([(x, plot.y), (x, plot.maxY)], color: Self.grid, width: 1)
            let text = NiceNumbers.label(v, step: xStep)
            let m = canvas.measure(text, size: 12)
            canvas.text(text, x: x - m.width / 2, y: plot.maxY + 18, size: 12, color: Self.ink)
        }

        // Terrain: one filled area per run of samples with data, down to the plot's floor.
        // In the chart's 96-dpi units (a whole number of them, inside the image).
        var planner = Planner(width: Int(width), height: Int(height))
        planner.layout = layout
        var k0 = 0
        while k0 < p.count {
            guard !p.elevationsMetres[k0].isNaN else {
                k0 += 1
                continue
            }
            var k1 = k0
            while k1 + 1 < p.count && !p.elevationsMetres[k1 + 1].isNaN { k1 += 1 }
            let run = (k0...k1).map { (px(p.distancesMetres[$0]), py(p.elevationsMetres[$0])) }
            if run.count == 1 {
                canvas.polyline([(run[0].0, run[0].1), (run[0].0, plot.maxY)], color: Self.terrainLine, width: 1.5)
                planner.reserveLine([(run[0].0, run[0].1), (run[0].0, plot.maxY)], width: 1.5, kind: .terrain)
            } else {
                canvas.polygon(run + [(run.last!.0, plot.maxY), (run[0].0, plot.maxY)], fill: Self.terrainFill)
                canvas.polyline(run, color: Self.terrainLine, width: 1.5)
                planner.reserveLine(Self.envelope(run), width: 1.5, kind: .terrain)
            }
            k0 = k1 + 1
        }

        // Sight line.
        let verdictColor = Self.verdictColor(lineOfSight?.verdict)
        if !sight.isEmpty {
            let line = zip(p.distancesMetres, sight).map { (px($0), py($1)) }
            canvas.polyline(line, color: verdictColor, width: 2, dash: [8, 5])
            planner.reserveLine(Self.envelope(line), width: 2, kind: .sightLine)
            canvas.circle(px(0), py(sight[0]), radius: 4.5, fill: verdictColor, stroke: .white, strokeWidth: 1.5)
            canvas.circle(px(p.lengthMetres), py(sight.last!), radius: 4.5, fill: verdictColor, stroke: .white, strokeWidth: 1.5)
            // The line's ends: labels keep off them, but they name nothing a label could be
            // taken for.
            for end in [(px(0), py(sight[0])), (px(p.lengthMetres), py(sight.last!))] {
                planner.marks.reserve(Box(x: end.0 - 6, y: end.1 - 6, width: 12, height: 12))
            }
        }
        // Marks first, then their labels, placed so that they overlap neither one another nor a
        // mark, cross neither the terrain line nor the sight line, and stand nearer their own mark
        // than any other (with a leader line where they must stand further than 24 px).
        var labels: [(text: String, at: (Double, Double), color: Color, bold: Bool, preferAbove: Bool, rim: Double)] = []
        for (extreme, word, above) in [(statistics.maximum, "max", true), (statistics.minimum, "min", false)] {
            guard let e = extreme else { continue }
            let x = px(p.distancesMetres[e.index])
            let y = py(e.elevationMetres)
            canvas.circle(x, y, radius: 4, fill: Self.ink, stroke: .white, strokeWidth: 1.5)
            planner.marker(Box(x: x - 5, y: y - 5, width: 10, height: 10), anchor: (x, y), text: word)
            let text = "\(word) " + NumberFormatting.grouped(yUnit.convert(metres: e.elevationMetres)) + " " + yUnit.rawValue
            labels.append((text, (x, y), Self.ink, true, above, 6))
        }
        if let o = lineOfSight?.firstObstruction {
            let x = px(p.distancesMetres[o.index])
            let y = py(o.terrainMetres)
            canvas.polyline([(x - 6, y - 6), (x + 6, y + 6)], color: verdictColor, width: 3)
            canvas.polyline([(x - 6, y + 6), (x + 6, y - 6)], color: verdictColor, width: 3)
            planner.marker(Box(x: x - 7, y: y - 7, width: 14, height: 14), anchor: (x, y), text: "first obstruction")
            // The line of sight's answer goes first: it has the first choice of room.
            labels.insert(("first obstruction at \(units.format(p.distancesMetres[o.index]))", (x, y), verdictColor, false, true, 9), at: 0)
        }
        var placedLabels: [(text: String, color: Color, bold: Bool, ascent: Double, placed: PlacedLabel)] = []
        for label in labels {
            let m = canvas.measure(label.text, size: 12, bold: label.bold)
            let w = m.width + 4
            let h = m.ascent + m.descent + 2
            let (x, y) = label.at
            let above = Box(x: x - w / 2, y: y - 10 - h, width: w, height: h)
            let below = Box(x: x - w / 2, y: y + 10, width: w, height: h)
            var candidates = label.preferAbove ? [above, below] : [below, above]
            candidates += [
                Box(x: x + 10, y: y - h / 2, width: w, height: h), Box(x: x - 10 - w, y: y - h / 2, width: w, height: h),
                Box(x: x + 10, y: y + 12, width: w, height: h), Box(x: x + 10, y: y - 12 - h, width: w, height: h),
                Box(x: x + 10, y: y + 12 + h, width: w, height: h),
            ]
            // Further out, joined by a leader: below first (inside the terrain, clear of its
            // line), then above, then to either side.
            for gap in [30.0, 45, 65, 90, 120] {
                candidates += [
                    Box(x: x - w / 2, y: y + gap, width: w, height: h), Box(x: x + gap * 0.7, y: y + gap * 0.7, width: w, height: h),
                    Box(x: x - gap * 0.7 - w, y: y + gap * 0.7, width: w, height: h), Box(x: x - w / 2, y: y - gap - h, width: w, height: h),
                    Box(x: x + gap * 0.7, y: y - gap * 0.7 - h, width: w, height: h), Box(x: x - gap * 0.7 - w, y: y - gap * 0.7 - h, width: w, height: h),
                    Box(x: x + gap, y: y - h / 2, width: w, height: h), Box(x: x - gap - w, y: y - h / 2, width: w, height: h),
                ]
            }
            // Kept inside the plot: shift sideways when a label would cross its edges.
            candidates = candidates.map { b in
                var b = b
                b.x = min(max(b.x, plot.x + 3), plot.maxX - b.width - 3)
                b.y = min(max(b.y, plot.y + 3), plot.maxY - b.height - 3)
                return b
            }
            guard
                let placed = planner.label(
                    .label, label.text, anchor: (x, y), candidates, owner: Planner.Owner(markers: [(x, y)], rim: label.rim))
            else { continue }
            placedLabels.append((label.text, label.color, label.bold, m.ascent, placed))
        }
        for label in placedLabels { label.placed.drawLeader(on: canvas, color: label.color, scale: 1) }
        for label in placedLabels {
            let box = label.placed.box
            canvas.text(
                label.text, x: box.x + 2, y: box.y + 1 + label.ascent, size: 12, color: label.color, bold: label.bold,
                halo: .white, haloWidth: 2.5)
        }
        layout = planner.layout

        // Frame, titles, axis names, legend.
        canvas.rectangle(plot, fill: nil, stroke: Color(hex: 0x888888), strokeWidth: 1)
        for row in header.rows { canvas.text(row.text, x: plot.x, y: row.baseline, size: row.size, color: row.color, bold: row.bold) }
        let xName = "Distance (\(xUnit.rawValue))"
        let xm = canvas.measure(xName, size: 13)
        canvas.text(xName, x: plot.x + plot.width / 2 - xm.width / 2, y: Double(height) - 16, size: 13, color: Self.ink)
        let yName = "Elevation (\(yUnit.rawValue))"
        let ym = canvas.measure(yName, size: 13)
        canvas.text(yName, x: 22, y: plot.y + plot.height / 2 + ym.width / 2, size: 13, color: Self.ink, angle: -Double.pi / 2)
        if let legendBox = header.legendBox {
            canvas.rectangle(
                Box(x: legendBox.x + 8, y: legendBox.y + 7, width: 14, height: 10), fill: Self.terrainFill, stroke: Self.terrainLine, strokeWidth: 1)
            canvas.text(legend, x: legendBox.x + 28, y: legendBox.y + 17, size: 12, color: lineOfSight == nil ? Self.ink : verdictColor)
        }
        return try RenderedImage.finished(canvas, width: self.width, height: self.height, notes: layout.notes, layout: layout.scaled(by: scale))
    }

    /// The polyline as labels need to avoid it, with at most four points a pixel column where
    /// it has more (the first, lowest, highest and last of the column, in their order): every
    /// pixel the line covers is still covered, and a profile of millions of samples costs the
    /// chart's width.
    static func envelope(_ line: [(Double, Double)]) -> [(Double, Double)] {
        guard let first = line.first, let last = line.last, line.count > 4 * max(1, Int(abs(last.0 - first.0))) else { return line }
        var out: [(Double, Double)] = []
        var k = 0
        while k < line.count {
            let column = line[k].0.rounded(.down)
            var j = k
            var low = k
            var high = k
            while j + 1 < line.count && line[j + 1].0.rounded(.down) == column {
                j += 1
                if line[j].1 < line[low].1 { low = j }
                if line[j].1 > line[high].1 { high = j }
            }
            for i in Set([k, low, high, j]).sorted() { out.append(line[i]) }
            k = j + 1
        }
        return out
    }

    /// The header's text rows and the legend's box.
    struct Header {
        var rows: [(text: String, baseline: Double, size: Double, bold: Bool, color: Color)]
        var legendBox: Box?
    }
}
