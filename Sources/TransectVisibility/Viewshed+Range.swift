extension Viewshed {
    /// Whether a cell at `distance` and `azimuth` lies in the range of `settings`.
    @inline(__always)
    static func inRange(distance s: Double, azimuth alpha: Double, settings: ViewshedSettings) -> Bool {
        guard s.isFinite, s >= settings.minimumDistanceMetres, s <= settings.maximumDistanceMetres ?? .infinity else { return false }
        if let (from, to) = settings.azimuthDegrees, !azimuth(alpha, liesFrom: from, to: to) { return false }
        return true
    }
}
