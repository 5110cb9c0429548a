import Foundation
import Testing
import TransectRaster
import TransectGDAL
import TransectTestSupport
@testable import TransectRender

/// The layout is what the image shows: its boxes are where the pixels change, sizes follow the
/// dpi, and dense trails are thinned to readable fixes.
@Suite("layout")
struct LayoutTests {
    static func box(_ e: Layout.Element) -> Box { Box(x: e.box.x0, y: e.box.y0, width: e.box.x1 - e.box.x0, height: e.box.y1 - e.box.y0) }

    static func spec(places: [(String, Double, Double)], dpi: Double = 96, size: (Int, Int) = (640, 400)) throws -> MapSpec {
        let frame = MapFrame(
            crs: try SpatialReference("EPSG:32611"), minX: 500_000, minY: 4_196_000, maxX: 506_000, maxY: 4_200_000,
            width: size.0, height: size.1)
        var spec = MapSpec(frame: frame, basemap: .hillshade(HillshadeParameters()))
        let k = Double(size.0) / 640
        let ends = try frame.geographic(of: [(120 * k, 300 * k), (500 * k, 90 * k)])
        spec.measurements = [MeasurementOverlay(start: ends[0], end: ends[1], label: "Direct: 4.01 km | Horizontal: 3.92 km | Vertical: 827.58 m")]
        let at = try frame.geographic(of: places.map { ($0.1 * k, $0.2 * k) })
        spec.places = zip(places, at).map { Place(name: $0.0, longitude: $1.longitude, latitude: $1.latitude) }
        spec.title = "Layout"
        spec.attribution = "synthetic"
        spec.dpi = dpi
        return spec
    }

    @Test("a label's pixels are inside its layout box: removing the place changes nothing else")
    func labelPixels() throws {
        let dir = TemporaryDirectory()
        let model = try GoldenImageTests.dem(dir)
        let spec = try Self.spec(places: [("Summit", 320, 200), ("Col", 210, 130)])
        var without = spec
        without.places.removeLast()
        let with = try MapRenderer.render(spec, dem: model)
        let other = try MapRenderer.render(without, dem: model)
        let label = try #require(with.layout.elements.first { $0.kind == .label && $0.text == "Col" })
        let marker = try #require(with.layout.elements.first { $0.kind == .marker && $0.text == "Col" })
        // Nothing else moved.
        #expect(with.layout.elements.filter { $0.text != "Col" } == other.layout.elements)
        // Every changed pixel lies in the label's or the marker's box (grown by the antialiasing
        // pixel), and the text covers a good share of its box.
        let boxes = [Self.box(label), Self.box(marker)].map { $0.inset(-1) }
        var inside = 0
        var outside = 0
        for y in 0..<with.height {
            for x in 0..<with.width {
                let k = 3 * (y * with.width + x)
                guard with.rgb[k..<k + 3] != other.rgb[k..<k + 3] else { continue }
                if boxes[0].contains(Double(x) + 0.5, Double(y) + 0.5) {
                    inside += 1
                } else if !boxes[1].contains(Double(x) + 0.5, Double(y) + 0.5) {
                    outside += 1
                }
            }
        }
        let area = (label.box.x1 - label.box.x0) * (label.box.y1 - label.box.y0)
        #expect(outside == 0)
        #expect(Double(inside) > 0.25 * area, "\(inside) of \(area) pixels changed in the label's box")
    }

    @Test("a place under the title is left out, marker and label, and counted")
    func placeUnderTitle() throws {
        let image = try MapRenderer.render(try Self.spec(places: [("Hidden", 30, 25), ("Summit", 320, 200)]), dem: nil)
        #expect(image.layout.elements.contains { $0.kind == .title })
        #expect(!image.layout.elements.contains { $0.text == "Hidden" })
        #expect(image.layout.elements.contains { $0.kind == .marker && $0.text == "Summit" })
        #expect(image.notes.contains("note: 1 place marker under or beside a measurement label or under a decoration left out"), "\(image.notes)")
    }

    @Test("every placed text and decoration changes the basemap inside its box")
    func decorationsOverBasemap() throws {
        let dir = TemporaryDirectory()
        let model = try GoldenImageTests.dem(dir)
        let spec = try Self.spec(places: [("Summit", 320, 200)])
        let image = try MapRenderer.render(spec, dem: model)
        let basemap = try MapRenderer.basemap(spec, dem: model).rgb
        let kinds = Set(image.layout.elements.map(\.kind))
        #expect(kinds.isSuperset(of: [.title, .northArrow, .scaleBar, .attribution, .measurementLabel, .label, .marker]))
        for e in image.layout.elements where e.kind != .marker {
            var changed = 0
            var total = 0
            for y in Int(e.box.y0.rounded(.up))..<Int(e.box.y1) {
                for x in Int(e.box.x0.rounded(.up))..<Int(e.box.x1) {
                    let k = 3 * (y * image.width + x)
                    total += 1
                    if image.rgb[k..<k + 3] != basemap[k..<k + 3] { changed += 1 }
                }
            }
            #expect(Double(changed) > 0.1 * Double(total), "\(e.kind): \(changed) of \(total)")
        }
    }

    @Test("at twice the dpi and twice the pixels, every box is twice as large, in the same place")
    func dpiScales() throws {
        let places = [("Summit", 320.0, 200.0)]
        let one = try MapRenderer.render(try Self.spec(places: places), dem: nil).layout
        let two = try MapRenderer.render(try Self.spec(places: places, dpi: 192, size: (1280, 800)), dem: nil).layout
        #expect(one.elements.map(\.kind) == two.elements.map(\.kind))
        for (a, b) in zip(one.elements, two.elements) {
            // Text advances are hinted per size: within 3 % and 2 px of exact doubling.
            for (u, v) in [(a.box.x0, b.box.x0), (a.box.y0, b.box.y0), (a.box.x1, b.box.x1), (a.box.y1, b.box.y1)] {
                #expect(abs(2 * u - v) <= max(2, 0.03 * v), "\(a.kind) \(a.box) vs \(b.box)")
            }
        }
    }

    /// A straight track east at 5 m a fix: 1.5 km.
    static func track(metres: Double, step: Double, frame: MapFrame) throws -> TrailOverlay {
        let y = (frame.minY + frame.maxY) / 2
        let pixels = stride(from: 0, through: metres, by: step).map { frame.pixel(x: frame.minX + 400 + $0, y: y + 0.2 * $0) }
        let points = try frame.geographic(of: pixels)
        return TrailOverlay(segments: [points], fixes: points)
    }

    @Test("fixes closer than their symbols are thinned (first and current kept); at 1:10,000 all are drawn")
    func thinning() throws {
        // Overview: 10 m a pixel, fixes 5 m apart (half a pixel).
        var spec = MapSpec(
            frame: MapFrame(
                crs: try SpatialReference("EPSG:32611"), minX: 500_000, minY: 4_196_000, maxX: 506_400,
                maxY: 4_200_000, width: 640, height: 400), basemap: .none)
        spec.trails = [try Self.track(metres: 1500, step: 5, frame: spec.frame)]
        let dense = try MapRenderer.render(spec, dem: nil)
        let fixes = dense.layout.elements.filter { $0.kind == .marker }
        #expect(dense.notes.contains { $0.contains("drew \(fixes.count) of 301") }, "\(dense.notes)")
        #expect((5...8).contains(fixes.count))
        let plan = try spec.trails[0].plan(frame: spec.frame, scale: 1)
        #expect(plan.drawn.first == 0 && plan.drawn.last == 300)
        for (a, b) in zip(plan.drawn, plan.drawn.dropFirst()) {
            let p = plan.fixes[a]
            let q = plan.fixes[b]
            #expect(((q.0 - p.0) * (q.0 - p.0) + (q.1 - p.1) * (q.1 - p.1)).squareRoot() >= 28)
        }
        // Start and End keep off the line (a band of 6 px either side).
        let labels = dense.layout.elements.filter { $0.kind == .label }
        #expect(labels.map(\.text) == ["Start", "End"])
        var band = LineIndex(width: 640, height: 400)
        band.insert(plan.lines[0], half: 6)
        for l in labels { #expect(!band.crosses(Self.box(l)), "\(l.text ?? "") \(l.box) is on the trail") }

        // The sample's scale: 1:10,000 at 96 dpi is 2.65 m a pixel; fixes 50 m apart are 19 px.
        let metresPerPixel = 10_000 * 0.0254 / 96
        spec = MapSpec(
            frame: MapFrame(
                crs: try SpatialReference("EPSG:32611"), minX: 500_000, minY: 4_196_000,
                maxX: 500_000 + 640 * metresPerPixel, maxY: 4_196_000 + 400 * metresPerPixel, width: 640, height: 400), basemap: .none)
        spec.trails = [try Self.track(metres: 1000, step: 50, frame: spec.frame)]
        let sample = try MapRenderer.render(spec, dem: nil)
        #expect(sample.layout.elements.filter { $0.kind == .marker }.count == 21)
        #expect(!sample.notes.contains { $0.contains("drew") })
    }
}
