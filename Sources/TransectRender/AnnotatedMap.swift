import TransectGDAL
import TransectGeodesy
import TransectSupport

/// A map made from a ``MapRequest``: its frame fitted, its attribution written, ready to draw
/// as one image or as frames of its trails growing fix by fix.
public struct AnnotatedMap {
    /// The scale a map with trails opens at, where its size allows (1:10,000, as location
    /// history is first looked at).
    public static let trailScale = 10_000.0

    /// Everything the map shows, its frame included.
    public let spec: MapSpec
    /// The terrain under it.
    public let dem: ElevationModel?

    /// Measures the lines, turns the tracks into trails (their waypoints into places), fits the
    /// frame (``MapFrame/fitting(_:)``) to the measurements (their geodesics), the places and
    /// the trails' fixes, at ``trailScale`` when there are trails, and writes the
    /// attribution: the DEM's file name (or where heights came from, or "No terrain"), the
    /// frame's CRS, and the program.
    ///
    /// - Throws: ``MapFrameError``, or the ``TerrainError`` of PROJ or the DEM.
    public init(_ request: MapRequest) throws {
        let measurements = try request.measurements?.overlays(units: request.units) ?? []
        // Drawn as the location-history sample draws them: one fix per vertex; a GPX file's
        // waypoints are places.
        let trails = request.tracks.map { TrailOverlay(segments: $0.segments.map { $0.map(\.point) }, fixes: $0.points.map(\.point)) }
        let places =
            request.places
            + request.tracks.flatMap { $0.waypoints.map { Place(name: $0.name, longitude: $0.point.longitude, latitude: $0.point.latitude) } }
        let content =
            measurements.flatMap { [$0.start, $0.end] }
            + places.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) }
            + trails.flatMap(\.fixes)
        let frame = try MapFrame.fitting(
            MapFrameRequest(
                width: request.width, height: request.height, frameCRS: request.frameCRS, extentLonLat: request.extentLonLat,
                extentInFrame: request.extentInFrame, content: content, lines: measurements.map { [$0.start, $0.end] },
                margin: request.margin, preferredScale: trails.isEmpty ? nil : Self.trailScale, dpi: request.dpi ?? MapSpec.defaultDPI,
                dem: request.dem.map(DEMFootprint.init)))
        var spec = MapSpec(frame: frame, basemap: request.basemap)
        spec.measurements = measurements
        spec.places = places
        spec.trails = trails
        spec.title = request.title
        spec.decorations = request.decorations
        spec.units = request.units
        spec.dpi = request.dpi ?? MapSpec.defaultDPI
        spec.fontScale = request.fontScale
        spec.resampling = request.resampling
        spec.viewshed = request.viewshed
        if let dem = request.dem {
            spec.attribution = "Elevation: \(dem.label.split(separator: "/").last.map(String.init) ?? dem.label) · \(frame.crs.label) · Transect"
        } else {
            spec.attribution = "\(request.heightsSource.map { "Heights: " + $0 } ?? "No terrain") · \(frame.crs.label) · Transect"
        }
        self.spec = spec
        dem = request.dem
    }

    public var frame: MapFrame { spec.frame }

    /// The PNG's text chunks: the software (`transect 1.0`), the DEM's files, the CRS and the
    /// title.
    public func pngTexts(software: String) -> [(String, String)] {
        [("Software", software), ("Source", dem?.paths.joined(separator: ", ") ?? "none"), ("CRS", frame.crs.label)]
            + (spec.title.map { [("Title", $0)] } ?? [])
    }

    /// Where the image lies, for its world file and `.aux.xml`.
    public var georeference: PNGFile.Georeference {
        get throws(TerrainError) {
            PNGFile.Georeference(geoTransform: frame.geoTransform, wkt: try frame.crs.wkt, axisMapping: frame.crs.dataAxisMapping)
        }
    }

    /// How many fixes each animation frame shows: every `every`-th fix of the longest trail,
    /// and the last one (every trail whole).
    public func frameFixCounts(every: Int) -> [Int] {
        let total = spec.trails.map(\.fixes.count).max() ?? 0
        var counts = Array(stride(from: every, through: total, by: every))
        if counts.last != total { counts.append(total) }
        return counts
    }

    /// The file name of animation frame `index` (from 0): `frame_0001.png`, four digits at
    /// least, with the extension of the frames' format.
    public static func frameFileName(_ index: Int, extension ext: String = "png") -> String {
        let number = String(index + 1)
        return "frame_" + String(repeating: "0", count: max(0, 4 - number.count)) + number + "." + ext
    }

    /// The PNG text saying which frame an image is: `3 of 40: 150 fixes`.
    public static func frameText(_ index: Int, of frames: Int, fixes: Int) -> String {
        "\(index + 1) of \(frames): \(NumberFormatting.count(fixes, "fix", plural: "fixes"))"
    }

    /// Paints the basemap once and draws over it each frame of `frameCounts` (the trails cut to
    /// that many fixes, as ``frameFixCounts(every:)`` gives them), handing each to `frame` with
    /// its index as soon as it is drawn, so no two are held; then the whole map when `whole`.
    /// The basemap is shaded on `threads` threads; the images are the same for any count.
    /// With `document`, frames and map are SVG or PDF documents of that kind.
    /// - Returns: the whole map, or nil without `whole`.
    public func draw(
        frames frameCounts: [Int], whole: Bool, threads: Int = Parallel.onlineProcessors, document: VectorDocument? = nil,
        frame: (_ index: Int, _ image: RenderedImage) throws -> Void
    ) throws -> RenderedImage? {
        let basemap = try MapRenderer.basemap(spec, dem: dem, threads: threads)
        for (k, count) in frameCounts.enumerated() {
            var frameSpec = spec
            frameSpec.trails = spec.trails.map { $0.prefix(count) }
            try frame(k, try MapRenderer.render(frameSpec, basemap: basemap, document: document))
        }
        return whole ? try MapRenderer.render(spec, basemap: basemap, document: document) : nil
    }
}
