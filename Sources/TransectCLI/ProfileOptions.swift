import TransectCore
import TransectFormats

/// The options of `transect profile`, each declared once.
enum ProfileOptions {
    /// More samples than this need `--max-samples`: a typo in `--step` should not fill memory.
    static let defaultMaxSamples = 10_000_000

    static let from = Option.text("from", value: "LON,LAT", help: "Start of the profile.")
    static let to = Option.text("to", value: "LON,LAT", help: "End of the profile.")
    static let path = Option.text(
        "path", value: "LON,LAT …", help: "Two or more vertices, profiled leg after leg with continuous distance (instead of --from/--to).",
        kind: .variadic)
    static let track = Option.text(
        "track", value: "FILE",
        help: "Profile along a track (GPX, GeoJSON, Esri JSON, CSV), segment after segment.")
    static let maxSegment = Option.positive(
        "max-segment", value: "M", help: "With --track, densify the track first so no step exceeds M metres.",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m")
    static let step = Option.positive(
        "step", value: "M",
        help: "Metres between samples (default: the DEM's resolution at the path's middle). The last step of each leg may be shorter.",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m")
    static let samples = Option.integer("samples", help: "N evenly spaced samples instead of a step.", in: 2...InputLimits.maxSamplesCeiling)
    static let maxSamples = Option.integer(
        "max-samples", help: "The most samples the profile may take.",
        in: 1...InputLimits.maxSamplesCeiling, default: defaultMaxSamples)
    static let observerHeight = Option.number(
        "observer-height", value: "M", help: "Eye height above the terrain at the start.",
        in: InputLimits.heightMetres, unit: " m", default: 1.7)
    static let targetHeight = Option.number(
        "target-height", value: "M", help: "Target height above the terrain at the end.",
        in: InputLimits.heightMetres, unit: " m", default: 0)
    static let curvature = Option.number(
        "curvature", value: "C", help: "Curvature coefficient (1 = curvature only, 0 = flat earth).",
        in: InputLimits.curvature, default: LineOfSight.defaultCurvature)
    static let interpolation = CommonOptions.interpolation.help("nearest (or near), bilinear or cubic.")
    static let crs = CommonOptions.crs.help("Points are X,Y in this CRS (EPSG:32611, or just 32611) instead of lon/lat.")
    static let units = Option.units(help: "Units of the text table: metric, imperial, m, km, ft, mi, yd, nmi.")
    static let format = Option.choice(
        "format", help: "text, json or csv (json and csv are in metres).", names: ["text", "json", "csv"],
        default: "text")
    static let chart = Option.text(
        "chart", value: "FILE.png",
        help: "Also draw the profile chart (elevation against distance, sight line, obstruction, extremes) for a report.")
    static let chartSize = Option.size(
        "chart-size", help: "Chart size in pixels, at least 300x200.", default: "1200x600",
        minimum: (300, 200), tooSmall: "a chart needs at least 300x200 pixels", maxPixels: { _ in 100_000_000 })
    static let chartLayout = Option.text("chart-layout", value: "FILE.json", help: "Also write where the chart's title, legend and labels went.")
    static let title = Option.text("title", value: "TEXT", help: "The chart's title.", default: "Elevation profile")

    static let all: [OptionSpec] = [
        CommonOptions.dem.spec, from.spec, to.spec, path.spec, track.spec, maxSegment.spec, step.spec, samples.spec, maxSamples.spec,
        observerHeight.spec, targetHeight.spec, curvature.spec, interpolation.spec, crs.spec, units.spec, format.spec,
        CommonOptions.out.spec, chart.spec, chartSize.spec, chartLayout.spec, title.spec, CommonOptions.allowNetwork.spec,
        CommonOptions.help.spec,
    ]
}
