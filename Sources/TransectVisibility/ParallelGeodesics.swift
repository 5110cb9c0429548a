import TransectGeodesy
import TransectSupport

/// Geodesic problems from the observer to many points, in chunks on the workers: each chunk
/// through the batch kernels, so the results are the same bits on any number of threads.
enum ParallelGeodesics {
    /// Points per chunk: enough for the kernels' lanes, few enough to share the work.
    static let chunk = 4096

    /// `solve` over the chunks of `count` points on the workers, its two outputs joined in order.
    static func inChunks(
        count: Int, parallel: ParallelLoop, _ solve: @escaping @Sendable (Range<Int>) -> ([Double], [Double])
    )
        -> ([Double], [Double])
    {
        let parts = ParallelFill.array(count: (count + chunk - 1) / chunk, chunk: 1, parallel: parallel) { part in
            solve((part * chunk)..<min(count, (part + 1) * chunk))
        }
        return (parts.flatMap(\.0), parts.flatMap(\.1))
    }

    /// Distances (metres) and azimuths at the observer (degrees) to each point.
    static func inverse(
        from latitude: Double, _ longitude: Double, toLatitudes latitudes: [Double], longitudes: [Double], geodesic: Geodesic,
        parallel: ParallelLoop
    ) -> (distances: [Double], azimuths: [Double]) {
        let start = GeoPoint(longitude: longitude, latitude: latitude)
        return inChunks(count: latitudes.count, parallel: parallel) { range in
            let solved = geodesic.inverse(
                from: [GeoPoint](repeating: start, count: range.count),
                to: range.map { GeoPoint(longitude: longitudes[$0], latitude: latitudes[$0]) })
            return (solved.map(\.distanceMetres), solved.map(\.azimuth1Degrees))
        }
    }

    /// Latitudes and longitudes (degrees) reached from the observer along each azimuth
    /// (degrees) and distance (metres).
    static func direct(
        from latitude: Double, _ longitude: Double, azimuths: [Double], distances: [Double], geodesic: Geodesic, parallel: ParallelLoop
    ) -> (latitudes: [Double], longitudes: [Double]) {
        let start = GeoPoint(longitude: longitude, latitude: latitude)
        return inChunks(count: azimuths.count, parallel: parallel) { range in
            let solved = geodesic.direct(from: start, azimuths: Array(azimuths[range]), distances: Array(distances[range]))
            return (solved.map(\.latitude), solved.map(\.longitude))
        }
    }
}
