#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectCLIBase
import TransectGDAL
import TransectRender

extension FigureFormat: OptionChoice {}

/// How a figure option's file is written: by `--format` when given (as GDAL's `-of` wins over
/// the name), else by the name's extension; any other extension is a usage error naming it
/// and the extensions the command writes, before any work.
enum FigureOutput {
    /// An optional `--format`-like choice: the formats a command writes, nil when absent.
    static func formatOption(_ name: String, for what: String, accepted: [FigureFormat]) -> Option<FigureFormat?> {
        let names = accepted.map(\.rawValue)
        return Option<FigureFormat?>(
            spec: OptionSpec(
                name: name, valueName: names.joined(separator: "|"),
                help: "Write \(what) in this format whatever its name's extension says (default: by the extension)."),
            defaultValue: { _ in nil },
            parse: { text, args throws(CLIError) in FigureFormat(rawValue: try Option<String>.pick(name, names, text, args))! })
    }

    /// `--dpi`, the figure's resolution (each command words its help), and `--font-scale`.
    static let dpi = Option.number("dpi", value: "N", help: "", in: InputLimits.dpi)
    static let fontScale = Option.number(
        "font-scale", value: "F", help: "Text F times its size; lines and symbols keep theirs.", in: InputLimits.fontScale, default: 1)

    /// The format of `path`, written for `option`: `given` when there is one, else the
    /// extension's, refused when it is not one of `accepted`.
    static func format(
        of path: String, option: String, given: FigureFormat?, accepted: [FigureFormat], formatOption: String, command: String
    ) throws(CLIError) -> FigureFormat {
        if let given { return given }
        let extensions = accepted.flatMap(\.extensions).map { "." + $0 }
        let list = extensions.dropLast().joined(separator: ", ") + " or " + extensions.last!
        guard let ext = FigureFormat.fileExtension(path) else {
            throw CLIError.usage(
                "option '\(option)': '\(path.printable)' has no extension to say its format: name it \(list), or give --\(formatOption)",
                command: command)
        }
        guard let format = FigureFormat(path: path), accepted.contains(format) else {
            throw CLIError.usage(
                "option '\(option)': '.\(ext.printable)' is not a format \(command) writes: name the file \(list), or give --\(formatOption)",
                command: command)
        }
        return format
    }

    /// Refuses `-` (stdin) named more than once among the places and track files: stdin can be
    /// read once.
    static func standardInputOnce(places: [String], tracks: [String], command: String) throws(CLIError) {
        let uses = places.filter { $0 == "-" }.count + tracks.filter { $0 == "-" }.count
        guard uses > 1 else { return }
        throw CLIError.usage(
            "option '--\(places.contains("-") ? "places" : "track")': '-' (stdin) is given \(uses) times; stdin can be read once", command: command)
    }

    /// The vector document a format asks for, at `dpi` (96 when none), dated by
    /// `SOURCE_DATE_EPOCH` when it is set (the Unix epoch otherwise).
    /// A physical `size` gives the page its exact size.
    static func document(_ format: FigureFormat, dpi: Double?, size: FigureSize? = nil) -> VectorDocument? {
        let epoch = getenv("SOURCE_DATE_EPOCH").map { String(cString: $0) }
        return format.vector.map {
            VectorDocument(
                kind: $0, dpi: dpi ?? 96, date: VectorDocument.date(sourceDateEpoch: epoch), pagePoints: size?.points.map { ($0.width, $0.height) })
        }
    }
}

// Extended across modules on purpose: staging a figure needs TransectRender's writers, which
// only the full command line links (see OutputTransaction+PNG.swift).
extension OutputTransaction {
    /// Stages a figure at `path` in `format`: a PNG (with a world file and `.aux.xml` when
    /// georeferenced), the SVG or PDF document the image is, or a Cloud-Optimized GeoTIFF with
    /// the georeference inside.
    func writeFigure(
        _ image: RenderedImage, to path: String, format: FigureFormat, texts: [(String, String)], dpi: Double?,
        georeference: PNGFile.Georeference? = nil, encoding: PNGFile.Encoding
    ) throws {
        switch format {
        case .png:
            try writePNG(image, to: path, texts: texts, dpi: dpi, georeference: georeference, encoding: encoding)
        case .svg, .pdf:
            guard let document = image.document else { preconditionFailure("a \(format) figure is drawn as a document") }
            try write(bytes: document, to: path)
        case .geotiff:
            guard let georeference else { preconditionFailure("a GeoTIFF figure is a map, with a georeference") }
            let temporary = try stage(path)
            let written = Result { () throws(TerrainError) in try GeoTIFFFigure.write(image, to: temporary, georeference: georeference) }
            if case .failure(let error) = written {
                // GDAL names the temporary; the user named the file.
                guard case .cannotWriteImage(_, let reason) = error else { throw error }
                throw CLIError.cannotWrite(path: path, reason: reason)
            }
        }
    }

    /// The paths a figure at `path` occupies: the image, and a georeferenced PNG's side files.
    static func figurePaths(_ path: String, format: FigureFormat, georeferenced: Bool) -> [String] {
        format == .png ? pngPaths(path, georeferenced: georeferenced) : [path]
    }
}
