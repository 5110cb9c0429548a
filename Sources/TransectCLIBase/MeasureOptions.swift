import TransectSupport

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
    /// `--format`: text or json for one measurement, csv (the only one) for a `--pairs` batch,
    /// so the default follows `--pairs`.
    package static let format = Option<String>(
        spec: OptionSpec(name: "format", valueName: "F", help: "text (the label) or json; csv for --pairs.", defaultText: "text (csv with --pairs)"),
        defaultValue: { args in args.has(pairs.name) ? "csv" : "text" },
        parse: { text, args throws(CLIError) in try Option<String>.pick("format", ["text", "json", "csv"], text, args) })
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
    package static let skipExisting = Option.flag(
        "skip-existing", help: "With --shard and -o, do nothing when the output and its manifest already match this input and these options.")

    package static let all: [OptionSpec] = [
        dem.spec, from.spec, to.spec, aboveGround.spec, units.spec, CommonOptions.interpolation.spec, CommonOptions.geoid.spec,
        CommonOptions.crs.spec, format.spec, pairs.spec, strict.spec, shard.spec, skipExisting.spec,
        CommonOptions.threads.spec, out.spec, CommonOptions.allowNetwork.spec,
        CommonOptions.help.spec,
    ]
}
