#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import TransectCore
import TransectFormats
import TransectGDAL
import TransectRender

/// `transect render`: an annotated PNG map with a DEM basemap, measurements and places.
enum RenderCommand {
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        var args = arguments
        try args.expectNoPositionals()
        if let scene = try args.value(RenderOptions.scene) {
            // Network reads are for whoever runs the command to allow, not for a scene file.
            let settings = RenderOptions.sceneSettings
            let sceneArgs = try SceneFile.arguments(path: scene, knownOptions: Set(settings.map(\.name)),
                                                    flags: Set(settings.filter { !$0.takesValue }.map(\.name)))
            // Flags on the command line win over the scene's settings.
            args = try ParsedArguments(sceneArgs, specs: RenderOptions.all, command: "render").overridden(by: args)
        }
        var terrain = try TerrainOptions(args)
        let out = try args.value(RenderOptions.out)
        let framesDirectory = try args.value(RenderOptions.frames)
        guard out != nil || framesDirectory != nil else { throw CLIError.usage("missing -o/--out FILE.png (or --frames DIR)", command: "render") }
        let every = try args.value(RenderOptions.every)
        let maxSegment = try args.value(RenderOptions.maxSegment)
        let units = try args.value(RenderOptions.units)
        let size = try args.value(RenderOptions.size)
        var shade = HillshadeParameters()
        shade.azimuthDegrees = try args.value(RenderOptions.azimuth)
        shade.altitudeDegrees = try args.value(RenderOptions.altitude)
        shade.zFactor = try args.value(RenderOptions.zFactor)
        shade.multidirectional = try args.value(RenderOptions.multidirectional)
        let basemapName = try args.value(RenderOptions.basemap)
        guard let basemap = Basemap.parse(basemapName, hillshade: shade) else {
            throw CLIError.usage("option '--basemap': '\(basemapName)' is not hillshade, light-gray, tint, none or an image file", command: "render")
        }
        let decorations = try args.value(RenderOptions.decorations)
        let margin = try args.value(RenderOptions.margin)
        let dpi = try args.value(RenderOptions.dpi)

        // Inputs.
        if try args.value(RenderOptions.noDEM) { terrain.demSpecs = [] }
        let dem = terrain.demSpecs.isEmpty ? nil : try terrain.openDEM(console: console)
        var places: [Place] = []
        let placeFiles = try args.values(RenderOptions.places)
        for path in placeFiles {
            places += try PlaceFile.read(path: path).map { Place(name: $0.name, longitude: $0.point.longitude, latitude: $0.point.latitude) }
        }
        var overlays: [MeasurementOverlay] = []
        let measures = try args.values(RenderOptions.measure)
        if !measures.isEmpty {
            var pairs: [MeasureCommand.Pair] = []
            for text in measures {
                let ends = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                guard ends.count == 2 else { throw CLIError.usage("option '--measure': '\(text)' is not LON,LAT:LON,LAT", command: "render") }
                let a = try MeasureCommand.parsePoint(ends[0], option: "measure"), b = try MeasureCommand.parsePoint(ends[1], option: "measure")
                let wgs = try terrain.toWGS84([a, b])
                for p in wgs {
                    if let problem = PointArgument.checkGeographic(longitude: p.longitude, latitude: p.latitude) {
                        throw CLIError.usage("option '--measure': \(problem.text)", command: "render")
                    }
                }
                pairs.append(MeasureCommand.Pair(from: wgs[0], to: wgs[1], fromZ: a.z, toZ: b.z))
            }
            // Heights from the DEM, or from the default surface when the map has none.
            let heights = try dem ?? terrain.openDEM(console: console)
            for result in try MeasureCommand.measure(pairs, model: heights, geoid: try terrain.openGeoid(), aboveGround: 0,
                                                      interpolation: terrain.interpolation) {
                let m = try result.get().measurement
                overlays.append(MeasurementOverlay(start: m.start, end: m.end, label: m.label(units: units)))
            }
        }

        // Tracks, drawn as the location-history sample draws them: densified to --max-segment,
        // one fix per vertex.
        var trails: [TrailOverlay] = []
        let trackFiles = try args.values(RenderOptions.track)
        for path in trackFiles {
            let loaded = try TrackCommand.load(path, console: console).track
            try TrackCommand.checkDensifiedCount(loaded, maxSegment: maxSegment, command: "render")
            let track = loaded.densified(maxSegmentMetres: maxSegment)
            trails.append(TrailOverlay(segments: track.segments.map { $0.map(\.point) }, fixes: track.points.map(\.point)))
            // A GPX file's waypoints are places.
            places += track.waypoints.map { Place(name: $0.name, longitude: $0.point.longitude, latitude: $0.point.latitude) }
        }
        guard framesDirectory == nil || !trails.isEmpty else {
            throw CLIError.usage("--frames draws a track as it grows: give --track", command: "render")
        }

        // The frame.
        let trailPoints = trails.flatMap(\.fixes)
        let content = overlays.flatMap { [$0.start, $0.end] } + places.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) } + trailPoints
        let frame = try makeFrame(args: args, size: size, dem: dem, content: content, overlays: overlays, margin: margin,
                                  preferredScale: trails.isEmpty ? nil : 10_000, dpi: dpi ?? 96)
        var spec = MapSpec(frame: frame, basemap: basemap)
        spec.measurements = overlays
        spec.places = places
        spec.trails = trails
        spec.title = try args.value(RenderOptions.title)
        spec.decorations = decorations == "all"
        spec.units = units
        spec.dpi = dpi ?? 96
        if let dem {
            spec.attribution = "Elevation: \(dem.label.split(separator: "/").last.map(String.init) ?? dem.label) · \(frame.crs.label) · Transect"
        } else {
            spec.attribution = "\(overlays.isEmpty ? "No terrain" : "Heights: ETOPO5 5′ global relief") · \(frame.crs.label) · Transect"
        }
        let texts: [(String, String)] = [("Software", "transect \(Help.version)"), ("Source", dem?.paths.joined(separator: ", ") ?? "none"),
                                         ("CRS", frame.crs.label)] + (spec.title.map { [("Title", $0)] } ?? [])
        let georeference = PNGFile.Georeference(geoTransform: frame.geoTransform, wkt: frame.crs.wkt)
        // Every file this run reads and writes, checked before anything is drawn.
        let total = trails.map(\.fixes.count).max() ?? 0
        var counts = Array(stride(from: every, through: total, by: every))
        if counts.last != total { counts.append(total) }
        func frameName(_ k: Int) -> String {
            framesDirectory! + "/frame_" + String(repeating: "0", count: max(0, 4 - String(k + 1).count)) + String(k + 1) + ".png"
        }
        var files = RunFiles()
        files.inputs(dem: dem, terrain: terrain)
        for path in placeFiles { files.input("--places", path) }
        for path in trackFiles { files.input("--track", path) }
        files.input("--scene", try args.value(RenderOptions.scene))
        if let frameCRS = try args.value(RenderOptions.frameCRS), FileID(ofInput: frameCRS) != nil { files.input("--frame-crs", frameCRS) }
        if case .image(let path) = basemap {
            for side in [path, PNGFile.worldFilePath(for: path), path + ".aux.xml", path + "w"] { files.input("--basemap", side) }
        }
        if let out {
            guard out != "-" else { throw CLIError.usage("option '-o': a map is a PNG file with a world file beside it; '-' (stdout) cannot hold them", command: "render") }
            for path in OutputTransaction.pngPaths(out, georeferenced: true) { files.output("-o", path) }
        }
        let layoutPath = try args.value(RenderOptions.layout)
        if let layoutPath {
            guard out != nil else { throw CLIError.usage("option '--layout': describes the -o image; give -o FILE.png", command: "render") }
            guard layoutPath != "-" else { throw CLIError.usage("option '--layout': give a FILE.json; '-' (stdout) is not one", command: "render") }
            files.output("--layout", layoutPath)
        }
        if let framesDirectory {
            var info = stat()
            if stat(framesDirectory, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
                throw CLIError.usage("option '--frames': '\(framesDirectory.printable)' exists and is not a directory", command: "render")
            }
            for k in counts.indices { files.output("--frames", frameName(k)) }
        }
        try files.check(command: "render")

        // The map and the frames are one result: all of them land, or none.
        let transaction = OutputTransaction()
        var createdDirectory: String? = nil
        defer {
            // A failed run leaves no empty frames directory behind either (nor does a signal).
            if let createdDirectory {
                if !transaction.isCommitted { rmdir(createdDirectory) }
                SignalCleanup.unregister(createdDirectory)
            }
        }
        let basemapPainted = try MapRenderer.basemap(spec, dem: dem)
        if let framesDirectory {
            if try makeDirectory(framesDirectory) {
                createdDirectory = framesDirectory
                SignalCleanup.register(framesDirectory, .removeDirectory)
            }
            let progress = Progress("frames", total: counts.count, console: console)
            defer { progress.finish() }
            for (k, count) in counts.enumerated() {
                progress.update(k)
                var frameSpec = spec
                frameSpec.trails = trails.map { $0.prefix(count) }
                let image = try MapRenderer.render(frameSpec, basemap: basemapPainted)
                try transaction.writePNG(image, to: frameName(k), texts: texts + [("Frame", "\(k + 1) of \(counts.count): \(NumberFormatting.count(count, "fix", plural: "fixes"))")], dpi: dpi)
            }
        }
        if let out {
            let image = try MapRenderer.render(spec, basemap: basemapPainted)
            for note in image.notes { console.err(note + "\n") }
            try transaction.writePNG(image, to: out, texts: texts, dpi: dpi, georeference: georeference)
            if let layoutPath { try transaction.write(image.layout.json.serialized() + "\n", to: layoutPath) }
        }
        try transaction.commit()
        if let framesDirectory { console.err("note: wrote \(NumberFormatting.count(counts.count, "frame")) to '\(framesDirectory)'\n") }
        return 0
    }

    /// Makes the directory `path` unless it exists; true when it made it.
    static func makeDirectory(_ path: String) throws(CLIError) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .cannotWrite(path: path, reason: "exists and is not a directory") }
            return false
        }
        guard mkdir(path, 0o755) == 0 else { throw .cannotWrite(path: path, reason: SystemError.text()) }
        return true
    }

    /// The map frame: `--extent-crs`, `--extent`, or the content with a margin. With a
    /// `preferredScale` (1:10,000 for location history, as the sample opens) the frame keeps that
    /// scale at `dpi` when the content fits at it.
    static func makeFrame(args: ParsedArguments, size: (width: Int, height: Int), dem: ElevationModel?, content: [GeoPoint],
                          overlays: [MeasurementOverlay], margin: Double, preferredScale: Double? = nil, dpi: Double = 96) throws -> MapFrame {
        // The CRS: given, else the DEM's if projected, else the UTM zone of what is shown.
        let crs: SpatialReference
        var extentBox: [Double]? = nil
        if let text = try args.value(RenderOptions.extent) {
            let v = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { NumberText.double($0.trimmingAsciiSpaces) }
            guard v.count == 4, v[0] < v[2], v[1] < v[3] else {
                throw CLIError.usage("option '--extent': '\(text.printable)' is not MINLON,MINLAT,MAXLON,MAXLAT", command: "render")
            }
            guard v.allSatisfy({ abs($0) <= 540 }), abs(v[1]) <= 90, abs(v[3]) <= 90, v[2] - v[0] <= 360 else {
                throw CLIError.usage("option '--extent': '\(text.printable)' lies outside longitude ±540°, latitude ±90° or spans more than 360°", command: "render")
            }
            extentBox = v
        }
        if let given = try args.value(RenderOptions.frameCRS) {
            crs = try SpatialReference(given)
        } else if let dem, dem.crs.isProjected {
            crs = dem.crs
        } else {
            var centre: GeoPoint
            if let box = extentBox {
                centre = GeoPoint(longitude: (box[0] + box[2]) / 2, latitude: (box[1] + box[3]) / 2)
            } else if !content.isEmpty {
                centre = GeoPoint(longitude: content.map(\.longitude).reduce(0, +) / Double(content.count),
                                  latitude: content.map(\.latitude).reduce(0, +) / Double(content.count))
            } else if let dem {
                let e = try dem.extentLonLat()
                centre = GeoPoint(longitude: (e.west + e.east) / 2, latitude: (e.south + e.north) / 2)
            } else {
                throw CLIError.usage("nothing to show: give --dem, --measure, --places or --extent", command: "render")
            }
            crs = try SpatialReference(MapFrame.utmCRS(longitude: centre.longitude, latitude: centre.latitude))
        }
        let toFrame = try CoordinateTransformer(from: .wgs84(), to: crs)
        func bbox(_ points: [GeoPoint]) -> (Double, Double, Double, Double)? {
            var xs = points.map(\.longitude), ys = points.map(\.latitude)
            toFrame.transform(x: &xs, y: &ys)
            let fx = xs.filter(\.isFinite), fy = ys.filter(\.isFinite)
            guard let a = fx.min(), let b = fy.min(), let c = fx.max(), let d = fy.max() else { return nil }
            return (a, b, c, d)
        }
        func boundary(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> [GeoPoint] {
            (0...32).flatMap { k -> [GeoPoint] in
                let t = Double(k) / 32
                return [GeoPoint(longitude: w + (e - w) * t, latitude: s), GeoPoint(longitude: w + (e - w) * t, latitude: n),
                        GeoPoint(longitude: w, latitude: s + (n - s) * t), GeoPoint(longitude: e, latitude: s + (n - s) * t)]
            }
        }
        if let text = try args.value(RenderOptions.extentCRS) {
            let v = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { NumberText.double($0.trimmingAsciiSpaces) }
            guard v.count == 4, v[0] < v[2], v[1] < v[3] else {
                throw CLIError.usage("option '--extent-crs': '\(text.printable)' is not MINX,MINY,MAXX,MAXY", command: "render")
            }
            guard v.allSatisfy({ InputLimits.projectedMetres.contains($0) }) else {
                throw CLIError.usage("option '--extent-crs': '\(text.printable)' lies beyond \(InputLimits.kilometres(InputLimits.projectedMetres.upperBound))", command: "render")
            }
            return MapFrame.fitting(crs: crs, minX: v[0], minY: v[1], maxX: v[2], maxY: v[3], width: size.width, height: size.height, margin: 0)
        }
        if let box = extentBox, let b = bbox(boundary(box[0], box[1], box[2], box[3])) {
            return MapFrame.fitting(crs: crs, minX: b.0, minY: b.1, maxX: b.2, maxY: b.3, width: size.width, height: size.height, margin: 0)
        }
        var points = content
        for o in overlays {
            let plan = ProfilePlan(vertices: [o.start, o.end], spacing: .count(65))
            points += (0..<plan.longitudes.count).map { GeoPoint(longitude: plan.longitudes[$0], latitude: plan.latitudes[$0]) }
        }
        if points.isEmpty, let dem {
            let e = try dem.extentLonLat()
            points = boundary(e.west, e.south, e.east, e.north)
            if let b = bbox(points) {
                return MapFrame.fitting(crs: crs, minX: b.0, minY: b.1, maxX: b.2, maxY: b.3, width: size.width, height: size.height, margin: 0)
            }
        }
        guard let b = bbox(points) else { throw CLIError.usage("nothing to show: give --dem, --measure, --places or --extent", command: "render") }
        if let scale = preferredScale {
            let metresPerPixel = scale * 0.0254 / dpi
            let spanX = (b.2 - b.0) * (1 + 2 * margin), spanY = (b.3 - b.1) * (1 + 2 * margin)
            if spanX <= Double(size.width) * metresPerPixel && spanY <= Double(size.height) * metresPerPixel {
                let cx = (b.0 + b.2) / 2, cy = (b.1 + b.3) / 2
                let hx = Double(size.width) * metresPerPixel / 2, hy = Double(size.height) * metresPerPixel / 2
                return MapFrame(crs: crs, minX: cx - hx, minY: cy - hy, maxX: cx + hx, maxY: cy + hy, width: size.width, height: size.height)
            }
        }
        return MapFrame.fitting(crs: crs, minX: b.0, minY: b.1, maxX: b.2, maxY: b.3, width: size.width, height: size.height, margin: margin)
    }
}
