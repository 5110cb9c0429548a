import Testing
import TransectRaster
import TransectGDAL
import TransectTestSupport
@testable import TransectRender

/// The bucketed `LabelPlacer` against the scan it replaced: every candidate compared with every
/// reserved box. Both see the same reservations and candidate lists; every decision must agree.
/// Then what placement promises, checked on the boxes themselves: no two placed boxes overlap,
/// labels keep off markers, everything stays inside the frame's margin, space goes in order of
/// priority, and the same map is laid out the same way every time.
@Suite("label placer")
struct LabelPlacerTests {
    /// The reference: the placer as it was before the buckets, kept here and only here.
    struct ScanningPlacer {
        let width: Double, height: Double
        var taken: [Box] = []
        mutating func reserve(_ box: Box) { taken.append(box) }
        func fits(_ box: Box) -> Bool {
            box.x >= 2 && box.y >= 2 && box.maxX <= width - 2 && box.maxY <= height - 2 && !taken.contains { $0.intersects(box) }
        }
        mutating func place(_ candidates: [Box]) -> Box? {
            guard let box = candidates.first(where: fits) else { return nil }
            taken.append(box)
            return box
        }
    }

    /// A coordinate that often lands on whole pixels, bucket edges (multiples of 16), the image's
    /// 2-pixel margin and a quarter pixel either side of it, where an off-by-one would show.
    static func coordinate(_ extent: Double, _ g: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<7, using: &g) {
        case 0: return (Double.random(in: -2...(extent / 16 + 2), using: &g)).rounded(.down) * 16
        case 1: return [0, 2, extent - 2, extent, -1, extent + 1].randomElement(using: &g)!
        case 2: return [1.75, 2.25, extent - 2.25, extent - 1.75].randomElement(using: &g)!
        case 3: return Double.random(in: -40...(extent + 40), using: &g).rounded()
        default: return Double.random(in: -40...(extent + 40), using: &g)
        }
    }

    /// Sizes from none to more than the whole image, some exactly a bucket wide, some a few
    /// quarter pixels.
    static func size(_ extent: Double, _ g: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<9, using: &g) {
        case 0: return 0
        case 1: return 16
        case 2: return Double.random(in: 16...200, using: &g)
        case 3: return Double.random(in: 0...extent * 1.5, using: &g)
        case 4: return (Double.random(in: 0...4, using: &g) * 4).rounded() / 4
        // Mostly small enough to find room, even in a small image.
        default: return Double.random(in: 1...max(1, min(60, extent / 4)), using: &g).rounded()
        }
    }

    static func box(width: Double, height: Double, _ g: inout SeededRandom) -> Box {
        Box(x: coordinate(width, &g), y: coordinate(height, &g), width: size(width, &g), height: size(height, &g))
    }

    /// Boxes no picture should hold, which the scan handles by its comparisons alone.
    static let odd: [Box] = [
        Box(x: .nan, y: 10, width: 10, height: 10), Box(x: 10, y: 10, width: .nan, height: 10),
        Box(x: -.infinity, y: 20, width: 30, height: 10), Box(x: 30, y: 30, width: .infinity, height: 4),
        Box(x: -.infinity, y: 40, width: .infinity, height: 10), Box(x: 50, y: -.infinity, width: 5, height: .infinity),
        Box(x: -1e300, y: -1e300, width: 2e300, height: 2e300),
    ]

    @Test(
        "decisions match the full scan",
        arguments: [
            (1600.0, 1000.0, 1 as UInt64), (1600, 1000, 2), (400, 300, 3), (37, 23, 4), (3, 3, 5), (250.5, 90.25, 6),
            // Wide enough that the buckets grow beyond 16 pixels.
            (40_000, 60, 7),
        ])
    func matchesScan(width: Double, height: Double, seed: UInt64) {
        var g = SeededRandom(seed: seed)
        var indexed = LabelPlacer(width: width, height: height)
        var reference = ScanningPlacer(width: width, height: height)
        var placed = 0
        var refused = 0
        for step in 0..<3_000 {
            if step == 1_000 {
                for b in Self.odd {
                    indexed.reserve(b)
                    reference.reserve(b)
                }
            }
            if Int.random(in: 0..<3, using: &g) == 0 {
                let b = Self.box(width: width, height: height, &g)
                indexed.reserve(b)
                reference.reserve(b)
            } else {
                let candidates = (0..<Int.random(in: 0...8, using: &g)).map { _ in Self.box(width: width, height: height, &g) }
                let a = indexed.place(candidates)
                let b = reference.place(candidates)
                #expect(a == b, "step \(step): \(String(describing: a)) against \(String(describing: b))")
                if b == nil { refused += 1 } else { placed += 1 }
            }
        }
        // Both outcomes must have been tried for the comparison to mean anything (a 3 × 3 image
        // has no room inside its margin at all).
        #expect(refused > 0)
        if width > 4 && height > 4 { #expect(placed > 0) }
    }

    @Test("a box reserved across many buckets blocks a candidate in any of them")
    func largeBox() {
        var placer = LabelPlacer(width: 1600, height: 1000)
        placer.reserve(Box(x: 100, y: 100, width: 900, height: 500))
        #expect(!placer.fits(Box(x: 990, y: 590, width: 40, height: 40)))
        #expect(!placer.fits(Box(x: 500, y: 300, width: 1, height: 1)))
        // Touching edges do not overlap.
        #expect(placer.fits(Box(x: 1000, y: 590, width: 40, height: 40)))
        #expect(placer.fits(Box(x: 60, y: 60, width: 40, height: 40)))
    }

    /// A crowded map: every label it keeps stands nearer its own marker than any other, beside
    /// it or joined to it by a leader line, and it says how many it left out.
    @Test("a crowded map keeps each label by its own marker, and says how many it left out")
    func crowdedMap() throws {
        let width = 640
        let height = 400
        let frame = MapFrame(
            crs: try SpatialReference("EPSG:32611"), minX: 500_000, minY: 4_196_000, maxX: 506_000, maxY: 4_200_000,
            width: width, height: height)
        var g = SeededRandom(seed: 11)
        // Some beyond the frame, which are neither drawn nor counted.
        let spots = (0..<400).map { _ in (Double.random(in: -60...700, using: &g), Double.random(in: -60...460, using: &g)) }
        let names = (0..<spots.count).map { "P\($0)" + String(repeating: "m", count: $0 % 9) }
        let geographic = try frame.geographic(of: spots)
        var spec = MapSpec(frame: frame, basemap: .none)
        spec.decorations = false
        spec.places = zip(names, geographic).map { Place(name: $0, longitude: $1.longitude, latitude: $1.latitude) }
        let image = try MapRenderer.render(spec, dem: nil)

        let pixels = try frame.pixels(of: geographic)
        let visible = pixels.indices.filter {
            pixels[$0].0 >= 0 && pixels[$0].1 >= 0 && pixels[$0].0 <= Double(width) && pixels[$0].1 <= Double(height)
        }
        let labels = image.layout.elements.filter { $0.kind == .label }
        let markers = image.layout.elements.filter { $0.kind == .marker }
        let dropped = image.layout.dropped.filter { $0.kind == .label }.count
        #expect(markers.count == visible.count && labels.count + dropped == visible.count)
        #expect(visible.count < spots.count && dropped > 0 && dropped < visible.count)
        for label in labels {
            let box = LayoutTests.box(label)
            let own = Planner.distance(label.anchor, box)
            #expect(own <= Planner.leaderDistance || label.leader != nil, "\(label.text ?? "")")
            for m in markers where m.anchor != label.anchor {
                #expect(Planner.distance(m.anchor, box) > own, "\(label.text ?? "") is nearer \(m.text ?? "")")
            }
        }
        #expect(image.notes == ["note: \(dropped) of \(visible.count) place labels could not be placed without overlapping and were left out"])
    }

    // MARK: Properties of what is placed

    /// Whether two boxes share an interior point (touching edges do not).
    static func overlap(_ a: Box, _ b: Box) -> Bool { a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height }

    static func inside(_ b: Box, width: Double, height: Double) -> Bool {
        b.x >= 2 && b.y >= 2 && b.x + b.width <= width - 2 && b.y + b.height <= height - 2
    }

    @Test("a box fits from exactly 2 pixels inside each edge; a quarter pixel further out it does not")
    func margin() {
        let placer = LabelPlacer(width: 100, height: 60)
        #expect(placer.fits(Box(x: 2, y: 2, width: 96, height: 56)))
        for outside in [
            Box(x: 1.75, y: 2, width: 20, height: 10), Box(x: 2, y: 1.75, width: 20, height: 10),
            Box(x: 78.25, y: 2, width: 20, height: 10), Box(x: 2, y: 48.25, width: 20, height: 10),
            Box(x: 2, y: 2, width: 96.25, height: 10), Box(x: 2, y: 2, width: 10, height: 56.25),
        ] {
            #expect(!placer.fits(outside), "\(outside)")
        }
    }

    @Test(
        "whatever is asked, no two placed boxes overlap, none overlaps a box reserved before it, and all lie inside the margin",
        arguments: [(640.0, 400.0, 21 as UInt64), (200, 120, 22), (37, 23, 23)])
    func placedBoxesAreDisjoint(width: Double, height: Double, seed: UInt64) {
        var g = SeededRandom(seed: seed)
        var placer = LabelPlacer(width: width, height: height)
        // Each placed box with the number of boxes reserved before it (later ones may overlap it).
        var reserved: [Box] = []
        var placed: [(box: Box, reservedBefore: Int)] = []
        for _ in 0..<1_500 {
            if Int.random(in: 0..<4, using: &g) == 0 {
                let b = Self.box(width: width, height: height, &g)
                placer.reserve(b)
                reserved.append(b)
            } else {
                let candidates = (0..<Int.random(in: 1...8, using: &g)).map { _ in Self.box(width: width, height: height, &g) }
                if let b = placer.place(candidates) {
                    // The first candidate that fits: every earlier one is out or overlaps something.
                    let k = candidates.firstIndex(of: b) ?? candidates.count
                    #expect(k < candidates.count)
                    for c in candidates[..<k] {
                        #expect(!Self.inside(c, width: width, height: height) || (reserved + placed.map(\.box)).contains { Self.overlap($0, c) })
                    }
                    placed.append((b, reserved.count))
                }
            }
        }
        #expect(!placed.isEmpty)
        for (i, (a, before)) in placed.enumerated() {
            #expect(Self.inside(a, width: width, height: height), "\(a)")
            #expect(!reserved.prefix(before).contains { Self.overlap($0, a) }, "\(a) covers a reserved box")
            for b in placed[(i + 1)...] { #expect(!Self.overlap(a, b.box), "\(a) and \(b.box)") }
        }
    }

    // MARK: Priorities

    @Test("space goes in the order it is asked for: the earlier element keeps it, a later one takes its next candidate or is left out and counted")
    func firstComeFirstServed() {
        var planner = Planner(width: 200, height: 100)
        let slot = Box(x: 10, y: 10, width: 80, height: 20)
        let beside = Box(x: 100, y: 10, width: 80, height: 20)
        #expect(planner.decoration(.title, "Title", [slot]) == slot)
        // The scale bar's first choice is taken: its second.
        #expect(planner.decoration(.scaleBar, "1 km", [slot, beside]) == beside)
        // The north arrow has nothing left.
        #expect(planner.decoration(.northArrow, "N", [Box(x: 80, y: 15, width: 30, height: 10), beside]) == nil)
        // A place marker: labels keep off it, decorations may cover it; a protected one they may not.
        planner.marker(Box(x: 150, y: 60, width: 10, height: 10), anchor: (155, 65), text: "P")
        planner.marker(Box(x: 20, y: 70, width: 10, height: 10), anchor: (25, 75), text: nil, protected: true)
        let onMarker = Box(x: 140, y: 55, width: 30, height: 12)
        let clear = Box(x: 120, y: 40, width: 30, height: 12)
        #expect(planner.label(.label, "A", anchor: (155, 65), [Box(x: 60, y: 25, width: 30, height: 10), onMarker, clear])?.box == clear)
        #expect(planner.label(.label, "B", anchor: (115, 46), [clear, Box(x: 110, y: 45, width: 30, height: 12)]) == nil)
        #expect(planner.decoration(.attribution, "data", [Box(x: 15, y: 75, width: 40, height: 10), onMarker]) == onMarker)
        #expect(planner.layout.elements.map(\.kind) == [.title, .scaleBar, .marker, .marker, .label, .attribution])
        #expect(planner.layout.dropped == [Layout.Dropped(kind: .northArrow, text: "N"), Layout.Dropped(kind: .label, text: "B")])
        #expect(
            planner.layout.notes == [
                "note: the north arrow left out: no room in 200x100 pixels without overlapping",
                "note: 1 of 2 place labels could not be placed without overlapping and was left out",
            ])
    }

    @Test("a label never crosses the track; it keeps off each preferred placer as far as a candidate allows, the later ones given up first")
    func preferences() {
        var planner = Planner(width: 300, height: 200)
        planner.reserveLine([(0, 100), (300, 100)], width: 10, kind: .trail)
        var first = LabelPlacer(width: 300, height: 200)
        var second = first
        first.reserve(Box(x: 0, y: 0, width: 100, height: 200))
        second.reserve(Box(x: 100, y: 0, width: 100, height: 200))
        let onTrack = Box(x: 20, y: 90, width: 30, height: 12)  // crosses the band y 94…106
        let inFirst = Box(x: 20, y: 20, width: 30, height: 12)
        let inSecond = Box(x: 120, y: 20, width: 30, height: 12)
        let clearOfAll = Box(x: 220, y: 20, width: 30, height: 12)
        var p = planner
        #expect(p.label(.label, "a", anchor: (0, 0), [onTrack, inFirst, inSecond, clearOfAll], preferring: [first, second])?.box == clearOfAll)
        p = planner
        // Nothing clear of both: the last preference (second) is given up first.
        #expect(p.label(.label, "b", anchor: (0, 0), [onTrack, inFirst, inSecond], preferring: [first, second])?.box == inSecond)
        p = planner
        #expect(p.label(.label, "c", anchor: (0, 0), [onTrack, inFirst], preferring: [first, second])?.box == inFirst)
        #expect(p.layout.dropped.isEmpty)
        p = planner
        // The track is never given up: a label with no candidate off it is left out.
        #expect(p.label(.label, "d", anchor: (0, 0), [onTrack], preferring: [first, second]) == nil)
        #expect(p.layout.dropped == [Layout.Dropped(kind: .label, text: "d")])
    }

    /// A busy 640 × 400 map, scaled to `width`: a measurement, five places, a track with Start and
    /// End, title, attribution and a legend (the tint basemap has one).
    static func busyMap(width: Int, dem: ElevationModel) throws -> RenderedImage {
        let height = width * 5 / 8
        let w = Double(width)
        let h = Double(height)
        let frame = MapFrame(
            crs: try SpatialReference("EPSG:32611"), minX: 500_000, minY: 4_196_000, maxX: 506_000, maxY: 4_199_750,
            width: width, height: height)
        var spec = MapSpec(frame: frame, basemap: .tint(HillshadeParameters()))
        let ends = try frame.geographic(of: [(0.2 * w, 0.75 * h), (0.8 * w, 0.25 * h)])
        spec.measurements = [MeasurementOverlay(start: ends[0], end: ends[1], label: "Direct: 4.01 km | Horizontal: 3.92 km | Vertical: 827.58 m")]
        let at = try frame.geographic(of: [(0.5, 0.5), (0.3, 0.4), (0.7, 0.6), (0.6, 0.3), (0.4, 0.7)].map { ($0.0 * w, $0.1 * h) })
        spec.places = at.enumerated().map { Place(name: "Place \($0.offset)", longitude: $0.element.longitude, latitude: $0.element.latitude) }
        let track = try frame.geographic(of: (0...20).map { (0.1 * w + 0.3 * w * Double($0) / 20, 0.2 * h + 0.1 * h * Double($0 % 2)) })
        spec.trails = [TrailOverlay(segments: [track], fixes: track)]
        spec.title = "Priorities"
        spec.attribution = "synthetic terrain"
        return try MapRenderer.render(spec, dem: dem)
    }

    @Test("space goes to measurement label, title, scale bar, north arrow, attribution, legend, Start/End, place labels, in that order")
    func renderOrder() throws {
        let dir = TemporaryDirectory()
        let image = try Self.busyMap(width: 640, dem: try GoldenImageTests.dem(dir))
        #expect(image.layout.dropped.isEmpty, "\(image.layout.dropped)")
        // Elements are recorded as they are placed.
        let order: [Layout.Kind] = [.measurementLabel, .title, .scaleBar, .northArrow, .attribution, .legend]
        let texts = image.layout.elements.filter { $0.kind != .marker }
        #expect(texts.map(\.kind).prefix(order.count) == order[...])
        #expect(texts.dropFirst(order.count).map(\.text) == ["Start", "End"] + (0..<5).map { "Place \($0)" })
    }

    @Test("from 640 × 400 down to 70 × 43: nothing placed overlaps, no label covers a marker, all lies inside the frame, the same twice")
    func shrinking() throws {
        let dir = TemporaryDirectory()
        let dem = try GoldenImageTests.dem(dir)
        var dropped = Set<Layout.Kind>()
        for width in stride(from: 640, through: 70, by: -30) {
            let image = try Self.busyMap(width: width, dem: dem)
            let w = Double(image.width)
            let h = Double(image.height)
            let boxes = image.layout.elements.map {
                (kind: $0.kind, box: Box(x: $0.box.x0, y: $0.box.y0, width: $0.box.x1 - $0.box.x0, height: $0.box.y1 - $0.box.y0))
            }
            let texts = boxes.filter { $0.kind != .marker }
            let markers = boxes.filter { $0.kind == .marker }
            for (i, a) in texts.enumerated() {
                #expect(Self.inside(a.box, width: w, height: h), "\(width): \(a.kind) \(a.box)")
                for b in texts[(i + 1)...] { #expect(!Self.overlap(a.box, b.box), "\(width): \(a.kind) and \(b.kind)") }
                if a.kind == .label || a.kind == .measurementLabel {
                    #expect(!markers.contains { Self.overlap($0.box, a.box) }, "\(width): \(a.kind) \(a.box) covers a marker")
                }
            }
            // What is left out is said: one note per kind, and the labels' count.
            let labelsDropped = image.layout.dropped.filter { $0.kind == .label }.count
            #expect(image.notes.contains { $0.hasPrefix("note: \(labelsDropped) of ") } == (labelsDropped > 0))
            dropped.formUnion(image.layout.dropped.map(\.kind))
            // Deterministic: the same layout and the same pixels again (at every third size).
            guard width % 90 == 40 else { continue }
            let again = try Self.busyMap(width: width, dem: dem)
            #expect(again.layout == image.layout && again.rgb == image.rgb && again.notes == image.notes, "\(width)")
        }
        // Space did run out, for every kind of text.
        #expect(dropped == [.measurementLabel, .title, .scaleBar, .northArrow, .attribution, .legend, .label, .marker])
    }
}
