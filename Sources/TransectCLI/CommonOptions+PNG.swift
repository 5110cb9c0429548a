import TransectRender

// Extended across modules on purpose: `CommonOptions` lives in TransectCLIBase, which the
// launcher links and which sees no TransectRender; this option's choices are Render's
// `PNGFile.Preset`, so the one option that names them is declared here.
extension CommonOptions {
    /// `--png fast|balanced|small`: how hard PNGs are compressed (``PNGFile/Preset``).
    static let png = Option<PNGFile.Preset>.choice(
        "png", value: "fast|balanced|small",
        help:
            "PNG compression: fast (zlib level 1, run-length), balanced (level 4 or run-length, the shorter per strip) or small (level 9 or run-length); the pixels are the same.",
        default: PNGFile.Preset.balanced)
}

// A conformance across modules on purpose: `PNGFile.Preset` is TransectRender's and
// `OptionChoice` the command line's (TransectCLIBase); neither module sees the other.
extension PNGFile.Preset: OptionChoice {}
