#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectCore
import TransectFormats
import TransectGDAL

/// Options several commands declare alike.
enum CommonOptions {
    static let help = Option.flag("help", short: "h", help: "Show this help.")
    static let out = Option.text("out", short: "o", value: "FILE", help: "Write to FILE (atomically) instead of stdout.")

    /// `--dem PATH`, repeatable: files, directories of tiles or globs, one mosaic.
    static let dem = Option.text(
        "dem", value: "PATH", help: "A DEM file, a directory of tiles or a glob; repeatable.",
        kind: .repeatable)
    /// `-r/--interpolation`: -r as gdalwarp and gdal_translate spell the resampling method.
    static let interpolation = Option<Interpolation>(
        spec: OptionSpec(
            name: "interpolation", short: "r", valueName: "I",
            help: "nearest (or near), bilinear or cubic.", defaultText: "bilinear"),
        defaultValue: { _ in .bilinear },
        parse: { text, args throws(CLIError) in
            guard let i = TerrainOptions.interpolation(named: text) else {
                throw Option<Interpolation>.refuse("interpolation", "'\(text.printable)' is not nearest (near), bilinear or cubic", args)
            }
            return i
        })
    /// `--geoid egm96|PATH`: the grid's path (`egm96` is PROJ's egm96_15.gtx).
    static let geoid = Option<String?>(
        spec: OptionSpec(
            name: "geoid", valueName: "egm96|PATH",
            help: "Geoid grid for ellipsoidal heights (h = H + N) in the direct distance; egm96 is PROJ's egm96_15.gtx."),
        defaultValue: { _ in nil }, parse: { text, _ in text == "egm96" ? TerrainOptions.egm96Path : text })
    /// `--crs CRS`: the CRS of coordinates given on the command line; checked where it enters,
    /// as points in a geocentric or vertical CRS have no place on the ellipsoid to measure from
    /// (EPSG:4978 gave 0.00 m).
    static let crs = Option<String?>(
        spec: OptionSpec(
            name: "crs", valueName: "CRS",
            help: "Coordinates are X,Y in this CRS (EPSG:32611, or just 32611), not lon/lat.", canonical: TerrainOptions.epsgCode),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in
            let reference: SpatialReference
            do throws(TerrainError) { reference = try SpatialReference(text) } catch {
                throw Option<String?>.refuse("crs", error.message, args)
            }
            guard reference.isHorizontal else {
                throw Option<String?>.refuse("crs", "\(reference.label) is a \(reference.kind) CRS, not a geographic or projected one", args)
            }
            return text
        })
    /// `--threads N`: worker threads for the work that splits (nil: every online CPU).
    static let threads = Option<Int?>.integer(
        "threads", value: "N", help: "Worker threads. Default: every online CPU; 1 runs on one thread; the output is the same bytes for any N.",
        in: 1...256)

    /// The `--threads` value, or the number of online CPUs (at least 1, at most 256).
    static func threadCount(_ args: ParsedArguments) throws(CLIError) -> Int {
        if let n = try args.value(threads) { return n }
        return min(max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1), 256)
    }

    static let allowNetwork = Option.flag("allow-network", help: "Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).")
}
