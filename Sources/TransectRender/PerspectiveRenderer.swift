import TransectAnalysis
import TransectGDAL
import TransectGeodesy
import TransectPerspective
import TransectSupport

/// What a perspective view draws over the terrain.
public struct ViewOverlays: Sendable {
    /// The measurement, its ends with heights (metres, the DEM's heights).
    public var measurement: Measurement?
    public var units: UnitSystem
    /// Tracks draped on the terrain: vertices with heights, densified to the DEM's cells.
    public var tracks: [[GeoPoint]]
    /// The tracks' own vertices with heights, for the anchors.
    public var trackVertices: [[GeoPoint]]
    /// Places with heights.
    public var places: [(name: String, point: GeoPoint)]

    public init(
        measurement: Measurement? = nil, units: UnitSystem = .metric, tracks: [[GeoPoint]] = [], trackVertices: [[GeoPoint]] = [],
        places: [(name: String, point: GeoPoint)] = []
    ) {
        self.measurement = measurement
        self.units = units
        self.tracks = tracks
        self.trackVertices = trackVertices
        self.places = places
    }

    /// The measurement's lower end, higher end and the corner of its legs: above the higher
    /// end's position at the lower end's height.
    public static func legs(_ m: Measurement) -> (lower: GeoPoint, higher: GeoPoint, corner: GeoPoint) {
        let startHigher = (m.start.heightMetres ?? 0) > (m.end.heightMetres ?? 0)
        let lower = startHigher ? m.end : m.start
        let higher = startHigher ? m.start : m.end
        return (lower, higher, GeoPoint(longitude: higher.longitude, latitude: higher.latitude, heightMetres: lower.heightMetres))
    }
}

/// Perspective views of terrain: the core's renderer on `threads` workers, and the overlays
/// drawn with cairo over its image after a depth test at each point.
public enum PerspectiveRenderer {
    /// The view's look: the maps' hillshade, or their hypsometric tint.
    public static func style(tint: Bool) -> ViewStyle {
        ViewStyle(shading: tint ? .tint(ramp: BasemapPainter.ramp.map { ($0.0, SIMD3(Float($0.1.0), Float($0.1.1), Float($0.1.2))) }) : .hillshade)
    }

    /// The terrain, lit, ready for any number of cameras.
    public static func scene(_ grid: TerrainGrid, tint: Bool, threads: Int, viewshed: [UInt8]? = nil) -> TerrainScene {
        TerrainScene(
            grid: grid, style: style(tint: tint), parallel: stripedParallelLoop(threads: threads),
            veil: viewshed.map { $0.map(ViewshedOverlay.veil) })
    }

    /// The measurement's points as anchors (`start`, `end`, `corner`), then each place, then each
    /// track vertex (`track N vertex K`, both from 1).
    public static func anchors(_ view: TerrainView, _ overlays: ViewOverlays) -> [ViewAnchor] {
        var out: [ViewAnchor] = []
        if let m = overlays.measurement {
            out.append(view.anchor("start", m.start))
            out.append(view.anchor("end", m.end))
            out.append(view.anchor("corner", ViewOverlays.legs(m).corner))
        }
        for place in overlays.places { out.append(view.anchor(place.name, place.point)) }
        for (t, track) in overlays.trackVertices.enumerated() {
            for (k, p) in track.enumerated() { out.append(view.anchor("track \(t + 1) vertex \(k + 1)", p)) }
        }
        return out
    }

    /// Renders the terrain and draws the overlays over it, their lines, markers and labels
    /// `scale` times their 96-dpi size (dpi / 96): an image or, with `document`, an SVG or PDF
    /// whose terrain is one embedded image at the camera's pixels and whose overlays are
    /// vectors. The image's layout says where the labels went and holds the legs and tracks as
    /// lines.
    public static func draw(
        _ scene: TerrainScene, camera: ViewCamera, tint: Bool, overlays: ViewOverlays, threads: Int, document: VectorDocument? = nil,
        scale: Double = 1, fontScale: Double = 1
    ) throws(RenderError) -> (image: RenderedImage, view: TerrainView) {
        let view = TerrainView.render(scene, camera: camera, style: style(tint: tint), parallel: stripedParallelLoop(threads: threads))
        let terrain = try Canvas(width: camera.width, height: camera.height)
        terrain.putRGB(view.rgb)
        let canvas: Canvas
        if let document {
            canvas = try Canvas(document: document, width: camera.width, height: camera.height)
            canvas.paint(terrain)
        } else {
            canvas = terrain
        }
        canvas.fontScale = fontScale
        let layout = ViewOverlayPainter(view: view, canvas: canvas, scale: scale).paint(overlays)
        return (try RenderedImage.finished(canvas, width: camera.width, height: camera.height, notes: [], layout: layout), view)
    }
}
