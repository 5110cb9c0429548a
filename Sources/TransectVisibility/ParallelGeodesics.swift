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
        inChunks(count: azimuths.count, parallel: parallel) { range in
            let lat1 = [Double](repeating: latitude, count: range.count)
            let lon1 = [Double](repeating: longitude, count: range.count)
            let az = Array(azimuths[range])
            let s = Array(distances[range])
            var lat2 = [Double](repeating: .nan, count: range.count)
            var lon2 = lat2
            var az2 = lat2
            lat1.withUnsafeBufferPointer { la1 in
                lon1.withUnsafeBufferPointer { lo1 in
                    az.withUnsafeBufferPointer { a in
                        s.withUnsafeBufferPointer { d in
                            lat2.withUnsafeMutableBufferPointer { la2 in
                                lon2.withUnsafeMutableBufferPointer { lo2 in
                                    az2.withUnsafeMutableBufferPointer { a2 in
                                        geodesic.direct(
                                            latitudes1: la1, longitudes1: lo1, azimuths1: a, distances: d, latitudes2: la2, longitudes2: lo2,
                                            azimuths2: a2)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return (lat2, lon2)
        }
    }
}
