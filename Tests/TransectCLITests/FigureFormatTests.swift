import Foundation
import Testing
import TransectCLITestSupport
import TransectGDAL
import TransectRender
import TransectTestSupport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Figures for reports: the format follows the extension (or `--format`), SVG and PDF through
/// cairo's surfaces, GeoTIFF through GDAL's COG driver, print sizes, and PNG text, each read
/// back with the tools users have (poppler, librsvg, GDAL).
@Suite("figures in PNG, SVG, PDF and GeoTIFF")
struct FigureFormatTests {
    static let measure = ["--crs", "EPSG:32611", "--measure", "501000,4196000:506000,4199000"]

    /// A small DEM and the render arguments of a map of it with a measurement.
    static func mapArguments(_ dir: TemporaryDirectory, _ extra: [String]) -> [String] {
        if !FileManager.default.fileExists(atPath: dir.file("dem.tif")) { RenderCommandTests.writeTerrain(dir.file("dem.tif")) }
        return ["render", "--dem", dir.file("dem.tif"), "--size", "320x200", "--title", "Ridge → Cliff"] + measure + extra
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("render writes PNG, SVG, PDF and GeoTIFF by the extension, each byte-identical over two runs")
    func everyFormatTwice() throws {
        let dir = TemporaryDirectory()
        for ext in ["png", "svg", "pdf", "tif"] {
            var runs: [Data?] = []
            for k in 0..<2 {
                let r = transect(Self.mapArguments(dir, ["-o", dir.file("\(k)-\(ext).\(ext)")]))
                #expect(r.code == 0, "\(ext): \(r.err)")
                runs.append(Self.bytes(dir.file("\(k)-\(ext).\(ext)")))
            }
            #expect(runs[0] != nil && runs[0] == runs[1], "the \(ext) differs between two runs")
        }
        // Magic numbers: what each file is, not what it is called.
        #expect(Self.bytes(dir.file("0-png.png"))?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(Self.bytes(dir.file("0-pdf.pdf"))?.prefix(5) == Data("%PDF-".utf8))
        let svgStart = String(decoding: (Self.bytes(dir.file("0-svg.svg")) ?? Data()).prefix(100), as: UTF8.self)
        #expect(svgStart.contains("<?xml"))
        #expect(Self.bytes(dir.file("0-tif.tif"))?.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]))
        // Only a PNG has a world file beside it.
        #expect(FileManager.default.fileExists(atPath: dir.file("0-png.pgw")))
        for ext in ["svg", "pdf", "tif"] {
            #expect(!FileManager.default.fileExists(atPath: dir.file("0-\(ext).pgw")), "the \(ext) has a world file")
            #expect(!FileManager.default.fileExists(atPath: dir.file("0-\(ext).\(ext).aux.xml")), "the \(ext) has a .aux.xml")
        }
    }

    @Test("an extension no command writes is exit 2 naming it and the accepted ones, before any work; --format overrides the name")
    func unknownExtension() throws {
        let dir = TemporaryDirectory()
        for (args, message) in [
            (
                Self.mapArguments(dir, ["-o", dir.file("map.jpg")]),
                "option '-o': '.jpg' is not a format render writes: name the file .png, .svg, .pdf, .tif or .tiff, or give --format"
            ),
            (Self.mapArguments(dir, ["-o", dir.file("map")]), "option '-o': '\(dir.file("map"))' has no extension to say its format"),
            (
                ["view", "--dem", dir.file("dem.tif"), "-o", dir.file("view.tif")],
                "option '-o': '.tif' is not a format view writes: name the file .png, .svg or .pdf, or give --format"
            ),
            (
                [
                    "profile", "--dem", dir.file("dem.tif"), "--crs", "EPSG:32611", "--from", "501000,4196000", "--to", "506000,4199000", "--chart",
                    dir.file("c.gif"),
                ],
                "option '--chart': '.gif' is not a format profile writes: name the file .png, .svg or .pdf, or give --chart-format"
            ),
        ] {
            expectUsageError(args, message)
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []) == ["dem.tif"])
        // --format wins over the name, as GDAL's -of does.
        let r = transect(Self.mapArguments(dir, ["-o", dir.file("map.jpg"), "--format", "png"]))
        #expect(r.code == 0, "\(r.err)")
        #expect(Self.bytes(dir.file("map.jpg"))?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test(
        "a print size gives the PDF page exactly (pdfinfo, within 0.1 mm), every font embedded (pdffonts), and a page pdftoppm renders",
        .enabled(if: ExternalTool.available("pdfinfo", "pdffonts", "pdftoppm"), "needs poppler-utils (pdfinfo, pdffonts, pdftoppm)"))
    func pdfPrintSize() throws {
        let dir = TemporaryDirectory()
        // 160 × 100 mm at 96 dpi: 604.7 × 377.95 pixels, rounded; the page keeps the millimetres.
        var r = transect(Self.mapArguments(dir, ["-o", dir.file("map.pdf")]).map { $0 == "320x200" ? "160x100mm" : $0 } + ["--dpi", "96"])
        #expect(r.code == 0, "\(r.err)")
        let info = try ExternalTool.run("pdfinfo", [dir.file("map.pdf")])
        let page = info.out.split(separator: "\n").first { $0.hasPrefix("Page size:") }.map(String.init) ?? ""
        let numbers = page.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count >= 2, "\(info.out)")
        if numbers.count >= 2 {
            // pdfinfo prints points to three decimals (0.0004 mm); the check is the issue's 0.1 mm.
            #expect(abs(numbers[0] * 25.4 / 72 - 160) < 0.1 && abs(numbers[1] * 25.4 / 72 - 100) < 0.1, "\(page)")
        }
        #expect(info.out.contains("CreationDate:    Thu Jan  1 00:00:00 1970 UTC"), "\(info.out)")
        let fonts = try ExternalTool.run("pdffonts", [dir.file("map.pdf")]).out.split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty, "the PDF has no fonts: its text is not text")
        for line in fonts {
            // name, type(s), encoding, then emb sub uni: "yes" for embedded.
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(columns.count >= 6 && columns[columns.count - 5] == "yes", "not embedded: \(line)")
        }
        let text = try ExternalTool.run("pdftotext", [dir.file("map.pdf"), "-"])
        #expect(text.out.contains("Ridge → Cliff"), "\(text.out)")
        r =
            (try ExternalTool.run("pdftoppm", ["-png", "-r", "96", "-singlefile", dir.file("map.pdf"), dir.file("page")])).code == 0
            ? r : (1, "", "pdftoppm failed")
        #expect(r.code == 0)
        let page0 = try PNGFile.readRGBA(path: dir.file("page.png"))
        #expect(abs(page0.width - 605) <= 1 && abs(page0.height - 378) <= 1, "\(page0.width) × \(page0.height)")
    }

    @Test(
        "the SVG is XML with its size in points and renders with rsvg-convert; a chart and a view are SVG and PDF too",
        .enabled(if: ExternalTool.available("rsvg-convert", "pdfinfo"), "needs librsvg2-bin (rsvg-convert) and poppler-utils (pdfinfo)"))
    func svgAndOtherFigures() throws {
        let dir = TemporaryDirectory()
        let r = transect(Self.mapArguments(dir, ["-o", dir.file("map.svg")]))
        #expect(r.code == 0, "\(r.err)")
        let svg = try #require(Self.bytes(dir.file("map.svg")))
        let parser = XMLParser(data: svg)
        #expect(parser.parse(), "the SVG is not well-formed XML: \(String(describing: parser.parserError))")
        #expect(String(decoding: svg, as: UTF8.self).contains(#"width="240pt" height="150pt""#))
        let png = try ExternalTool.run("rsvg-convert", ["-o", dir.file("svg.png"), dir.file("map.svg")])
        #expect(png.code == 0, "\(png.err)")
        let drawn = try PNGFile.readRGBA(path: dir.file("svg.png"))
        #expect(drawn.width == 320 && drawn.height == 200)

        let chart = transect([
            "profile", "--dem", dir.file("dem.tif"), "--crs", "EPSG:32611", "--from", "501000,4196000", "--to", "506000,4199000",
            "--chart", dir.file("chart.pdf"), "--chart-size", "6.5x4in", "-o", dir.file("profile.txt"),
        ])
        #expect(chart.code == 0, "\(chart.err)")
        let info = try ExternalTool.run("pdfinfo", [dir.file("chart.pdf")]).out
        #expect(info.contains("Page size:       468 x 288 pts"), "\(info)")
        let chartSVG = transect([
            "profile", "--dem", dir.file("dem.tif"), "--crs", "EPSG:32611", "--from", "501000,4196000", "--to", "506000,4199000",
            "--chart", dir.file("chart.svg"), "-o", dir.file("profile.txt"),
        ])
        #expect(chartSVG.code == 0, "\(chartSVG.err)")
        #expect(XMLParser(data: Self.bytes(dir.file("chart.svg")) ?? Data()).parse())

        for name in ["view.svg", "view.pdf"] {
            let v = transect(["view", "--dem", dir.file("dem.tif"), "--size", "200x120", "-o", dir.file(name)])
            #expect(v.code == 0, "\(name): \(v.err)")
        }
        #expect(XMLParser(data: Self.bytes(dir.file("view.svg")) ?? Data()).parse())
        #expect(try ExternalTool.run("pdfinfo", [dir.file("view.pdf")]).out.contains("Page size:       150 x 90 pts"))
    }

    @Test(
        "the GeoTIFF is a COG whose CRS and geotransform gdalinfo reads equal to the PNG's world file and .aux.xml",
        .enabled(if: ExternalTool.available("gdalinfo"), "needs gdal-bin (gdalinfo)"))
    func geoTIFF() throws {
        let dir = TemporaryDirectory()
        #expect(transect(Self.mapArguments(dir, ["-o", dir.file("map.tif")])).code == 0)
        #expect(transect(Self.mapArguments(dir, ["-o", dir.file("map.png")])).code == 0)
        func info(_ path: String) throws -> [String: Any] {
            let r = try ExternalTool.run("gdalinfo", ["-json", path])
            return try #require(try JSONSerialization.jsonObject(with: r.bytes) as? [String: Any], "\(r.err)")
        }
        let tif = try info(dir.file("map.tif"))
        let png = try info(dir.file("map.png"))
        // The world file names the centre of the top-left pixel; gdalinfo's geotransform its corner.
        let world = try String(contentsOfFile: dir.file("map.pgw"), encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        #expect(world.count == 6)
        let fromWorld = [world[4] - world[0] / 2 - world[2] / 2, world[0], world[2], world[5] - world[1] / 2 - world[3] / 2, world[1], world[3]]
        let transform = tif["geoTransform"] as? [Double] ?? []
        #expect(transform.count == 6 && transform == png["geoTransform"] as? [Double], "\(transform)")
        for (a, b) in zip(transform, fromWorld) {
            // The world file's shortest round-trip decimals, shifted by half a pixel and back: a
            // few units in the last place of coordinates near 4.2e6 m.
            #expect(abs(a - b) <= 1e-9 * max(1, abs(a)), "\(transform) against the world file's \(fromWorld)")
        }
        let wkt = { (d: [String: Any]) in (d["coordinateSystem"] as? [String: Any])?["wkt"] as? String ?? "" }
        // GDAL words a CRS read from GeoTIFF keys apart from one read from WKT; both name EPSG:32611.
        #expect(wkt(tif).hasSuffix(#"ID["EPSG",32611]]"#) && wkt(png).hasSuffix(#"ID["EPSG",32611]]"#), "\(wkt(tif))\n\(wkt(png))")
        let structure = (tif["metadata"] as? [String: Any])?["IMAGE_STRUCTURE"] as? [String: String] ?? [:]
        #expect(structure["LAYOUT"] == "COG" && structure["COMPRESSION"] == "DEFLATE", "\(structure)")
        let bands = tif["bands"] as? [[String: Any]] ?? []
        #expect(bands.map { $0["colorInterpretation"] as? String } == ["Red", "Green", "Blue"])
        #expect(bands.first?["block"] as? [Int] == [512, 512])
    }

    @Test("a scene's SVG and PDF are the same bytes whether render --scenes draws it first or after other scenes")
    func scenesOrder() throws {
        let dir = TemporaryDirectory()
        _ = Self.mapArguments(dir, [])
        func scene(_ name: String, out: String, title: String) throws {
            let json =
                #"{"dem": "dem.tif", "size": "320x200", "crs": "EPSG:32611", "measure": ["501000,4196000:506000,4199000"], "title": "\#(title)", "out": "\#(out)"}"#
            try json.write(toFile: dir.file(name), atomically: true, encoding: .utf8)
        }
        try scene("a.scene.json", out: "a.svg", title: "A")
        try scene("b.scene.json", out: "b.svg", title: "B")
        try scene("c.scene.json", out: "c.pdf", title: "C")
        try scene("d.scene.json", out: "d.pdf", title: "D")
        try "b.scene.json\nd.scene.json\n".write(toFile: dir.file("alone.txt"), atomically: true, encoding: .utf8)
        var r = transect(["render", "--scenes", dir.file("alone.txt")])
        #expect(r.code == 0, "\(r.err)")
        let alone = [Self.bytes(dir.file("b.svg")), Self.bytes(dir.file("d.pdf"))]
        try "a.scene.json\nc.scene.json\nb.scene.json\nd.scene.json\n".write(toFile: dir.file("after.txt"), atomically: true, encoding: .utf8)
        r = transect(["render", "--scenes", dir.file("after.txt")])
        #expect(r.code == 0, "\(r.err)")
        #expect(alone[0] != nil && alone[0] == Self.bytes(dir.file("b.svg")), "the SVG depends on what was drawn before it")
        #expect(alone[1] != nil && alone[1] == Self.bytes(dir.file("d.pdf")), "the PDF depends on what was drawn before it")
    }

    @Test("a print size is its pixels at 300 dpi unless --dpi says, recorded in the PNG's pHYs; text beyond Latin-1 goes in iTXt")
    func printSizeAndText() throws {
        let dir = TemporaryDirectory()
        let args = Self.mapArguments(dir, ["-o", dir.file("map.png")]).map { $0 == "320x200" ? "2x1.25in" : $0 }.map {
            $0 == "Ridge → Cliff" ? "Ridge → Café" : $0
        }
        let r = transect(args)
        #expect(r.code == 0, "\(r.err)")
        let image = try PNGFile.readRGBA(path: dir.file("map.png"))
        #expect(image.width == 600 && image.height == 375)
        let chunks = Self.chunks(try #require(Self.bytes(dir.file("map.png"))))
        // 300 dpi is 11811 pixels a metre (rounded), unit 1 (metre).
        #expect(chunks.first { $0.type == "pHYs" }?.data == Data([0, 0, 0x2E, 0x23, 0, 0, 0x2E, 0x23, 1]))
        let title = chunks.first { $0.type == "iTXt" }?.data
        #expect(title == Data("Title".utf8) + Data([0, 0, 0, 0, 0]) + Data("Ridge → Café".utf8))
        #expect(chunks.contains { $0.type == "tEXt" && $0.data.starts(with: Data("Software\u{0}".utf8)) })
        // A Latin-1 title stays a tEXt chunk, in Latin-1 (é is one byte, 0xE9).
        let latin = transect(Self.mapArguments(dir, ["-o", dir.file("latin.png")]).map { $0 == "Ridge → Cliff" ? "Café" : $0 })
        #expect(latin.code == 0, "\(latin.err)")
        let latinChunks = Self.chunks(try #require(Self.bytes(dir.file("latin.png"))))
        #expect(latinChunks.contains { $0.type == "tEXt" && $0.data == Data("Title\u{0}Caf".utf8) + Data([0xE9]) })
        #expect(!latinChunks.contains { $0.type == "iTXt" })
    }

    @Test(
        "SOURCE_DATE_EPOCH dates the PDF",
        .enabled(if: TransectExecutable.path != nil && ExternalTool.available("pdfinfo"), "needs the built transect and pdfinfo"))
    func sourceDateEpoch() throws {
        let dir = TemporaryDirectory()
        let args = Self.mapArguments(dir, ["-o", dir.file("map.pdf")])
        let r = try TransectExecutable.run(Array(args), directory: dir.path, environment: ["SOURCE_DATE_EPOCH": "1764633600"])
        #expect(r.code == 0, "\(r.err)")
        let info = try ExternalTool.run("pdfinfo", [dir.file("map.pdf")], environment: ["TZ": "UTC"]).out
        #expect(info.contains("CreationDate:    Tue Dec  2 00:00:00 2025 UTC") && info.contains("ModDate:         Tue Dec  2 00:00:00 2025 UTC"), "\(info)")
    }

    @Test("text keeps its size in points at any dpi: the title of a 160x100mm map and chart is as tall on paper at 150 and 300 dpi")
    func pointsAtAnyDPI() throws {
        let dir = TemporaryDirectory()
        func titleHeight(_ args: [String], layout: String) throws -> Double {
            let r = transect(args)
            #expect(r.code == 0, "\(r.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Self.bytes(layout) ?? Data()) as? [String: Any])
            let elements = json["elements"] as? [[String: Any]] ?? []
            let box = try #require(elements.first { $0["kind"] as? String == "title" }?["box"] as? [Double], "no title in \(layout)")
            return box[3] - box[1]
        }
        var inches: [Double] = []
        for dpi in [150.0, 300.0] {
            let name = "map-\(Int(dpi))"
            let args = Self.mapArguments(dir, ["-o", dir.file(name + ".svg"), "--layout", dir.file(name + ".json"), "--dpi", "\(dpi)"])
                .map { $0 == "320x200" ? "160x100mm" : $0 }
            inches.append(try titleHeight(args, layout: dir.file(name + ".json")) / dpi)
            let chart = "chart-\(Int(dpi))"
            let chartArgs = [
                "profile", "--dem", dir.file("dem.tif"), "--crs", "EPSG:32611", "--from", "501000,4196000", "--to", "506000,4199000",
                "--chart", dir.file(chart + ".pdf"), "--chart-size", "160x80mm", "--dpi", "\(dpi)", "--chart-layout", dir.file(chart + ".json"),
                "-o", dir.file("profile.txt"),
            ]
            inches.append(try titleHeight(chartArgs, layout: dir.file(chart + ".json")) / dpi)
        }
        // Map and chart each: the same height in inches at both resolutions, to a thousandth:
        // unhinted glyph metrics scale linearly, but cairo measures text in the device's units, so
        // the last digits of a box differ with the device scale (0.015 % on the chart's title).
        #expect(abs(inches[0] - inches[2]) <= 1e-3 * inches[0] && abs(inches[1] - inches[3]) <= 1e-3 * inches[1], "\(inches)")
        #expect(inches.allSatisfy { $0 > 0.1 && $0 < 0.5 }, "\(inches)")
    }

    /// The chunks of a PNG: type and data.
    static func chunks(_ png: Data) -> [(type: String, data: Data)] {
        let b = [UInt8](png)
        var out: [(String, Data)] = []
        var i = 8
        while i + 8 <= b.count {
            let n = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + n <= b.count else { break }
            out.append((type, Data(b[(i + 8)..<(i + 8 + n)])))
            i += 12 + n
        }
        return out
    }
}
