import TransectCore
import TransectFormats
import TransectGDAL
import TransectRender

/// `render`'s settings: where the map goes and how it looks, read in the order the command
/// has always checked them.
struct RenderSettings {
    var out: String?
    var framesDirectory: String?
    var layout: String?
    var every: Int
    var maxSegment: Double
    var units: UnitSystem
    var size: (width: Int, height: Int)
    var basemap: Basemap
    var decorations: Bool
    var margin: Double
    var dpi: Double?
    var noDEM: Bool

    init(_ args: ParsedArguments) throws {
        out = try args.value(RenderOptions.out)
        framesDirectory = try args.value(RenderOptions.frames)
        guard out != nil || framesDirectory != nil else { throw CLIError.usage("missing -o/--out FILE.png (or --frames DIR)", command: "render") }
        every = try args.value(RenderOptions.every)
        maxSegment = try args.value(RenderOptions.maxSegment)
        units = try args.value(RenderOptions.units)
        size = try args.value(RenderOptions.size)
        var shade = HillshadeParameters()
        shade.azimuthDegrees = try args.value(RenderOptions.azimuth)
        shade.altitudeDegrees = try args.value(RenderOptions.altitude)
        shade.zFactor = try args.value(RenderOptions.zFactor)
        shade.multidirectional = try args.value(RenderOptions.multidirectional)
        let basemapName = try args.value(RenderOptions.basemap)
        guard let basemap = Basemap.parse(basemapName, hillshade: shade) else {
            throw CLIError.usage("option '--basemap': '\(basemapName)' is not hillshade, light-gray, tint, none or an image file", command: "render")
        }
        self.basemap = basemap
        decorations = try args.value(RenderOptions.decorations) == "all"
        margin = try args.value(RenderOptions.margin)
        dpi = try args.value(RenderOptions.dpi)
        noDEM = try args.value(RenderOptions.noDEM)
        layout = try args.value(RenderOptions.layout)
    }

    /// The frame the options ask for: `--extent` (lon/lat), `--frame-crs`, `--extent-crs` (in
    /// the frame CRS), each checked as text here; the fitting is the library's.
    static func frameOptions(
        _ args: ParsedArguments
    ) throws
        -> (crs: SpatialReference?, extentLonLat: GeoExtent?, extentInFrame: FrameBox?)
    {
        var extent: GeoExtent?
        if let text = try args.value(RenderOptions.extent) {
            let v = numbers(text)
            guard v.count == 4, v[0] < v[2], v[1] < v[3] else {
                throw CLIError.usage("option '--extent': '\(text.printable)' is not MINLON,MINLAT,MAXLON,MAXLAT", command: "render")
            }
            guard v.allSatisfy({ abs($0) <= 540 }), abs(v[1]) <= 90, abs(v[3]) <= 90, v[2] - v[0] <= 360 else {
                throw CLIError.usage(
                    "option '--extent': '\(text.printable)' lies outside longitude ±540°, latitude ±90° or spans more than 360°", command: "render")
            }
            extent = GeoExtent(west: v[0], south: v[1], east: v[2], north: v[3])
        }
        let crs = try args.value(RenderOptions.frameCRS).map { (text: String) throws(TerrainError) in try SpatialReference(text) }
        var box: FrameBox?
        if let text = try args.value(RenderOptions.extentCRS) {
            let v = numbers(text)
            guard v.count == 4, v[0] < v[2], v[1] < v[3] else {
                throw CLIError.usage("option '--extent-crs': '\(text.printable)' is not MINX,MINY,MAXX,MAXY", command: "render")
            }
            guard v.allSatisfy({ InputLimits.projectedMetres.contains($0) }) else {
                throw CLIError.usage(
                    "option '--extent-crs': '\(text.printable)' lies beyond \(InputLimits.kilometres(InputLimits.projectedMetres.upperBound))",
                    command: "render")
            }
            box = FrameBox(minX: v[0], minY: v[1], maxX: v[2], maxY: v[3])
        }
        return (crs, extent, box)
    }

    /// The numbers of a comma-separated list, those that read as numbers.
    private static func numbers(_ text: String) -> [Double] {
        text.split(separator: ",", omittingEmptySubsequences: false).compactMap { NumberText.double($0.trimmingAsciiSpaces) }
    }
}

/// What `render` draws, loaded: the DEM, the places (files, then each track's waypoints), the
/// measurements with their heights, and the tracks as trails.
struct RenderInputs {
    var dem: ElevationModel?
    var places: [Place] = []
    var measurements: [MeasurementOverlay] = []
    var trails: [TrailOverlay] = []
    var placeFiles: [String]
    var trackFiles: [String]

    init(_ args: ParsedArguments, terrain: TerrainOptions, settings: RenderSettings, console: Console) throws {
        dem = terrain.demSpecs.isEmpty ? nil : try terrain.openDEM(console: console)
        placeFiles = try args.values(RenderOptions.places)
        for path in placeFiles {
            places += try PlaceFile.read(path: path).map { Place(name: $0.name, longitude: $0.point.longitude, latitude: $0.point.latitude) }
        }
        measurements = try Self.measurements(
            args.values(RenderOptions.measure), terrain: terrain, dem: dem, units: settings.units,
            console: console)
        trackFiles = try args.values(RenderOptions.track)
        for path in trackFiles {
            // Drawn as the location-history sample draws them: densified to --max-segment, one
            // fix per vertex.
            let loaded = try TrackInput.load(path, console: console).track
            let track = try TrackInput.densified(loaded, maxSegment: settings.maxSegment, command: "render")
            trails.append(TrailOverlay(segments: track.segments.map { $0.map(\.point) }, fixes: track.points.map(\.point)))
            // A GPX file's waypoints are places.
            places += track.waypoints.map { Place(name: $0.name, longitude: $0.point.longitude, latitude: $0.point.latitude) }
        }
    }

    /// `--measure LON,LAT[,Z]:LON,LAT[,Z]` lines, labelled in `units`: heights from the DEM, or
    /// from the default surface when the map has none.
    static func measurements(
        _ texts: [String], terrain: TerrainOptions, dem: ElevationModel?, units: UnitSystem,
        console: Console
    ) throws -> [MeasurementOverlay] {
        guard !texts.isEmpty else { return [] }
        var pairs: [MeasurementPair] = []
        for text in texts {
            let ends = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard ends.count == 2 else { throw CLIError.usage("option '--measure': '\(text)' is not LON,LAT:LON,LAT", command: "render") }
            let a = try PointOptions.parse(ends[0], option: "measure", command: "render")
            let b = try PointOptions.parse(ends[1], option: "measure", command: "render")
            let wgs = try PointOptions.geographic(
                [.init(option: "measure", text: ends[0], point: a), .init(option: "measure", text: ends[1], point: b)],
                terrain: terrain, command: "render", untransformable: false)
            pairs.append(MeasurementPair(from: wgs[0], to: wgs[1], fromZ: a.z, toZ: b.z))
        }
        let heights = try dem ?? terrain.openDEM(console: console)
        return try terrain.measurer(model: heights, aboveGroundMetres: 0).measure(pairs).map { result in
            let m = try result.get().measurement
            return MeasurementOverlay(start: m.start, end: m.end, label: m.label(units: units))
        }
    }

    /// The map these inputs make with `settings` and the frame options.
    func request(_ args: ParsedArguments, settings: RenderSettings) throws -> MapRequest {
        let frame = try RenderSettings.frameOptions(args)
        return MapRequest(
            width: settings.size.width, height: settings.size.height, dem: dem, measurements: measurements,
            places: places, trails: trails,
            heightsSource: dem == nil && !measurements.isEmpty ? TerrainOptions.defaultSurfaceName : nil,
            frameCRS: frame.crs, extentLonLat: frame.extentLonLat, extentInFrame: frame.extentInFrame,
            margin: settings.margin, basemap: settings.basemap, title: try args.value(RenderOptions.title),
            decorations: settings.decorations, units: settings.units, dpi: settings.dpi)
    }

    /// Every file the inputs read: DEM, geoid, `--crs` and `--frame-crs` files, places, tracks,
    /// the scene, and a basemap image with its side files.
    func record(in files: inout RunFiles, _ args: ParsedArguments, terrain: TerrainOptions, basemap: Basemap) throws {
        files.inputs(dem: dem, terrain: terrain)
        for path in placeFiles { files.input("--places", path) }
        for path in trackFiles { files.input("--track", path) }
        files.input("--scene", try args.value(RenderOptions.scene))
        if let frameCRS = try args.value(RenderOptions.frameCRS), FileID(ofInput: frameCRS) != nil { files.input("--frame-crs", frameCRS) }
        if case .image(let path) = basemap {
            for side in [path, PNGFile.worldFilePath(for: path), path + ".aux.xml", path + "w"] { files.input("--basemap", side) }
        }
    }
}
