import CGDAL
import Foundation
import Testing
import TransectCLITestSupport
import TransectImageCompare
import TransectSupport
import TransectTestSupport

@testable import TransectCLI
@testable import TransectRender

/// `transect compare`: pairs, verdicts, figures and outputs, run in process.
@Suite("compare: images and directories against baselines, for CI")
struct CompareCommandTests {
    /// A 160 × 60 white image drawn by the project's renderer (cairo through `Canvas`, anti-aliased),
    /// written as an RGB PNG.
    static func drawn(_ path: String, _ draw: (Canvas) -> Void) throws {
        let canvas = try Canvas(width: 160, height: 60)
        canvas.fill(.white)
        draw(canvas)
        try PNGFile.encode(path: path, rgb: canvas.rgbBytes(), width: 160, height: 60, texts: [])
    }

    /// An anti-aliased line 3 pixels wide across the whole image (its ends outside), `dx` pixels
    /// to the right.
    static func line(_ path: String, dx: Double) throws {
        try drawn(path) { $0.polyline([(-20.3 + dx, 8.2), (180.6 + dx, 47.9)], color: .black, width: 3) }
    }

    /// A label.
    static func label(_ path: String, _ text: String) throws {
        try drawn(path) { $0.text(text, x: 12, y: 38, size: 20, color: .black) }
    }

    /// A flat image of one colour, RGBA when `alpha` is below 255.
    static func flat(_ path: String, width: Int, height: Int, _ rgb: (UInt8, UInt8, UInt8), alpha: UInt8 = 255) throws {
        var pixels: [UInt8] = []
        for _ in 0..<(width * height) { pixels += [rgb.0, rgb.1, rgb.2, alpha] }
        try PNGFile.encode(path: path, rgba: pixels, width: width, height: height)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func pairs(_ json: [String: Any]) -> [[String: Any]] { json["pairs"] as? [[String: Any]] ?? [] }

    @Test("identical files: RMS 0, exit 0")
    func identicalFiles() throws {
        let dir = TemporaryDirectory()
        try Self.line(dir.file("a.png"), dx: 0)
        try Self.line(dir.file("b.png"), dx: 0)
        let r = transect("compare", dir.file("a.png"), dir.file("b.png"), "--json", "-")
        #expect(r.code == 0, "\(r.err)")
        let pair = try #require(Self.pairs(try Self.json(r.out)).first)
        #expect(pair["rms"] as? Double == 0 && pair["status"] as? String == "identical" && pair["pass"] as? Bool == true)
        let text = transect("compare", dir.file("a.png"), dir.file("b.png"))
        #expect(text.out == "identical b.png\n1 pair: 1 identical, 0 within tolerance, 0 beyond (tolerance rms=0, threshold 0.1)\n")
    }

    @Test("a one-pixel shift of an anti-aliased line passes the perceptual metric and fails RMS 0; a changed label fails both")
    func shiftAndLabel() throws {
        let dir = TemporaryDirectory()
        try Self.line(dir.file("line.png"), dx: 0)
        try Self.line(dir.file("shifted.png"), dx: 1)
        let strict = transect("compare", dir.file("line.png"), dir.file("shifted.png"))
        #expect(strict.code == 1, "\(strict.out)")
        #expect(strict.out.hasPrefix("beyond    shifted.png: rms "), "\(strict.out)")
        let perceptual = transect("compare", dir.file("line.png"), dir.file("shifted.png"), "--tolerance", "pixels=0", "--json", "-")
        #expect(perceptual.code == 0, "\(perceptual.out)")
        let shift = try #require(Self.pairs(try Self.json(perceptual.out)).first)
        #expect(shift["perceptual_pixels"] as? Int == 0 && (shift["antialiased_pixels"] as? Int ?? 0) > 0)
        #expect((shift["rms"] as? Double ?? 0) > 0 && shift["rms_pass"] as? Bool == true)

        try Self.label(dir.file("label.png"), "Half Dome")
        try Self.label(dir.file("changed.png"), "Half Dame")
        let both = transect(
            "compare", dir.file("label.png"), dir.file("changed.png"), "--tolerance", "pixels=0", "--tolerance", "rms=0", "--json", "-")
        #expect(both.code == 1)
        let label = try #require(Self.pairs(try Self.json(both.out)).first)
        #expect(label["rms_pass"] as? Bool == false && label["pixels_pass"] as? Bool == false)
        #expect((label["perceptual_pixels"] as? Int ?? 0) > 0)
    }

    @Test("directories pair by relative path; a file on one side only and different sizes fail, named")
    func directories() throws {
        let dir = TemporaryDirectory()
        let base = dir.file("baseline")
        let cand = dir.file("candidate")
        for d in [base, cand, base + "/maps", cand + "/maps"] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try Self.flat(base + "/maps/same.png", width: 4, height: 3, (10, 20, 30))
        try Self.flat(cand + "/maps/same.png", width: 4, height: 3, (10, 20, 30))
        try Self.flat(base + "/gone.png", width: 4, height: 3, (1, 2, 3))
        try Self.flat(cand + "/new.png", width: 4, height: 3, (1, 2, 3))
        try Self.flat(base + "/size.png", width: 4, height: 3, (1, 2, 3))
        try Self.flat(cand + "/size.png", width: 5, height: 3, (1, 2, 3))
        try "not compared".write(toFile: cand + "/notes.txt", atomically: true, encoding: .utf8)
        let r = transect("compare", base, cand)
        #expect(r.code == 1)
        #expect(
            r.out == """
                beyond    gone.png: only in the baseline
                identical maps/same.png
                beyond    new.png: only in the candidate
                beyond    size.png: sizes differ: baseline 4 × 3, candidate 5 × 3
                4 pairs: 1 identical, 0 within tolerance, 3 beyond (tolerance rms=0, threshold 0.1)

                """, "\(r.out)")
        let j = try Self.json(transect("compare", base, cand, "--json", "-").out)
        let byPath = Dictionary(uniqueKeysWithValues: Self.pairs(j).map { ($0["path"] as? String ?? "", $0) })
        #expect(byPath["size.png"]?["baseline_size"] as? [Int] == [4, 3] && byPath["size.png"]?["candidate_size"] as? [Int] == [5, 3])
        #expect(byPath["gone.png"]?["status"] as? String == "only_baseline" && byPath["new.png"]?["status"] as? String == "only_candidate")
        #expect(j["failed"] as? Int == 3 && j["passed"] as? Int == 1)
    }

    @Test("--json FILE holds every pair's figures; --diff writes a diff per differing pair, red over the faded baseline")
    func jsonAndDiff() throws {
        let dir = TemporaryDirectory()
        let base = dir.file("b")
        let cand = dir.file("c")
        for d in [base, cand, base + "/sub", cand + "/sub"] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try Self.flat(base + "/sub/a.png", width: 6, height: 4, (255, 255, 255))
        var pixels = [UInt8](repeating: 255, count: 6 * 4 * 4)
        for c in 0..<3 { pixels[4 * (2 * 6 + 3) + c] = 0 }
        try PNGFile.encode(path: cand + "/sub/a.png", rgba: pixels, width: 6, height: 4)
        try Self.flat(base + "/same.png", width: 2, height: 2, (5, 5, 5))
        try Self.flat(cand + "/same.png", width: 2, height: 2, (5, 5, 5))
        let r = transect("compare", base, cand, "--json", dir.file("out.json"), "--diff", dir.file("diffs"), "--tolerance", "rms=200")
        #expect(r.code == 0, "\(r.err)")
        let j = try Self.json(try String(contentsOfFile: dir.file("out.json"), encoding: .utf8))
        let a = try #require(Self.pairs(j).first { $0["path"] as? String == "sub/a.png" })
        // One pixel of 24 off by 255 in three channels: √(3 · 255² / 72) = 255 / √24.
        let expectedRMS: Double = (3.0 * 255 * 255 / 72).squareRoot()
        #expect(a["rms"] as? Double == expectedRMS)
        #expect(a["perceptual_pixels"] as? Int == 1 && a["differing_pixels"] as? Int == 1 && a["channels"] as? Int == 3)
        let share: Double = 1.0 / 24
        #expect(a["perceptual_share"] as? Double == share)
        #expect(a["diff"] as? String == dir.file("diffs") + "/sub/a.diff.png")
        let diff = try PNGFile.readRGBA(path: dir.file("diffs/sub/a.diff.png"))
        #expect(Array(diff.pixels[(4 * 15)..<(4 * 15 + 4)]) == [255, 0, 0, 255])
        // White faded to 10 % over white stays white.
        #expect(Array(diff.pixels[0..<4]) == [255, 255, 255, 255])
        #expect(!FileManager.default.fileExists(atPath: dir.file("diffs/same.diff.png")), "an identical pair has no diff")
    }

    @Test("--update copies the failing candidates over their baselines, new ones included, and lists them")
    func update() throws {
        let dir = TemporaryDirectory()
        let base = dir.file("b")
        let cand = dir.file("c")
        for d in [base, cand, cand + "/new"] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try Self.flat(base + "/x.png", width: 3, height: 3, (0, 0, 0))
        try Self.flat(cand + "/x.png", width: 3, height: 3, (9, 9, 9))
        try Self.flat(base + "/ok.png", width: 3, height: 3, (1, 1, 1))
        try Self.flat(cand + "/ok.png", width: 3, height: 3, (1, 1, 1))
        try Self.flat(cand + "/new/y.png", width: 2, height: 2, (7, 7, 7))
        let okBefore = try Data(contentsOf: URL(fileURLWithPath: base + "/ok.png"))
        let r = transect("compare", base, cand, "--update")
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("updated   \(base)/new/y.png\n") && r.out.contains("updated   \(base)/x.png\n"), "\(r.out)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: base + "/x.png")) == Data(contentsOf: URL(fileURLWithPath: cand + "/x.png")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: base + "/new/y.png")) == Data(contentsOf: URL(fileURLWithPath: cand + "/new/y.png")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: base + "/ok.png")) == okBefore)
        #expect(transect("compare", base, cand).code == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base).sorted() == ["new", "ok.png", "x.png"], "no temporaries left")
    }

    @Test("RGBA with real transparency keeps its alpha; opaque RGBA equals RGB")
    func alphaRule() throws {
        let dir = TemporaryDirectory()
        try Self.flat(dir.file("t1.png"), width: 2, height: 2, (10, 10, 10), alpha: 100)
        try Self.flat(dir.file("t2.png"), width: 2, height: 2, (10, 10, 10), alpha: 110)
        let t = try Self.json(transect("compare", dir.file("t1.png"), dir.file("t2.png"), "--json", "-").out)
        #expect(Self.pairs(t).first?["channels"] as? Int == 4 && Self.pairs(t).first?["rms"] as? Double == 5)
        try Self.flat(dir.file("opaque.png"), width: 2, height: 2, (10, 10, 10))
        try PNGFile.encode(path: dir.file("rgb.png"), rgb: [UInt8](repeating: 10, count: 12), width: 2, height: 2, texts: [])
        #expect(transect("compare", dir.file("opaque.png"), dir.file("rgb.png")).code == 0)
    }

    @Test("GeoTIFF renders are read through GDAL: a grey GeoTIFF equals the PNG of its pixels, and a changed one is measured")
    func geoTIFF() throws {
        let dir = TemporaryDirectory()
        func grey(_ path: String, _ value: @escaping (Int, Int) -> Double) {
            SyntheticDEM.write(path: path, width: 8, height: 5, geoTransform: [0, 1, 0, 0, 0, -1], crs: nil, type: GDT_Byte, value: value)
        }
        grey(dir.file("a.tif")) { c, r in Double(10 * r + c) }
        grey(dir.file("b.tif")) { c, r in c == 3 && r == 2 ? 100 : Double(10 * r + c) }
        var rgba: [UInt8] = []
        for r in 0..<5 { for c in 0..<8 { rgba += [UInt8(10 * r + c), UInt8(10 * r + c), UInt8(10 * r + c), 255] } }
        try PNGFile.encode(path: dir.file("a.png"), rgba: rgba, width: 8, height: 5)
        #expect(transect("compare", dir.file("a.tif"), dir.file("a.png")).code == 0)
        let j = try Self.json(transect("compare", dir.file("a.tif"), dir.file("b.tif"), "--json", "-").out)
        // One pixel of 40 off by 100 − 23 = 77 in each of three channels: √(3 · 77² / 120).
        let expected: Double = (3.0 * 77 * 77 / 120).squareRoot()
        #expect(Self.pairs(j).first?["rms"] as? Double == expected)
    }

    @Test("unreadable and non-image files are one-line errors naming the file (exit 1), bad usage exits 2, and nothing is written")
    func errors() throws {
        let dir = TemporaryDirectory()
        try Self.flat(dir.file("a.png"), width: 2, height: 2, (1, 1, 1))
        try "not an image".write(toFile: dir.file("fake.png"), atomically: true, encoding: .utf8)
        let fake = transect("compare", dir.file("a.png"), dir.file("fake.png"), "--report", dir.file("r.html"), "--json", dir.file("j.json"))
        #expect(fake.code == 1 && fake.out.isEmpty)
        #expect(fake.err.hasPrefix("Error: image '\(dir.file("fake.png"))': cannot open: ") && fake.err.split(separator: "\n").count == 1, "\(fake.err)")
        var truncated = try Data(contentsOf: URL(fileURLWithPath: dir.file("a.png")))
        truncated.removeLast(20)
        try truncated.write(to: URL(fileURLWithPath: dir.file("cut.png")))
        let cut = transect("compare", dir.file("a.png"), dir.file("cut.png"), "--diff", dir.file("d"))
        #expect(cut.code == 1 && cut.err.hasPrefix("Error: cannot read '\(dir.file("cut.png"))': "), "\(cut.err)")
        let missing = transect("compare", dir.file("a.png"), dir.file("none.png"))
        #expect(missing.code == 1 && missing.err.hasPrefix("Error: cannot read '\(dir.file("none.png"))': "), "\(missing.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a.png", "cut.png", "fake.png"])

        expectUsageError(["compare", dir.file("a.png")], "give BASELINE and CANDIDATE")
        expectUsageError(["compare", dir.file("a.png"), dir.path], "BASELINE and CANDIDATE must be two files or two directories")
        expectUsageError(["compare", dir.file("a.png"), dir.file("a.png"), "--tolerance", "rms"], "option '--tolerance': 'rms' is not METRIC=VALUE")
        expectUsageError(["compare", dir.file("a.png"), dir.file("a.png"), "--tolerance", "ssim=1"], "option '--tolerance': unknown metric 'ssim'")
        expectUsageError(["compare", dir.file("a.png"), dir.file("a.png"), "--tolerance", "pixels=101%"], "option '--tolerance': pixels '101%'")
        expectUsageError(
            ["compare", dir.file("a.png"), dir.file("a.png"), "--tolerance", "rms=1", "--tolerance", "rms=2"], "option '--tolerance': rms is given twice")
        expectUsageError(["compare", dir.file("a.png"), dir.file("a.png"), "--threshold", "2"], "option '--threshold': 2 is outside 0 … 1")
        expectUsageError(["compare", dir.file("a.png"), dir.file("a.png"), "--report", dir.file("r.pdf")], "option '--report': ")
        expectUsageError(["compare", dir.file("a.png"), dir.file("a.png"), "--json", dir.file("a.png")], "option '--json': ")
    }

    /// Debian's python3, with matplotlib (python3-matplotlib); the python3 on PATH may lack it.
    static let python = "/usr/bin/python3"
    static let hasMatplotlib: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? TransectExecutable.run(["-c", "import matplotlib.testing.compare"], directory: "/", executable: python, timeout: 60))?.code == 0
    }()

    @Test(
        "RMS equals matplotlib's compare on RGB, grey, palette and RGBA pairs, transparent ones among them",
        // matplotlib is the oracle, called in the test; without it there is nothing to hold the RMS to.
        .enabled(if: hasMatplotlib, "matplotlib is not installed for /usr/bin/python3 (Debian's python3-matplotlib)"))
    func rmsMatchesMatplotlib() throws {
        let python = Self.python
        let dir = TemporaryDirectory()
        // Pillow writes the pairs in the modes matplotlib's loader treats differently.
        let script = """
            import sys, numpy as np
            from PIL import Image
            d = sys.argv[1]
            rng = np.random.default_rng(7)
            def save(name, mode, arr):
                Image.fromarray(arr, mode).save(d + '/' + name)
            a = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
            b = a.copy(); b[rng.random((37, 53)) < 0.2] = rng.integers(0, 256, 3, dtype=np.uint8)
            save('rgb-a.png', 'RGB', a); save('rgb-b.png', 'RGB', b)
            t = rng.integers(0, 256, (31, 29, 4), dtype=np.uint8)
            u = t.copy(); u[..., 3] = rng.integers(0, 256, (31, 29), dtype=np.uint8); u[3, 4, :3] = 0
            save('rgba-a.png', 'RGBA', t); save('rgba-b.png', 'RGBA', u)
            o = np.dstack([a, np.full((37, 53), 255, np.uint8)])
            save('opaque-a.png', 'RGBA', o); save('rgb-c.png', 'RGB', b)
            g = rng.integers(0, 256, (20, 30), dtype=np.uint8)
            save('grey-a.png', 'L', g); save('grey-b.png', 'L', (g // 2).astype(np.uint8))
            la = np.dstack([g, rng.integers(0, 256, (20, 30), dtype=np.uint8)])
            save('la-a.png', 'LA', la); save('grey-c.png', 'L', 255 - g)
            p = Image.fromarray(a, 'RGB').convert('P', palette=Image.ADAPTIVE, colors=16)
            p.save(d + '/pal-a.png'); Image.fromarray(b, 'RGB').convert('P', palette=Image.ADAPTIVE, colors=16).save(d + '/pal-b.png')
            """
        let made = try TransectExecutable.run(["-c", script, dir.path], directory: dir.path, executable: python)
        try #require(made.code == 0, "\(made.err)")
        let pairs = [
            ("rgb-a.png", "rgb-b.png"), ("rgba-a.png", "rgba-b.png"), ("opaque-a.png", "rgb-c.png"), ("grey-a.png", "grey-b.png"),
            ("la-a.png", "grey-c.png"), ("pal-a.png", "pal-b.png"),
        ]
        let oracle = """
            import sys, numpy as np
            from matplotlib.testing.compare import _load_image, calculate_rms
            for e, a in zip(sys.argv[1::2], sys.argv[2::2]):
                print(repr(float(calculate_rms(_load_image(e).astype(np.int16), _load_image(a).astype(np.int16)))))
            """
        let run = try TransectExecutable.run(["-c", oracle] + pairs.flatMap { [dir.file($0.0), dir.file($0.1)] }, directory: dir.path, executable: python)
        try #require(run.code == 0, "\(run.err)")
        let expected = run.out.split(separator: "\n").compactMap { Double($0) }
        try #require(expected.count == pairs.count, "\(run.out)")
        for (k, (e, a)) in pairs.enumerated() {
            let j = try Self.json(transect("compare", dir.file(e), dir.file(a), "--json", "-").out)
            let rms = try #require(Self.pairs(j).first?["rms"] as? Double, "\(e) \(a)")
            // Within 1e-9 as asked; the sum is exact on both sides, so the values are in fact equal.
            #expect(abs(rms - expected[k]) <= 1e-9, "\(e) against \(a): \(rms), matplotlib \(expected[k])")
            #expect(rms > 0)
        }
    }
}
