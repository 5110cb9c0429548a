import TransectCore
import TransectFormats

/// The options of `transect track`, each declared once.
enum TrackOptions {
    /// 2000-01-01T00:00:00Z: simulated histories start here unless told otherwise, so output is
    /// deterministic.
    static let defaultStart = 946_684_800.0

    static let input = Option.text("in", value: "FILE", help: "The track file.")
    static let stats = Option.flag(
        "stats",
        help: "Statistics (the default): points, segments, 2D and 3D length, gain and loss, elevation range, duration, moving time, speeds, bounding box.")
    static let simulate = Option.flag(
        "simulate",
        help:
            "Emit fixes: one per vertex 1 s apart after densifying to --max-segment (the location-history sample's source), or spaced --speed M/S × 1 s along the line. Each fix has time, position, elevation, course (geodesic azimuth) and speed."
    )
    static let maxSegment = Option.positive(
        "max-segment", value: "M",
        help: "Densify along geodesics so no step exceeds M metres (default 50 with --simulate; no densifying for statistics unless given).",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m")
    static let speed = Option.positive(
        "speed", value: "M/S", help: "With --simulate: fixes at this speed instead of one per vertex.",
        maximum: InputLimits.speed.upperBound, unit: "m/s")
    static let startTime = Option.time("start-time", help: "First fix time, ISO 8601.", default: defaultStart)
    static let dem = CommonOptions.dem.help("DEM for elevations; repeatable.")
    static let interpolation = CommonOptions.interpolation.help("How elevations are sampled from --dem: nearest (or near), bilinear or cubic.")
    static let elevation = Option.choice("elevation", value: "E", help: "dem (default when --dem is given) or recorded.", names: ["dem", "recorded"])
    static let gainThreshold = Option.number(
        "gain-threshold", value: "M", help: "Hysteresis for gain and loss.",
        in: InputLimits.gainThresholdMetres, unit: " m", default: 3)
    static let units = Option.units(help: "Units of the text summary: lengths, heights and speeds.")
    static let format = Option.text(
        "format", value: "F",
        help: "Statistics: text (default) or json. Simulation: gpx, geojson or csv (default from --out's extension, else csv).")

    static let all: [OptionSpec] = [
        input.spec, stats.spec, simulate.spec, maxSegment.spec, speed.spec, startTime.spec, dem.spec, interpolation.spec,
        elevation.spec, gainThreshold.spec, units.spec, format.spec, CommonOptions.out.spec, CommonOptions.allowNetwork.spec,
        CommonOptions.help.spec,
    ]
}
