import TransectCore
import TransectFormats
import TransectGDAL
import TransectRender

/// `transect render`: an annotated PNG map with a DEM basemap, measurements and places.
enum RenderCommand {
    /// Reads and checks every setting, loads the inputs, makes the map with one
    /// ``AnnotatedMap`` call, checks every file the run reads and writes, then draws and writes
    /// the map and its frames as one result.
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        try arguments.expectNoPositionals()
        let args = try RenderOptions.applyingScene(to: arguments)
        var terrain = try TerrainOptions(args)
        let settings = try RenderSettings(args, terrain: terrain)
        if settings.noDEM { terrain.demSpecs = [] }
        let inputs = try RenderInputs(terrain: terrain, settings: settings, console: console)
        let map = try makeMap(inputs.request(settings), settings: settings)
        let frameCounts = map.frameFixCounts(every: settings.every)
        // Every file this run reads and writes, checked before anything is drawn.
        var files = RunFiles()
        try inputs.record(in: &files, args, terrain: terrain, settings: settings)
        recordOutputs(in: &files, settings: settings, frames: frameCounts.count)
        try files.check(command: "render")
        try write(map, settings: settings, frameCounts: frameCounts, console: console)
        return 0
    }

    /// The map, with the frame fitting's refusals said as `render`'s usage errors.
    static func makeMap(_ request: MapRequest, settings: RenderSettings) throws -> AnnotatedMap {
        do {
            return try AnnotatedMap(request)
        } catch MapFrameError.nothingToShow {
            throw settings.nothingToShow
        } catch let error as MapFrameError {
            throw CLIError.usage("option '--frame-crs': " + error.message, command: "render")
        }
    }

    /// Animation frame `k` in `--frames DIR`.
    static func framePath(_ directory: String, _ k: Int) -> String { directory + "/" + AnnotatedMap.frameFileName(k) }

    /// The map (with its world file and .aux.xml), its layout and the frames (their usage
    /// errors are ``RenderSettings``').
    static func recordOutputs(in files: inout RunFiles, settings: RenderSettings, frames: Int) {
        if let out = settings.out {
            for path in OutputTransaction.pngPaths(out, georeferenced: true) { files.output("-o", path) }
        }
        if let layoutPath = settings.layout { files.output("--layout", layoutPath) }
        if let framesDirectory = settings.framesDirectory {
            for k in 0..<frames { files.output("--frames", framePath(framesDirectory, k)) }
        }
    }

    /// Draws the frames (trails growing to each count) and the map over one basemap, writing
    /// each as it is drawn: all of them land, or none.
    static func write(_ map: AnnotatedMap, settings: RenderSettings, frameCounts: [Int], console: Console) throws {
        let texts = map.pngTexts(software: "transect \(Help.version)")
        let transaction = OutputTransaction()
        // A failed run leaves no empty frames directory behind either (nor does a signal).
        if let framesDirectory = settings.framesDirectory { try transaction.makeDirectory(framesDirectory) }
        let progress = settings.framesDirectory.map { _ in Progress("frames", total: frameCounts.count, console: console) }
        let image = try map.draw(
            frames: settings.framesDirectory == nil ? [] : frameCounts, whole: settings.out != nil, threads: settings.png.threads
        ) { k, image in
            guard let framesDirectory = settings.framesDirectory else { return }
            progress?.update(k)
            let frameText = AnnotatedMap.frameText(k, of: frameCounts.count, fixes: frameCounts[k])
            try transaction.writePNG(image, to: framePath(framesDirectory, k), texts: texts + [("Frame", frameText)], dpi: settings.dpi, encoding: settings.png)
        }
        progress?.finish()
        if let out = settings.out, let image {
            for note in image.notes { console.err(note + "\n") }
            try transaction.writePNG(image, to: out, texts: texts, dpi: settings.dpi, georeference: map.georeference, encoding: settings.png)
            if let layoutPath = settings.layout { try transaction.write(image.layout.json.serialized() + "\n", to: layoutPath) }
        }
        try transaction.commit()
        if let framesDirectory = settings.framesDirectory {
            console.err("note: wrote \(NumberFormatting.count(frameCounts.count, "frame")) to '\(framesDirectory)'\n")
        }
    }
}
