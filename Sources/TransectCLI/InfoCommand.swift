import TransectFormats
import TransectGDAL
import TransectSupport

/// `transect info`: what a DEM is, where it is, how fine, and its elevation range.
enum InfoCommand {
    /// Opens the DEM (or the default surface), describes it with one
    /// ``ElevationModel/describe()`` call and writes the description.
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        // `transect info FILE` is accepted as well as `--dem FILE`.
        let specsGiven = try args.values(CommonOptions.dem) + args.positionals
        let format = try args.value(InfoOptions.format)
        let access = try TerrainOptions.access(args)
        func open() throws -> ElevationModel {
            specsGiven.isEmpty ? try ElevationModel([TerrainOptions.defaultSurfacePath]) : try ElevationModel(specsGiven, access: access)
        }
        guard try args.value(InfoOptions.stats) else {
            let model = try open()
            for note in model.notes { console.err(note + "\n") }
            return try write(model.describe(), format: format, console: console)
        }
        var statistics = InfoStatistics()
        let model: ElevationModel
        (model, statistics.open) = try InfoStatistics.counting(open)
        for note in model.notes { console.err(note + "\n") }
        (_, statistics.point) = try InfoStatistics.counting { try InfoStatistics.readCentre(of: model) }
        let description: DEMDescription
        (description, statistics.description) = try InfoStatistics.counting { try model.describe() }
        return write(description, statistics: statistics, format: format, console: console)
    }

    /// The description as text lines or one JSON object.
    /// With `statistics` (`--stats`), what each step asked of the network follows.
    static func write(_ info: DEMDescription, statistics: InfoStatistics? = nil, format: InfoFormat, console: Console) -> Int32 {
        let extent = info.extentLonLat
        let resolution = info.resolutionMetres
        let range = info.elevationRange
        if format == .json {
            let json = JSON.object(
                [
                    ("dem", .string(info.label)),
                    ("files", .array(info.paths.map { .string($0) })),
                    ("driver", .string(info.driverName)),
                    ("width", .number(Double(info.width))), ("height", .number(Double(info.height))),
                    ("data_type", .string(info.dataTypeName)),
                    ("crs", .string(info.crsLabel)), ("crs_assumed", .bool(info.crsAssumed)),
                    (
                        "extent_lonlat",
                        .object([
                            ("west", .number(extent.west, decimals: 9)), ("south", .number(extent.south, decimals: 9)),
                            ("east", .number(extent.east, decimals: 9)), ("north", .number(extent.north, decimals: 9)),
                        ])
                    ),
                    ("resolution_m", .object([("x", .number(resolution.x, decimals: 6)), ("y", .number(resolution.y, decimals: 6))])),
                    ("nodata", info.noDataValue.map { .number($0) } ?? .null),
                    ("vertical_unit", .string(info.unitType.isEmpty ? "m (assumed)" : info.unitType)),
                    ("min_elevation_m", .number(range?.min, decimals: 6)), ("max_elevation_m", .number(range?.max, decimals: 6)),
                    ("range_approximate", .bool(range?.approximate ?? false)),
                ] + (statistics.map { [("network", $0.json)] } ?? []))
            console.out(json.serialized() + "\n")
            return 0
        }
        func deg(_ v: Double) -> String { Fixed.format(v, decimals: 6) }
        var lines: [String] = []
        lines.append("DEM:         \(info.label)\(info.paths.count > 1 ? " (\(info.paths.count) tiles)" : "")")
        lines.append("Driver:      \(info.driverName)")
        lines.append("Size:        \(info.width) × \(info.height) cells, \(info.dataTypeName)")
        lines.append("CRS:         \(info.crsLabel)\(info.crsAssumed ? " (assumed: none recorded)" : "")")
        lines.append("Extent:      lon \(deg(extent.west)) … \(deg(extent.east)), lat \(deg(extent.south)) … \(deg(extent.north))")
        lines.append("Resolution:  \(NumberFormatting.grouped(resolution.x)) m × \(NumberFormatting.grouped(resolution.y)) m at the centre")
        lines.append("No data:     \(info.noDataText ?? "none")")
        lines.append("Unit:        \(info.unitType.isEmpty ? "m (assumed)" : info.unitType)")
        if let range {
            lines.append(
                "Elevation:   \(NumberFormatting.grouped(range.min)) m … \(NumberFormatting.grouped(range.max)) m\(range.approximate ? " (approximate)" : "")")
        } else {
            lines.append("Elevation:   no data in the DEM")
        }
        lines += statistics?.lines ?? []
        console.out(lines.joined(separator: "\n") + "\n")
        return 0
    }
}
