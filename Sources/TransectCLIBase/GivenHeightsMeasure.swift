import TransectAnalysis
import TransectGeodesy

/// `transect measure --from LON,LAT,Z --to LON,LAT,Z`, both heights given and nothing else
/// that needs GDAL or PROJ: the one command the `transect` launcher runs itself, so that it
/// starts without loading GDAL, PROJ, cairo, libpng or Foundation.
///
/// It takes a command line only when it is certainly such a measure: valid, writing text or
/// JSON to stdout, with no option beyond ``options``. Any other command line, and every one
/// that is wrong in any way, is left to the command line libraries (`run` returns nil), so
/// help, messages and exit codes have one source. What it prints is what the full `measure`
/// prints: the same options parse the same text, and ``MeasureOutput`` writes the result.
package enum GivenHeightsMeasure {
    /// The options such a measure may carry. Any other one (`--dem`, `--geoid`, `--crs`,
    /// `--pairs`, `-o`, `-r`, `--help`, …) sends the command line on.
    package static let options: Set<String> = [
        MeasureOptions.from.name, MeasureOptions.to.name, MeasureOptions.units.name, MeasureOptions.format.name,
        MeasureOptions.aboveGround.name,
    ]

    /// Runs `arguments` (without the program name) and returns the exit code when they are such
    /// a measure; nil, having written nothing, when they are not.
    package static func run(_ arguments: [String], console: Console) -> Int32? {
        guard let (measured, format, units) = request(arguments) else { return nil }
        console.out(MeasureOutput.document(measured, format: format, units: units, dem: nil, geoid: nil))
        return 0
    }

    /// The measurement, format and units `arguments` ask for, or nil unless they are certainly
    /// a measure of this kind that the full command line would run without an error.
    static func request(_ arguments: [String]) -> (MeasuredPair, format: MeasureFormat, units: UnitSystem)? {
        guard arguments.first == "measure",
            let args = try? ParsedArguments(Array(arguments.dropFirst()), specs: MeasureOptions.all, command: "measure"),
            args.positionals.isEmpty, MeasureOptions.all.allSatisfy({ options.contains($0.name) || !args.has($0.name) }),
            let units = try? args.value(MeasureOptions.units), (try? args.value(MeasureOptions.aboveGround)) != nil,
            let format = try? args.value(MeasureOptions.format), format == .text || format == .json,
            let from = try? args.value(MeasureOptions.from), let to = try? args.value(MeasureOptions.to),
            let fromZ = from.z, let toZ = to.z,
            PointArgument.checkGeographic(longitude: from.x, latitude: from.y) == nil,
            PointArgument.checkGeographic(longitude: to.x, latitude: to.y) == nil
        else { return nil }
        let measurement = Measurement(
            start: GeoPoint(longitude: from.x, latitude: from.y, heightMetres: fromZ),
            end: GeoPoint(longitude: to.x, latitude: to.y, heightMetres: toZ))
        return (MeasuredPair(measurement: measurement, startSource: .given, endSource: .given), format, units)
    }
}
