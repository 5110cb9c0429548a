import TransectGeodesy

extension Measurement {
    /// The measured line as a GIS draws it: vertices along the geodesic from ``start`` to
    /// ``end`` (WGS84 longitude, latitude in degrees, longitudes in [−180, 180]), at ⌈s / max⌉
    /// equal steps so that no step is longer than `maxSegmentMetres`, with heights linear in
    /// distance from the start's elevation to the end's (the heights the measurement reports).
    ///
    /// A line drawn straight between two vertices in plate carrée then strays from the geodesic
    /// by at most what a chord of `maxSegmentMetres` does; the vertices themselves lie on it
    /// (GeographicLib's direct problem along the inverse line, nanometres). The first and last
    /// vertices are the endpoints as given, bit for bit.
    ///
    /// - Parameter maxSegmentMetres: the longest step, metres, positive and finite.
    /// - Complexity: O(s / `maxSegmentMetres`).
    public func geodesicVertices(maxSegmentMetres: Double) -> (x: [Double], y: [Double], z: [Double]) {
        precondition(maxSegmentMetres.isFinite && maxSegmentMetres > 0, "the longest step is positive and finite")
        let line = Geodesic.wgs84.inverseLine(
            latitude1: start.latitude, longitude1: start.longitude, latitude2: end.latitude, longitude2: end.longitude)
        let total = line.distanceMetres ?? horizontalMetres
        let steps = max(1, Int((total / maxSegmentMetres).rounded(.up)))
        let positions = line.positions(count: steps + 1)
        var x = [Double](repeating: 0, count: steps + 1)
        var y = x
        var z = x
        let z0 = start.heightMetres ?? 0
        let z1 = end.heightMetres ?? z0 + verticalMetres
        for k in 0...steps {
            x[k] = positions[k].longitude
            y[k] = positions[k].latitude
            let t = Double(k) / Double(steps)
            z[k] = z0 + (z1 - z0) * t
        }
        x[0] = start.longitude
        y[0] = start.latitude
        z[0] = z0
        x[steps] = end.longitude
        y[steps] = end.latitude
        z[steps] = z1
        return (x, y, z)
    }
}
