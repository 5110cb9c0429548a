import TransectAnalysis
import TransectFormats
import TransectGDAL
import TransectGeodesy
import TransectPerspective
import TransectRender
import TransectSupport

/// How `view --basemap` shades the terrain.
enum ViewShading: String, OptionChoice {
    case hillshade, tint
}

/// The options of `transect view`, each declared once.
enum ViewOptions {
    static let dem = CommonOptions.dem.help("A DEM file, a directory of tiles or a glob; repeatable. Together they are one mosaic, the terrain shown.")
    static let out = CommonOptions.out.help("The image to write (atomically): .png, .svg or .pdf by the extension; - for stdout (--format, else PNG).")
        .valueName("FILE")
    static let format: Option<FigureFormat?> = FigureOutput.formatOption("format", for: "the image and the frames", accepted: formats)
    static let formats: [FigureFormat] = [.png, .svg, .pdf]
    static let dpi: Option<Double?> = FigureOutput.dpi.help(
        "Resolution: labels, lines and markers are drawn dpi/96 times their size (default 96, or 300 for a print --size).")
    static let fontScale: Option<Double> = FigureOutput.fontScale
    static let camera = Option.point(
        "camera",
        help:
            "Where the camera stands; Z in metres, the DEM's heights (default: 100 m above the terrain). Default: the measurement (or the tracks, or the DEM) framed from the side."
    )
    static let heading = Option.number("heading", value: "D", help: "Camera heading, clockwise from north.", in: -360...360, unit: "°")
    static let pitch = Option.number("pitch", value: "D", help: "Camera pitch: 0 looks straight down, 90 at the horizon.", in: 0...180, unit: "°")
    static let roll = Option.number("roll", value: "D", help: "Camera roll, clockwise.", in: -180...180, unit: "°", default: 0)
    static let fov = Option.number("fov", value: "D", help: "Horizontal field of view.", in: 1...170, unit: "°", default: 60)
    static let size = Option.size(
        "size", help: "Pixels (1600x1000), or a print size at --dpi (160x100mm, 6.5x4in).", default: "1600x1000", dpi: dpi,
        maxPixels: { _ in maxPixels })
    /// The most pixels a view may have: four samples each, 8 bytes a sample (512 MB at most).
    static let maxPixels = 16_000_000
    static let lookAt = Option.point(
        "look-at", help: "With --distance: the point the camera looks at, from --heading and --pitch; Z defaults to the terrain's height.")
    static let distance = Option.positive("distance", value: "M", help: "With --look-at: the camera's distance from it.", maximum: 1e7, unit: "m")
    static let units = Option.units(help: "Units of the measurement's labels (metric, imperial, m, km, ft, mi, yd, nmi).")
    static let from = Option.point("from", help: "The measurement's start. Z is an absolute height in metres; without it the height comes from the DEM.")
    static let to = Option.point("to", help: "The measurement's end, as --from.")
    static let track = Option.text(
        "track", value: "FILE", help: "A location history to drape on the terrain (GPX, GeoJSON, Esri JSON, CSV); repeatable.", kind: .repeatable)
    static let places = Option.text(
        "places", value: "FILE", help: "Places to pin (CSV name,lon,lat or GeoJSON points; - for stdin); repeatable.", kind: .repeatable)
    static let anchors = Option.text(
        "anchors", value: "FILE.json", help: "Also write where the measurement's ends and corner, each place and each track vertex land in the image.")
    static let frames = Option.text("frames", value: "DIR", help: "With --orbit: write the orbit's frames to DIR instead of one image.")
    static let orbit = Option.integer("orbit", help: "With --frames: N frames circling the look-at point, heading turning 360°/N each.", in: 1...3600)
    static let basemap = Option.choice(
        "basemap", value: "B", help: "How terrain is shaded: hillshade or tint, as the maps.", default: ViewShading.hillshade)
    static let viewshed = Option.text(
        "viewshed", value: "FILE.tif",
        help: "Drape a viewshed over the terrain: a visibility raster transect viewshed wrote (hidden ground veiled dark, unknown violet).")
    static let scene = Option.text(
        "scene", value: "FILE.json",
        help: "Settings from a JSON file whose keys are these options' names; relative paths resolve against the file; flags override it.")

    static let all: [OptionSpec] = [
        dem.spec, CommonOptions.noData.spec, out.spec, format.spec, scene.spec, viewshed.spec, camera.spec, heading.spec, pitch.spec, roll.spec, fov.spec,
        size.spec, dpi.spec,
        fontScale.spec,
        lookAt.spec, distance.spec,
        SightLineOptions.curvature.spec, SightLineOptions.refraction.spec, basemap.spec, from.spec, to.spec, units.spec, track.spec, places.spec, anchors.spec,
        frames.spec, orbit.spec,
        CommonOptions.png.spec, CommonOptions.threads.spec, CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec, CommonOptions.confine.spec,
        CommonOptions.help.spec,
    ]

    /// What a scene file may set: every option but the scene itself, help, and what GDAL may
    /// read (network access, its time-out, --confine).
    static let sceneSettings: [OptionSpec] = all.filter {
        ![scene.name, CommonOptions.help.name, CommonOptions.allowNetwork.name, CommonOptions.timeout.name, CommonOptions.confine.name].contains($0.name)
    }

    /// The arguments with a `--scene` file's settings under them (flags on the command line win).
    static func applyingScene(to args: ParsedArguments) throws -> ParsedArguments {
        guard let scene = try args.value(scene) else { return args }
        let sceneArgs = try SceneFile.arguments(
            path: scene, knownOptions: Set(sceneSettings.map(\.name)), flags: Set(sceneSettings.filter { !$0.takesValue }.map(\.name)))
        return try ParsedArguments(sceneArgs, specs: all, command: "view").overridden(by: args)
    }
}

/// `view`'s settings: every option read and checked before any file is opened.
struct ViewSettings {
    var out: String?
    var anchors: String?
    var framesDirectory: String?
    var orbit: Int?
    var camera: (point: GeoPoint, z: Double?)?
    var lookAt: (point: GeoPoint, z: Double?)?
    var distance: Double?
    var heading: Double?
    var pitch: Double?
    var roll: Double
    var fov: Double
    var size: FigureSize
    /// The format of `-o` and the frames; the resolution (nil: 96) and text scale.
    var format: FigureFormat = .png
    var dpi: Double?
    var fontScale = 1.0
    var refraction: Double
    var units: UnitSystem
    var tint: Bool
    var measurement: MeasurementPair?
    var placeFiles: [String]
    var trackFiles: [String]
    var threads: Int
    /// `--png`: how the PNGs are compressed, on ``threads`` threads.
    var png: PNGFile.Encoding

    init(_ args: ParsedArguments, terrain: TerrainOptions) throws {
        guard !terrain.demSpecs.isEmpty else { throw CLIError.usage("missing --dem PATH: a view shows a DEM's terrain", command: "view") }
        out = try args.value(ViewOptions.out)
        anchors = try args.value(ViewOptions.anchors)
        framesDirectory = try args.value(ViewOptions.frames)
        orbit = try args.value(ViewOptions.orbit)
        if framesDirectory != nil && orbit == nil { throw CLIError.usage("option '--frames': writes an orbit's frames; give --orbit N", command: "view") }
        if orbit != nil && framesDirectory == nil { throw CLIError.usage("option '--orbit': its frames go to --frames DIR; give it", command: "view") }
        if framesDirectory != nil && out != nil {
            throw CLIError.usage("option '-o': an orbit writes --frames, not one image; give one of them", command: "view")
        }
        guard out != nil || framesDirectory != nil else { throw CLIError.usage("missing -o/--out FILE (or --frames DIR --orbit N)", command: "view") }
        let given = try args.value(ViewOptions.format)
        // `-o -`: the image alone to stdout (a view has no side files), in --format or PNG.
        if let out, out != "-" {
            format = try FigureOutput.format(of: out, option: "-o", given: given, accepted: ViewOptions.formats, formatOption: "format", command: "view")
        } else {
            format = given ?? .png
        }
        if anchors == "-" { throw CLIError.usage("option '--anchors': give a FILE.json; '-' (stdout) is not one", command: "view") }
        if let framesDirectory, OutputTransaction.existsAndIsNotDirectory(framesDirectory) {
            throw CLIError.usage("option '--frames': '\(framesDirectory.printable)' exists and is not a directory", command: "view")
        }
        heading = try args.value(ViewOptions.heading)
        pitch = try args.value(ViewOptions.pitch)
        roll = try args.value(ViewOptions.roll)
        fov = try args.value(ViewOptions.fov)
        size = try args.value(ViewOptions.size)
        dpi = size.dpi(given: try args.value(ViewOptions.dpi))
        fontScale = try args.value(ViewOptions.fontScale)
        refraction = 1 - (try SightLineOptions.coefficient(args))
        units = try args.value(ViewOptions.units)
        tint = try args.value(ViewOptions.basemap) == .tint
        distance = try args.value(ViewOptions.distance)
        placeFiles = try args.values(ViewOptions.places)
        trackFiles = try args.values(ViewOptions.track)
        try FigureOutput.standardInputOnce(places: placeFiles, tracks: trackFiles, command: "view")
        threads = try CommonOptions.threadCount(args)
        png = try OutputTransaction.pngEncoding(args, threads: threads)
        camera = try Self.point(ViewOptions.camera, args, terrain: terrain)
        lookAt = try Self.point(ViewOptions.lookAt, args, terrain: terrain)
        if camera != nil && lookAt != nil {
            throw CLIError.usage("option '--look-at': places the camera, as --camera does; give one of them", command: "view")
        }
        if distance != nil && lookAt == nil { throw CLIError.usage("option '--distance': is the camera's distance from --look-at; give it", command: "view") }
        if lookAt != nil && distance == nil && camera == nil {
            throw CLIError.usage("option '--look-at': places the camera --distance metres from the point; give --distance", command: "view")
        }
        if orbit != nil && camera != nil {
            throw CLIError.usage("option '--orbit': circles the look-at point; give --look-at (or nothing) instead of --camera", command: "view")
        }
        let from = try Self.point(ViewOptions.from, args, terrain: terrain)
        let to = try Self.point(ViewOptions.to, args, terrain: terrain)
        switch (from, to) {
        case (let a?, let b?): measurement = MeasurementPair(from: a.point, to: b.point, fromZ: a.z, toZ: b.z)
        case (nil, nil): measurement = nil
        case (nil, _): throw CLIError.usage("missing --from LON,LAT[,Z]: a measurement has two ends", command: "view")
        case (_, nil): throw CLIError.usage("missing --to LON,LAT[,Z]: a measurement has two ends", command: "view")
        }
    }

    /// An optional point option in WGS84 with its given Z.
    static func point(_ option: Option<PointArgument>, _ args: ParsedArguments, terrain: TerrainOptions) throws -> (point: GeoPoint, z: Double?)? {
        guard let text = args.value(option.name) else { return nil }
        let parsed = try option.parse(text, args)
        let wgs = try PointOptions.geographic([.init(option: option.name, text: text, point: parsed)], terrain: terrain, command: "view")
        return (wgs[0], parsed.z)
    }
}
