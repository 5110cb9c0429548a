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
    /// How much nearer than a point the depth buffer may put the terrain at its pixel and still
    /// leave it in front, as a fraction of the depth: the vertices' camera coordinates and the
    /// samples' 1/depth are Floats (24-bit significands), and the rasteriser's interpolation
    /// rounds a few dozen times, well under 2⁻¹⁶ of the depth.
    public static let depthRounding = 1.0 / 65_536

    /// How far (metres, vertically) the drawn terrain may stand above the DEM's bilinear surface
    /// at `point`, `depthMetres` in front of the camera: what the terrain's own sampling lets
    /// it be wrong by there.
    ///
    /// - The terrain is drawn as two triangles a cell, where the DEM is bilinear: up to the
    ///   cell's twist (``TerrainBlock/twist``) apart.
    /// - A block is drawn coarser where that moves its vertices by at most one pixel from
    ///   where the camera stands (``TerrainBlock/errors`` at the level drawn).
    /// - The depth buffer holds four samples a pixel, up to a pixel from the point's own ray:
    ///   the terrain they meet may stand up to one pixel's footprint at that depth, d / F
    ///   (F the focal length in pixels), from the terrain on that ray.
    ///
    /// The first two are the largest of the drawn blocks whose bounding spheres hold the point
    /// (none for a point away from the terrain).
    public func surfaceErrorMetres(_ point: SIMD3<Double>, depthMetres: Double) -> Double {
        var block = 0.0
        for e in surfaceErrors {
            let d = point - e.centre
            if (d * d).sum() <= e.radius * e.radius { block = max(block, e.metres) }
        }
        return block + max(depthMetres, 0) / camera.frame.focalPixels
    }

    /// `point` (height required: metres) as this view shows it.
    public func anchor(_ name: String, _ point: GeoPoint) -> ViewAnchor {
        let ecef = Ellipsoid.wgs84.ecef(point)
        let p = camera.frame.project(ecef)
        return ViewAnchor(name: name, point: point, x: p.x, y: p.y, depthMetres: p.depthMetres, visible: isVisible(ecef))
    }

    /// Whether the terrain leaves `point` in sight: it passes the depth test, or it would if it
    /// stood up to ``surfaceErrorMetres(_:depthMetres:)`` higher, along the ellipsoid's normal
    /// (tested a pixel's footprint at a time, at most 64 times, while the raised point is in
    /// the image).
    ///
    /// This is the depth tolerance the terrain's own sampling error E allows. A point on the
    /// surface is hidden by terrain drawn up to E too high only along a stretch of its ray within
    /// E of the surface: seen at a grazing angle θ that stretch is E / sin θ long, so the same E
    /// buys a depth tolerance that grows without bound as the ray grazes the surface, and a fixed
    /// depth slack is wrong both ways (too small on a summit seen edge-on, too large for a ridge
    /// far in front). Raising the point by up to E and testing again measures that stretch along
    /// the real ray, whatever the slope: Half Dome's published summit point, 4 m under the sight
    /// line over its own higher shoulder 49 m nearer the camera, counts as seen; a point 550 m
    /// below a cone's flank in front of it does not.
    public func isVisible(_ point: ECEF) -> Bool {
        let frame = camera.frame
        let p = frame.project(point)
        if isVisible(x: p.x, y: p.y, depthMetres: p.depthMetres) { return true }
        guard p.depthMetres > Double(Self.nearMetres), p.x >= 0, p.y >= 0, p.x < Double(width), p.y < Double(height) else { return false }
        let e = surfaceErrorMetres(point.xyz, depthMetres: p.depthMetres)
        let footprint = p.depthMetres / frame.focalPixels
        let steps = min(64, max(1, Int((e / footprint).rounded(.up))))
        let g = Ellipsoid.wgs84.geodetic(from: point)
        for k in 1...steps {
            let h = g.heightMetres + e * Double(k) / Double(steps)
            let raised = frame.project(Ellipsoid.wgs84.ecef(GeoPoint(longitude: g.longitude, latitude: g.latitude, heightMetres: h)))
            guard raised.x >= 0, raised.y >= 0, raised.x < Double(width), raised.y < Double(height) else { return false }
            if isVisible(x: raised.x, y: raised.y, depthMetres: raised.depthMetres) { return true }
        }
        return false
    }

    /// Whether a point projected at (`x`, `y`) with depth `depthMetres` is in the image and in
    /// front of the terrain there: compared with the farthest of the pixel's four samples (a
    /// sample showing sky hides nothing), to ``depthRounding``; no allowance for the terrain's
    /// sampling, which ``isVisible(_:)`` adds.
    public func isVisible(x: Double, y: Double, depthMetres: Double) -> Bool {
        guard depthMetres > Double(Self.nearMetres), x >= 0, y >= 0, x < Double(width), y < Double(height) else { return false }
        let base = (Int(y) * width + Int(x)) * 4
        var farthest = Float.infinity
        for k in 0..<4 { farthest = min(farthest, inverseDepths[base + k]) }
        guard farthest > 0 else { return true }
        return depthMetres <= Double(1 / farthest) * (1 + Self.depthRounding)
    }
}
