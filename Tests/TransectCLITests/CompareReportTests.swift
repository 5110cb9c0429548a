import Foundation
import Testing
import TransectCLITestSupport
import TransectTestSupport

@testable import TransectCLI
@testable import TransectRender

/// The `--report` page, opened by headless Chromium with every network path shut (a proxy and a
/// resolver that go nowhere but loopback), and read back from Chromium's screenshot.
@Suite("compare --report: one page, three images a failing pair, read back from Chromium")
struct CompareReportTests {
    static let chromium = "/usr/bin/chromium"

    /// A colour class in the screenshot: within a few levels of `rgb` (Chromium may convert
    /// colours slightly).
    struct Colour {
        var name: String
        var rgb: (Int, Int, Int)
        func matches(_ p: ArraySlice<UInt8>) -> Bool {
            let i = p.startIndex
            return abs(Int(p[i]) - rgb.0) <= 6 && abs(Int(p[i + 1]) - rgb.1) <= 6 && abs(Int(p[i + 2]) - rgb.2) <= 6
        }
    }

    /// The bounding boxes of the connected regions of `colour` with at least `minimum` pixels.
    static func regions(_ pixels: [UInt8], width: Int, height: Int, _ colour: Colour, minimum: Int) -> [(x: Range<Int>, y: Range<Int>)] {
        var seen = [Bool](repeating: false, count: width * height)
        var found: [(x: Range<Int>, y: Range<Int>)] = []
        for start in 0..<(width * height) where !seen[start] && colour.matches(pixels[(4 * start)..<(4 * start + 3)]) {
            var stack = [start]
            seen[start] = true
            var count = 0
            var (x0, x1, y0, y1) = (width, 0, height, 0)
            while let k = stack.popLast() {
                count += 1
                let (x, y) = (k % width, k / width)
                (x0, x1, y0, y1) = (min(x0, x), max(x1, x), min(y0, y), max(y1, y))
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < width && ny < height {
                    let n = ny * width + nx
                    if !seen[n] && colour.matches(pixels[(4 * n)..<(4 * n + 3)]) {
                        seen[n] = true
                        stack.append(n)
                    }
                }
            }
            if count >= minimum { found.append((x0..<(x1 + 1), y0..<(y1 + 1))) }
        }
        return found
    }

    @Test(
        "the report shows, for each failing pair, its baseline, candidate and diff side by side",
        // Chromium reads the page as a browser would; without it this test cannot look.
        .enabled(if: FileManager.default.isExecutableFile(atPath: chromium), "Chromium is not installed (Debian's chromium)"))
    func chromiumShowsThreeImagesAPair() throws {
        let dir = TemporaryDirectory()
        let base = dir.file("baseline")
        let cand = dir.file("candidate")
        for d in [base, cand] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        // Every pixel of each pair differs beyond the threshold (no anti-aliasing on flat
        // images), so both diffs are all red; the baselines and candidates have colours of their own.
        try CompareCommandTests.flat(base + "/one.png", width: 40, height: 30, (0, 160, 0))
        try CompareCommandTests.flat(cand + "/one.png", width: 40, height: 30, (0, 0, 255))
        try CompareCommandTests.flat(base + "/two.png", width: 40, height: 30, (255, 160, 0))
        try CompareCommandTests.flat(cand + "/two.png", width: 40, height: 30, (160, 0, 160))
        try CompareCommandTests.flat(base + "/same.png", width: 40, height: 30, (0, 200, 200))
        try CompareCommandTests.flat(cand + "/same.png", width: 40, height: 30, (0, 200, 200))
        let page = dir.file("report.html")
        let r = transect("compare", base, cand, "--report", page)
        #expect(r.code == 1, "\(r.err)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("http:") && !html.contains("https:") && html.components(separatedBy: "<img ").count == 7, "nothing but inlined images")

        let shot = dir.file("shot.png")
        let run = try TransectExecutable.run(
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + dir.file("profile"), "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--proxy-server=http://127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--screenshot=" + shot, "--window-size=1200,1400", "file://" + page,
            ], directory: dir.path, executable: Self.chromium, timeout: 120)
        try #require(run.code == 0 && FileManager.default.fileExists(atPath: shot), "chromium: \(run.err)")
        let image = try PNGFile.readRGBA(path: shot)
        func boxes(_ name: String, _ rgb: (Int, Int, Int)) -> [(x: Range<Int>, y: Range<Int>)] {
            Self.regions(image.pixels, width: image.width, height: image.height, Colour(name: name, rgb: rgb), minimum: 2000)
        }
        let green = boxes("green", (0, 160, 0))
        let blue = boxes("blue", (0, 0, 255))
        let orange = boxes("orange", (255, 160, 0))
        let purple = boxes("purple", (160, 0, 160))
        let red = boxes("red", (255, 0, 0))
        #expect(green.count == 1 && blue.count == 1 && orange.count == 1 && purple.count == 1 && red.count == 2, "\(green) \(blue) \(orange) \(purple) \(red)")
        #expect(boxes("cyan", (0, 200, 200)).isEmpty, "an identical pair has no images")
        // Each pair's three on one row, in the order baseline, candidate, diff.
        for (b, c) in [(green, blue), (orange, purple)] {
            guard let b = b.first, let c = c.first, let d = red.first(where: { $0.y.overlaps(b.y) }) else { continue }
            #expect(b.y.overlaps(c.y) && b.x.upperBound <= c.x.lowerBound && c.x.upperBound <= d.x.lowerBound, "\(b) \(c) \(d)")
        }
    }
}
