import TransectGeodesy
import TransectSupport

/// What can go wrong reading terrain: each case names the input and the problem.
public enum TerrainError: UserFacingError, Equatable {
    /// The path names nothing GDAL can open as a raster.
    case cannotOpen(path: String, reason: String)
    /// A directory or glob matched no raster files.
    case noRasters(pattern: String)
    /// The raster has no band, or one GDAL cannot read.
    case unusableRaster(path: String, reason: String)
    /// The tiles cannot be mosaicked together (for example, different CRSs).
    case cannotMosaic(reason: String)
    /// A CRS string that GDAL and PROJ do not understand.
    case badCRS(String, reason: String)
    /// A coordinate transformation that PROJ cannot build or apply.
    case cannotTransform(from: String, to: String, reason: String)
    /// A point that lies outside every DEM.
    case outsideCoverage(point: String, dem: String)
    /// A point that lies on no data.
    case noData(point: String, dem: String)
    /// An image given as a basemap that cannot be opened or is not georeferenced.
    case unusableImage(path: String, reason: String)
    /// A GIS layer of points (`viewshed --observers FILE.gpkg`) that cannot be read as such.
    case unusableLayer(path: String, reason: String)
    /// A height (after scale, offset and unit conversion) beyond ±100,000 km: no terrain, and
    /// statistics over it would overflow. `point` is where it was sampled.
    case implausibleHeight(path: String, metres: Double, point: String)
    /// Reading pixels failed.
    case readFailed(path: String, reason: String)
    /// An image GDAL could not write (a GeoTIFF figure).
    case cannotWriteImage(path: String, reason: String)
    /// A GIS layer file (GeoJSON, GeoPackage, FlatGeobuf) could not be written.
    case cannotWriteLayer(path: String, reason: String)
    /// A network path, or a raster that references one, without `--allow-network`. `source` is
    /// the reference inside `path`, or nil when `path` itself is on the network.
    case networkNotAllowed(path: String, source: String?)
    /// A DEM (`source` nil) or a file it references (`source`) outside the directories
    /// `--confine` names (real paths, in `directories`).
    case outsideConfinement(path: String, source: String?, directories: [String])
    /// PROJ's database (`proj.db`) cannot be found or read: no CRS can be built. `reason` is
    /// the message of the failed lookup of EPSG:4326.
    case missingPROJDatabase(reason: String)

    public var message: String {
        switch self {
        case .cannotOpen(let path, let reason): "DEM '\(path)': cannot open: \(GDALReason.tidy(reason, path: path))"
        case .noRasters(let pattern): "DEM '\(pattern)': no raster files found"
        case .unusableRaster(let path, let reason): "DEM '\(path)': \(reason)"
        case .cannotMosaic(let reason): "cannot mosaic the DEMs: \(reason)"
        case .badCRS(let crs, let reason): "CRS '\(crs)': \(reason)"
        case .cannotTransform(let from, let to, let reason): "cannot transform from \(from) to \(to): \(reason)"
        case .outsideCoverage(let point, let dem): "point \(point) is outside the DEM '\(dem)'"
        case .noData(let point, let dem): "point \(point) falls on no data in the DEM '\(dem)'"
        case .unusableImage(let path, let reason): "image '\(path)': \(reason)"
        case .unusableLayer(let path, let reason): "layer '\(path)': \(reason)"
        case .implausibleHeight(let path, let metres, let point) where !metres.isFinite:
            "DEM '\(path)': the height at \(point) overflows a double (its scale or offset is too large); no terrain is beyond \(GeoPoint.heightLimitText)"
        case .implausibleHeight(let path, let metres, let point):
            "DEM '\(path)': height \(NumberFormatting.shortest(metres)) m at \(point) is beyond \(GeoPoint.heightLimitText)"
        case .readFailed(let path, let reason): "DEM '\(path)': read failed: \(GDALReason.tidy(reason, path: path))"
        case .cannotWriteImage(let path, let reason): "cannot write '\(path)': \(reason)"
        case .cannotWriteLayer(let path, let reason): "cannot write '\(path)': \(reason)"
        case .networkNotAllowed(let path, nil):
            "DEM '\(path)': reaches the network; Transect reads it only with --allow-network"
        case .networkNotAllowed(let path, let source?):
            "DEM '\(path)': source '\(source)' reaches the network; Transect reads it only with --allow-network"
        case .outsideConfinement(let path, nil, let directories):
            "DEM '\(path)': lies outside the directories given with --confine (\(directories.joined(separator: ", ")))"
        case .outsideConfinement(let path, let source?, let directories):
            "DEM '\(path)': source '\(source)' lies outside the directories given with --confine (\(directories.joined(separator: ", ")))"
        case .missingPROJDatabase(let reason):
            "PROJ's database cannot be read (\(reason)): no coordinate can be transformed; install PROJ's data files (Debian: proj-data) or set PROJ_DATA to the directory that holds proj.db"
        }
    }

    /// A network DEM whose server could not be reached, did not answer in time or stopped
    /// sending (curl's connection and time-out errors, which GDAL passes on, and a block read
    /// that came back short once the DEM had opened): worth retrying, so the CLI exits with 75
    /// (EX_TEMPFAIL); so is a transformation whose grid PROJ could not fetch for the same
    /// reasons (with `PROJ_NETWORK=ON`). A server that answered with an error (403, 404) is not,
    /// nor is a block that arrived whole and does not decode.
    public var isTemporary: Bool {
        switch self {
        case .cannotOpen(let path, let reason):
            return SourceConfinement.isNetwork(path) && Self.mentions(reason, Self.temporaryNetworkReasons)
        case .readFailed(let path, let reason):
            return SourceConfinement.isNetwork(path) && Self.mentions(reason, Self.transferReasons)
        case .cannotTransform(_, _, let reason):
            // PROJ's grids come over the network only with PROJ_NETWORK=ON and --allow-network.
            return Self.mentions(reason, Self.temporaryNetworkReasons)
        default: return false
        }
    }

    static func mentions(_ reason: String, _ phrases: [String]) -> Bool {
        let lower = reason.lowercased()
        return phrases.contains { lower.contains($0) }
    }

    /// Phrases of curl's messages for a server that is unreachable or slow.
    static let temporaryNetworkReasons = [
        "couldn't connect", "could not connect", "failed to connect", "connection refused", "timed out", "timeout",
        "couldn't resolve", "could not resolve", "connection reset", "empty reply", "recv failure", "send failure",
    ]

    /// Phrases of a read that returned fewer bytes than the file holds there: libtiff's "Read
    /// error at row …; got 0 bytes, expected …" (tiles) and "Read error on strip …" (strips),
    /// which is what a block read says when the server stops answering after the header.
    static let shortReadReasons = ["read error at", "read error on", "bytes, expected"]

    /// Both: the phrases of a transfer that failed.
    static let transferReasons = temporaryNetworkReasons + shortReadReasons

    /// A CRS string is given on the command line, so a bad one is a usage error; so is a
    /// network path named without `--allow-network`.
    public var isUsageError: Bool {
        switch self {
        case .badCRS, .networkNotAllowed(_, nil): true
        default: false
        }
    }
}
