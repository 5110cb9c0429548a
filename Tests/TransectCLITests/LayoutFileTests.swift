import Foundation
import Testing
import TransectCLITestSupport
import TransectRender
import TransectTestSupport
@testable import TransectCLI

/// The demo scene (Half Dome to Glacier Point over the real Yosemite Valley DEM, 144 dpi) at
/// sizes from a thumbnail to a poster, checked through the layout file the render writes.
@Suite("layout files: nothing overlaps, nothing leaves the image")
struct LayoutFileTests {
    struct Element {
        var kind: String
        var text: String?
        var box: [Double]
        var anchor: [Double]
        /// From the box towards the anchor, when the label stands too far to be read without.
        var leader: [[Double]]?
        var measurement: Int?
    }

    struct Line {
        var kind: String
        var measurement: Int?
        var width: Double
        var points: [[Double]]
    }

    static func read(_ path: String) throws -> (width: Int, height: Int, elements: [Element], dropped: [String]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try #require(object["elements"] as? [[String: Any]])
        let elements = try items.map { item in
            #expect(item["placed"] as? Bool == true)
            return Element(
                kind: try #require(item["kind"] as? String), text: item["text"] as? String,
                box: try #require(item["box"] as? [Double]), anchor: try #require(item["anchor"] as? [Double]),
                leader: item["leader"] as? [[Double]], measurement: item["measurement"] as? Int)
        }
        let dropped = try #require(object["dropped"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
        return (try #require(object["width"] as? Int), try #require(object["height"] as? Int), elements, dropped)
    }

    static func overlap(_ a: [Double], _ b: [Double]) -> Bool { a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] }

    static func distance(_ p: [Double], _ box: [Double]) -> Double {
        let dx = max(box[0] - p[0], 0, p[0] - box[2])
        let dy = max(box[1] - p[1], 0, p[1] - box[3])
        return (dx * dx + dy * dy).squareRoot()
    }

    static let texts: Set<String> = ["title", "legend", "north_arrow", "scale_bar", "attribution", "measurement_label", "label"]

    @Test("the Yosemite scene's layout at every size", arguments: ["320x200", "400x250", "640x400", "1600x1000", "4000x2500"])
    func yosemite(size: String) throws {
        let dir = TemporaryDirectory()
        let scene = SharedData.packageRoot.appendingPathComponent("data/yosemite.scene.json").path
        let run = transect(
            "render", "--scene", scene, "--dem", try SharedData.path("yosemite_valley_ned1as.tif"), "--size", size,
            "-o", dir.file("map.png"), "--layout", dir.file("map.json"))
        #expect(run.code == 0, "\(run.err)")
        let layout = try Self.read(dir.file("map.json"))
        let wh = size.split(separator: "x").map { Int($0)! }
        #expect(layout.width == wh[0] && layout.height == wh[1])
        let scale = 144.0 / 96  // the scene's dpi
        for e in layout.elements {
            #expect(e.box.count == 4 && e.anchor.count == 2)
            #expect(e.box[0] < e.box[2] && e.box[1] < e.box[3], "\(e.kind) \(e.box)")
            // Text and decorations inside the image; markers are where their places are.
            if Self.texts.contains(e.kind) {
                #expect(
                    e.box[0] >= 0 && e.box[1] >= 0 && e.box[2] <= Double(layout.width) && e.box[3] <= Double(layout.height),
                    "\(e.kind) \(e.box) outside \(size)")
            }
            if e.kind == "label" {
                #expect(
                    Self.distance(e.anchor, e.box) <= 24 * scale || e.leader != nil,
                    "\(e.text ?? "") is \(Self.distance(e.anchor, e.box)) px from its place, without a leader")
            }
        }
        // No two texts or decorations overlap; no label covers a marker.
        for (i, a) in layout.elements.enumerated() {
            for b in layout.elements[(i + 1)...] {
                let textPair = Self.texts.contains(a.kind) && Self.texts.contains(b.kind)
                let labelOverMarker =
                    (["label", "measurement_label"].contains(a.kind) && b.kind == "marker")
                    || (["label", "measurement_label"].contains(b.kind) && a.kind == "marker")
                if textPair || labelOverMarker {
                    #expect(!Self.overlap(a.box, b.box), "\(a.kind) '\(a.text ?? "")' \(a.box) overlaps \(b.kind) '\(b.text ?? "")' \(b.box) at \(size)")
                }
            }
        }
        // What was left out is counted on stderr, kind by kind.
        let kinds = layout.elements.map(\.kind)
        if layout.dropped.isEmpty { #expect(!run.err.contains("left out"), "\(run.err)") }
        if layout.dropped.contains("label") {
            let n = layout.dropped.filter { $0 == "label" }.count
            #expect(run.err.contains("note: \(n) of \(n + kinds.filter { $0 == "label" }.count) place labels could not be placed"), "\(run.err)")
        }
        for kind in ["title", "north_arrow", "scale_bar", "attribution", "measurement_label"] where layout.dropped.contains(kind) {
            #expect(run.err.contains(kind.replacingOccurrences(of: "_", with: " ") + " left out"), "\(run.err)")
        }
        // The measurement is what the map is for: its label is placed down to the smallest size.
        #expect(kinds.contains("measurement_label"))
        #expect(kinds.filter { $0 == "marker" }.count >= 2)
        if wh[0] >= 1600 {
            // At full size everything fits.
            for kind in ["title", "north_arrow", "scale_bar", "attribution"] { #expect(kinds.contains(kind), "\(kind) missing at \(size)") }
            #expect(kinds.filter { $0 == "label" }.count >= 10)
        }
        if wh[0] <= 400 { #expect(!layout.dropped.isEmpty) }
    }

    @Test("the layout file is an output: refused where it is an input or the image, absent after a failure")
    func layoutIsAnOutput() throws {
        let dir = TemporaryDirectory()
        let dem = try SharedData.path("yosemite_valley_ned1as.tif")
        let same = transect("render", "--dem", dem, "--size", "320x200", "-o", dir.file("a.png"), "--layout", dir.file("a.png"))
        #expect(same.code == 2 && !FileManager.default.fileExists(atPath: dir.file("a.png")), "\(same.err)")
        let input = transect("render", "--dem", dem, "--size", "320x200", "-o", dir.file("b.png"), "--layout", dem)
        #expect(input.code == 2, "\(input.err)")
        let noImage = transect("render", "--dem", dem, "--layout", dir.file("c.json"))
        #expect(noImage.code == 2 && !FileManager.default.fileExists(atPath: dir.file("c.json")))
        // A failure after the layout is staged leaves neither file.
        let failed = transect("render", "--dem", dem, "--size", "320x200", "-o", dir.file("missing/d.png"), "--layout", dir.file("d.json"))
        #expect(failed.code != 0 && !FileManager.default.fileExists(atPath: dir.file("d.json")))
        let ok = transect("render", "--dem", dem, "--size", "320x200", "-o", dir.file("e.png"), "--layout", dir.file("e.json"))
        #expect(ok.code == 0 && FileManager.default.fileExists(atPath: dir.file("e.json")), "\(ok.err)")
    }

    @Test("profile --chart-layout: the legend keeps off the title at 600x300 and 300x200", arguments: ["300x200", "600x300", "1200x600"])
    func chartLayout(size: String) throws {
        let dir = TemporaryDirectory()
        let run = transect(
            "profile", "--dem", try SharedData.path("yosemite_valley_ned1as.tif"), "--from", "-119.5329397,37.7460363",
            "--to", "-119.573056,37.730833", "--title", "Half Dome to Glacier Point across Yosemite Valley",
            "--chart", dir.file("c.png"), "--chart-size", size, "--chart-layout", dir.file("c.json"), "-o", dir.file("p.csv"), "--format", "csv")
        #expect(run.code == 0, "\(run.err)")
        let layout = try Self.read(dir.file("c.json"))
        let kinds = layout.elements.map(\.kind)
        #expect(kinds.contains("title") && kinds.contains("legend"))
        for (i, a) in layout.elements.enumerated() {
            #expect(a.box[0] >= 0 && a.box[1] >= 0 && a.box[2] <= Double(layout.width) && a.box[3] <= Double(layout.height), "\(a.kind) \(a.box)")
            for b in layout.elements[(i + 1)...] where a.kind != "marker" || b.kind != "marker" {
                #expect(!Self.overlap(a.box, b.box), "\(a.kind) \(a.box) overlaps \(b.kind) \(b.box) at \(size)")
            }
        }
    }
}

@Suite("trails in the layout file")
struct TrailLayoutTests {
    static let sample = SharedData.packageRoot.appendingPathComponent("data/location_history_sample.json").path

    static func fixes(_ path: String) throws -> [[Double]] {
        try LayoutFileTests.read(path).elements.filter { $0.kind == "marker" && ($0.text == "fix" || $0.text == "current") }.map(\.anchor)
    }

    @Test("the whole sample at overview scale: fixes thinned to 28 px, the first and the current kept, said on stderr")
    func overview() throws {
        let dir = TemporaryDirectory()
        let run = transect("render", "--track", Self.sample, "-o", dir.file("o.png"), "--layout", dir.file("o.json"))
        #expect(run.code == 0)
        let fixes = try Self.fixes(dir.file("o.json"))
        #expect(run.err.contains("drew \(fixes.count) of 740"), "\(run.err)")
        for (a, b) in zip(fixes, fixes.dropFirst().dropLast()) {
            #expect(((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])).squareRoot() >= 28)
        }
        let labels = try LayoutFileTests.read(dir.file("o.json")).elements.filter { $0.kind == "label" }.map(\.text)
        #expect(labels == ["Start", "End"])
    }

    @Test("the sample at its own scale, 1:10,000: every fix in the frame is drawn, nothing said")
    func sampleScale() throws {
        let dir = TemporaryDirectory()
        // 1600 × 1000 pixels at 1:10,000 and 96 dpi: 4.2 × 2.6 km around the start.
        let run = transect("render", "--track", Self.sample, "--extent=-118.47,34.055,-118.424,34.079", "-o", dir.file("s.png"), "--layout", dir.file("s.json"))
        #expect(run.code == 0 && !run.err.contains("drew"), "\(run.err)")
        let fixes = try Self.fixes(dir.file("s.json"))
        #expect(fixes.count > 200)
        // Consecutive fixes are 50 m apart: 19 px at 2.65 m a pixel, more than a symbol.
        let gaps = zip(fixes, fixes.dropFirst()).map { a, b in ((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])).squareRoot() }.sorted()
        #expect(gaps[gaps.count / 2] > 14 && gaps[gaps.count / 2] < 20)
    }
}
