import TransectRender

// Extended across modules on purpose: `OutputTransaction` (TransectCLIBase) is shared with
// measure's library, which links neither cairo nor libpng; staging a PNG needs TransectRender's
// `PNGFile`, which only the full command line links.
extension OutputTransaction {
    /// Stages a PNG at `path` and, with a georeference, its world file and `.aux.xml`: all of
    /// them land with ``commit()`` or none.
    func writePNG(
        _ image: RenderedImage, to path: String, texts: [(String, String)], dpi: Double?,
        georeference: PNGFile.Georeference? = nil, encoding: PNGFile.Encoding
    ) throws {
        let temporary = try stage(path)
        do {
            try PNGFile.encode(path: temporary, image: image, texts: texts, dpi: dpi, encoding: encoding)
        } catch RenderError.cannotWrite(_, let reason) {
            throw CLIError.cannotWrite(path: path, reason: reason)
        }
        if let georeference {
            for side in PNGFile.sideFiles(for: path, georeference: georeference) { try write(side.contents, to: side.path) }
        }
    }

    /// The PNG encoding `--png` asks for, on `threads` threads.
    static func pngEncoding(_ args: ParsedArguments, threads: Int) throws(CLIError) -> PNGFile.Encoding {
        let preset = try args.value(CommonOptions.png)
        return PNGFile.Encoding(preset: preset, threads: threads)
    }

    /// The paths a PNG at `path` occupies: the image, and with a georeference its side files.
    static func pngPaths(_ path: String, georeferenced: Bool) -> [String] {
        [path] + (georeferenced ? [PNGFile.worldFilePath(for: path), path + ".aux.xml"] : [])
    }

    /// Stages 8-bit RGBA `rgba` as a PNG at `path` (the fast preset: a diff image is looked at,
    /// not kept for its size).
    func writePNG(rgba: [UInt8], width: Int, height: Int, to path: String, threads: Int) throws(CLIError) {
        let temporary = try stage(path)
        do throws(RenderError) {
            try PNGFile.encode(path: temporary, rgba: rgba, width: width, height: height, encoding: PNGFile.Encoding(preset: .fast, threads: threads))
        } catch {
            if case .cannotWrite(_, let reason) = error { throw .cannotWrite(path: path, reason: reason) }
            throw .cannotWrite(path: path, reason: error.message)
        }
    }
}
