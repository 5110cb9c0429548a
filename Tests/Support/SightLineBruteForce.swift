import TransectGDAL
import TransectGeodesy

/// The straightforward verdict a viewshed is held to: one target's own sight line, sampled
/// every half cell (N = ⌈D/(c/2)⌉ intervals of the geodesic from the eye to the target, for
/// distance D and cell side c) through the DEM's own sampling, as `profile` reads it, and judged
/// as `LineOfSight` judges (terrain lowered by cc·d²/(2R), a sample above the straight line
/// blocks, one in no data makes the line unknown unless another blocks it). No rays, no lattice,
/// no interpolation between lines: nothing of the sweep's. The tests and `make bench` (which
/// measures `gdal_viewshed`'s disagreement with it beside ours) share it.
public struct SightLineBruteForce {
    public enum Verdict: Sendable, Hashable { case visible, hidden, unknown }

    let model: ElevationModel
    let observer: GeoPoint
    let eyeMetres: Double
    let cellMetres: Double
    let curvature: Double

    /// - Parameters:
    ///   - eyeMetres: the eye's height above the DEM's datum.
    ///   - cellMetres: the cell side whose half is the sampling step.
    public init(
        model: ElevationModel, observer: GeoPoint, eyeMetres: Double, cellMetres: Double, curvature: Double = EarthCurvature.defaultCurvatureCoefficient
    ) {
        self.model = model
        self.observer = observer
        self.eyeMetres = eyeMetres
        self.cellMetres = cellMetres
        self.curvature = curvature
    }

    /// Cell (`column`, `row`)'s centre in WGS84 and its height (nan for no data).
    public func centre(column: Int, row: Int) throws -> (GeoPoint, Double) {
        let ll = try DEMGeoreference(model).lonLat(columns: [Double(column) + 0.5], rows: [Double(row) + 0.5])
        let z = try model.elevations(columns: [Double(column) + 0.5], rows: [Double(row) + 0.5], interpolation: .bilinear)[0]
        return (GeoPoint(longitude: ll.longitudes[0], latitude: ll.latitudes[0]), z)
    }

    /// The verdict for the target `targetHeight` above cell (`column`, `row`)'s centre.
    public func verdict(column: Int, row: Int, targetHeight: Double = 0) throws -> Verdict {
        let (target, z) = try centre(column: column, row: row)
        guard !z.isNaN else { return .unknown }
        let line = Geodesic.wgs84.inverseLine(from: observer, to: target)
        let d = line.distanceMetres ?? 0
        let n = Int((d / (cellMetres / 2)).rounded(.up))
        guard n > 1 else { return .visible }
        let points = (1..<n).map { line.position(atDistance: d * Double($0) / Double(n)).point }
        let heights = try model.elevations(at: points)
        let k = curvature / (2 * EarthCurvature.meanRadiusMetres)
        let reducedTarget = z + targetHeight - k * d * d
        var unknown = false
        for i in 1..<n {
            let zi = heights[i - 1]
            if zi.isNaN {
                unknown = true
                continue
            }
            let s = d * Double(i) / Double(n)
            if zi - k * s * s > eyeMetres + (reducedTarget - eyeMetres) * s / d { return .hidden }
        }
        return unknown ? .unknown : .visible
    }
}
