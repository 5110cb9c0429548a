import Testing
import TransectGDAL
import TransectTestSupport
@testable import TransectRender

/// The bucketed `LabelPlacer` against the scan it replaced: every candidate compared with every
/// reserved box. Both see the same reservations and candidate lists; every decision must agree.
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

    @Test("decisions match the full scan", arguments: [
        (1600.0, 1000.0, 1 as UInt64), (1600, 1000, 2), (400, 300, 3), (37, 23, 4), (3, 3, 5), (250.5, 90.25, 6),
        // Wide enough that the buckets grow beyond 16 pixels.
        (40_000, 60, 7),
    ])
    func matchesScan(width: Double, height: Double, seed: UInt64) {
        var g = SeededRandom(seed: seed)
        var indexed = LabelPlacer(width: width, height: height)
        var reference = ScanningPlacer(width: width, height: height)
        var placed = 0, refused = 0
        for step in 0..<3_000 {
            if step == 1_000 { for b in Self.odd { indexed.reserve(b); reference.reserve(b) } }
            if Int.random(in: 0..<3, using: &g) == 0 {
                let b = Self.box(width: width, height: height, &g)
                indexed.reserve(b)
                reference.reserve(b)
            } else {
                let candidates = (0..<Int.random(in: 0...8, using: &g)).map { _ in Self.box(width: width, height: height, &g) }
                let a = indexed.place(candidates), b = reference.place(candidates)
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

    /// The renderer's place loop replayed with the scan: markers first, then each label at the
    /// first of `PlaceLabel`'s candidates that fits. The map must leave out the labels the scan
    /// leaves out, and say how many on its notes (the command prints them on stderr).
    @Test("a crowded map drops the labels the full scan drops, and says how many")
    func crowdedMap() throws {
        let width = 640, height = 400
        let frame = MapFrame(crs: try SpatialReference("EPSG:32611"), minX: 500_000, minY: 4_196_000, maxX: 506_000, maxY: 4_200_000,
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

        let canvas = try Canvas(width: width, height: height)
        let pixels = try frame.pixels(of: geographic)
        let visible = pixels.indices.filter {
            pixels[$0].0 >= 0 && pixels[$0].1 >= 0 && pixels[$0].0 <= Double(width) && pixels[$0].1 <= Double(height)
        }
        var scan = ScanningPlacer(width: Double(width), height: Double(height))
        for k in visible { scan.reserve(Box(x: pixels[k].0 - 5, y: pixels[k].1 - 5, width: 10, height: 10)) }
        var dropped = 0
        for k in visible {
            let size = PlaceLabel.boxSize(names[k], canvas: canvas, scale: 1)
            let candidates = PlaceLabel.candidates(pixels[k], w: size.w, h: size.h, first: 7, scale: 1)
            #expect(candidates.allSatisfy { Planner.distance(pixels[k], $0) <= 24 })
            if scan.place(candidates) == nil { dropped += 1 }
        }
        #expect(visible.count < spots.count && dropped > 0 && dropped < visible.count)
        #expect(image.notes == ["note: \(dropped) of \(visible.count) place labels could not be placed without overlapping and were left out"])
    }
}
