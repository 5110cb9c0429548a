import TransectAnalysis
import TransectFormats
import TransectGDAL
import TransectVisibility
import TransectRender
import TransectSupport

/// `render`'s settings: every option read and checked, before any file is opened or anything
/// computed, so a usage error never waits for a DEM.
struct RenderSettings {
    var out: String?
    /// The formats of `-o` and of the frames (`--format`, else `-o`'s, else PNG).
    var format: FigureFormat = .png
    var framesFormat: FigureFormat = .png
    var framesDirectory: String?
    var layout: String?
    /// `--layers`: the GeoPackage of the map's content (``RenderLayers``).
    var layers: String?
    var every: Int
    var maxSegment: Double
    var units: UnitSystem
    var size: FigureSize
    var basemap: Basemap
    var decorations: Bool
    var margin: Double
    /// `--dpi`, or 300 for a print size; nil: 96, and the PNG records it.
    var dpi: Double?
    var fontScale: Double
    /// `-r`: how the DEM is resampled into the map; nil lets the frame choose.
    var resampling: ElevationResampling?
    var noDEM: Bool
    var title: String?
    /// `--frame-crs`, `--extent` (lon/lat) and `--extent-crs` (in the frame CRS).
    var frameCRS: SpatialReference?
    var extentLonLat: GeoExtent?
    var extentInFrame: FrameBox?
    /// The `--measure` lines in WGS84, with the heights given.
    var measurements: [MeasurementPair] = []
    var placeFiles: [String] = []
    var trackFiles: [String] = []
    /// `--viewshed`: a visibility raster to draw.
    var viewshedFile: String?
    /// `--observer`s whose viewshed is computed and drawn, with `--observer-height`.
    var observers: [ViewshedObserver] = []
    /// `--png` and `--threads`: how the PNGs are written, and the threads drawing and writing use.
    var png: PNGFile.Encoding

    init(_ args: ParsedArguments, terrain: TerrainOptions) throws {
        out = try args.value(RenderOptions.out)
        framesDirectory = try args.value(RenderOptions.frames)
        guard out != nil || framesDirectory != nil else { throw CLIError.usage("missing -o/--out FILE.png (or --frames DIR)", command: "render") }
        every = try args.value(RenderOptions.every)
        maxSegment = try args.value(RenderOptions.maxSegment)
        units = try args.value(RenderOptions.units)
        size = try args.value(RenderOptions.size)
        basemap = try args.value(RenderOptions.basemap)
        decorations = try args.value(RenderOptions.decorations) == .all
        margin = try args.value(RenderOptions.margin)
        dpi = size.dpi(given: try args.value(RenderOptions.dpi))
        fontScale = try args.value(RenderOptions.fontScale)
        resampling = try RenderOptions.mapResampling(args)
        noDEM = try args.value(RenderOptions.noDEM)
        layout = try args.value(RenderOptions.layout)
        layers = try args.value(RenderOptions.layers)
        if let layers {
            guard out != nil else { throw CLIError.usage("option '--layers': writes the layers of the map -o draws; give -o", command: "render") }
            guard LayerFormat(path: layers) == .gpkg else {
                let ext =
                    FileExtension.of(layers).map { "'.\($0.printable)' is not a format render writes layers in" }
                    ?? "'\(layers.printable)' has no extension to say its format"
                throw CLIError.usage("option '--layers': \(ext): name the file .gpkg", command: "render")
            }
        }
        title = try args.value(RenderOptions.title)
        png = try OutputTransaction.pngEncoding(args, threads: try CommonOptions.threadCount(args))
        try readFrame(args, hasDEM: !noDEM && !terrain.demSpecs.isEmpty)
        let lines = try args.values(RenderOptions.measure)
        if lines.isEmpty {
            // What only --measure uses, given without it, would be silently ignored.
            for (option, problem) in [
                (RenderOptions.crs.name, "gives the CRS of --measure points; the map's projection is --frame-crs"),
                (RenderOptions.geoid.name, "gives ellipsoidal heights to --measure lines; give --measure"),
            ] where args.has(option) {
                throw CLIError.usage("option '--\(option)': \(problem)", command: "render")
            }
        }
        for line in lines {
            let wgs = try PointOptions.geographic([line.from, line.to], terrain: terrain, command: "render", untransformable: false)
            measurements.append(MeasurementPair(from: wgs[0], to: wgs[1], fromZ: line.from.point.z, toZ: line.to.point.z))
        }
        placeFiles = try args.values(RenderOptions.places)
        trackFiles = try args.values(RenderOptions.track)
        try FigureOutput.standardInputOnce(places: placeFiles, tracks: trackFiles, command: "render")
        viewshedFile = try args.value(RenderOptions.viewshed)
        observers = try ViewshedObserver.given(
            RenderOptions.observer, aboveGround: try args.value(RenderOptions.observerHeight), args, terrain: terrain)
        if viewshedFile != nil && !observers.isEmpty {
            throw CLIError.usage("give --viewshed FILE or --observer, not both", command: "render")
        }
        if !observers.isEmpty && terrain.demSpecs.isEmpty {
            throw CLIError.usage("option '--observer': computes a viewshed on the terrain; give --dem", command: "render")
        }
        if observers.isEmpty && args.has(RenderOptions.observerHeight) {
            throw CLIError.usage("option '--observer-height': the eye of an --observer; give --observer", command: "render")
        }
        guard framesDirectory == nil || !trackFiles.isEmpty else {
            throw CLIError.usage("--frames draws a track as it grows: give --track", command: "render")
        }
        // What only --track or --frames uses, given without it, would be silently ignored.
        if trackFiles.isEmpty && args.has(RenderOptions.maxSegment) {
            throw CLIError.usage("option '--max-segment': densifies --track files before drawing them; give --track", command: "render")
        }
        if framesDirectory == nil && args.has(RenderOptions.every) {
            throw CLIError.usage("option '--every': spaces the frames written to --frames; give --frames", command: "render")
        }
        try checkOutputs(args)
    }

    /// The frame the options ask for: `--extent` (lon/lat), `--frame-crs`, `--extent-crs` (in
    /// the frame CRS), each checked as text here; the fitting is the library's. A box in the
    /// frame CRS needs that CRS named, or a projected DEM to lend it (see ``checkFrame(dem:)``).
    private mutating func readFrame(_ args: ParsedArguments, hasDEM: Bool) throws {
        // Two frames: one would silently win over the other.
        if args.has(RenderOptions.extent) && args.has(RenderOptions.extentCRS) {
            throw CLIError.usage(
                "option '--extent-crs': gives the frame in the frame's CRS, as --extent does in lon/lat; give one of them", command: "render")
        }
        if let text = try args.value(RenderOptions.extent) {
            let v = Self.numbers(text)
            guard v.count == 4, v[0] < v[2], v[1] < v[3] else {
                throw CLIError.usage("option '--extent': '\(text.printable)' is not MINLON,MINLAT,MAXLON,MAXLAT", command: "render")
            }
            guard v.allSatisfy({ abs($0) <= 540 }), abs(v[1]) <= 90, abs(v[3]) <= 90, v[2] - v[0] <= 360 else {
                throw CLIError.usage(
                    "option '--extent': '\(text.printable)' lies outside longitude ±540°, latitude ±90° or spans more than 360°", command: "render")
            }
            extentLonLat = GeoExtent(west: v[0], south: v[1], east: v[2], north: v[3])
        }
        frameCRS = try args.value(RenderOptions.frameCRS).map { (text: String) throws(TerrainError) in try SpatialReference(text) }
        if let text = try args.value(RenderOptions.extentCRS) {
            let v = Self.numbers(text)
            guard v.count == 4, v[0] < v[2], v[1] < v[3] else {
                throw CLIError.usage("option '--extent-crs': '\(text.printable)' is not MINX,MINY,MAXX,MAXY", command: "render")
            }
            guard v.allSatisfy({ InputLimits.projectedMetres.contains($0) }) else {
                throw CLIError.usage(
                    "option '--extent-crs': '\(text.printable)' lies beyond \(InputLimits.kilometres(InputLimits.projectedMetres.upperBound))",
                    command: "render")
            }
            extentInFrame = FrameBox(minX: v[0], minY: v[1], maxX: v[2], maxY: v[3])
            if frameCRS == nil && !hasDEM { throw Self.extentCRSNeedsCRS }
        }
    }

    /// `--extent-crs` without a CRS to put the box in.
    static let extentCRSNeedsCRS = CLIError.usage(
        "option '--extent-crs': needs --frame-crs (or a DEM in a projected CRS) to say which CRS the box is in", command: "render")

    /// Once the DEM is open: a `--extent-crs` box without `--frame-crs` needs the DEM's CRS to
    /// be projected (else the box would land in a UTM zone nobody named).
    func checkFrame(dem: ElevationModel?) throws(CLIError) {
        if extentInFrame != nil, frameCRS == nil, dem?.crs.isProjected != true { throw Self.extentCRSNeedsCRS }
    }

    /// What to tell a run that has nothing to draw: every way to give content.
    var nothingToShow: CLIError {
        let ways = frameCRS == nil ? "--extent, or --extent-crs with --frame-crs" : "--extent or --extent-crs"
        return .usage("nothing to show: give --dem, --measure, --places, --track, \(ways)", command: "render")
    }

    /// The outputs' usage errors: stdout cannot hold a map, a layout needs the map, frames need
    /// a directory.
    private mutating func checkOutputs(_ args: ParsedArguments) throws(CLIError) {
        if out == "-" {
            throw .usage(
                "option '-o': a map is a file (a PNG with a world file beside it, an SVG, PDF or GeoTIFF); '-' (stdout) cannot hold them", command: "render")
        }
        let given = try args.value(RenderOptions.format)
        if let out {
            format = try FigureOutput.format(of: out, option: "-o", given: given, accepted: FigureFormat.allCases, formatOption: "format", command: "render")
        }
        framesFormat = given ?? (out == nil ? .png : format)
        if let layout {
            guard out != nil else { throw .usage("option '--layout': describes the -o image; give -o FILE.png", command: "render") }
            guard layout != "-" else { throw .usage("option '--layout': give a FILE.json; '-' (stdout) is not one", command: "render") }
        }
        if let framesDirectory, OutputTransaction.existsAndIsNotDirectory(framesDirectory) {
            throw .usage("option '--frames': '\(framesDirectory.printable)' exists and is not a directory", command: "render")
        }
    }

    /// The numbers of a comma-separated list, those that read as numbers.
    static func numbers(_ text: String) -> [Double] {
        text.split(separator: ",", omittingEmptySubsequences: false).compactMap { NumberText.double($0.trimmingAsciiSpaces) }
    }
}

/// What `render` draws, loaded: the DEM, the places, the `--measure` lines with what measures
/// them (the DEM, or the default surface when the map has none; the geoid), and the tracks
/// densified to `--max-segment`.
struct RenderInputs {
    var dem: ElevationModel?
    var places: [Place] = []
    var measurements: MapMeasurements?
    var tracks: [Track] = []
    var viewshed: ViewshedOverlay?
    /// What a map of a viewshed shows when no extent is given: the viewshed raster's extent.
    var viewshedExtent: GeoExtent?

    init(terrain: TerrainOptions, settings: RenderSettings, console: Console) throws {
        dem = terrain.demSpecs.isEmpty ? nil : try terrain.openDEM(console: console)
        try settings.checkFrame(dem: dem)
        for path in settings.placeFiles {
            places += try PlaceFile.read(path: path).map { Place(name: $0.name, longitude: $0.point.longitude, latitude: $0.point.latitude) }
        }
        if !settings.measurements.isEmpty {
            let heights = try dem ?? terrain.openDEM(console: console)
            let geoid = try terrain.geoidPath.map { (path: String) throws(TerrainError) in try Geoid(path: path, access: terrain.access) }
            measurements = MapMeasurements(pairs: settings.measurements, heights: heights, geoid: geoid, interpolation: terrain.interpolation)
        }
        for path in settings.trackFiles {
            let loaded = try TrackInput.load(path, console: console).track
            tracks.append(try TrackInput.densified(loaded, maxSegment: settings.maxSegment, command: "render"))
        }
        if let file = settings.viewshedFile {
            viewshed = ViewshedOverlay(.file(file))
            viewshedExtent = try ElevationModel([file]).extentLonLat()
        }
        if let dem, !settings.observers.isEmpty {
            let run: ViewshedRun
            do {
                run = try dem.viewsheds(
                    of: settings.observers, settings: ViewshedSettings(threads: settings.png.threads, tracesHorizon: false), keepEach: false)
            } catch let error as ViewshedError where error.isUsageError {
                throw CLIError.usage(error.message, command: "render")
            }
            viewshed = ViewshedOverlay(
                .raster(
                    classes: run.combinedClasses, width: run.width, height: run.height, geoTransform: dem.geoTransform, wkt: try dem.crs.wkt,
                    label: "the viewshed of --observer"))
            viewshedExtent = try dem.extentLonLat()
            // The observers stand on the map as places.
            places += settings.observers.map { Place(name: "Observer", longitude: $0.longitude, latitude: $0.latitude) }
        }
    }

    /// The map these inputs make with `settings`.
    func request(_ settings: RenderSettings) -> MapRequest {
        MapRequest(
            width: settings.size.width, height: settings.size.height, dem: dem, measurements: measurements,
            places: places, tracks: tracks,
            heightsSource: dem == nil && measurements != nil ? TerrainOptions.defaultSurfaceName : nil,
            frameCRS: settings.frameCRS, extentLonLat: settings.extentLonLat ?? (settings.extentInFrame == nil ? viewshedExtent : nil),
            extentInFrame: settings.extentInFrame,
            margin: settings.margin, basemap: settings.basemap, title: settings.title,
            decorations: settings.decorations, units: settings.units, dpi: settings.dpi, fontScale: settings.fontScale,
            resampling: settings.resampling, viewshed: viewshed)
    }

    /// Every file the inputs read: DEM, geoid, `--crs` and `--frame-crs` files, places, tracks,
    /// the scene, and a basemap image with its side files.
    func record(in files: inout RunFiles, _ args: ParsedArguments, terrain: TerrainOptions, settings: RenderSettings) throws {
        files.inputs(dem: dem, terrain: terrain)
        for path in settings.placeFiles { files.input("--places", path) }
        for path in settings.trackFiles { files.input("--track", path) }
        files.input("--viewshed", settings.viewshedFile)
        files.input("--scene", try args.value(RenderOptions.scene))
        if let frameCRS = try args.value(RenderOptions.frameCRS), FileID(ofInput: frameCRS) != nil { files.input("--frame-crs", frameCRS) }
        if case .image(let path) = settings.basemap {
            for side in [path, PNGFile.worldFilePath(for: path), path + ".aux.xml", path + "w"] { files.input("--basemap", side) }
        }
    }
}
