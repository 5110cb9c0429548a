import TransectAnalysis
import TransectFormatsBase
import TransectGDAL

/// `transect measure`: direct, horizontal and vertical distance between two endpoints, or a
/// streamed batch of pairs.
package enum MeasureCommand {
    /// The command's entry in the command table: its help, usage, options and what runs it.
    package static let command = Command(
        name: "measure", summary: "Direct, horizontal and vertical distance between two points",
        usage: [
            "transect measure [--dem PATH…] --from LON,LAT[,Z] --to LON,LAT[,Z] [options]",
            "transect measure [--dem PATH…] --pairs FILE|- [--out FILE] [--strict]",
            "transect measure [--dem PATH…] --pairs FILE --shard K/N|auto [--out PART [--skip-existing]]",
        ],
        description: "Measure the direct (3D), horizontal (geodesic) and vertical distance between two points.",
        options: MeasureOptions.all,
        notes: """
            Horizontal is the geodesic on the WGS84 ellipsoid (Karney); vertical is end minus start
            elevation; direct is the straight line between the points in earth-centred coordinates.
            """,
        run: { args, console in try run(args, console: console) })

    /// Parses the two endpoints (or hands a `--pairs` batch on), measures them with one
    /// ``TerrainMeasurer`` call, and writes the label or the JSON object.
    package static func run(_ args: ParsedArguments, console: Console) throws -> Int32 {
        try args.expectNoPositionals()
        let terrain = try TerrainOptions(args)
        let units = try args.value(MeasureOptions.units)
        let aboveGround = try args.value(MeasureOptions.aboveGround)
        let format = try args.value(MeasureOptions.format)
        let threads = try CommonOptions.threadCount(args)
        try MeasureOptions.validate(args, format: format)
        let maxSegment = try args.value(MeasureOptions.maxSegment)
        let layer = format.layer.map { (format: $0, maxSegmentMetres: maxSegment) }

        if let pairsPath = try args.value(MeasureOptions.pairs) {
            let out = try args.value(MeasureOptions.out)
            let shard = try shardArgument(args, pairsPath: pairsPath, out: out)
            return try runPairs(
                path: pairsPath, terrain: terrain, aboveGround: aboveGround,
                strict: try args.value(MeasureOptions.strict), out: out,
                threads: threads, shard: shard, skipExisting: try args.value(MeasureOptions.skipExisting), layer: layer,
                console: console)
        }
        let pair = try endpoints(args, terrain: terrain)
        let model = pair.fromZ == nil || pair.toZ == nil ? try terrain.openDEM(console: console) : nil
        let measured = try terrain.measurer(model: model, aboveGroundMetres: aboveGround).measure(pair)

        var files = RunFiles()
        files.inputs(dem: model, terrain: terrain)
        let out = try args.value(MeasureOptions.out)
        files.output("-o", out)
        try files.check(command: "measure")
        if let layer, let out {
            let output = try LayerOutput(path: out, format: layer.format, transaction: nil)
            let handle = try MeasurementsLayer.create(in: output)
            let feature = MeasurementsLayer.feature(
                number: 1, id: "1", pair: pair, result: .success(measured.measurement), maxSegmentMetres: layer.maxSegmentMetres)
            try MeasurementsLayer.write(feature, to: handle, of: output)
            try output.commit()
            return 0
        }
        let output = try OutputTarget(path: out, console: console)
        output.write(MeasureOutput.document(measured, format: format, units: units, dem: model?.label, geoid: terrain.geoidPath))
        try output.commit()
        return 0
    }

    /// `--from` and `--to`, in WGS84, with their given heights.
    package static func endpoints(_ args: ParsedArguments, terrain: TerrainOptions) throws -> MeasurementPair {
        guard let fromText = args.value(MeasureOptions.from.name) else { throw CLIError.usage("missing --from LON,LAT[,Z]", command: "measure") }
        guard let toText = args.value(MeasureOptions.to.name) else { throw CLIError.usage("missing --to LON,LAT[,Z]", command: "measure") }
        let from = try MeasureOptions.from.parse(fromText, args)
        let to = try MeasureOptions.to.parse(toText, args)
        let wgs = try PointOptions.geographic(
            [.init(option: "from", text: fromText, point: from), .init(option: "to", text: toText, point: to)],
            terrain: terrain, command: "measure")
        return MeasurementPair(from: wgs[0], to: wgs[1], fromZ: from.z, toZ: to.z)
    }
}
