import Testing
import TransectTestSupport

@testable import TransectGeodesy

/// The lane kernel of GeodesicLine (GeodesicLine+Lanes.swift) against the scalar
/// `position(atDistance:)`, bit for bit: same bits of latitude, longitude and azimuth, signed
/// zeros and NaNs included.
@Suite("GeodesicLine lanes")
struct GeodesicLineLanesTests {
    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    /// Lines from an inverse problem (which know their length) and from a start and azimuth:
    /// ordinary, nearly antipodal (the starting guess's hard case), meridional (through both
    /// poles), equatorial, zero length, from a pole, across the antimeridian.
    static func lines() -> [GeodesicLine] {
        let g = Geodesic.wgs84
        var lines = [
            g.inverseLine(latitude1: 40.6, longitude1: -73.8, latitude2: 49.01666667, longitude2: 2.55),
            g.inverseLine(latitude1: 0.07476, longitude1: 0, latitude2: -0.07476, longitude2: 180),  // nearly antipodal
            g.inverseLine(latitude1: 0.1, longitude1: 0, latitude2: -0.1, longitude2: 179.5),
            g.inverseLine(latitude1: -30, longitude1: 20, latitude2: 29.9, longitude2: -160.2),
            g.inverseLine(latitude1: 10, longitude1: 30, latitude2: 80, longitude2: 30),  // meridional
            g.inverseLine(latitude1: 10, longitude1: 30, latitude2: 20, longitude2: -150),  // over the pole
            g.inverseLine(latitude1: 0, longitude1: -10, latitude2: 0, longitude2: 100),  // equatorial
            g.inverseLine(latitude1: 0, longitude1: 170, latitude2: 0, longitude2: -170),  // equatorial, antimeridian
            g.inverseLine(latitude1: 37.7, longitude1: -119.6, latitude2: 37.7, longitude2: -119.6),  // zero length
            g.inverseLine(latitude1: 90, longitude1: 0, latitude2: -45, longitude2: 60),  // from a pole
            g.inverseLine(latitude1: -12.5, longitude1: 179.9, latitude2: 12.5, longitude2: -179.9),
            g.line(latitude1: 0, longitude1: 0, azimuth1Degrees: 90),
            g.line(latitude1: -45, longitude1: -180, azimuth1Degrees: -0.0),
            g.line(latitude1: 89.99999, longitude1: 10, azimuth1Degrees: 180),
            g.line(latitude1: 0, longitude1: -180, azimuth1Degrees: -90),
        ]
        var rng = SeededRandom(seed: 0x1A4E5)
        for _ in 0..<40 {
            lines.append(
                g.inverseLine(
                    latitude1: rng.uniform(-90, 90), longitude1: rng.uniform(-540, 540), latitude2: rng.uniform(-90, 90),
                    longitude2: rng.uniform(-180, 180)))
            lines.append(g.line(latitude1: rng.uniform(-90, 90), longitude1: rng.uniform(-180, 180), azimuth1Degrees: rng.uniform(-360, 360)))
        }
        return lines
    }

    /// Distances: random over more than a circuit both ways, a profile's even steps, exact 0,
    /// the end point, a quarter and half meridian, −0, and values off the ordinary range.
    static func distances(for line: GeodesicLine, seed: UInt64) -> [Double] {
        var rng = SeededRandom(seed: seed)
        var d = (0..<2_001).map { _ in rng.uniform(-4.1e7, 4.1e7) }
        let total = line.distanceMetres ?? 1e6
        d += (0...1_000).map { total * Double($0) / 1_000 }
        d += [0, -0.0, total, 10_001_965.729, 20_003_931.458, -20_003_931.458, 1e-300, 1e12, .infinity, .nan]
        return d
    }

    @Test("positions over buffers equal position(atDistance:) bit for bit, azimuths too")
    func buffersEqualScalar() {
        for (n, line) in Self.lines().enumerated() {
            let distances = Self.distances(for: line, seed: 0x5EED + UInt64(n))
            var lat = [Double](repeating: 0, count: distances.count)
            var lon = lat
            var azi = lat
            distances.withUnsafeBufferPointer { d in
                lat.withUnsafeMutableBufferPointer { la in
                    lon.withUnsafeMutableBufferPointer { lo in
                        azi.withUnsafeMutableBufferPointer { az in line.positions(atDistances: d, latitudes: la, longitudes: lo, azimuths: az) }
                    }
                }
            }
            var mismatches = 0
            for (k, s) in distances.enumerated() {
                let p = line.position(atDistance: s)
                if !(Self.same(lat[k], p.latitude) && Self.same(lon[k], p.longitude) && Self.same(azi[k], p.azimuth2Degrees)) {
                    mismatches += 1
                }
            }
            #expect(mismatches == 0, "line \(n): \(mismatches) of \(distances.count) positions differ from the scalar")
        }
    }

    @Test("without azimuths the latitudes and longitudes are the same; every tail length")
    func tailsAndNoAzimuth() {
        let line = Geodesic.wgs84.inverseLine(latitude1: 37.7, longitude1: -119.6, latitude2: 36.2, longitude2: -118.3)
        for count in 0...9 {
            let distances = (0..<count).map { Double($0) * 1234.5 }
            var lat = [Double](repeating: 0, count: count)
            var lon = lat
            distances.withUnsafeBufferPointer { d in
                lat.withUnsafeMutableBufferPointer { la in
                    lon.withUnsafeMutableBufferPointer { lo in line.positions(atDistances: d, latitudes: la, longitudes: lo) }
                }
            }
            for k in 0..<count {
                let p = line.position(atDistance: distances[k])
                #expect(Self.same(lat[k], p.latitude) && Self.same(lon[k], p.longitude))
            }
        }
    }

    @Test("the array forms (positions(count:), evenlySpaced, positions(atDistances:)) equal the scalar")
    func arrayForms() {
        let line = Geodesic.wgs84.inverseLine(latitude1: -33.9, longitude1: 151.2, latitude2: 51.5, longitude2: -0.1)
        let total = line.distanceMetres ?? 0
        let counted = line.positions(count: 1_001)
        #expect(counted.count == 1_001)
        for (i, p) in counted.enumerated() {
            let s = i == 1_000 ? total : Double(i) * (total / 1_000)
            let q = line.position(atDistance: s)
            #expect(Self.same(p.latitude, q.latitude) && Self.same(p.longitude, q.longitude) && Self.same(p.azimuth2Degrees, q.azimuth2Degrees))
        }
        let stepped = line.evenlySpaced(stepMetres: 997_000)
        #expect(stepped.count == Int((total / 997_000).rounded(.up)) + 1)
        #expect(Self.same(stepped.last?.latitude ?? 0, line.position(atDistance: total).latitude))
        #expect(Self.same(stepped[3].longitude, line.position(atDistance: 3 * 997_000).longitude))
    }

    @Test(
        "angNormalize over lanes is GeoMath.angNormalize, signed zeros included",
        arguments: [-720.0, -360, -180, -0.0, 0, 180, 360, 540, -540, 179.999, -1e-300, 1e15, -1e300, .infinity, .nan, 0x1p45, -0x1p45 - 360])
    func angNormalizeLanes(_ x: Double) {
        let lanes = GeoLanes.angNormalize(Lanes(x, -x, x / 2, x + 360))
        for (k, v) in [x, -x, x / 2, x + 360].enumerated() {
            #expect(Self.same(lanes[k], GeoMath.angNormalize(v)), "angNormalize(\(v)) = \(lanes[k]), not \(GeoMath.angNormalize(v))")
        }
    }

    @Test("atan2d over lanes with libm's atan2 is GeoMath.atan2d on signed zeros, infinities and each octant")
    func atan2dLanes() {
        let values: [Double] = [0, -0.0, 1, -1, 0.5, -2, .infinity, -.infinity, 0x1p-1030, 3]
        for y in values {
            for x in values {
                let lanes = VectorMath.atan2d(
                    Lanes(repeating: y), Lanes(repeating: x), arctangent: { GeodesicLine.libm($0, $1, libmAtan2) })
                #expect(Self.same(lanes[0], GeoMath.atan2d(y, x)), "atan2d(\(y), \(x))")
            }
        }
    }
}
