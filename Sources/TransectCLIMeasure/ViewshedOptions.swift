import TransectGDAL
import TransectGeodesy
import TransectSupport
import TransectVisibility

/// What `viewshed -o` holds.
enum ViewshedProduct: String, OptionChoice {
    /// Byte classes: visible 255, hidden 0, unknown 2, out of range 1 (for several observers,
    /// visible from any, else unknown from any, else hidden from any, else out of range).
    case visibility
    /// UInt32: how many observers see each cell.
    case count
    /// UInt64: bit k set where observer k (in file order) sees the cell; up to 64 observers.
    case mask
    /// Float32: the least target height above the ground that would be visible (one observer).
    case minHeight = "min-height"
    /// Float32: the target's angle above the horizon in its direction, degrees (one observer).
    case angle
}

/// What `viewshed` prints on stdout.
enum ViewshedFormat: String, OptionChoice {
    case text, json
}

/// The options of `transect viewshed`, each declared once.
enum ViewshedOptions {
    static let observer: Option<PointArgument> = {
        var observer = Option.point(
            "observer", value: "LON,LAT[,Z]",
            help: "An observer; with Z, its eye's height above the DEM's datum instead of --observer-height above the ground. Repeatable.")
        observer.spec.kind = .repeatable
        return observer
    }()
    static let observers = Option.text(
        "observers", value: "FILE",
        help:
            "Observers from a CSV (lon, lat and optionally name, z, height, target_height columns), GeoJSON Points (the same as properties; a third coordinate is z) or a GeoPackage's points (the same fields, in its CRS); - reads stdin."
    )
    static let observerHeight = Option.number(
        "observer-height", value: "M", help: "Eye height above the terrain, for observers without z or height.",
        in: InputLimits.heightMetres, unit: " m", default: 1.7)
    static let targetHeight = Option.number(
        "target-height", value: "M", help: "Target height above the terrain of every cell, for observers without target_height.",
        in: InputLimits.heightMetres, unit: " m", default: 0)
    static let maxDistance = Option.positive(
        "max-distance", value: "M", help: "Cells farther than M metres are out of range (default: the whole DEM).",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m")
    static let minDistance = Option.number(
        "min-distance", value: "M", help: "Cells nearer than M metres are out of range.", in: 0...InputLimits.lengthMetres.upperBound, unit: " m",
        default: 0)
    static let azimuth = Option<(Double, Double)?>(
        spec: OptionSpec(name: "azimuth", valueName: "A1:A2", help: "Only cells in the directions clockwise from A1 to A2 degrees (e.g. 300:60)."),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in try range("azimuth", text, within: -360...720, args) })
    static let pitch = Option<(Double, Double)?>(
        spec: OptionSpec(
            name: "pitch", valueName: "P1:P2", help: "Only cells whose sight line's pitch lies from P1 to P2 degrees above the level (e.g. -10:90)."),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in
            guard let r = try range("pitch", text, within: -90...90, args), r.0 <= r.1 else {
                throw Option<String>.refuse("pitch", "'\(text.printable)': P1 must not exceed P2", args)
            }
            return r
        })
    static let product = Option<ViewshedProduct>(
        spec: OptionSpec(
            name: "output", valueName: "WHAT",
            help:
                "What -o holds: visibility (Byte: visible 255, hidden 0, unknown 2, out of range 1), count (UInt32: observers that see each cell), mask (UInt64: bit k for observer k, up to 64), min-height (Float32 metres) or angle (Float32 degrees above the horizon; these two for one observer).",
            defaultText: "visibility for one observer, count for several"),
        defaultValue: { _ in .visibility },
        parse: { text, args throws(CLIError) in try Option<ViewshedProduct>.pick("output", text, args) })
    static let horizon = Option.text(
        "horizon", value: "FILE.csv", help: "Also write the horizon: each sight ray's azimuth, elevation angle and distance (one observer).")
    static let shard = Option.text(
        "shard", value: "K/N|auto",
        help:
            "With --observers FILE, compute only the K-th of N contiguous ranges of its observers (auto: K and N from Slurm, Kubernetes or AWS Batch array variables) and write -o's part of the count, mask or visibility with FILE.manifest.json beside it; transect merge joins the parts into the bytes of one run."
    )
    static let format = Option<ViewshedFormat>.choice("format", help: "The summary on stdout: text or json.", default: .text)
    static let interpolation = CommonOptions.interpolation.help(
        "How the terrain is read along sight lines: nearest (or near), bilinear or cubic, as profile reads it.")

    static let all: [OptionSpec] = [
        CommonOptions.dem.spec, CommonOptions.noData.spec, observer.spec, observers.spec, observerHeight.spec, targetHeight.spec,
        SightLineOptions.curvature.spec, SightLineOptions.refraction.spec, maxDistance.spec, minDistance.spec, azimuth.spec, pitch.spec,
        interpolation.spec, CommonOptions.out.help("The raster: a Cloud-Optimized GeoTIFF (.tif) on the DEM's grid and CRS.").spec,
        product.spec, horizon.spec, shard.spec, format.spec, CommonOptions.threads.spec, CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec,
        CommonOptions.confine.spec, CommonOptions.help.spec,
    ]

    /// `A:B`, two finite numbers within `bounds`.
    static func range(
        _ name: String, _ text: String, within bounds: ClosedRange<Double>, _ args: ParsedArguments
    ) throws(CLIError) -> (
        Double, Double
    )? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = NumberText.double(String(parts[0]).trimmingAsciiSpaces),
            let b = NumberText.double(String(parts[1]).trimmingAsciiSpaces)
        else {
            throw Option<String>.refuse(name, "'\(text.printable)' is not two numbers A:B", args)
        }
        guard bounds.contains(a), bounds.contains(b) else {
            throw Option<String>.refuse(name, "'\(text.printable)' lies outside \(JSON.format(bounds.lowerBound)) … \(JSON.format(bounds.upperBound))°", args)
        }
        return (a, b)
    }
}

/// An observer as an observers file gives it: its name, WGS84 position and the heights it says.
package struct ObserverRow: Sendable {
    package var name: String
    package var longitude: Double
    package var latitude: Double
    package var absoluteMetres: Double?
    package var aboveGroundMetres: Double?
    package var targetHeightMetres: Double?

    package init(
        name: String, longitude: Double, latitude: Double, absoluteMetres: Double?, aboveGroundMetres: Double?, targetHeightMetres: Double?
    ) {
        self.name = name
        self.longitude = longitude
        self.latitude = latitude
        self.absoluteMetres = absoluteMetres
        self.aboveGroundMetres = aboveGroundMetres
        self.targetHeightMetres = targetHeightMetres
    }
}

/// Reads the observers file at a path (`-`: stdin).
package typealias ObserversFileReader = @Sendable (_ path: String) throws -> [ObserverRow]

/// `viewshed`'s settings: every option read and checked before a file is opened.
struct ViewshedRunSettings {
    var observers: [ViewshedObserver]
    var observersFile: String?
    var settings: ViewshedSettings
    var product: ViewshedProduct
    var out: String
    var horizon: String?
    var format: ViewshedFormat
    /// `--shard`: which of the observers this run computes, and the manifest it writes.
    var shard: Shard?
    /// The observers file as it was when it was read: a shard checks, once it has hashed the
    /// file for its manifest, that the hash is of the file it read.
    var observersFingerprint: MeasureCommand.PairsShardPlan.Fingerprint?

    /// - Parameter readObservers: reads an observers file other than a GeoPackage (a CSV or
    ///   GeoJSON, with Foundation's parsers, which this library does not link); nil where the
    ///   command line gives none, as the library's entry makes sure.
    init(_ args: ParsedArguments, terrain: TerrainOptions, readObservers: ObserversFileReader?) throws {
        let command = "viewshed"
        let givesPoints = args.has(ViewshedOptions.observer)
        observersFile = try args.value(ViewshedOptions.observers)
        guard givesPoints || observersFile != nil else {
            throw CLIError.usage("missing --observer LON,LAT[,Z] (or --observers FILE)", command: command)
        }
        guard let out = try args.value(CommonOptions.out) else { throw CLIError.usage("missing -o FILE.tif", command: command) }
        guard out != "-" else { throw CLIError.usage("option '-o': a viewshed raster is written to a FILE.tif, not stdout", command: command) }
        let lower = out.lowercased()
        guard lower.hasSuffix(".tif") || lower.hasSuffix(".tiff") else {
            let ext = out.split(separator: "/").last.flatMap { $0.contains(".") ? "'." + ($0.split(separator: ".").last ?? "") + "'" : nil } ?? "no extension"
            throw CLIError.usage("option '-o': \(ext) is not a raster viewshed writes: name the file .tif or .tiff (a GeoTIFF)", command: command)
        }
        self.out = out
        let height = try args.value(ViewshedOptions.observerHeight)
        var points = try ViewshedObserver.given(ViewshedOptions.observer, aboveGround: height, args, terrain: terrain)
        /// An observer of the file, its eye `--observer-height` above the ground unless it says.
        func observer(_ name: String, _ lon: Double, _ lat: Double, _ z: Double?, _ above: Double?, _ target: Double?) -> ViewshedObserver {
            ViewshedObserver(
                longitude: lon, latitude: lat, height: z.map { .absolute($0) } ?? .aboveGround(above ?? height), targetHeightMetres: target, name: name)
        }
        observersFingerprint = observersFile.flatMap { $0 == "-" ? nil : MeasureCommand.PairsShardPlan.Fingerprint(path: $0) }
        if let file = observersFile, file.lowercased().hasSuffix(".gpkg") {
            // A GeoPackage's points, in its CRS, through OGR.
            points += try ObserverLayer.read(path: file).map {
                observer($0.name, $0.longitude, $0.latitude, $0.absoluteMetres, $0.aboveGroundMetres, $0.targetHeightMetres)
            }
        } else if let file = observersFile {
            guard let readObservers else {
                throw CLIError.usage(
                    "option '--observers': libTransectCLIMeasure.so reads no observers file (the transect launcher hands them to libTransectCLI.so)",
                    command: command)
            }
            points += try readObservers(file).map {
                observer($0.name, $0.longitude, $0.latitude, $0.absoluteMetres, $0.aboveGroundMetres, $0.targetHeightMetres)
            }
        }
        observers = points
        let many = observers.count > 1
        product = args.has(ViewshedOptions.product) ? try args.value(ViewshedOptions.product) : (many ? .count : .visibility)
        if many && (product == .minHeight || product == .angle) {
            throw CLIError.usage(
                "option '--output': \(product.rawValue) is one observer's; with \(observers.count) observers give visibility, count or mask", command: command)
        }
        if product == .mask && observers.count > 64 {
            throw CLIError.usage("option '--output': a mask holds 64 observers, not \(observers.count); give count", command: command)
        }
        horizon = try args.value(ViewshedOptions.horizon)
        if horizon != nil && many {
            throw CLIError.usage("option '--horizon': the horizon is one observer's; give one --observer", command: command)
        }
        if horizon == "-" { throw CLIError.usage("option '--horizon': give a FILE.csv; '-' (stdout) is where the summary goes", command: command) }
        format = try args.value(ViewshedOptions.format)
        if let text = try args.value(ViewshedOptions.shard) {
            guard let file = observersFile, file != "-" else {
                throw CLIError.usage(
                    "option '--shard': splits the observers of --observers FILE (read whole by every shard; not stdin)", command: command)
            }
            guard !givesPoints else { throw CLIError.usage("option '--shard': give the observers in --observers FILE only", command: command) }
            guard [.visibility, .count, .mask].contains(product) else {
                throw CLIError.usage("option '--shard': parts of visibility, count or mask join; \(product.rawValue) is one observer's", command: command)
            }
            guard horizon == nil else { throw CLIError.usage("option '--horizon': one observer's, not a shard's", command: command) }
            shard = try ShardArgument.parse(text, environment: ShardArgument.processEnvironment, command: command)
        }
        let minDistance = try args.value(ViewshedOptions.minDistance)
        let maxDistance = try args.value(ViewshedOptions.maxDistance)
        if let maxDistance, maxDistance <= minDistance {
            throw CLIError.usage(
                "option '--max-distance': \(JSON.format(maxDistance)) m is not beyond --min-distance \(JSON.format(minDistance)) m", command: command)
        }
        let pitch = try args.value(ViewshedOptions.pitch)
        settings = ViewshedSettings(
            targetHeightMetres: try args.value(ViewshedOptions.targetHeight), curvature: try SightLineOptions.coefficient(args),
            minimumDistanceMetres: minDistance, maximumDistanceMetres: maxDistance, azimuthDegrees: try args.value(ViewshedOptions.azimuth),
            pitchDegrees: pitch.map { $0.0...$0.1 }, interpolation: terrain.interpolation,
            computesHeights: product == .minHeight || product == .angle, threads: try CommonOptions.threadCount(args),
            tracesHorizon: horizon != nil)
    }
}

extension ViewshedObserver {
    /// The observers `option` gives (`--observer LON,LAT[,Z]`, repeatable, in `--crs` when the
    /// command has one), their eyes `aboveGround` metres up where Z is not given; named by the
    /// option as written.
    package static func given(
        _ option: Option<PointArgument>, aboveGround: Double, _ args: ParsedArguments, terrain: TerrainOptions
    ) throws -> [ViewshedObserver] {
        let points = try args.values(option)
        let wgs84 = try terrain.toWGS84(points)
        return zip(args.all(option.name), zip(points, wgs84)).map { text, pair in
            ViewshedObserver(
                longitude: pair.1.longitude, latitude: pair.1.latitude, height: pair.0.z.map { .absolute($0) } ?? .aboveGround(aboveGround),
                name: "--\(option.name) \(text)")
        }
    }
}
