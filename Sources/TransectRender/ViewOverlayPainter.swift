import TransectGeodesy
import TransectPerspective

/// Draws a perspective view's overlays with cairo: each line densified to about two pixels and
/// depth-tested point by point against the view's samples, solid where the terrain leaves it in
/// sight and dashed where it hides it; labels placed without overlaps.
struct ViewOverlayPainter {
    let view: TerrainView
    let canvas: Canvas
    /// Lines, markers and labels are drawn this many times their 96-dpi size (dpi / 96).
    var scale = 1.0

    static let direct = Color(hex: 0xC8102E)
    static let horizontal = Color(hex: 0x1F5FBF)
    static let vertical = Color(hex: 0x1E8449)
    static let ink = Color(hex: 0x1A1A1A)
    static let labelSize = 13.0
    static let placeSize = 12.0
    /// Pixels between two points of a traced line.
    static let stepPixels = 2.0
    static let hiddenDash: [Double] = [7, 5]

    /// A line as the view shows it: each point's pixel position, whether it is in front of the
    /// camera and whether the terrain leaves it in sight.
    struct Trace {
        var points: [(Double, Double)] = []
        var inFront: [Bool] = []
        var visible: [Bool] = []
    }

    /// Draws the overlays and returns where their labels went: each leg's label beside its own
    /// leg (nearer it than the other legs and any marker, crossing no leg or track, with a
    /// leader past 24 px), each place's beside its pin; the legs and tracks as `lines`.
    @discardableResult
    func paint(_ overlays: ViewOverlays) -> Layout {
        let k = scale
        var planner = Planner(width: view.width, height: view.height, scale: k)
        for track in overlays.tracks where track.count > 1 {
            let trace = self.trace(draped(track))
            stroke(trace, color: TrailOverlay.accent.withAlpha(0.75), width: 5 * k, hiddenWidth: 2 * k)
            for run in trace.runsInFront { planner.reserveLine(run, width: 5 * k, kind: .trail) }
        }
        var labels: [(String, Color, Trace, Layout.LineKind)] = []
        var ends: [(Double, Double)] = []
        if let m = overlays.measurement {
            let (lower, higher, corner) = ViewOverlays.legs(m)
            let direct = trace(straight(Ellipsoid.wgs84.ecef(m.start), Ellipsoid.wgs84.ecef(m.end)))
            let horizontal = trace(geodesic(lower, corner))
            let vertical = trace(straight(Ellipsoid.wgs84.ecef(corner), Ellipsoid.wgs84.ecef(higher)))
            stroke(horizontal, color: Self.horizontal, width: 3 * k, hiddenWidth: 2 * k)
            stroke(vertical, color: Self.vertical, width: 3 * k, hiddenWidth: 2 * k)
            stroke(direct, color: Self.direct, width: 3.5 * k, hiddenWidth: 2 * k)
            for (t, kind, width) in [(direct, Layout.LineKind.direct, 3.5), (horizontal, .horizontal, 3), (vertical, .vertical, 3)] {
                for run in t.runsInFront { planner.reserveLine(run, width: width * k, kind: kind) }
            }
            for p in [m.start, m.end] {
                let a = view.anchor("", p)
                guard a.depthMetres > 0, a.x.isFinite, a.y.isFinite else { continue }
                canvas.circle(a.x, a.y, radius: 5.5 * k, fill: .white.withAlpha(a.visible ? 1 : 0.5), stroke: Self.ink, strokeWidth: 2 * k)
                planner.marker(Box(x: a.x - 7 * k, y: a.y - 7 * k, width: 14 * k, height: 14 * k), anchor: (a.x, a.y), text: nil, protected: true)
                ends.append((a.x, a.y))
            }
            labels = [
                ("Direct: " + overlays.units.format(m.directMetres), Self.direct, direct, .direct),
                ("Horizontal: " + overlays.units.format(m.horizontalMetres), Self.horizontal, horizontal, .horizontal),
                ("Vertical: " + overlays.units.format(abs(m.verticalMetres)), Self.vertical, vertical, .vertical),
            ]
        }
        let pins = overlays.places.map { view.anchor($0.name, $0.point) }.filter(\.visible)
        for pin in pins {
            canvas.polyline([(pin.x, pin.y), (pin.x, pin.y - 20 * k)], color: Self.ink, width: 1.5 * k)
            canvas.circle(pin.x, pin.y - 20 * k, radius: 5 * k, fill: Self.direct, stroke: .white, strokeWidth: 1.5 * k)
            planner.marker(
                Box(x: pin.x - 6 * k, y: pin.y - 26 * k, width: 12 * k, height: 27 * k), anchor: (pin.x, pin.y - 20 * k), text: pin.name, protected: true)
        }
        let legs = labels.map { $0.2.runsInFront.flatMap { $0 } }
        for (j, (text, color, trace, _)) in labels.enumerated() {
            label(
                text, color: color, along: trace, own: legs[j], others: legs.enumerated().filter { $0.offset != j }.map(\.element), ends: ends,
                planner: &planner)
        }
        for pin in pins {
            let m = canvas.measure(pin.name, size: Self.placeSize, bold: true)
            let h = m.ascent + m.descent
            let cy = pin.y - 20 * k
            let candidates = [
                Box(x: pin.x + 9 * k, y: cy - h / 2, width: m.width, height: h),
                Box(x: pin.x - 9 * k - m.width, y: cy - h / 2, width: m.width, height: h),
                Box(x: pin.x - m.width / 2, y: cy - 9 * k - h, width: m.width, height: h),
                Box(x: pin.x + 9 * k, y: cy - h - 4 * k, width: m.width, height: h),
                Box(x: pin.x - 9 * k - m.width, y: cy - h - 4 * k, width: m.width, height: h),
            ]
            guard let placed = planner.label(.label, pin.name, anchor: (pin.x, cy), candidates, owner: Planner.Owner(markers: [(pin.x, cy)], rim: 7 * k))
            else { continue }
            let box = placed.box
            canvas.text(
                pin.name, x: box.x, y: box.y + m.ascent, size: Self.placeSize * k, color: Self.ink, bold: true, halo: .white.withAlpha(0.9),
                haloWidth: 2.5 * k)
        }
        return planner.layout
    }

    /// Points along the straight line from `a` to `b` (ECEF), about ``stepPixels`` apart in the image.
    func straight(_ a: ECEF, _ b: ECEF) -> [ECEF] {
        let n = steps(view.camera.frame.project(a), view.camera.frame.project(b))
        return (0...n).map { k in ECEF(xyz: a.xyz + (b.xyz - a.xyz) * (Double(k) / Double(n))) }
    }

    /// A draped track (vertices on the terrain, about a DEM cell apart) with points added between
    /// its vertices every ``stepPixels`` where the image shows a step larger than that: each
    /// pixel of the line gets its own depth test.
    func draped(_ track: [GeoPoint]) -> [ECEF] {
        let frame = view.camera.frame
        let points = track.map { Ellipsoid.wgs84.ecef($0) }
        guard var previous = points.first else { return [] }
        var previousProjected = frame.project(previous)
        var out = [previous]
        for p in points.dropFirst() {
            let projected = frame.project(p)
            let n = steps(previousProjected, projected, minimum: 1, behindCamera: 1)
            for k in 1...n { out.append(ECEF(xyz: previous.xyz + (p.xyz - previous.xyz) * (Double(k) / Double(n)))) }
            previous = p
            previousProjected = projected
        }
        return out
    }

    /// Points along the geodesic from `a` to `b` at `a`'s height.
    func geodesic(_ a: GeoPoint, _ b: GeoPoint) -> [ECEF] {
        let line = Geodesic.wgs84.inverseLine(from: a, to: b)
        let length = line.distanceMetres ?? 0
        let n = steps(view.camera.frame.project(Ellipsoid.wgs84.ecef(a)), view.camera.frame.project(Ellipsoid.wgs84.ecef(b)))
        return (0...n).map { k in
            var p = line.position(atDistance: length * Double(k) / Double(n)).point
            p.heightMetres = a.heightMetres
            return Ellipsoid.wgs84.ecef(p)
        }
    }

    /// Segments for a line between two projected points: about one per ``stepPixels``, from
    /// `minimum` up to 4,096; `behindCamera` when an end is behind the camera.
    func steps(
        _ p: (x: Double, y: Double, depthMetres: Double), _ q: (x: Double, y: Double, depthMetres: Double), minimum: Int = 16,
        behindCamera: Int = 4096
    ) -> Int {
        guard p.depthMetres > 0, q.depthMetres > 0 else { return behindCamera }
        let pixels = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
        guard pixels.isFinite else { return behindCamera }
        return min(4096, max(minimum, Int((pixels / Self.stepPixels).rounded(.up))))
    }

    /// The points (ECEF) projected and depth-tested.
    func trace(_ points: [ECEF]) -> Trace {
        var t = Trace()
        let frame = view.camera.frame
        for p in points {
            let q = frame.project(p)
            let front = q.depthMetres > 1 && abs(q.x) < 1e6 && abs(q.y) < 1e6
            t.points.append((q.x, q.y))
            t.inFront.append(front)
            t.visible.append(front && view.isVisible(p))
        }
        return t
    }

    /// Strokes the trace: runs in sight solid, runs behind terrain dashed and thinner; nothing
    /// behind the camera.
    func stroke(_ t: Trace, color: Color, width: Double, hiddenWidth: Double) {
        var k = 0
        while k + 1 < t.points.count {
            guard t.inFront[k] && t.inFront[k + 1] else {
                k += 1
                continue
            }
            let seen = t.visible[k] && t.visible[k + 1]
            var run = [t.points[k]]
            var j = k + 1
            while j < t.points.count && t.inFront[j] && (t.visible[j] && t.visible[j - 1]) == seen {
                run.append(t.points[j])
                j += 1
            }
            if seen {
                canvas.polyline(run, color: color, width: width)
            } else {
                canvas.polyline(run, color: color.withAlpha(0.85), width: hiddenWidth, dash: Self.hiddenDash.map { $0 * scale })
            }
            k = j - 1
        }
    }

    /// A boxed label beside the middle of the trace's part in front of the camera (its part in
    /// sight when it has one), on the first side and distance that crosses no line, stands
    /// nearer its own leg (`own`) than the `others` and any marker but the measurement's
    /// `ends`, and overlaps nothing; joined to the leg by a leader past 24 px.
    func label(
        _ text: String, color: Color, along t: Trace, own: [(Double, Double)], others: [[(Double, Double)]], ends: [(Double, Double)],
        planner: inout Planner
    ) {
        var indices = t.points.indices.filter { t.visible[$0] }
        if indices.isEmpty { indices = t.points.indices.filter { t.inFront[$0] } }
        guard !indices.isEmpty, !own.isEmpty else { return }
        // On one line, else broken after its colon (a short leg by the image's edge has room
        // for a narrow label only).
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let shapes = [[text]] + (parts.count == 2 ? [[parts[0] + ":", String(parts[1].drop { $0 == " " })]] : [])
        let s = scale
        let m = canvas.measure(text, size: Self.labelSize * s)
        let lineHeight = m.ascent + m.descent + 2 * s
        // Beside the middle first, then beside points further along the leg; each slid inside
        // the image where it would cross an edge.
        var candidates: [Box] = []
        var anchors: [(Double, Double)] = []
        var lines: [[String]] = []
        for shape in shapes {
            let w = shape.map { canvas.measure($0, size: Self.labelSize * s).width }.max()! + 14 * s
            let h = lineHeight * Double(shape.count) - 2 * s + 8 * s
            for f in [0.5, 0.35, 0.65, 0.2, 0.8] {
                let k = min(indices.count - 1, Int((Double(indices.count - 1) * f).rounded()))
                let at = t.points[indices[k]]
                let a = t.points[indices[max(0, k - 1)]]
                let b = t.points[indices[min(indices.count - 1, k + 1)]]
                let (nx, ny) = MeasurementLabel.unitNormal(from: a, to: b)
                for distance in [6.0, 10, 16, 22, 40, 64, 96, 140] {
                    for side in [1.0, -1.0] {
                        let reach = distance * s + w / 2 * abs(nx) + h / 2 * abs(ny)
                        let cx = at.0 + side * nx * reach
                        let cy = at.1 + side * ny * reach
                        var box = Box(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
                        candidates.append(box)
                        anchors.append(at)
                        lines.append(shape)
                        box.x = min(max(box.x, 4 * s), Double(view.width) - w - 4 * s)
                        box.y = min(max(box.y, 4 * s), Double(view.height) - h - 4 * s)
                        if box != candidates.last! {
                            candidates.append(box)
                            anchors.append(at)
                            lines.append(shape)
                        }
                    }
                }
            }
        }
        // Each candidate stands beside its own point of the leg, which its leader goes to.
        let owner = Planner.Owner(markers: ends, line: own, otherLines: others)
        guard let placed = planner.label(.measurementLabel, text, anchor: anchors[0], candidates, owner: owner, anchors: anchors) else { return }
        placed.drawLeader(on: canvas, color: color, scale: s)
        canvas.rectangle(placed.box, fill: Color.white.withAlpha(0.92), stroke: color, strokeWidth: 1.5 * s, radius: 4 * s)
        let shape = lines[candidates.firstIndex(of: placed.box) ?? 0]
        for (k, line) in shape.enumerated() {
            canvas.text(line, x: placed.box.x + 7 * s, y: placed.box.y + 4 * s + m.ascent + Double(k) * lineHeight, size: Self.labelSize * s, color: Self.ink)
        }
    }
}

extension ViewOverlayPainter.Trace {
    /// The runs of consecutive points in front of the camera, in pixels.
    var runsInFront: [[(Double, Double)]] {
        var runs: [[(Double, Double)]] = []
        var run: [(Double, Double)] = []
        for (p, front) in zip(points, inFront) {
            if front {
                run.append(p)
            } else if !run.isEmpty {
                runs.append(run)
                run = []
            }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }
}
