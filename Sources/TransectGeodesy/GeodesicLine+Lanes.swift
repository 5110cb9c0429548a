// Positions along a geodesic line, four distances at a time: the lane twin of
// `GeodesicLine.position(atDistance:)`.
//
// Every lane does the operations of the scalar position in the same order, so each result is
// bit for bit the scalar one. The arithmetic, the Clenshaw series (coefficients broadcast once
// per call instead of read from `SIMD8` by a dynamic index), the exact angle reductions and the
// selects run over four lanes; sin, cos, hypot and atan2 stay libm's, lane by lane, because the
// scalar line uses libm and its results are printed to 9 decimals: VectorMath's versions (within
// 1 ulp of libm, not equal to it) would move the last digit of some of a million samples.

extension GeodesicLine {
    /// The per-line values the lane kernel reads, broadcast to four lanes once per batch.
    struct LaneConstants {
        let scale: Lanes  // b (1 + A1 − 1): s / scale = τ₁₂
        let b11: Lanes, b31: Lanes, a3c: Lanes
        let stau1: Lanes, ctau1: Lanes
        let ssig1: Lanes, csig1: Lanes
        let somg1: Lanes, comg1: Lanes
        let salp0: Lanes, calp0: Lanes
        let f1: Lanes, lon1Reduced: Lanes
        let c1p: GeoLanes.Series6
        let c3: GeoLanes.Series5

        init(_ line: GeodesicLine) {
            func v(_ x: Double) -> Lanes { Lanes(repeating: x) }
            scale = v(line.b * (1 + line.a1m1))
            (b11, b31, a3c) = (v(line.b11), v(line.b31), v(line.a3c))
            (stau1, ctau1, ssig1, csig1) = (v(line.stau1), v(line.ctau1), v(line.ssig1), v(line.csig1))
            (somg1, comg1, salp0, calp0) = (v(line.somg1), v(line.comg1), v(line.salp0), v(line.calp0))
            (f1, lon1Reduced) = (v(line.f1), v(line.lon1Reduced))
            let p = line.c1pa
            c1p = GeoLanes.Series6(v(p[1]), v(p[2]), v(p[3]), v(p[4]), v(p[5]), v(p[6]))
            let c = line.c3a
            c3 = GeoLanes.Series5(v(c[1]), v(c[2]), v(c[3]), v(c[4]), v(c[5]))
        }
    }

    /// Whether the lane kernel serves this line: it has no Newton step, which the scalar
    /// position takes for |f| > 1/100.
    var lanesServe: Bool { f.magnitude <= 0.01 }

    /// libm's `f` on each lane.
    @inline(__always) static func libm(_ x: Lanes, _ f: (Double) -> Double) -> Lanes {
        Lanes(f(x[0]), f(x[1]), f(x[2]), f(x[3]))
    }

    /// libm's `f(x, y)` on each lane.
    @inline(__always) static func libm(_ x: Lanes, _ y: Lanes, _ f: (Double, Double) -> Double) -> Lanes {
        Lanes(f(x[0], y[0]), f(x[1], y[1]), f(x[2], y[2]), f(x[3], y[3]))
    }

    /// Latitude, longitude and (when `azimuth`) the forward azimuth, degrees, at four signed
    /// distances from point 1: lane k is ``position(atDistance:)`` of `distance[k]`.
    @inline(__always)
    func positionLanes(_ distance: Lanes, _ k: LaneConstants, azimuth: Bool) -> (latitude: Lanes, longitude: Lanes, azimuth2: Lanes) {
        typealias L = GeoLanes
        typealias V = VectorMath
        let tau12 = distance / k.scale
        let st = Self.libm(tau12, libmSin)
        let ct = Self.libm(tau12, libmCos)
        let b12 = -L.sinSeries(k.stau1 * ct + k.ctau1 * st, k.ctau1 * ct - k.stau1 * st, k.c1p)
        let sig12 = tau12 - (b12 - k.b11)
        let ssig12 = Self.libm(sig12, libmSin)
        let csig12 = Self.libm(sig12, libmCos)
        // position(sig12:ssig12:csig12:)
        let ssig2 = k.ssig1 * csig12 + k.csig1 * ssig12
        var csig2 = k.csig1 * csig12 - k.ssig1 * ssig12
        let sbet2 = k.calp0 * ssig2
        var cbet2 = Self.libm(k.salp0, k.calp0 * csig2, libmHypot)
        let pole = cbet2 .== 0
        cbet2 = V.select(pole, Lanes(repeating: GeodesicConstants.tiny), cbet2)
        csig2 = V.select(pole, Lanes(repeating: GeodesicConstants.tiny), csig2)
        let somg2 = k.salp0 * ssig2
        let comg2 = csig2
        let omg12 = Self.libm(somg2 * k.comg1 - comg2 * k.somg1, comg2 * k.comg1 + somg2 * k.somg1, libmAtan2)
        let lam12 = omg12 + k.a3c * (sig12 + (L.sinSeries(ssig2, csig2, k.c3) - k.b31))
        let lon12 = lam12 / GeoMath.degree
        let lon2 = GeoLanes.angNormalize(k.lon1Reduced + GeoLanes.angNormalize(lon12))
        // GeoMath.atan2d lane by lane: VectorMath's reduction with libm's atan2.
        let libmArctangent: (Lanes, Lanes) -> Lanes = { Self.libm($0, $1, libmAtan2) }
        let lat2 = V.atan2d(sbet2, k.f1 * cbet2, arctangent: libmArctangent)
        let azi2 = azimuth ? V.atan2d(k.salp0, k.calp0 * csig2, arctangent: libmArctangent) : Lanes(repeating: 0)
        return (lat2, lon2, azi2)
    }

    /// Fills `count` positions, four at a time: entry i is ``position(atDistance:)`` of
    /// `distance(i)`; azimuths only where `azimuths` is given. The last group's unused lanes
    /// take distance 0 and are dropped.
    @inline(__always)
    package func fillPositions(
        count: Int, latitudes: UnsafeMutablePointer<Double>, longitudes: UnsafeMutablePointer<Double>,
        azimuths: UnsafeMutablePointer<Double>?, distance: (Int) -> Double
    ) {
        guard lanesServe else {
            for i in 0..<count {
                let p = position(atDistance: distance(i))
                latitudes[i] = p.latitude
                longitudes[i] = p.longitude
                azimuths?[i] = p.azimuth2Degrees
            }
            return
        }
        let k = LaneConstants(self)
        var i = 0
        while i < count {
            let m = Swift.min(4, count - i)
            var d = Lanes(repeating: 0)
            for j in 0..<m { d[j] = distance(i + j) }
            let r = positionLanes(d, k, azimuth: azimuths != nil)
            for j in 0..<m {
                latitudes[i + j] = r.latitude[j]
                longitudes[i + j] = r.longitude[j]
                azimuths?[i + j] = r.azimuth2[j]
            }
            i += m
        }
    }

    /// The points at each of `distances` (metres from point 1, signed, any order), written to
    /// the same index of `latitudes` and `longitudes` (degrees; longitudes reduced to
    /// [−180, 180]) and, when given, `azimuths` (the forward azimuth, degrees). Each is bit for
    /// bit ``position(atDistance:)``'s, four distances at a time.
    ///
    /// - Precondition: the output buffers have `distances.count` entries.
    /// Complexity: O(`distances.count`).
    public func positions(
        atDistances distances: UnsafeBufferPointer<Double>, latitudes: UnsafeMutableBufferPointer<Double>,
        longitudes: UnsafeMutableBufferPointer<Double>, azimuths: UnsafeMutableBufferPointer<Double>? = nil
    ) {
        let count = distances.count
        precondition(
            latitudes.count == count && longitudes.count == count && (azimuths?.count ?? count) == count,
            "GeodesicLine.positions(atDistances:latitudes:longitudes:azimuths:): the buffers differ in length")
        guard count > 0, let lat = latitudes.baseAddress, let lon = longitudes.baseAddress, let d = distances.baseAddress else { return }
        fillPositions(count: count, latitudes: lat, longitudes: lon, azimuths: azimuths?.baseAddress) { d[$0] }
    }

    /// `count` results through the lane kernel, entry i at `distance(i)`.
    func results(count: Int, distance: (Int) -> Double) -> [GeodesicDirectResult] {
        var lat = [Double](repeating: 0, count: count)
        var lon = lat
        var azi = lat
        lat.withUnsafeMutableBufferPointer { la in
            lon.withUnsafeMutableBufferPointer { lo in
                azi.withUnsafeMutableBufferPointer { az in
                    if let a = la.baseAddress, let b = lo.baseAddress {
                        fillPositions(count: count, latitudes: a, longitudes: b, azimuths: az.baseAddress, distance: distance)
                    }
                }
            }
        }
        return (0..<count).map { GeodesicDirectResult(latitude: lat[$0], longitude: lon[$0], azimuth2Degrees: azi[$0]) }
    }
}
