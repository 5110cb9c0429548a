import TransectCore
import TransectGDAL
import TransectFormats

/// The DEM, geoid and input-CRS options that several subcommands share.
struct TerrainOptions {
    /// The embedded default surface: ETOPO5 from Debian's ferret-datasets.
    static let defaultSurfacePath = "/usr/share/ferret-vis/data/etopo5.cdf"
    /// EGM96 at 15′ from Debian's proj-data.
    static let egm96Path = "/usr/share/proj/egm96_15.gtx"

    static let specs: [OptionSpec] = [
        OptionSpec(name: "dem", repeatable: true),
        // -r as gdalwarp and gdal_translate spell the resampling method.
        OptionSpec(name: "interpolation", short: "r"),
        OptionSpec(name: "geoid"),
        OptionSpec(name: "crs", canonical: epsgCode),
        OptionSpec(name: "allow-network", takesValue: false),
    ]

    /// A bare EPSG code (`32611`, as QGIS and pyproj users write it) as `EPSG:32611`; any other
    /// definition as given. GDAL's own reader takes no bare numbers.
    @Sendable static func epsgCode(_ definition: String) -> String {
        let digits = definition.trimmingAsciiSpaces
        guard (1...9).contains(digits.utf8.count), digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return definition
        }
        return "EPSG:" + digits
    }

    /// The interpolation a name denotes: `nearest` (also GDAL's `near`), `bilinear`, `cubic`;
    /// case ignored.
    static func interpolation(named name: String) -> Interpolation? {
        let key = name.lowercased()
        return key == "near" ? .nearest : Interpolation(rawValue: key)
    }

    var demSpecs: [String]
    var interpolation: Interpolation
    var geoidPath: String?
    var crs: String?
    /// `--allow-network`: GDAL may read network and cloud paths, with bounded time-outs.
    var access: DataAccess

    init(_ args: ParsedArguments) throws(CLIError) {
        demSpecs = args.all("dem")
        let method = args.value("interpolation") ?? "bilinear"
        guard let i = Self.interpolation(named: method) else {
            throw .usage("option '--interpolation': '\(method.printable)' is not nearest (near), bilinear or cubic", command: args.command)
        }
        interpolation = i
        switch args.value("geoid") {
        case nil: geoidPath = nil
        case "egm96"?: geoidPath = Self.egm96Path
        case let path?: geoidPath = path
        }
        crs = args.value("crs")
        if let crs {
            // Checked where it enters: points in a geocentric or vertical CRS have no place on
            // the ellipsoid to measure from (EPSG:4978 gave 0.00 m).
            let reference: SpatialReference
            do { reference = try SpatialReference(crs) } catch {
                throw .usage("option '--crs': \(error.message)", command: args.command)
            }
            guard reference.isHorizontal else {
                throw .usage("option '--crs': \(reference.label) is a \(reference.kind) CRS, not a geographic or projected one", command: args.command)
            }
        }
        access = DataAccess(allowNetwork: args.has("allow-network"))
    }

    /// Opens the DEMs, or the default surface with a note on stderr.
    func openDEM(console: Console) throws(TerrainError) -> ElevationModel {
        let model: ElevationModel
        if demSpecs.isEmpty {
            model = try ElevationModel([Self.defaultSurfacePath])
            console.err("note: no --dem given; heights come from ETOPO5, a 5-arc-minute (about 9 km) global relief grid (\(Self.defaultSurfacePath))\n")
        } else {
            model = try ElevationModel(demSpecs, access: access)
        }
        for note in model.notes where !demSpecs.isEmpty { console.err(note + "\n") }
        return model
    }

    func openGeoid() throws(TerrainError) -> ElevationModel? {
        guard let geoidPath else { return nil }
        return try ElevationModel([geoidPath], access: access)
    }

    /// Turns points written in `--crs` (or WGS84 longitude/latitude) into WGS84 points,
    /// checking ranges. `names` label each point in messages (`--from`, `row 3 from`).
    func toWGS84(_ points: [PointArgument]) throws(TerrainError) -> [GeoPoint] {
        var xs = points.map(\.x), ys = points.map(\.y)
        if let crs {
            let source = try SpatialReference(crs)
            let transformer = try CoordinateTransformer(from: source, to: .wgs84())
            transformer.transform(x: &xs, y: &ys)
        }
        return (0..<points.count).map { GeoPoint(longitude: xs[$0], latitude: ys[$0]) }
    }
}
