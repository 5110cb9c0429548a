import TransectFormats
import TransectGDAL
import TransectGeodesy
import TransectRaster
import TransectRender
import TransectSupport

/// A `--measure` line as written: its two ends, read but not yet in WGS84.
struct MeasureLine {
    var from: PointOptions.Given
    var to: PointOptions.Given
}

/// `render --decorations`: the scale bar, north arrow, title and attribution, or none of them.
enum Decorations: String, OptionChoice {
    case all, none
}

/// The options of `transect render`, each declared once.
enum RenderOptions {
    static let dem = CommonOptions.dem.help(
        "A DEM file, a directory of tiles or a glob; repeatable. Without it no terrain is drawn (a canvas with a graticule).")
    static let noDEM = Option.flag("no-dem", help: "Draw no terrain even where a scene names a DEM.")
    static let out = CommonOptions.out.help(
        "The map to write (atomically), in the format its extension names: .png (with a world file), .svg, .pdf, or .tif (a Cloud-Optimized GeoTIFF)."
    ).valueName("FILE")
    static let format: Option<FigureFormat?> = FigureOutput.formatOption("format", for: "the map and the frames", accepted: FigureFormat.allCases)
    static let fontScale: Option<Double> = FigureOutput.fontScale
    static let layout = Option.text(
        "layout", value: "FILE.json",
        help: "Also write where the title, legend, north arrow, scale bar, attribution, labels and markers went (pixel boxes, y down).")
    static let layers = Option.text(
        "layers", value: "FILE.gpkg",
        help: "Also write what the map shows as GeoPackage layers in its CRS: frame, measurements, places, trails, fixes and labels.")
    static let scene = Option.text(
        "scene", value: "FILE.json",
        help: "Settings from a JSON file whose keys are these options' names; relative paths resolve against the file; flags override it.")
    static let maxPixels = Option.integer(
        "max-pixels", help: "The most pixels a frame may have.",
        in: 1...(InputLimits.maxImageSide * InputLimits.maxImageSide), default: MapFrame.defaultMaxPixels)
    static let size = Option.size(
        "size", help: "Pixels (1600x1000), or a print size at --dpi (160x100mm, 6.5x4in; also cm and pt).", default: "1600x1000", dpi: dpi,
        maxPixels: { args throws(CLIError) in try args.value(maxPixels) })
    static let extent = Option.text("extent", value: "W,S,E,N", help: "The frame in lon/lat. Default: the content with --margin around it.")
    static let extentCRS = Option.text("extent-crs", value: "X0,Y0,X1,Y1", help: "The frame as a box in the frame's CRS: --frame-crs, or a projected DEM's.")
    static let margin = Option.number(
        "margin", value: "F", help: "Margin around fitted content, a fraction of its span.",
        in: InputLimits.margin, default: 0.12)
    /// `--frame-crs CRS`: the map's projection, which must be projected.
    static let frameCRS = Option<String?>(
        spec: OptionSpec(
            name: "frame-crs", valueName: "CRS",
            help:
                "The map's projected CRS (EPSG:3857 for Web Mercator). Default: the DEM's if projected, else the UTM zone of what is shown, or the azimuthal equidistant projection centred on it when it reaches over 1,000 km from its centre or past UTM's latitudes.",
            canonical: CommonOptions.epsgCode),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in
            let reference: SpatialReference
            do throws(TerrainError) { reference = try SpatialReference(text) } catch {
                if case .missingPROJDatabase = error { throw CLIError.badInput(error.message) }
                throw Option<String?>.refuse("frame-crs", error.message, args)
            }
            guard reference.isProjected else {
                throw Option<String?>.refuse("frame-crs", "the map frame needs a projected CRS, not \(reference.label)", args)
            }
            return text
        })
    static let crs = CommonOptions.crs.help("--measure points are X,Y in this CRS (EPSG:32611, or just 32611), not lon/lat.")
    /// `--basemap B`: one of ``Basemap/styleNames`` (shaded by `--azimuth`, `--altitude`,
    /// `--z-factor`, `--multidirectional`) or an image; the names come from ``Basemap`` alone.
    static let basemap = Option<Basemap>(
        spec: OptionSpec(
            name: "basemap", valueName: "B",
            help: Basemap.styleNames.joined(separator: ", ") + ", or an image GDAL can georeference (PNG + world file, GeoTIFF).",
            defaultText: Basemap.Style.hillshade.rawValue),
        defaultValue: { args throws(CLIError) in Basemap.Style.hillshade.basemap(hillshade: try shading(args)) },
        parse: { text, args throws(CLIError) in
            let shade = try shading(args)
            guard let basemap = Basemap.parse(text, hillshade: shade) else {
                throw Option<Basemap>.refuse("basemap", "'\(text)' is not \(Basemap.styleNames.joined(separator: ", ")) or an image file", args)
            }
            return basemap
        })
    /// The hillshade light the options give.
    static func shading(_ args: ParsedArguments) throws(CLIError) -> HillshadeParameters {
        var shade = HillshadeParameters()
        shade.azimuthDegrees = try args.value(azimuth)
        shade.altitudeDegrees = try args.value(altitude)
        shade.zFactor = try args.value(zFactor)
        shade.multidirectional = try args.value(multidirectional)
        return shade
    }
    static let azimuth = Option.number(
        "azimuth", value: "D", help: "Hillshade light: the sun's azimuth in degrees, as gdaldem hillshade.",
        in: InputLimits.azimuthDegrees, unit: "°", default: 315)
    static let altitude = Option.number(
        "altitude", value: "D", help: "Hillshade light: the sun's altitude in degrees.",
        in: InputLimits.altitudeDegrees, unit: "°", default: 45)
    static let zFactor = Option.number("z-factor", value: "Z", help: "Hillshade vertical exaggeration.", in: InputLimits.zFactor, default: 1)
    static let multidirectional = Option.flag("multidirectional", help: "Hillshade lit from several directions, as gdaldem -multidirectional.")
    /// `--measure A:B`: a line's two ends, each read as every point on the command line is
    /// (``Option/point(_:value:help:)``); they are put in WGS84 once `--crs` is known.
    static let measure = Option<MeasureLine?>(
        spec: OptionSpec(
            name: "measure", valueName: "LON,LAT:LON,LAT",
            help: "A measurement line with its label; repeatable. Ends without Z take heights from the DEM (ETOPO5 without one).",
            kind: .repeatable),
        defaultValue: { _ in nil },
        parse: { text, args throws(CLIError) in
            let ends = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard ends.count == 2 else { throw Option<MeasureLine?>.refuse("measure", "'\(text)' is not LON,LAT:LON,LAT", args) }
            return MeasureLine(
                from: PointOptions.Given(option: "measure", text: ends[0], point: try measureEnd.parse(ends[0], args)),
                to: PointOptions.Given(option: "measure", text: ends[1], point: try measureEnd.parse(ends[1], args)))
        })
    /// The parser of each end of a `--measure` line.
    private static let measureEnd = Option.point("measure", help: "")
    static let interpolation = CommonOptions.interpolation.help(
        "nearest (near), bilinear, cubic or cubicspline: how the DEM is resampled into the map, as gdalwarp's -r (by default cubicspline where a pixel is finer than a DEM cell, bilinear elsewhere), and how --measure heights are sampled (cubic for cubicspline)."
    )

    /// How `-r` resamples the DEM into the map; nil without `-r` (chosen by the frame).
    static func mapResampling(_ args: ParsedArguments) throws(CLIError) -> ElevationResampling? {
        guard let text = args.all(interpolation.name).last else { return nil }
        if text.lowercased() == "cubicspline" { return .cubicSpline }
        switch try args.value(interpolation) {
        case .nearest: return .nearest
        case .bilinear: return .bilinear
        case .cubic: return .cubic
        }
    }
    static let geoid = CommonOptions.geoid.help(
        "Geoid grid for ellipsoidal heights (h = H + N) in the --measure labels' direct distance; egm96 is PROJ's egm96_15.gtx.")
    static let viewshed = Option.text(
        "viewshed", value: "FILE.tif",
        help: "Draw a viewshed over the basemap: a visibility raster transect viewshed wrote (hidden and unknown ground veiled, with a legend).")
    static let observer: Option<PointArgument> = {
        var observer = Option.point(
            "observer", value: "LON,LAT[,Z]",
            help: "Compute the viewshed of this observer on the --dem and draw it as --viewshed does (Z: the eye above the datum); repeatable.")
        observer.spec.kind = .repeatable
        return observer
    }()
    static let observerHeight = Option.number(
        "observer-height", value: "M", help: "With --observer: the eye's height above the terrain where Z is not given.",
        in: InputLimits.heightMetres, unit: " m", default: 1.7)
    static let places = Option.text(
        "places", value: "FILE", help: "Places to label (CSV name,lon,lat or GeoJSON points; - for stdin); repeatable.", kind: .repeatable)
    static let track = Option.text(
        "track", value: "FILE",
        help:
            "A location history to draw as a trail (GPX, GeoJSON, Esri JSON, CSV), one fix per vertex; repeatable. The frame opens at 1:10,000 where the size allows.",
        kind: .repeatable)
    static let maxSegment = Option.positive(
        "max-segment", value: "M", help: "Densify --track files along geodesics so no step exceeds M metres.",
        maximum: InputLimits.lengthMetres.upperBound, unit: "m", default: 50)
    static let frames = Option.text("frames", value: "DIR", help: "Also write numbered frames, frame k showing the fixes up to k.")
    static let every = Option.integer("every", help: "With --frames, one frame per N fixes.", in: 1...Int(Int32.max), default: 1)
    static let title = Option.text("title", value: "TEXT", help: "A title in the top-left corner.")
    static let decorations = Option.choice(
        "decorations", value: "all|none", help: "none leaves out scale bar, north arrow, title and attribution.", default: Decorations.all)
    static let units = Option.units(help: "Units of labels and the scale bar (metric, imperial, m, km, ft, mi, yd, nmi).")
    static let dpi: Option<Double?> = FigureOutput.dpi.help(
        "Resolution: text, lines and symbols are drawn dpi/\(dpiText) times their size, so they keep their size in points (default \(dpiText), or 300 for a print --size)."
    )

    /// ``MapSpec/defaultDPI`` as the help writes it (`96`).
    private static let dpiText = NumberFormatting.shortest(MapSpec.defaultDPI)

    static let scenes = Option.text(
        "scenes", value: "LIST",
        help:
            "Render every scene file LIST names, one a line (relative to LIST; blank lines and # comments skipped), each written where its own out says; the other options apply to every scene as over --scene."
    )
    static let shard = Option.text(
        "shard", value: "K/N|auto",
        help:
            "With --scenes, render only the K-th of N contiguous runs of LIST's scenes (scene s of S in shard ⌊(s − 1)·N/S⌋ + 1); auto takes K and N from Slurm, Kubernetes or AWS Batch array variables. Writes a manifest once every scene of the shard is written, and till then records each scene written in MANIFEST.journal."
    )
    static let skipExisting = Option.flag(
        "skip-existing",
        help:
            "With --shard, do nothing when the shard's manifest matches LIST, its scene files and these options, and every output it lists still has its SHA-256; else render only the scenes its journal (or manifest) does not record with their files unchanged."
    )
    static let manifest = Option.text(
        "manifest", value: "FILE",
        help: "With --shard, where the shard's manifest goes. Default: beside LIST, LIST.shard-K-of-N.manifest.json.")

    static let all: [OptionSpec] = [
        dem.spec, noDEM.spec, CommonOptions.noData.spec, out.spec, format.spec, layout.spec, layers.spec, scene.spec, size.spec, extent.spec, extentCRS.spec,
        margin.spec, frameCRS.spec,
        crs.spec, basemap.spec, azimuth.spec, altitude.spec, zFactor.spec, multidirectional.spec, measure.spec, interpolation.spec,
        geoid.spec, places.spec, track.spec, viewshed.spec, observer.spec, observerHeight.spec, maxSegment.spec, frames.spec, every.spec, title.spec,
        decorations.spec, units.spec,
        dpi.spec, fontScale.spec, maxPixels.spec, CommonOptions.png.spec, CommonOptions.threads.spec, scenes.spec, shard.spec, skipExisting.spec,
        manifest.spec, CommonOptions.allowNetwork.spec, CommonOptions.timeout.spec, CommonOptions.confine.spec, CommonOptions.help.spec,
    ]

    /// The options of a batch of scenes (``scenes`` and its shards): the command line's, never a
    /// scene's.
    static let batchOptions: [OptionSpec] = [scenes.spec, shard.spec, skipExisting.spec, manifest.spec]

    /// What a scene file may set: every render option but the scene itself, help, what GDAL
    /// may read (network access, its time-out and --confine: for whoever runs the command to
    /// allow, not for a scene file), the thread count (the machine's, not the scene's) and the
    /// batch's options.
    static let sceneSettings: [OptionSpec] = all.filter { option in
        // `--layers` is given on the command line only, for now: a scene file's paths resolve
        // against the file (SceneFile.pathKeys), which does not yet know it.
        ![
            scene.name, CommonOptions.help.name, CommonOptions.allowNetwork.name, CommonOptions.timeout.name, CommonOptions.confine.name,
            CommonOptions.threads.name, layers.name,
        ].contains(option.name)
            && !batchOptions.contains { $0.name == option.name }
    }

    /// The arguments with a `--scene` file's settings under them (flags on the command line
    /// win); the arguments as given without a scene.
    static func applyingScene(to args: ParsedArguments) throws -> ParsedArguments {
        guard let scene = try args.value(RenderOptions.scene) else { return args }
        return try applying(scene: scene, to: args)
    }

    /// The arguments with the settings of the scene file at `path` under them (flags on the
    /// command line win), and `--scene` naming it.
    static func applying(scene path: String, to args: ParsedArguments) throws -> ParsedArguments {
        // Network reads are for whoever runs the command to allow, not for a scene file.
        let sceneArgs = try SceneFile.arguments(
            path: path, knownOptions: Set(sceneSettings.map(\.name)),
            flags: Set(sceneSettings.filter { !$0.takesValue }.map(\.name)))
        return try ParsedArguments(sceneArgs + ["--" + scene.name + "=" + path], specs: all, command: "render").overridden(by: args)
    }
}
