import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

/// Labels that cannot be misread, checked through the layout file `render --layout` writes (what
/// users get): each label stands nearer its own marker (or line) than any other, within 24 px of
/// it (at 96 dpi) or joined to it by a leader, and crosses no line of the figure.
@Suite("labels that cannot be misread")
struct LabelPlacementTests {
    struct File {
        var width: Int
        var height: Int
        var elements: [LayoutFileTests.Element]
        var lines: [LayoutFileTests.Line]
    }

    static func read(_ path: String) throws -> File {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let layout = try LayoutFileTests.read(path)
        let lines = try #require(object["lines"] as? [[String: Any]]).map { item in
            LayoutFileTests.Line(
                kind: try #require(item["kind"] as? String), measurement: item["measurement"] as? Int,
                width: try #require(item["width"] as? Double), points: try #require(item["points"] as? [[Double]]))
        }
        return File(width: layout.width, height: layout.height, elements: layout.elements, lines: lines)
    }

    /// Whether the segment a–b meets the box (Liang–Barsky).
    static func meets(_ a: [Double], _ b: [Double], _ box: [Double]) -> Bool {
        let dx = b[0] - a[0]
        let dy = b[1] - a[1]
        var t0 = 0.0
        var t1 = 1.0
        for (p, q) in [(-dx, a[0] - box[0]), (dx, box[2] - a[0]), (-dy, a[1] - box[1]), (dy, box[3] - a[1])] {
            if p == 0 {
                if q < 0 { return false }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                if t0 > t1 { return false }
            }
        }
        return true
    }

    static func pointToSegment(_ p: [Double], _ a: [Double], _ b: [Double]) -> Double {
        let dx = b[0] - a[0]
        let dy = b[1] - a[1]
        let l2 = dx * dx + dy * dy
        let t = l2 > 0 ? min(max(((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2, 0), 1) : 0
        return hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])
    }

    /// Distance from a box to a polyline: 0 where they meet.
    static func distance(_ box: [Double], _ line: [[Double]]) -> Double {
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            if meets(a, b, box) { return 0 }
            let corners = [[box[0], box[1]], [box[2], box[1]], [box[0], box[3]], [box[2], box[3]]]
            best = min(
                best, LayoutFileTests.distance(a, box), LayoutFileTests.distance(b, box), corners.map { pointToSegment($0, a, b) }.min()!)
        }
        return best
    }

    static func grown(_ box: [Double], _ d: Double) -> [Double] { [box[0] - d, box[1] - d, box[2] + d, box[3] + d] }

    static func samePoint(_ a: [Double], _ b: [Double]) -> Bool { abs(a[0] - b[0]) <= 0.5 && abs(a[1] - b[1]) <= 0.5 }

    /// Every label of `file` against the rules; returns each label's distance from its own
    /// marker or line and from the nearest other marker.
    @discardableResult
    static func check(_ file: File, scale: Double, _ what: String) -> [(text: String, own: Double, other: Double)] {
        let markers = file.elements.filter { $0.kind == "marker" }
        var out: [(String, Double, Double)] = []
        for (index, label) in file.elements.enumerated() where ["label", "measurement_label"].contains(label.kind) {
            let name = "\(what): \(label.kind) '\(label.text ?? "")'"
            let own: Double
            var ownPoints = [label.anchor]
            if label.kind == "measurement_label" {
                guard let k = label.measurement, let line = file.lines.first(where: { $0.kind == "measurement" && $0.measurement == k }) else {
                    Issue.record("\(name) names no measurement line")
                    continue
                }
                own = distance(label.box, line.points)
                ownPoints += markers.filter { $0.measurement == k }.map(\.anchor)
                // Its own line is the nearest measurement line.
                for other in file.lines where other.kind == "measurement" && other.measurement != k {
                    #expect(distance(label.box, other.points) > own, "\(name) stands nearer measurement \(other.measurement ?? 0)")
                }
            } else {
                own = LayoutFileTests.distance(label.anchor, label.box)
            }
            // Its nearest marker is its own (a marker on the same spot, a place on a
            // measurement's end, is the same to a reader).
            let others = markers.filter { m in !ownPoints.contains { samePoint($0, m.anchor) } }
            let nearest = others.min { LayoutFileTests.distance($0.anchor, label.box) < LayoutFileTests.distance($1.anchor, label.box) }
            let other = nearest.map { LayoutFileTests.distance($0.anchor, label.box) } ?? .infinity
            #expect(other > own, "\(name) is \(own) px from its own, \(other) px from '\(nearest?.text ?? "")'")
            // Beside it, or joined to it.
            #expect(own <= 24 * scale || label.leader != nil, "\(name) is \(own) px from what it names, without a leader")
            if let leader = label.leader {
                #expect(leader.count == 2 && LayoutFileTests.distance(leader[0], label.box) <= 0.01, "\(name)'s leader starts off its box")
            }
            // No label crosses a line of the figure: each line as wide as it is drawn.
            for line in file.lines {
                let box = grown(label.box, line.width / 2)
                let crossed = zip(line.points, line.points.dropFirst()).contains { meets($0, $1, box) }
                #expect(!crossed, "\(name) \(label.box) crosses the \(line.kind) line \(line.measurement ?? 0)")
            }
            for (j, o) in file.elements.enumerated() where j != index {
                guard let leader = o.leader else { continue }
                // A leader is drawn 3 px wide at 96 dpi (its halo).
                #expect(!meets(leader[0], leader[1], grown(label.box, 1.5 * scale)), "\(name) crosses the leader of '\(o.text ?? "")'")
            }
            out.append((label.text ?? "", own, other))
        }
        return out
    }

    @Test(
        "the demo scene: every label by its own marker, within 24 px or with a leader, across no line",
        arguments: [("400x250", nil), ("640x400", nil), ("1600x1000", nil), ("160x100mm", "300")] as [(String, String?)])
    func demoScene(size: String, dpi: String?) throws {
        let dir = TemporaryDirectory()
        let scene = SharedData.packageRoot.appendingPathComponent("data/yosemite.scene.json").path
        // 160 × 100 mm at 300 dpi is 1890 × 1181 pixels.
        let run = transect(
            ["render", "--scene", scene, "--dem", try SharedData.path("yosemite_valley_ned1as.tif"), "--size", size]
                + (dpi.map { ["--dpi", $0] } ?? []) + ["-o", dir.file("map.png"), "--layout", dir.file("map.json")])
        #expect(run.code == 0, "\(run.err)")
        let file = try Self.read(dir.file("map.json"))
        // The scene's 144 dpi unless given: 24 px at 96 dpi is 24 × dpi / 96 pixels.
        let scale = Double(dpi ?? "144")! / 96
        let checked = Self.check(file, scale: scale, size)
        #expect(checked.contains { $0.text.hasPrefix("Direct:") }, "the measurement's label is placed at \(size)")
        #expect(file.lines.contains { $0.kind == "measurement" && $0.measurement == 1 && $0.points.count == 257 })
        // Half Dome stands on the measurement's start, and Liberty Cap 2 km south of it: at the
        // smallest size neither label may stand beside the other's marker.
        if let halfDome = checked.first(where: { $0.text == "Half Dome" }) { #expect(halfDome.other > halfDome.own) }
    }

    @Test("three measurements are told apart: a number on each line and the same number on its label")
    func threeMeasurements() throws {
        let dir = TemporaryDirectory()
        let run = transect(
            "render", "--dem", try SharedData.path("yosemite_valley_ned1as.tif"), "--extent=-119.665,37.695,-119.47,37.79", "--size", "800x500",
            "--measure=-119.5329397,37.7460363:-119.573611,37.729722", "--measure=-119.63583,37.74222:-119.59722,37.755",
            "--measure=-119.5598861,37.7568694:-119.584304967,37.723094928", "-o", dir.file("m.png"), "--layout", dir.file("m.json"))
        #expect(run.code == 0, "\(run.err)")
        let file = try Self.read(dir.file("m.json"))
        Self.check(file, scale: 1, "three measurements")
        let labels = file.elements.filter { $0.kind == "measurement_label" }
        #expect(labels.compactMap(\.measurement) == [1, 2, 3])
        #expect(Set(labels.compactMap(\.text)).count == 3)
        for k in 1...3 {
            // The line's number: a marker on its own line, named by the number.
            let badge = try #require(file.elements.first { $0.kind == "marker" && $0.measurement == k && $0.text == String(k) })
            let line = try #require(file.lines.first { $0.kind == "measurement" && $0.measurement == k })
            #expect(Self.distance([badge.anchor[0], badge.anchor[1], badge.anchor[0], badge.anchor[1]], line.points) < 1)
            // The label stands beside its number, or its leader goes to it.
            let label = try #require(labels.first { $0.measurement == k })
            #expect(Self.samePoint(label.anchor, badge.anchor))
            if let leader = label.leader { #expect(hypot(leader[1][0] - badge.anchor[0], leader[1][1] - badge.anchor[1]) <= 11) }
            // Both ends of each line are its own markers.
            #expect(file.elements.filter { $0.kind == "marker" && $0.measurement == k && $0.text == nil }.count == 2)
        }
    }

    @Test(
        "the profile chart: the obstruction label clear of the sight line and the terrain line, nearest its own mark",
        arguments: ["1200x600", "600x300"])
    func chart(size: String) throws {
        let dir = TemporaryDirectory()
        let run = transect(
            "profile", "--dem", try SharedData.path("yosemite_valley_ned1as.tif"), "--from", "-119.5329397,37.7460363", "--to",
            "-119.573611,37.729722", "--title", "Half Dome → Glacier Point", "--chart", dir.file("c.png"), "--chart-size", size,
            "--chart-layout", dir.file("c.json"), "-o", dir.file("p.txt"))
        #expect(run.code == 0, "\(run.err)")
        let file = try Self.read(dir.file("c.json"))
        let sight = try #require(file.lines.first { $0.kind == "sight_line" })
        #expect(file.lines.contains { $0.kind == "terrain" })
        let label = try #require(file.elements.first { $0.kind == "label" && ($0.text ?? "").hasPrefix("first obstruction") })
        for line in [sight] + file.lines.filter({ $0.kind == "terrain" }) {
            #expect(Self.distance(label.box, line.points) > line.width / 2, "the obstruction label \(label.box) crosses the \(line.kind)")
        }
        // Every chart label (max, min, obstruction) by the rules of the maps.
        Self.check(
            File(width: file.width, height: file.height, elements: file.elements.filter { $0.kind != "measurement_label" }, lines: file.lines), scale: 1, size)
    }

    @Test("the view: each leg's label beside its own leg, nearer it than the other legs, crossing none")
    func viewLegs() throws {
        let dir = TemporaryDirectory()
        let run = transect(
            "view", "--dem", try SharedData.path("yosemite_valley_ned1as.tif"), "--from", "-119.5329397,37.7460363", "--to",
            "-119.573611,37.729722", "--places", SharedData.packageRoot.appendingPathComponent("data/yosemite_places.csv").path, "--size",
            "800x500", "-o", dir.file("v.png"), "--anchors", dir.file("a.json"))
        #expect(run.code == 0, "\(run.err)")
        // The anchors file holds the view's layout under "labels", in the --layout file's form.
        let anchors = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("a.json")))) as? [String: Any])
        let labels = try #require(anchors["labels"] as? [String: Any])
        try JSONSerialization.data(withJSONObject: labels).write(to: URL(fileURLWithPath: dir.file("labels.json")))
        let file = try Self.read(dir.file("labels.json"))
        for (leg, word) in [("direct", "Direct:"), ("horizontal", "Horizontal:"), ("vertical", "Vertical:")] {
            let label = try #require(file.elements.first { $0.kind == "measurement_label" && ($0.text ?? "").hasPrefix(word) }, "\(leg)")
            let own = file.lines.filter { $0.kind == leg }.map { Self.distance(label.box, $0.points) }.min() ?? .infinity
            #expect(own <= 24 || label.leader != nil, "\(word) is \(own) px from its leg without a leader")
            for line in file.lines where ["direct", "horizontal", "vertical"].contains(line.kind) {
                let d = Self.distance(label.box, line.points)
                // On no leg, its own included: each as wide as it is drawn.
                #expect(d > line.width / 2, "\(word) \(label.box) crosses the \(line.kind) leg")
                if line.kind != leg { #expect(d > own, "\(word) is \(d) px from the \(line.kind) leg, \(own) px from its own") }
            }
        }
    }
}
