import TransectCore
import TransectFormats
import TransectGDAL

/// `transect info`: what a DEM is, where it is, how fine, and its elevation range.
enum InfoCommand {
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        // `transect info FILE` is accepted as well as `--dem FILE`.
        let specsGiven = try args.values(CommonOptions.dem) + args.positionals
        let format = try args.value(InfoOptions.format)
        let model =
            specsGiven.isEmpty
            ? try ElevationModel([TerrainOptions.defaultSurfacePath])
            : try ElevationModel(specsGiven, access: DataAccess(allowNetwork: args.value(CommonOptions.allowNetwork)))
        for note in model.notes { console.err(note + "\n") }
        let extent = try model.extentLonLat()
        let resolution = try model.resolutionMetres()
        let range = try model.elevationRange()
        if format == "json" {
            let json = JSON.object([
                ("dem", .string(model.label)),
                ("files", .array(model.paths.map { .string($0) })),
                ("driver", .string(model.driverName)),
                ("width", .number(Double(model.width))), ("height", .number(Double(model.height))),
                ("data_type", .string(model.dataTypeName)),
                ("crs", .string(model.crs.label)), ("crs_assumed", .bool(model.crsAssumed)),
                (
                    "extent_lonlat",
                    .object([
                        ("west", .number(extent.west, decimals: 9)), ("south", .number(extent.south, decimals: 9)),
                        ("east", .number(extent.east, decimals: 9)), ("north", .number(extent.north, decimals: 9)),
                    ])
                ),
                ("resolution_m", .object([("x", .number(resolution.x, decimals: 6)), ("y", .number(resolution.y, decimals: 6))])),
                ("nodata", model.noDataValue.map { .number($0) } ?? .null),
                ("vertical_unit", .string(model.unitType.isEmpty ? "m (assumed)" : model.unitType)),
                ("min_elevation_m", .number(range?.min, decimals: 6)), ("max_elevation_m", .number(range?.max, decimals: 6)),
                ("range_approximate", .bool(range?.approximate ?? false)),
            ])
            console.out(json.serialized() + "\n")
            return 0
        }
        func deg(_ v: Double) -> String { Fixed.format(v, decimals: 6) }
        var lines: [String] = []
        lines.append("DEM:         \(model.label)\(model.paths.count > 1 ? " (\(model.paths.count) tiles)" : "")")
        lines.append("Driver:      \(model.driverName)")
        lines.append("Size:        \(model.width) × \(model.height) cells, \(model.dataTypeName)")
        lines.append("CRS:         \(model.crs.label)\(model.crsAssumed ? " (assumed: none recorded)" : "")")
        lines.append("Extent:      lon \(deg(extent.west)) … \(deg(extent.east)), lat \(deg(extent.south)) … \(deg(extent.north))")
        lines.append("Resolution:  \(NumberFormatting.grouped(resolution.x)) m × \(NumberFormatting.grouped(resolution.y)) m at the centre")
        lines.append("No data:     \(model.noDataText ?? "none")")
        lines.append("Unit:        \(model.unitType.isEmpty ? "m (assumed)" : model.unitType)")
        if let range {
            lines.append(
                "Elevation:   \(NumberFormatting.grouped(range.min)) m … \(NumberFormatting.grouped(range.max)) m\(range.approximate ? " (approximate)" : "")")
        } else {
            lines.append("Elevation:   no data in the DEM")
        }
        console.out(lines.joined(separator: "\n") + "\n")
        return 0
    }
}
