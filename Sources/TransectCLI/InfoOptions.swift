import TransectCore
import TransectFormats

/// The options of `transect info`, each declared once.
enum InfoOptions {
    static let format = Option.choice("format", help: "text or json.", names: ["text", "json"], default: "text")

    static let all: [OptionSpec] = [CommonOptions.dem.spec, format.spec, CommonOptions.allowNetwork.spec, CommonOptions.help.spec]
}
