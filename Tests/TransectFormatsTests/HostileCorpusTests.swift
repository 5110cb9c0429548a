import Foundation
import Testing
import TransectGeodesy
import TransectFormats

/// Every file in `Tests/Hostile/<reader>/` through its reader, as the fuzzers' seeds: a name
/// starting with `bad-` must be refused with a typed error (`FormatError`, or the `PointError` a
/// coordinates or pairs row returns) whose message is one printable line, any other must be read. A crash in
/// any of them ends the run. Findings of the fuzzers land here as `bad-` files, with a test
/// below naming each.
@Suite("the hostile and broken corpus")
struct HostileCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Hostile")

    static func files(_ reader: String) -> [URL] {
        let directory = root.appendingPathComponent(reader)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The settings `transect render` takes from a scene: `RenderOptions.sceneSettings`, in its
    /// order. This target cannot import the command line, so the list is copied; a test there
    /// (SceneSettingsListTests) holds the copy equal to the original.
    static let knownOptions: [String] = [
        "dem", "no-dem", "nodata", "out", "format", "layout", "size", "extent", "extent-crs", "margin", "frame-crs", "crs", "basemap", "azimuth",
        "altitude", "z-factor", "multidirectional", "measure", "interpolation", "geoid", "places", "track", "viewshed", "observer",
        "observer-height", "max-segment", "frames",
        "every", "title", "decorations", "units", "dpi", "font-scale", "max-pixels", "png",
    ]
    /// Those of them that are flags.
    static let flags: [String] = ["no-dem", "multidirectional"]

    /// Reads `data` as `reader` does; throws what the reader throws.
    static func read(_ reader: String, _ data: Data, name: String) throws {
        switch reader {
        case "gpx": _ = try TrackFile.read(data: data, path: name, format: .gpx)
        case "geojson": _ = try TrackFile.read(data: data, path: name, format: .geojson)
        case "esri": _ = try TrackFile.read(data: data, path: name, format: .esriJSON)
        case "csvtrack": _ = try TrackFile.read(data: data, path: name, format: .csv)
        case "places": _ = try PlaceFile.read(data: data, path: name)
        case "scene": _ = try SceneFile.arguments(data: data, path: name, knownOptions: Set(knownOptions), flags: Set(flags))
        case "coordinates": _ = try PointArgument.parse(String(decoding: data, as: UTF8.self)).get()
        case "pairs":
            let pairs = try PairsReader(data: data, name: name)
            while let row = try pairs.next() {
                _ = try pairs.coordinates(row.fields).get()
                _ = try pairs.heights(row.fields).get()
            }
        case "scenelist":
            // A line that names no scene file is refused when its turn comes: as a list, refused.
            let list = try SceneList(data: data, path: name)
            if let bad = list.entries.first(where: { $0.problem != nil }) {
                throw FormatError.malformed(path: name, reason: "line \(bad.line) \(bad.problem ?? "")")
            }
        default: Issue.record("no reader for Tests/Hostile/\(reader)")
        }
    }

    @Test(
        "bad- files are refused with an error, the others are read",
        arguments: ["gpx", "geojson", "esri", "csvtrack", "places", "scene", "coordinates", "pairs", "scenelist"])
    func corpus(reader: String) throws {
        let files = Self.files(reader)
        #expect(files.contains { $0.lastPathComponent.hasPrefix("bad-") }, "Tests/Hostile/\(reader) holds no hostile file")
        #expect(files.contains { !$0.lastPathComponent.hasPrefix("bad-") }, "Tests/Hostile/\(reader) holds no valid file")
        for file in files {
            let data = try Data(contentsOf: file)
            let name = "\(reader)/\(file.lastPathComponent)"
            var refusal: String? = nil
            do {
                try Self.read(reader, data, name: file.lastPathComponent)
            } catch let error as FormatError {
                refusal = error.message
            } catch let error as PointError where reader == "coordinates" || reader == "pairs" {
                refusal = error.text
            } catch {
                Issue.record("\(name): refused with \(type(of: error)), not a FormatError or PointError: \(error)")
                continue
            }
            #expect((refusal != nil) == file.lastPathComponent.hasPrefix("bad-"), "\(name): \(refusal ?? "read")")
            if let refusal {
                #expect(!refusal.isEmpty && Self.isPrintableLine(refusal), "\(name): \(refusal.debugDescription)")
            }
        }
    }

    /// One line, no C0 control, DEL or C1 control: what a message may write to a terminal.
    static func isPrintableLine(_ message: String) -> Bool {
        !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    @Test("the corpus check counts only typed refusals with printable messages")
    func checkIsStrict() {
        #expect(Self.isPrintableLine("'a.gpx': line 3: lat 'x\\u{1B}' is not a number"))
        #expect(!Self.isPrintableLine("two\nlines"))
        #expect(!Self.isPrintableLine("csi \u{9B}2J"))
        #expect(!Self.isPrintableLine("esc \u{1B}[31m"))
    }

    @Test("fuzz finding 1: an Esri wkid of ±1e300 trapped converting to Int; now a named error")
    func esriWkid() {
        for wkid in ["1e300", "-1e300", "-1e19", "1021019.3e18"] {
            let data = Data(#"{"paths":[[[0,0],[1,1]]],"spatialReference":{"wkid":\#(wkid)}}"#.utf8)
            #expect(throws: FormatError.self) { try TrackFile.read(data: data, path: "w.json", format: .esriJSON) }
        }
    }

    @Test("fuzz finding 2: a processing instruction without data (<?x?>) crashed Foundation's XMLParser; now refused with its line")
    func instructionWithoutData() {
        for text in ["<?x?>\n", "<?xml version=\"1.0\"?>\n<?xm?><gpx version=\"1.1\"/>", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<?pi?></gpx>"] {
            do {
                _ = try TrackFile.read(data: Data(text.utf8), path: "pi.gpx", format: .gpx)
                Issue.record("accepted \(text.debugDescription)")
            } catch {
                #expect(error.message.contains("processing instruction without data"), "\(error.message)")
            }
        }
        // With data, an instruction is read past as XML allows.
        let withData =
            "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.xsl\"?>\n<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        #expect((try? TrackFile.read(data: Data(withData.utf8), path: "pi.gpx", format: .gpx))?.pointCount == 1)
    }
}
