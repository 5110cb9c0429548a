#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectCore
import TransectFormats
import TransectGDAL
import TransectRender

/// `transect render`: an annotated PNG map with a DEM basemap, measurements and places.
enum RenderCommand {
    /// Reads the settings and loads the inputs, makes the map with one ``AnnotatedMap`` call,
    /// checks every file the run reads and writes, then draws and writes the map and its frames
    /// as one result.
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        try arguments.expectNoPositionals()
        let args = try RenderOptions.applyingScene(to: arguments)
        var terrain = try TerrainOptions(args)
        let settings = try RenderSettings(args)
        if settings.noDEM { terrain.demSpecs = [] }
        let inputs = try RenderInputs(args, terrain: terrain, settings: settings, console: console)
        guard settings.framesDirectory == nil || !inputs.trails.isEmpty else {
            throw CLIError.usage("--frames draws a track as it grows: give --track", command: "render")
        }
        let map = try makeMap(inputs.request(args, settings: settings))
        let frameCounts = map.frameFixCounts(every: settings.every)
        // Every file this run reads and writes, checked before anything is drawn.
        var files = RunFiles()
        try inputs.record(in: &files, args, terrain: terrain, basemap: settings.basemap)
        try recordOutputs(in: &files, settings: settings, frames: frameCounts.count)
        try files.check(command: "render")
        try write(map, settings: settings, frameCounts: frameCounts, console: console)
        return 0
    }

    /// The map, with the frame fitting's refusals said as `render`'s usage errors.
    static func makeMap(_ request: MapRequest) throws -> AnnotatedMap {
        do {
            return try AnnotatedMap(request)
        } catch MapFrameError.nothingToShow {
            throw CLIError.usage("nothing to show: give --dem, --measure, --places or --extent", command: "render")
        } catch let error as MapFrameError {
            throw CLIError.usage("option '--frame-crs': " + error.message, command: "render")
        }
    }

    /// Animation frame `k` in `--frames DIR`.
    static func framePath(_ directory: String, _ k: Int) -> String { directory + "/" + AnnotatedMap.frameFileName(k) }

    /// The map (with its world file and .aux.xml), its layout and the frames, refused where
    /// stdout or a file that is not a directory cannot hold them.
    static func recordOutputs(in files: inout RunFiles, settings: RenderSettings, frames: Int) throws(CLIError) {
        if let out = settings.out {
            guard out != "-" else {
                throw .usage("option '-o': a map is a PNG file with a world file beside it; '-' (stdout) cannot hold them", command: "render")
            }
            for path in OutputTransaction.pngPaths(out, georeferenced: true) { files.output("-o", path) }
        }
        if let layoutPath = settings.layout {
            guard settings.out != nil else { throw .usage("option '--layout': describes the -o image; give -o FILE.png", command: "render") }
            guard layoutPath != "-" else { throw .usage("option '--layout': give a FILE.json; '-' (stdout) is not one", command: "render") }
            files.output("--layout", layoutPath)
        }
        if let framesDirectory = settings.framesDirectory {
            var info = stat()
            if stat(framesDirectory, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
                throw .usage("option '--frames': '\(framesDirectory.printable)' exists and is not a directory", command: "render")
            }
            for k in 0..<frames { files.output("--frames", framePath(framesDirectory, k)) }
        }
    }

    /// Paints the basemap once, draws the frames (trails growing to each count) and the map
    /// over it, and writes them: all of them land, or none.
    static func write(_ map: AnnotatedMap, settings: RenderSettings, frameCounts: [Int], console: Console) throws {
        let texts = map.pngTexts(software: "transect \(Help.version)")
        let transaction = OutputTransaction()
        var createdDirectory: String? = nil
        defer {
            // A failed run leaves no empty frames directory behind either (nor does a signal).
            if let createdDirectory {
                if !transaction.isCommitted { rmdir(createdDirectory) }
                SignalCleanup.unregister(createdDirectory)
            }
        }
        let basemap = try map.paintBasemap()
        if let framesDirectory = settings.framesDirectory {
            if try makeDirectory(framesDirectory) {
                createdDirectory = framesDirectory
                SignalCleanup.register(framesDirectory, .removeDirectory)
            }
            let progress = Progress("frames", total: frameCounts.count, console: console)
            defer { progress.finish() }
            for (k, count) in frameCounts.enumerated() {
                progress.update(k)
                let image = try map.renderFrame(showingFixes: count, over: basemap)
                let frameText = AnnotatedMap.frameText(k, of: frameCounts.count, fixes: count)
                try transaction.writePNG(image, to: framePath(framesDirectory, k), texts: texts + [("Frame", frameText)], dpi: settings.dpi)
            }
        }
        if let out = settings.out {
            let image = try map.render(over: basemap)
            for note in image.notes { console.err(note + "\n") }
            try transaction.writePNG(image, to: out, texts: texts, dpi: settings.dpi, georeference: map.georeference)
            if let layoutPath = settings.layout { try transaction.write(image.layout.json.serialized() + "\n", to: layoutPath) }
        }
        try transaction.commit()
        if let framesDirectory = settings.framesDirectory {
            console.err("note: wrote \(NumberFormatting.count(frameCounts.count, "frame")) to '\(framesDirectory)'\n")
        }
    }

    /// Makes the directory `path` unless it exists; true when it made it.
    static func makeDirectory(_ path: String) throws(CLIError) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .cannotWrite(path: path, reason: "exists and is not a directory") }
            return false
        }
        guard mkdir(path, 0o755) == 0 else { throw .cannotWrite(path: path, reason: SystemError.text()) }
        return true
    }
}
