import TransectGeodesy

/// A point of the scene as the view shows it.
public struct ViewAnchor: Sendable, Hashable {
    public var name: String
    /// Longitude, latitude and height (metres, the DEM's heights).
    public var point: GeoPoint
    /// Pixel coordinates from the ideal pinhole projection (origin top-left, y down, pixel
    /// centres at +0.5); meaningless when `depthMetres` ≤ 0.
    public var x: Double
    public var y: Double
    /// Distance along the view axis, metres; negative behind the camera.
    public var depthMetres: Double
    /// In the image, in front of the camera and not behind terrain (from the depth buffer).
    public var visible: Bool

    public init(name: String, point: GeoPoint, x: Double, y: Double, depthMetres: Double, visible: Bool) {
        self.name = name
        self.point = point
        self.x = x
        self.y = y
        self.depthMetres = depthMetres
        self.visible = visible
    }
}

extension TerrainView {
    /// How far behind the terrain a point may lie and still count as visible: 1 % of its depth
    /// plus 2 m. A point on the terrain is drawn at the DEM's bilinear height, the terrain by
    /// triangles between cell centres (and coarser far away, by up to a pixel); within a
    /// pixel's footprint on a slope seen edge-on the depth varies by more than that footprint.
    public static func occlusionSlack(depthMetres: Double) -> Double { 0.01 * depthMetres + 2 }

    /// `point` (height required: metres) as this view shows it.
    public func anchor(_ name: String, _ point: GeoPoint) -> ViewAnchor {
        let ecef = Ellipsoid.wgs84.ecef(point)
        let p = camera.frame.project(ecef)
        return ViewAnchor(name: name, point: point, x: p.x, y: p.y, depthMetres: p.depthMetres, visible: isVisible(x: p.x, y: p.y, depthMetres: p.depthMetres))
    }

    /// Whether a point projected at (`x`, `y`) with depth `depthMetres` is in the image and in
    /// front of the terrain there: compared with the farthest of the pixel's four samples (a
    /// sample showing sky hides nothing).
    public func isVisible(x: Double, y: Double, depthMetres: Double) -> Bool {
        guard depthMetres > Double(Self.nearMetres), x >= 0, y >= 0, x < Double(width), y < Double(height) else { return false }
        let base = (Int(y) * width + Int(x)) * 4
        var farthest = Float.infinity
        for k in 0..<4 { farthest = min(farthest, inverseDepths[base + k]) }
        guard farthest > 0 else { return true }
        return depthMetres <= Double(1 / farthest) + Self.occlusionSlack(depthMetres: depthMetres)
    }
}
