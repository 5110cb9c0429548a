import TransectFormats
import TransectGDAL
import TransectRender
import TransectSupport

/// `transect render`: an annotated map (PNG, SVG, PDF or GeoTIFF) with a DEM basemap,
/// measurements and places.
enum RenderCommand {
    /// Reads and checks every setting, loads the inputs, makes the map with one
    /// ``AnnotatedMap`` call, checks every file the run reads and writes, then draws and writes
    /// the map and its frames as one result. With `--scenes`, does so for every scene of a list
    /// (``runScenes(_:console:)``).
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        try arguments.expectNoPositionals()
        if arguments.has(RenderOptions.scenes) { return try runScenes(arguments, console: console) }
        for option in RenderOptions.batchOptions where arguments.has(option.name) {
            throw CLIError.usage("option '--\(option.name)': belongs to a batch of scenes; give --scenes LIST", command: "render")
        }
        _ = try render(RenderOptions.applyingScene(to: arguments), console: console)
        return 0
    }

    /// Renders the map `args` (a scene's settings already under them) describe, and returns
    /// the files written.
    ///
    /// - Parameters:
    ///   - files: files the run reads and writes besides the map's own, checked with them.
    ///   - claim: called with the files the map will write before anything is drawn; throws to
    ///     refuse them.
    static func render(
        _ args: ParsedArguments, console: Console, files given: RunFiles = RunFiles(), claim: ([String]) throws -> Void = { _ in }
    ) throws -> [String] {
        var terrain = try TerrainOptions(args)
        let settings = try RenderSettings(args, terrain: terrain)
        if settings.noDEM { terrain.demSpecs = [] }
        let inputs = try RenderInputs(terrain: terrain, settings: settings, console: console)
        let map = try makeMap(inputs.request(settings), settings: settings)
        let frameCounts = map.frameFixCounts(every: settings.every)
        // Every file this run reads and writes, checked before anything is drawn.
        var files = given
        try inputs.record(in: &files, args, terrain: terrain, settings: settings)
        let outputs = outputPaths(settings: settings, frames: frameCounts.count)
        for (option, path) in outputs { files.output(option, path) }
        try files.check(command: "render")
        try claim(outputs.map(\.path))
        try write(map, settings: settings, frameCounts: frameCounts, console: console)
        return outputs.map(\.path)
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

    /// Animation frame `k` in `--frames DIR`, in `format`.
    static func framePath(_ directory: String, _ k: Int, format: FigureFormat = .png) -> String {
        directory + "/" + AnnotatedMap.frameFileName(k, extension: format.extensions[0])
    }

    /// The files the map writes, each with the option that names it: the map (with its world
    /// file and .aux.xml), its layout and the frames (their usage errors are ``RenderSettings``').
    static func outputPaths(settings: RenderSettings, frames: Int) -> [(option: String, path: String)] {
        var paths: [(option: String, path: String)] = []
        if let out = settings.out {
            for path in OutputTransaction.figurePaths(out, format: settings.format, georeferenced: true) { paths.append(("-o", path)) }
        }
        if let layoutPath = settings.layout { paths.append(("--layout", layoutPath)) }
        if let layersPath = settings.layers { paths.append(("--layers", layersPath)) }
        if let framesDirectory = settings.framesDirectory {
            for k in 0..<frames {
                for path in OutputTransaction.figurePaths(
                    framePath(framesDirectory, k, format: settings.framesFormat), format: settings.framesFormat, georeferenced: false)
                {
                    paths.append(("--frames", path))
                }
            }
        }
        return paths
    }

    /// Draws the frames (trails growing to each count) and the map over one basemap, writing
    /// each as it is drawn: all of them land, or none.
    static func write(_ map: AnnotatedMap, settings: RenderSettings, frameCounts: [Int], console: Console) throws {
        let texts = map.pngTexts(software: "transect \(Help.version)")
        let transaction = OutputTransaction()
        // A failed run leaves no empty frames directory behind either (nor does a signal).
        if let framesDirectory = settings.framesDirectory { try transaction.makeDirectory(framesDirectory) }
        let progress = settings.framesDirectory.map { _ in Progress("frames", total: frameCounts.count, console: console) }
        let dpi = settings.dpi ?? MapSpec.defaultDPI
        // Frames and map are drawn apart when their formats differ (a PDF map over PNG frames).
        let framesDocument = FigureOutput.document(settings.framesFormat, dpi: dpi, size: settings.size)
        let mapDocument = FigureOutput.document(settings.format, dpi: dpi, size: settings.size)
        let drawsApart = settings.framesDirectory != nil && settings.out != nil && framesDocument != mapDocument
        var image = try map.draw(
            frames: settings.framesDirectory == nil ? [] : frameCounts, whole: settings.out != nil && !drawsApart, threads: settings.png.threads,
            document: framesDocument
        ) { k, image in
            guard let framesDirectory = settings.framesDirectory else { return }
            progress?.update(k)
            let frameText = AnnotatedMap.frameText(k, of: frameCounts.count, fixes: frameCounts[k])
            // A frame is a picture of a moment, not a map to overlay: no georeference.
            let frameGeoreference = settings.framesFormat == .geotiff ? try map.georeference : nil
            try transaction.writeFigure(
                image, to: framePath(framesDirectory, k, format: settings.framesFormat), format: settings.framesFormat,
                texts: texts + [("Frame", frameText)], dpi: dpi, georeference: frameGeoreference, encoding: settings.png)
        }
        if drawsApart { image = try map.draw(frames: [], whole: true, threads: settings.png.threads, document: mapDocument) { _, _ in } }
        progress?.finish()
        if let out = settings.out, let image {
            for note in image.notes { console.err(note + "\n") }
            try transaction.writeFigure(
                image, to: out, format: settings.format, texts: texts, dpi: dpi, georeference: map.georeference, encoding: settings.png)
            if let layoutPath = settings.layout { try transaction.write(image.layout.json.serialized() + "\n", to: layoutPath) }
            if let layersPath = settings.layers {
                let layers = try LayerOutput(path: layersPath, format: .gpkg, transaction: transaction)
                try RenderLayers.write(map, layout: image.layout, to: layers)
                try layers.finish()
            }
        }
        try transaction.commit()
        if let framesDirectory = settings.framesDirectory {
            console.err("note: wrote \(NumberFormatting.count(frameCounts.count, "frame")) to '\(framesDirectory)'\n")
        }
    }
}
