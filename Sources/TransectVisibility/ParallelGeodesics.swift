import TransectGeodesy
import TransectSupport

/// Geodesic problems from the observer to many points, in chunks on the workers: each chunk
/// through the batch kernels, so the results are the same bits on any number of threads.
enum ParallelGeodesics {
    /// Points per chunk: enough for the kernels' lanes, few enough to share the work.
    static let chunk = 4096

    /// Distances (metres) and azimuths at the observer (degrees) to each point.
    static func inverse(
        from latitude: Double, _ longitude: Double, toLatitudes latitudes: [Double], longitudes: [Double], geodesic: Geodesic,
        parallel: ParallelLoop
    ) -> (distances: [Double], azimuths: [Double]) {
        let parts = ParallelFill.array(count: (latitudes.count + chunk - 1) / chunk, chunk: 1, parallel: parallel) { part in
            let range = (part * chunk)..<min(latitudes.count, (part + 1) * chunk)
            let lat1 = [Double](repeating: latitude, count: range.count)
            let lon1 = [Double](repeating: longitude, count: range.count)
            let lat2 = Array(latitudes[range])
            let lon2 = Array(longitudes[range])
            var s = [Double](repeating: .nan, count: range.count)
            var a1 = s
            var a2 = s
            lat1.withUnsafeBufferPointer { la1 in
                lon1.withUnsafeBufferPointer { lo1 in
                    lat2.withUnsafeBufferPointer { la2 in
                        lon2.withUnsafeBufferPointer { lo2 in
                            s.withUnsafeMutableBufferPointer { d in
                                a1.withUnsafeMutableBufferPointer { az1 in
                                    a2.withUnsafeMutableBufferPointer { az2 in
                                        geodesic.inverse(
                                            latitudes1: la1, longitudes1: lo1, latitudes2: la2, longitudes2: lo2, distances: d, azimuths1: az1,
                                            azimuths2: az2)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return (s, a1)
        }
        return (parts.flatMap(\.0), parts.flatMap(\.1))
    }

    /// Latitudes and longitudes (degrees) reached from the observer along each azimuth
    /// (degrees) and distance (metres).
    static func direct(
        from latitude: Double, _ longitude: Double, azimuths: [Double], distances: [Double], geodesic: Geodesic, parallel: ParallelLoop
    ) -> (latitudes: [Double], longitudes: [Double]) {
        let parts = ParallelFill.array(count: (azimuths.count + chunk - 1) / chunk, chunk: 1, parallel: parallel) { part in
            let range = (part * chunk)..<min(azimuths.count, (part + 1) * chunk)
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
        return (parts.flatMap(\.0), parts.flatMap(\.1))
    }
}
