import TransectGeodesy

/// A geoid model: a grid of undulations N (metres, the geoid's height above the WGS84
/// ellipsoid), so that an orthometric height H becomes the ellipsoidal height h = H + N.
/// Read as any other raster (EGM96's `.gtx` from proj-data, say), always bilinearly.
public struct Geoid {
    /// The grid of undulations.
    public let model: ElevationModel

    /// Wraps an opened grid.
    public init(model: ElevationModel) { self.model = model }

    /// Opens the grid at `path`; errors are the DEM's (`TerrainError`), naming the path.
    public init(path: String, access: DataAccess = .local) throws(TerrainError) {
        model = try ElevationModel([path], access: access)
    }

    /// The name errors give the grid: its path, or the paths it mosaics.
    public var label: String { model.label }

    /// N at each point, bilinear between the grid's nodes; `nan` where the grid has no value
    /// (outside it, or on no data). One batched read for all the points.
    public func undulations(at points: [GeoPoint]) throws(TerrainError) -> [Double] {
        try model.elevations(at: points, interpolation: .bilinear)
    }

    /// N at one point. Throws ``TerrainError/outsideCoverage(point:dem:)`` naming the point
    /// and the grid where the grid has no value there.
    public func undulation(at point: GeoPoint) throws(TerrainError) -> Double {
        let n = try undulations(at: [point])[0]
        guard n.isFinite else { throw .outsideCoverage(point: point.coordinateText, dem: label) }
        return n
    }
}

extension ElevationModel {
    /// Why there is no height at `point`: ``TerrainError/noData(point:dem:)`` when it lies on
    /// the raster, ``TerrainError/outsideCoverage(point:dem:)`` otherwise, or the transform's
    /// error when PROJ could not fetch a grid over the network.
    public func missingHeightError(at point: GeoPoint) -> TerrainError {
        let c: [Double]
        let r: [Double]
        do throws(TerrainError) { (c, r) = try pixelCoordinates(of: [point]) } catch { return error }
        if contains(column: c[0], row: r[0]) {
            return .noData(point: point.coordinateText, dem: label)
        }
        return .outsideCoverage(point: point.coordinateText, dem: label)
    }

    /// Throws ``TerrainError/outsideCoverage(point:dem:)`` for the first point off the raster
    /// (a point on no data passes: it is a gap, not an error).
    public func checkCoverage(of points: [GeoPoint]) throws(TerrainError) {
        let (columns, rows) = try pixelCoordinates(of: points)
        for k in points.indices where !contains(column: columns[k], row: rows[k]) {
            throw .outsideCoverage(point: points[k].coordinateText, dem: label)
        }
    }
}
