import TransectSupport

/// What `measure --format` writes: the label, the JSON object, (for `--pairs`) CSV rows, or a
/// `measurements` layer in one of the GIS formats (``LayerFormat``).
package enum MeasureFormat: String, OptionChoice {
    case text, json, csv
    case geojson, geojsonseq, gpkg, flatgeobuf

    /// The GIS layer format this is; nil for text, JSON and CSV.
    package var layer: LayerFormat? { LayerFormat(rawValue: rawValue) }
}

/// The options of `transect measure`, each declared once.
package enum MeasureOptions {
    package static let dem = CommonOptions.dem.help(
        "A DEM file, a directory of tiles or a glob; repeatable. Together they are one mosaic. Default: ETOPO5 (5′ global grid).")
    package static let from = Option.point("from", help: "Start. Z is an absolute height in metres; without it the height comes from the DEM.")
    package static let to = Option.point("to", help: "End, as --from.")
    package static let aboveGround = Option.number(
        "above-ground", value: "M", help: "Metres added to heights sampled from the DEM.",
        in: InputLimits.heightMetres, unit: " m", default: 0)
    package static let units = Option.units(
        help: "metric (m/km), imperial (ft/mi), or m, km, ft, mi, yd, nmi (also by name: metres, feet, miles, nautical-miles, …).")
    /// `--format`: text or json for one measurement, csv for a `--pairs` batch, or a GIS layer
    /// for either; the default follows `-o`'s extension (`.geojson`, `.geojsonl`, `.gpkg`,
    /// `.fgb`), then `--pairs`.
    package static let format = Option<MeasureFormat>(
        spec: OptionSpec(
            name: "format", valueName: "F",
            help: "text (the label) or json; csv for --pairs; geojson, geojsonseq, gpkg or flatgeobuf for a measurements layer.",
            defaultText: "by -o's extension, else text (csv with --pairs)"),
        defaultValue: { args in
            if let path = args.value(out.name), let layer = LayerFormat(path: path) { return MeasureFormat(rawValue: layer.rawValue)! }
            return args.has(pairs.name) ? .csv : .text
        },
        parse: { text, args throws(CLIError) in try Option<MeasureFormat>.pick("format", text, args) })
    package static let pairs = Option.text(
        "pairs", value: "FILE|-",
        help: "Batch: CSV with header from_lon,from_lat,to_lon,to_lat (optional id, from_z, to_z); streams CSV rows with an error column.")
    package static let strict = Option.flag("strict", help: "With --pairs, stop at the first bad row (exit 1).")
    package static let out = CommonOptions.out.help("Write results to FILE (atomically) instead of stdout.")
    package static let shard = Option.text(
        "shard", value: "K/N|auto",
        help:
            "With --pairs FILE, measure only the K-th of N contiguous row ranges (only shard 1 writes the header); auto takes K and N from Slurm, Kubernetes or AWS Batch array variables. With -o, writes FILE.manifest.json beside it."
    )
    package static let maxSegment = Option.number(
        "max-segment", value: "M",
        help: "In a layer, no step of a measured line is longer than M metres: the line follows the geodesic in any GIS.",
        in: InputLimits.layerSegmentMetres, unit: " m", default: 1000)
    package static let skipExisting = Option.flag(
        "skip-existing", help: "With --shard and -o, do nothing when the output and its manifest already match this input and these options.")

    /// The checks between options, in one place (as swift-argument-parser's `validate()`): a
    /// `--pairs` batch and one `--from`/`--to` measurement each refuse the other's options.
    /// Each option's own value is checked where it is parsed; `format` is `--format`'s, read.
    package static func validate(_ args: ParsedArguments, format: MeasureFormat) throws(CLIError) {
        func refuse(_ problem: String) -> CLIError { .usage(problem, command: args.command) }
        if args.has(pairs) {
            guard !args.has(from) && !args.has(to) else { throw refuse("--\(pairs.name) cannot be combined with --\(from.name)/--\(to.name)") }
            guard format == .csv || format.layer != nil else {
                throw refuse("option '--\(Self.format.name)': a --pairs batch writes csv or a layer (geojson, geojsonseq, gpkg, flatgeobuf)")
            }
            try validateLayer(args, format: format)
            guard !args.has(units) else {
                throw refuse(
                    "option '--\(units.name)': shows one --from/--to measurement; a --pairs batch writes metres, as its columns are named")
            }
            return
        }
        guard !args.has(shard) && !args.has(skipExisting) else {
            throw refuse("option '--\(shard.name)': splits a --pairs batch; give --pairs FILE")
        }
        guard !args.has(CommonOptions.threads) else {
            throw refuse("option '--\(CommonOptions.threads.name)': splits a --pairs batch across threads; one measurement runs on one")
        }
        guard !args.has(strict) else { throw refuse("option '--\(strict.name)': stops a --pairs batch at the first bad row; give --pairs") }
        guard format != .csv else {
            throw refuse("option '--\(Self.format.name)': csv is for a --pairs batch; one measurement writes text, json or a layer")
        }
        try validateLayer(args, format: format)
    }

    /// A layer goes to a file (`-o`), shards only as GeoJSONSeq, GeoPackage or FlatGeobuf (a
    /// GeoJSON FeatureCollection does not concatenate), and `--max-segment` shapes layers only.
    private static func validateLayer(_ args: ParsedArguments, format: MeasureFormat) throws(CLIError) {
        func refuse(_ problem: String) -> CLIError { .usage(problem, command: args.command) }
        guard let layer = format.layer else {
            guard !args.has(maxSegment) else {
                throw refuse("option '--\(maxSegment.name)': densifies the lines of a layer; give --format geojson, geojsonseq, gpkg or flatgeobuf")
            }
            return
        }
        let path = args.value(out.name)
        guard let path, path != "-" else {
            throw refuse("option '--\(Self.format.name)': a \(layer.rawValue) layer is written to a file: give -o FILE")
        }
        if layer == .geojson && args.has(shard) {
            throw refuse(
                "option '--\(shard.name)': GeoJSON parts do not concatenate; write geojsonseq (.geojsonl), gpkg or flatgeobuf and join them with transect merge"
            )
        }
    }

    package static let all: [OptionSpec] = [
        dem.spec, CommonOptions.noData.spec, from.spec, to.spec, aboveGround.spec, units.spec, CommonOptions.interpolation.spec, CommonOptions.geoid.spec,
        CommonOptions.crs.spec, format.spec, maxSegment.spec, pairs.spec, strict.spec, shard.spec, skipExisting.spec,
        CommonOptions.threads.spec, out.spec, CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec, CommonOptions.confine.spec,
        CommonOptions.help.spec,
    ]
}
