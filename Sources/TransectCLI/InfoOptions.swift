import TransectFormats
import TransectSupport

/// What `info --format` writes.
enum InfoFormat: String, OptionChoice {
    case text, json
}

/// The options of `transect info`, each declared once.
enum InfoOptions {
    static let format = Option.choice("format", help: "text or json.", default: InfoFormat.text)

    static let stats = Option.flag(
        "stats",
        help:
            "Also report the network requests (GET, HEAD) and bytes of opening the DEM, of one point read at its centre, and of the description (which reads every cell); zero for a local DEM."
    )

    static let mosaic = Option.flag(
        "mosaic", help: "Describe the DEMs named as the one mosaic other commands read, not each on its own (as gdalinfo would).")

    static let all: [OptionSpec] = [
        CommonOptions.dem.spec, CommonOptions.noData.spec, format.spec, mosaic.spec, stats.spec, CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec,
        CommonOptions.confine.spec,
        CommonOptions.help.spec,
    ]
}
