import TransectFormatsBase
import TransectGDAL
import TransectGeodesy
import TransectRaster

/// The DEM, geoid and input-CRS options that several subcommands share (declared in
/// ``CommonOptions``), read.
package struct TerrainOptions {
    /// The embedded default surface: ETOPO5 from Debian's ferret-datasets.
    package static let defaultSurfacePath = "/usr/share/ferret-vis/data/etopo5.cdf"
    /// The default surface as an attribution names it.
    package static let defaultSurfaceName = "ETOPO5 5′ global relief"

    package var demSpecs: [String]
    package var interpolation: Interpolation
    package var geoidPath: String?
    package var crs: String?
    /// `--allow-network`: GDAL may read network and cloud paths, with bounded time-outs.
    package var access: DataAccess
    /// `--nodata`: none, one for every DEM, or one for each `--dem`.
    package var noData: [Double]

    /// Reads the options of these that the command declares.
    package init(_ args: ParsedArguments) throws(CLIError) {
        demSpecs = args.all(CommonOptions.dem.name)
        interpolation = try args.declares(CommonOptions.interpolation.name) ? args.value(CommonOptions.interpolation) : .bilinear
        geoidPath = try args.declares(CommonOptions.geoid.name) ? args.value(CommonOptions.geoid) : nil
        crs = try args.declares(CommonOptions.crs.name) ? args.value(CommonOptions.crs) : nil
        access = try Self.access(args)
        noData = try Self.noData(args, demCount: demSpecs.count)
        if let crs { try Self.checkHorizontal(crs: crs, args) }
    }

    /// The `--nodata` values, checked against the `demCount` DEMs given: none, one, or one
    /// for each.
    package static func noData(_ args: ParsedArguments, demCount: Int) throws(CLIError) -> [Double] {
        guard args.declares(CommonOptions.noData.name) else { return [] }
        let values = try args.values(CommonOptions.noData)
        guard !values.isEmpty else { return [] }
        guard demCount > 0 else {
            throw Option<Double?>.refuse("nodata", "overrides the no-data value of the DEMs given; give --dem", args)
        }
        guard values.count == 1 || values.count == demCount else {
            throw Option<Double?>.refuse(
                "nodata",
                "given \(values.count) times for \(demCount) DEMs; give it once for every DEM, or once for each in the order of the DEMs",
                args)
        }
        return values
    }

    /// What GDAL may read: `--allow-network` and `--confine` (nil without it), for the commands
    /// that declare them.
    package static func access(_ args: ParsedArguments) throws(CLIError) -> DataAccess {
        let confined = try args.declares(CommonOptions.confine.name) ? args.values(CommonOptions.confine) : []
        let timeout = try args.declares(CommonOptions.timeout.name) ? args.value(CommonOptions.timeout) : nil
        if timeout != nil && !args.has(CommonOptions.allowNetwork) {
            throw Option<Int?>.refuse("timeout", "bounds network reads; give --allow-network", args)
        }
        return DataAccess(allowNetwork: args.has(CommonOptions.allowNetwork), confinement: confined.isEmpty ? nil : confined, timeoutSeconds: timeout)
    }

    /// Refuses a `--crs` PROJ does not know as a geographic or projected CRS: points in a
    /// geocentric or vertical CRS have no place on the ellipsoid to measure from (EPSG:4978
    /// gave 0.00 m).
    package static func checkHorizontal(crs text: String, _ args: ParsedArguments) throws(CLIError) {
        let reference: SpatialReference
        do throws(TerrainError) { reference = try SpatialReference(text) } catch {
            if case .missingPROJDatabase = error { throw CLIError.badInput(error.message) }
            throw Option<String?>.refuse("crs", error.message, args)
        }
        guard reference.isHorizontal else {
            throw Option<String?>.refuse("crs", "\(reference.label) is a \(reference.kind) CRS, not a geographic or projected one", args)
        }
    }

    /// Opens the DEMs, or the default surface with a note on stderr; `readsWholeEarly` as
    /// ``ElevationModel/init(_:access:noData:readsWholeEarly:)`` takes it.
    package func openDEM(console: Console, readsWholeEarly: Bool = false) throws(TerrainError) -> ElevationModel {
        let model: ElevationModel
        if demSpecs.isEmpty {
            model = try ElevationModel([Self.defaultSurfacePath], readsWholeEarly: readsWholeEarly)
            console.err("note: no --dem given; heights come from ETOPO5, a 5-arc-minute (about 9 km) global relief grid (\(Self.defaultSurfacePath))\n")
        } else {
            model = try ElevationModel(demSpecs, access: access, noData: noData, readsWholeEarly: readsWholeEarly)
        }
        for note in model.notes where !demSpecs.isEmpty { console.err(note + "\n") }
        return model
    }

    /// The measurer these options describe: `model` for heights, the `--geoid` grid (opened
    /// here), the interpolation.
    package func measurer(model: ElevationModel?, aboveGroundMetres: Double) throws(TerrainError) -> TerrainMeasurer {
        var geoid: Geoid?
        if let geoidPath { geoid = try Geoid(path: geoidPath, access: access) }
        return TerrainMeasurer(model: model, geoid: geoid, aboveGroundMetres: aboveGroundMetres, interpolation: interpolation)
    }

    /// Turns points written in `--crs` (or WGS84 longitude/latitude) into WGS84 points; the
    /// caller checks their ranges.
    package func toWGS84(_ points: [PointArgument]) throws(TerrainError) -> [GeoPoint] {
        var xs = points.map(\.x)
        var ys = points.map(\.y)
        try InputCRS(crs).toWGS84(x: &xs, y: &ys)
        return (0..<points.count).map { GeoPoint(longitude: xs[$0], latitude: ys[$0]) }
    }
}

/// Coordinates written in `--crs` into WGS84 longitude/latitude: the one conversion every
/// command's points go through (`--from`/`--to`, `--path`, `--measure`, `--pairs` rows).
package struct InputCRS {
    /// nil without `--crs`: the coordinates are longitude/latitude already.
    package let transformer: CoordinateTransformer?

    package init(_ crs: String?) throws(TerrainError) {
        transformer = try crs.map { (crs: String) throws(TerrainError) in try CoordinateTransformer(from: SpatialReference(crs), to: try .wgs84()) }
    }

    /// `x`, `y` as longitudes and latitudes, in place; a point PROJ cannot transform becomes NaN.
    package func toWGS84(x: inout [Double], y: inout [Double]) throws(TerrainError) {
        try transformer?.transform(x: &x, y: &y)
    }
}
