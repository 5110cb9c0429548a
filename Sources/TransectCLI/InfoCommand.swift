import TransectFormats
import TransectGDAL
import TransectSupport

/// `transect info`: what a DEM is, where it is, how fine, and its elevation range; each DEM
/// named on its own, as `gdalinfo` describes a file, or all as one mosaic with `--mosaic`.
enum InfoCommand {
    /// Opens each DEM (or the default surface), describes it with one
    /// ``ElevationModel/describe()`` call and writes the descriptions: text blocks apart by a
    /// blank line, or JSON (one object, or an array of them for several DEMs).
    static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        // `transect info FILE` is accepted as well as `--dem FILE`.
        let specsGiven = try args.values(CommonOptions.dem) + args.positionals
        let format = try args.value(InfoOptions.format)
        let access = try TerrainOptions.access(args)
        let noData = try TerrainOptions.noData(args, demCount: specsGiven.count)
        let stats = try args.value(InfoOptions.stats)
        // The DEMs to describe, each with its --nodata values.
        var groups: [(specs: [String], noData: [Double])] = []
        if try args.value(InfoOptions.mosaic) || specsGiven.count <= 1 {
            groups = [(specsGiven, noData)]
        } else {
            for (k, spec) in specsGiven.enumerated() { groups.append(([spec], noData.isEmpty ? [] : [noData[noData.count == 1 ? 0 : k]])) }
        }
        var descriptions: [(DEMDescription, InfoStatistics?)] = []
        for group in groups {
            func open() throws -> ElevationModel {
                group.specs.isEmpty
                    ? try ElevationModel([TerrainOptions.defaultSurfacePath]) : try ElevationModel(group.specs, access: access, noData: group.noData)
            }
            guard stats else {
                let model = try open()
                for note in model.notes { console.err(note + "\n") }
                descriptions.append((try model.describe(), nil))
                continue
            }
            var statistics = InfoStatistics()
            let model: ElevationModel
            (model, statistics.open) = try InfoStatistics.counting(open)
            for note in model.notes { console.err(note + "\n") }
            (_, statistics.point) = try InfoStatistics.counting { try InfoStatistics.readCentre(of: model) }
            let description: DEMDescription
            (description, statistics.description) = try InfoStatistics.counting { try model.describe() }
            descriptions.append((description, statistics))
        }
        if format == .json {
            let objects = descriptions.map { json($0.0, statistics: $0.1) }
            console.out((objects.count == 1 ? objects[0] : .array(objects)).serialized() + "\n")
        } else {
            console.out(descriptions.map { text($0.0, statistics: $0.1) }.joined(separator: "\n"))
        }
        return 0
    }

    /// The description as one JSON object; with `statistics` (`--stats`), what each step asked
    /// of the network.
    static func json(_ info: DEMDescription, statistics: InfoStatistics?) -> JSON {
        let extent = info.extentLonLat
        let resolution = info.resolutionMetres
        let range = info.elevationRange
        return JSON.object(
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
                ("nodata", info.noDataValue.map { .number($0) } ?? .null), ("nodata_given", .bool(info.noDataGiven)),
                ("vertical_unit", .string(info.unitType.isEmpty ? "m (assumed)" : info.unitType)),
                ("min_elevation_m", .number(range?.min, decimals: 6)), ("max_elevation_m", .number(range?.max, decimals: 6)),
                ("range_approximate", .bool(range?.approximate ?? false)),
            ] + (statistics.map { [("network", $0.json)] } ?? []))
    }

    /// The description as text lines; with `statistics` (`--stats`), what each step asked of
    /// the network follows.
    static func text(_ info: DEMDescription, statistics: InfoStatistics?) -> String {
        let extent = info.extentLonLat
        let resolution = info.resolutionMetres
        let range = info.elevationRange
        func deg(_ v: Double) -> String { Fixed.format(v, decimals: 6) }
        var lines: [String] = []
        lines.append("DEM:         \(info.label)\(info.paths.count > 1 ? " (\(info.paths.count) tiles)" : "")")
        lines.append("Driver:      \(info.driverName)")
        lines.append("Size:        \(info.width) × \(info.height) cells, \(info.dataTypeName)")
        lines.append("CRS:         \(info.crsLabel)\(info.crsAssumed ? " (assumed: none recorded)" : "")")
        lines.append("Extent:      lon \(deg(extent.west)) … \(deg(extent.east)), lat \(deg(extent.south)) … \(deg(extent.north))")
        lines.append("Resolution:  \(NumberFormatting.grouped(resolution.x)) m × \(NumberFormatting.grouped(resolution.y)) m at the centre")
        lines.append("No data:     \(info.noDataText ?? "none")\(info.noDataGiven ? " (--nodata)" : "")")
        lines.append("Unit:        \(info.unitType.isEmpty ? "m (assumed)" : info.unitType)")
        if let range {
            lines.append(
                "Elevation:   \(NumberFormatting.grouped(range.min)) m … \(NumberFormatting.grouped(range.max)) m\(range.approximate ? " (approximate)" : "")")
        } else {
            lines.append("Elevation:   no data in the DEM")
        }
        lines += statistics?.lines ?? []
        return lines.joined(separator: "\n") + "\n"
    }
}
