import TransectCLIBase

/// `compare`'s entry of the command table: its help, usage and options, the same bytes whichever
/// library prints them (the compare library, or the full command line).
package enum CompareDefinition {
    package static func command(run: @escaping @Sendable (ParsedArguments, Console) throws -> Int32) -> Command {
        Command(
            name: "compare", summary: "Compare rendered images (or directories of them) against baselines, for CI",
            usage: ["transect compare BASELINE CANDIDATE [--tolerance rms=R|pixels=N|pixels=P%]… [--diff DIR] [--json FILE|-] [--report FILE.html] [--update]"],
            description: """
                Compare two images, or two directories of them paired by relative path (PNGs, and GeoTIFFs
                and other 8-bit rasters GDAL reads), and judge each pair: a file on one side only, or two
                images of different sizes, fail. Two figures are measured in one pass: the RMS over 0–255
                of every channel value, exactly as matplotlib's compare_images computes it, and the pixels
                that differ perceptually as pixelmatch counts them (YIQ distance beyond --threshold, with
                anti-aliased pixels detected in both images and not counted), with their share.
                """,
            options: CompareOptions.all,
            notes: """
                RMS follows matplotlib's loader: an image keeps its alpha channel only when it is RGBA and
                some pixel is not opaque; grey and palette images count as RGB. Where matplotlib refuses a
                pair of 3 and 4 channels, the opaque one is compared with alpha 255.

                A directory contributes its .png, .tif and .tiff files (names starting with a dot aside).
                Stdout has a line per pair (identical, within or beyond the tolerance, with its figures)
                and a summary. Outputs (--diff, --json, --report, --update) are written together at the end, atomically:
                a run that fails on an unreadable image writes none of them. Exit codes: 0 when every pair
                is within tolerance (with --update: once every failing candidate replaced its baseline),
                1 when a pair is beyond it or an image cannot be read, 2 for bad usage.
                """,
            run: run)
    }
}
