#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TransectRaster

/// Options several commands declare alike.
package enum CommonOptions {
    package static let help = Option.flag("help", short: "h", help: "Show this help.")
    package static let out = Option<String?>(
        spec: OptionSpec(name: "out", short: "o", valueName: "FILE", help: "Write to FILE (atomically) instead of stdout."),
        defaultValue: { _ in nil }, parse: { text, _ in standardOutputNames.contains(text) ? "-" : text })
    /// Names of standard output that `-o` takes as `-`: written to directly, never replaced by
    /// a file renamed over them (which replaced the `/dev/stdout` symbolic link itself when
    /// stdout was a file and the run could write to `/dev`).
    package static let standardOutputNames: Set<String> = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]

    /// `--dem PATH`, repeatable: files, directories of tiles or globs, one mosaic.
    package static let dem = Option.text(
        "dem", value: "PATH", help: "A DEM file, a directory of tiles or a glob; repeatable.",
        kind: .repeatable)
    /// `--nodata V`, repeatable: the DEMs' no-data value, overriding the files' (once for every
    /// DEM, or once for each `--dem` in their order). A finite number, as the file stores it.
    package static let noData = Option<Double?>(
        spec: OptionSpec(
            name: "nodata", valueName: "V",
            help: "Cells holding V are no data, whatever the DEM records: once for every DEM, or once for each --dem in turn.",
            kind: .repeatable),
        defaultValue: { _ in nil }, parse: { text, args throws(CLIError) in try Option<Double>.decimal("nodata", text, args) })
    /// `-r/--interpolation`: -r as gdalwarp and gdal_translate spell the resampling method.
    package static let interpolation = Option<Interpolation>(
        spec: OptionSpec(
            name: "interpolation", short: "r", valueName: "I",
            help: "nearest (or near), bilinear or cubic.", defaultText: "bilinear"),
        defaultValue: { _ in .bilinear },
        parse: { text, args throws(CLIError) in
            // render resamples the DEM into its map with GDAL's warper, which has cubicspline too
            // (RenderOptions.mapResampling); its --measure heights are then sampled cubic.
            if args.command == "render" && text.lowercased() == "cubicspline" { return .cubic }
            guard let i = interpolation(named: text) else {
                let choices = args.command == "render" ? "nearest (near), bilinear, cubic or cubicspline" : "nearest (near), bilinear or cubic"
                throw Option<Interpolation>.refuse("interpolation", "'\(text.printable)' is not \(choices)", args)
            }
            return i
        })
    /// `--geoid egm96|PATH`: the grid's path (`egm96` is PROJ's egm96_15.gtx).
    package static let geoid = Option<String?>(
        spec: OptionSpec(
            name: "geoid", valueName: "egm96|PATH",
            help: "Geoid grid for ellipsoidal heights (h = H + N) in the direct distance; egm96 is PROJ's egm96_15.gtx."),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in
            if text == "egm96" { return egm96Path }
            // A name that is no file (`egm2008`) is a word for a geoid Transect does not know:
            // say so for --geoid, rather than as a DEM that cannot be opened.
            var info = stat()
            if !text.hasPrefix("/vsi") && !text.contains("://") && stat(text, &info) != 0 {
                let word = !text.contains("/") && !text.contains(".")
                throw Option<String?>.refuse(
                    "geoid",
                    word
                        ? "'\(text.printable)' is not a geoid Transect knows (egm96) nor a geoid grid file; give egm96 or the path of a grid (.gtx, .tif)"
                        : "'\(text.printable)': no such geoid grid file", args)
            }
            return text
        })
    /// `--crs CRS`: the CRS of coordinates given on the command line, as given (a bare EPSG
    /// code made `EPSG:CODE`). `TerrainOptions` checks it with PROJ where it reads it, as points
    /// in a geocentric or vertical CRS have no place on the ellipsoid to measure from (EPSG:4978
    /// gave 0.00 m).
    package static let crs = Option<String?>(
        spec: OptionSpec(
            name: "crs", valueName: "CRS",
            help: "Coordinates are X,Y in this CRS (EPSG:32611, or just 32611), not lon/lat.", canonical: epsgCode),
        defaultValue: { _ in nil }, parse: { text, _ in text })
    /// `--threads N`: workers for commands that split their work; the bytes never depend on it.
    package static let threads = Option<Int?>.integer(
        "threads", value: "N", help: "Worker threads. Default: every online CPU; 1 runs on one thread; the output is the same bytes for any N.",
        in: 1...256)

    /// The `--threads` value, or the number of online CPUs (at least 1, at most 256).
    package static func threadCount(_ args: ParsedArguments) throws(CLIError) -> Int {
        if let n = try args.value(threads) { return n }
        return min(max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1), 256)
    }

    package static let allowNetwork = Option.flag("allow-network", help: "Let GDAL read network paths (/vsicurl/, /vsis3/, URLs).")

    /// `--timeout S`: with `--allow-network`, the seconds a request to a server that stays
    /// silent may take, retries included, before the run fails (exit 75).
    package static let timeout = Option<Int?>.integer(
        "timeout", value: "S",
        help: "With --allow-network: a server that does not answer fails the run within S seconds a request, retries included (exit 75). Default: 30.",
        in: 1...3600)

    /// `--confine DIR`, repeatable: the strict rule for services, under which GDAL reads a DEM,
    /// its VRT sources and the geoid only beside or below these directories. An existing
    /// directory, as given.
    package static let confine = Option<String?>(
        spec: OptionSpec(
            name: "confine", valueName: "DIR",
            help:
                "Read DEMs, their VRT sources and the geoid only beside or below DIR (repeatable); without it a VRT's sources may be raster files anywhere.",
            kind: .repeatable),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in
            var info = stat()
            guard stat(text, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw Option<String?>.refuse("confine", "'\(text.printable)' is not a directory", args)
            }
            return text
        })
}
