// Geodesics against PROJ's geod_inverse/geod_direct (GeographicLib's C port).
import CPROJ
import TransectGeodesy
import TransectTestSupport

/// Transect's side of the inverse cases: distances for the pairs, solved in lanes through the
/// batch API (each result bit for bit the scalar call's).
func transectInverse(_ lat1: [Double], _ lon1: [Double], _ lat2: [Double], _ lon2: [Double]) -> [Double] {
    let n = lat1.count
    var s12 = [Double](repeating: 0, count: n)
    var azi1 = s12
    var azi2 = s12
    lat1.withUnsafeBufferPointer { la1 in
        lon1.withUnsafeBufferPointer { lo1 in
            lat2.withUnsafeBufferPointer { la2 in
                lon2.withUnsafeBufferPointer { lo2 in
                    s12.withUnsafeMutableBufferPointer { s in
                        azi1.withUnsafeMutableBufferPointer { a1 in
                            azi2.withUnsafeMutableBufferPointer { a2 in
                                Geodesic.wgs84.inverse(
                                    latitudes1: la1, longitudes1: lo1, latitudes2: la2, longitudes2: lo2, distances: s, azimuths1: a1, azimuths2: a2)
                            }
                        }
                    }
                }
            }
        }
    }
    return s12
}

/// Transect's side of the direct case: end latitudes and longitudes, through the batch API.
func transectDirect(_ lat1: [Double], _ lon1: [Double], _ azi1: [Double], _ s12: [Double]) -> (lat2: [Double], lon2: [Double]) {
    let n = lat1.count
    var lat2 = [Double](repeating: 0, count: n)
    var lon2 = lat2
    var azi2 = lat2
    lat1.withUnsafeBufferPointer { la1 in
        lon1.withUnsafeBufferPointer { lo1 in
            azi1.withUnsafeBufferPointer { a1 in
                s12.withUnsafeBufferPointer { s in
                    lat2.withUnsafeMutableBufferPointer { la2 in
                        lon2.withUnsafeMutableBufferPointer { lo2 in
                            azi2.withUnsafeMutableBufferPointer { a2 in
                                Geodesic.wgs84.direct(
                                    latitudes1: la1, longitudes1: lo1, azimuths1: a1, distances: s, latitudes2: la2, longitudes2: lo2, azimuths2: a2)
                            }
                        }
                    }
                }
            }
        }
    }
    return (lat2, lon2)
}

func wgs84Geod() -> geod_geodesic {
    var g = geod_geodesic()
    geod_init(&g, 6_378_137, 1 / 298.257223563)
    return g
}

/// The inverse over `pairs` against geod_inverse, with the largest distance difference.
func inverseCase(_ name: String, _ label: String, lat1: [Double], lon1: [Double], lat2: [Double], lon2: [Double]) {
    let n = lat1.count
    var ours: [Double] = []
    let oursTime = cpuTime { ours = transectInverse(lat1, lon1, lat2, lon2) }
    var g = wgs84Geod()
    var theirs = [Double](repeating: 0, count: n)
    let peerTime = cpuTime {
        var a1 = 0.0
        var a2 = 0.0
        for k in 0..<n { geod_inverse(&g, lat1[k], lon1[k], lat2[k], lon2[k], &theirs[k], &a1, &a2) }
    }
    let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 0
    report(name, label, ours: oursTime, peer: peerTime, peerName: "PROJ geod_inverse", count: n, note: "; largest difference \(worst) m")
}

func geodesicCases() {
    var rng = SeededRandom(seed: 1)
    let n = 200_000
    let lat1 = (0..<n).map { _ in Double.random(in: -90...90, using: &rng) }
    let lon1 = (0..<n).map { _ in Double.random(in: -180...180, using: &rng) }
    let lat2 = (0..<n).map { _ in Double.random(in: -90...90, using: &rng) }
    let lon2 = (0..<n).map { _ in Double.random(in: -180...180, using: &rng) }
    inverseCase("geodesic-inverse-global", "geodesic inverse (random global pairs)", lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)

    // Short lines: a random start, azimuth and a length below 10 km, the end found by PROJ.
    var g = wgs84Geod()
    var shortRng = SeededRandom(seed: 2)
    var sLat2 = [Double](repeating: 0, count: n)
    var sLon2 = sLat2
    for k in 0..<n {
        let azimuth = shortRng.uniform(-180, 180)
        let length = shortRng.uniform(0, 10_000)
        var azi2 = 0.0
        geod_direct(&g, lat1[k], lon1[k], azimuth, length, &sLat2[k], &sLon2[k], &azi2)
    }
    inverseCase("geodesic-inverse-short", "geodesic inverse (random pairs under 10 km)", lat1: lat1, lon1: lon1, lat2: sLat2, lon2: sLon2)

    // Direct: random starts, azimuths and lengths up to 20,000 km.
    var directRng = SeededRandom(seed: 3)
    let azi1 = (0..<n).map { _ in directRng.uniform(-180, 180) }
    let s12 = (0..<n).map { _ in directRng.uniform(0, 2e7) }
    var ours = (lat2: [Double](), lon2: [Double]())
    let oursTime = cpuTime { ours = transectDirect(lat1, lon1, azi1, s12) }
    var theirLat = [Double](repeating: 0, count: n)
    var theirLon = theirLat
    let peerTime = cpuTime {
        var azi2 = 0.0
        for k in 0..<n { geod_direct(&g, lat1[k], lon1[k], azi1[k], s12[k], &theirLat[k], &theirLon[k], &azi2) }
    }
    let worst = (0..<n).map { abs(ours.lat2[$0] - theirLat[$0]) }.max() ?? 0
    report(
        "geodesic-direct", "geodesic direct (random lines up to 20,000 km)", ours: oursTime, peer: peerTime, peerName: "PROJ geod_direct",
        count: n, note: "; largest latitude difference \(worst)°")

    // Positions along one geodesic line, batch, against geod_position on a geod_geodesicline.
    let m = 1_000_000
    let distances = (0..<m).map { Double($0) * 10 }
    let line = Geodesic.wgs84.inverseLine(latitude1: 37.7, longitude1: -119.5, latitude2: 48.8, longitude2: 2.3)
    let oursLine = cpuTime { sink += line.positions(atDistances: distances).last?.latitude ?? 0 }
    var pl = geod_geodesicline()
    geod_inverseline(&pl, &g, 37.7, -119.5, 48.8, 2.3, 0)
    let peerLine = cpuTime {
        var la = 0.0
        var lo = 0.0
        var az = 0.0
        for s in distances {
            geod_position(&pl, s, &la, &lo, &az)
            sink += la
        }
    }
    report("geodesic-positions", "positions along a geodesic (1,000,000)", ours: oursLine, peer: peerLine, peerName: "PROJ geod_position", count: m)
}
