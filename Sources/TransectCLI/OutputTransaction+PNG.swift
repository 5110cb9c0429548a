import TransectRender

extension OutputTransaction {
    /// Stages a PNG at `path` and, with a georeference, its world file and `.aux.xml`: all of
    /// them land with ``commit()`` or none.
    func writePNG(
        _ image: RenderedImage, to path: String, texts: [(String, String)], dpi: Double?,
        georeference: PNGFile.Georeference? = nil
    ) throws {
        let temporary = try stage(path)
        do {
            try PNGFile.encode(path: temporary, rgb: image.rgb, width: image.width, height: image.height, texts: texts, dpi: dpi)
        } catch RenderError.cannotWrite(_, let reason) {
            throw CLIError.cannotWrite(path: path, reason: reason)
        }
        if let georeference {
            for side in PNGFile.sideFiles(for: path, georeference: georeference) { try write(side.contents, to: side.path) }
        }
    }

    /// The paths a PNG at `path` occupies: the image, and with a georeference its side files.
    static func pngPaths(_ path: String, georeferenced: Bool) -> [String] {
        [path] + (georeferenced ? [PNGFile.worldFilePath(for: path), path + ".aux.xml"] : [])
    }
}
