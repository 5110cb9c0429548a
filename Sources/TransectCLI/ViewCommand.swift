@preconcurrency import Glibc
import TransectFormats
import TransectGDAL
import TransectGeodesy
import TransectPerspective
import TransectRender
import TransectSupport

/// `transect view`: a perspective image of the terrain with the measurement, tracks and places.
enum ViewCommand {
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        try arguments.expectNoPositionals()
        let args = try ViewOptions.applyingScene(to: arguments)
        let terrain = try TerrainOptions(args)
        let settings = try ViewSettings(args, terrain: terrain)
        let model = try terrain.openDEM(console: console)
        let grid = try model.terrainGrid()
        let overlays = try loadOverlays(settings, model: model, terrain: terrain, grid: grid, console: console)
        let views = try cameras(settings, model: model, grid: grid, overlays: overlays)
        for warning in cameraWarnings(views, model: model) { console.err(warning + "\n") }

        var files = RunFiles()
        files.inputs(dem: model, terrain: terrain)
        for path in settings.placeFiles { files.input("--places", path) }
        for path in settings.trackFiles { files.input("--track", path) }
        files.input("--scene", try args.value(ViewOptions.scene))
        let viewshedFile = try args.value(ViewOptions.viewshed)
        files.input("--viewshed", viewshedFile)
        files.output("-o", settings.out)
        files.output("--anchors", settings.anchors)
        if let directory = settings.framesDirectory {
            for k in 0..<views.count { files.output("--frames", framePath(directory, k, format: settings.format)) }
        }
        try files.check(command: "view")

        // A viewshed's class at each vertex of the terrain (nearest cell; out of range beyond it).
        let classes = try viewshedFile.map { (path: String) throws -> [UInt8] in
            try ViewshedRaster.checkVisibility(path: path)
            let raster = try ElevationModel([path])
            let points = (0..<grid.longitudes.count).map { GeoPoint(longitude: grid.longitudes[$0], latitude: grid.latitudes[$0]) }
            return try raster.elevations(at: points, interpolation: .nearest).map { $0.isNaN ? 1 : UInt8(clamping: Int($0)) }
        }
        let scene = PerspectiveRenderer.scene(grid, tint: settings.tint, threads: settings.threads, viewshed: classes)
        let transaction = OutputTransaction()
        if let directory = settings.framesDirectory { try transaction.makeDirectory(directory) }
        let progress = settings.framesDirectory.map { _ in Progress("frames", total: views.count, console: console) }
        var anchors: JSON? = nil
        for (k, camera) in views.enumerated() {
            progress?.update(k)
            let dpi = settings.dpi ?? 96
            let (image, view) = try PerspectiveRenderer.draw(
                scene, camera: camera, tint: settings.tint, overlays: overlays, threads: settings.threads,
                document: FigureOutput.document(settings.format, dpi: dpi, size: settings.size), scale: dpi / 96, fontScale: settings.fontScale)
            let texts = [("Software", "transect \(Help.version)"), ("Source", model.label)]
            if let directory = settings.framesDirectory {
                try transaction.writeFigure(
                    image, to: framePath(directory, k, format: settings.format), format: settings.format,
                    texts: texts + [("Frame", "\(k + 1) of \(views.count)")], dpi: dpi, encoding: settings.png)
            } else if let out = settings.out {
                try transaction.writeFigure(image, to: out, format: settings.format, texts: texts, dpi: dpi, encoding: settings.png)
            }
            if k == 0 { anchors = anchorsJSON(view, PerspectiveRenderer.anchors(view, overlays), layout: image.layout) }
        }
        progress?.finish()
        if let path = settings.anchors, let anchors { try transaction.write(anchors.serialized() + "\n", to: path) }
        try transaction.commit()
        if let directory = settings.framesDirectory {
            console.err("note: wrote \(NumberFormatting.count(views.count, "frame")) to '\(directory)'\n")
        }
        return 0
    }

    /// What the user should know of where the cameras stand: under the terrain (the view looks
    /// out from inside the ground), or where the DEM has no terrain (outside it, or over no
    /// data); once for the first camera of a kind, with the terrain height there.
    static func cameraWarnings(_ views: [ViewCamera], model: ElevationModel) -> [String] {
        var under: (ViewCamera, Double)?
        var outside: ViewCamera?
        for camera in views {
            let position = GeoPoint(longitude: camera.position.longitude, latitude: camera.position.latitude)
            let ground = (try? model.elevations(at: [position]))?.first ?? .nan
            if ground.isNaN {
                if outside == nil { outside = camera }
            } else if let z = camera.position.heightMetres, z < ground, under == nil {
                under = (camera, ground)
            }
        }
        var warnings: [String] = []
        func place(_ c: ViewCamera) -> String {
            GeoPoint(longitude: c.position.longitude, latitude: c.position.latitude).coordinateText
        }
        if let (camera, ground) = under {
            let z = camera.position.heightMetres ?? 0
            warnings.append(
                "warning: the camera at \(place(camera)) stands at \(NumberFormatting.grouped(z)) m, \(NumberFormatting.grouped(ground - z)) m under the terrain there (\(NumberFormatting.grouped(ground)) m): the view looks out from inside the ground"
            )
        }
        if let camera = outside {
            warnings.append(
                "warning: the camera at \(place(camera)) stands where the DEM '\(model.label)' has no terrain (outside it, or over no data): nothing tells whether it is above the ground"
            )
        }
        return warnings
    }

    /// Orbit frame `k` in `--frames DIR`, in `format`.
    static func framePath(_ directory: String, _ k: Int, format: FigureFormat = .png) -> String {
        let digits = String(k)
        return directory + "/view_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "." + format.extensions[0]
    }

    /// The measurement, places and tracks with heights from the DEM.
    static func loadOverlays(_ s: ViewSettings, model: ElevationModel, terrain: TerrainOptions, grid: TerrainGrid, console: Console) throws -> ViewOverlays {
        var overlays = ViewOverlays(units: s.units)
        if let pair = s.measurement {
            overlays.measurement = try terrain.measurer(model: model, aboveGroundMetres: 0).measure(pair).measurement
        }
        for path in s.placeFiles {
            let named = try PlaceFile.read(path: path)
            let heights = try model.elevations(at: named.map(\.point))
            for (place, h) in zip(named, heights) {
                guard !h.isNaN else {
                    console.err("note: place '\(place.name)' is outside the DEM or on no data; left out\n")
                    continue
                }
                var p = place.point
                p.heightMetres = h
                overlays.places.append((place.name, p))
            }
        }
        let step = max(min(grid.cellWidthMetres, grid.cellHeightMetres), 1)
        for path in s.trackFiles {
            let track = try TrackInput.load(path, console: console).track
            for segment in track.segments where !segment.isEmpty {
                overlays.trackVertices.append(try draped(segment.map(\.point), model: model).flatMap { $0 })
            }
            let dense = try TrackInput.densified(track, maxSegment: step, interpolatingTimes: false, command: "view")
            for segment in dense.segments where segment.count > 1 {
                overlays.tracks += try draped(segment.map(\.point), model: model).filter { $0.count > 1 }
            }
        }
        return overlays
    }

    /// `points` with the DEM's heights, split where they leave the DEM.
    static func draped(_ points: [GeoPoint], model: ElevationModel) throws -> [[GeoPoint]] {
        let heights = try model.elevations(at: points)
        var runs: [[GeoPoint]] = [[]]
        for (p, h) in zip(points, heights) {
            if h.isNaN {
                if !runs[runs.count - 1].isEmpty { runs.append([]) }
                continue
            }
            runs[runs.count - 1].append(GeoPoint(longitude: p.longitude, latitude: p.latitude, heightMetres: h))
        }
        return runs.filter { !$0.isEmpty }
    }

    /// The camera of each image: one, or the orbit's frames.
    static func cameras(_ s: ViewSettings, model: ElevationModel, grid: TerrainGrid, overlays: ViewOverlays) throws -> [ViewCamera] {
        let template = ViewCamera(
            position: GeoPoint(longitude: 0, latitude: 0, heightMetres: 0), headingDegrees: s.heading ?? 0, pitchDegrees: s.pitch ?? 90,
            rollDegrees: s.roll, fieldOfViewDegrees: s.fov, width: s.size.width, height: s.size.height, refraction: s.refraction)
        func ground(_ p: GeoPoint) -> Double? {
            guard let h = try? model.elevations(at: [p]).first, !h.isNaN else { return nil }
            return h
        }
        func withHeight(_ p: GeoPoint, _ z: Double?, above: Double) throws -> GeoPoint {
            var q = p
            if let z {
                q.heightMetres = z
            } else if let g = ground(p) {
                q.heightMetres = g + above
            } else {
                throw CLIError.badInput("point \(p.longitude),\(p.latitude) is outside the DEM '\(model.label)' or on no data; give its Z")
            }
            return q
        }
        if let camera = s.camera {
            var c = template
            c.position = try withHeight(camera.point, camera.z, above: 100)
            c.headingDegrees = s.heading ?? 0
            c.pitchDegrees = s.pitch ?? 80
            return [c]
        }
        var target: GeoPoint
        var distance: Double
        var first: ViewCamera
        if let lookAt = s.lookAt {
            target = try withHeight(lookAt.point, lookAt.z, above: 0)
            distance = s.distance ?? 5_000
            first = ViewFraming.looking(
                at: target, distanceMetres: distance, headingDegrees: s.heading ?? 0, pitchDegrees: s.pitch ?? ViewFraming.framingPitchDegrees,
                template: template)
        } else if let m = overlays.measurement {
            (first, target, distance) = ViewFraming.framing(from: m.start, to: m.end, template: template, ground: ground)
        } else {
            var points = overlays.trackVertices.flatMap { $0 } + overlays.places.map(\.point)
            if points.isEmpty { points = corners(grid) }
            (first, target, distance) = ViewFraming.framing(points: points, template: template, ground: ground)
        }
        guard let n = s.orbit else { return [first] }
        let start = first.headingDegrees
        let pitch = s.pitch ?? first.pitchDegrees
        return (0..<n).map { k in
            ViewFraming.looking(
                at: target, distanceMetres: distance, headingDegrees: start + 360 * Double(k) / Double(n), pitchDegrees: pitch, template: template)
        }
    }

    /// The DEM's corners and middle, with heights, for framing the whole DEM.
    static func corners(_ grid: TerrainGrid) -> [GeoPoint] {
        let w = grid.width
        let h = grid.height
        return [0, w - 1, (h - 1) * w, h * w - 1, (h / 2) * w + w / 2].map { k in
            GeoPoint(
                longitude: grid.longitudes[k], latitude: grid.latitudes[k],
                heightMetres: grid.heights[k].isNaN ? nil : Double(grid.heights[k]))
        }
    }

    /// `--anchors`: the image size, the camera, each anchor, and where the labels went (the
    /// `--layout` file's form: the legs' labels as `measurement_label`, each place's as
    /// `label`, the legs and tracks as `lines`).
    static func anchorsJSON(_ view: TerrainView, _ anchors: [ViewAnchor], layout: Layout? = nil) -> JSON {
        let c = view.camera
        return .object([
            ("width", .number(Double(view.width))), ("height", .number(Double(view.height))),
            (
                "camera",
                .object([
                    ("lon", .number(c.position.longitude)), ("lat", .number(c.position.latitude)), ("z", .number(c.position.heightMetres ?? 0)),
                    ("heading", .number(c.headingDegrees)), ("pitch", .number(c.pitchDegrees)), ("roll", .number(c.rollDegrees)),
                    ("fov", .number(c.fieldOfViewDegrees)),
                ])
            ),
            (
                "points",
                .array(
                    anchors.map { a in
                        .object([
                            ("name", .string(a.name)), ("lon", .number(a.point.longitude)), ("lat", .number(a.point.latitude)),
                            ("z", .number(a.point.heightMetres ?? 0)), ("x", .number(a.x, decimals: 4)), ("y", .number(a.y, decimals: 4)),
                            ("depth_m", .number(a.depthMetres, decimals: 3)), ("visible", .bool(a.visible)),
                        ])
                    })
            ),
            ("labels", layout?.json ?? .null),
        ])
    }
}
