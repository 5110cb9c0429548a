// The direct problem over four lanes: the lane twin of `GeodesicLine.init` followed by
// `GeodesicLine.position(atDistance:)`, with libm replaced by VectorMath.

extension Geodesic {
    /// Point 2 and the azimuth there for four direct problems, degrees.
    struct DirectLanes {
        var latitude: Lanes, longitude: Lanes, azimuth2: Lanes
    }

    func solveDirect(_ lat1In: Lanes, _ lon1: Lanes, _ aziIn: Lanes, _ distance: Lanes) -> DirectLanes {
        typealias L = GeoLanes
        typealias V = VectorMath
        let azi1 = L.angNormalize(aziIn)
        let (salp1, calp1) = V.sincosd(L.angRound(azi1))
        let lat1 = L.latFix(lat1In)
        let lon1Reduced = L.angNormalize(lon1)

        var (sbet1, cbet1) = V.sincosd(L.angRound(lat1))
        sbet1 *= f1
        L.norm2(&sbet1, &cbet1)
        cbet1 = V.max(Lanes(repeating: GeodesicConstants.tiny), cbet1)
        let salp0 = salp1 * cbet1
        let calp0 = V.hypot(calp1, salp1 * sbet1)
        var s1 = sbet1
        var c1 = V.select((sbet1 .!= 0) .| (calp1 .!= 0), cbet1 * calp1, Lanes(repeating: 1))
        let somg1 = salp0 * sbet1
        let comg1 = c1
        L.norm2(&s1, &c1)
        let ssig1 = s1
        let csig1 = c1

        let k2 = calp0 * calp0 * ep2
        let eps = L.epsilon(k2: k2)
        let a1m1 = L.a1m1(eps)
        let c1a = L.c1(eps)
        let b11 = L.sinSeries(s1, c1, c1a)
        let (sb, cb) = V.sincos(b11)
        let stau1 = s1 * cb + c1 * sb
        let ctau1 = c1 * cb - s1 * sb
        let c1pa = L.c1p(eps)
        let c3a = c3(eps)
        let a3c = -f * salp0 * a3(eps)
        let b31 = L.sinSeries(s1, c1, c3a)

        // Position at the distance (GeodesicLine.position(atDistance:)).
        let tau12 = distance / (b * (1 + a1m1))
        let (st, ct) = V.sincos(tau12)
        var b12 = -L.sinSeries(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st, c1pa)
        var sig12 = tau12 - (b12 - b11)
        var (ssig12, csig12) = V.sincos(sig12)
        if f.magnitude > 0.01 {
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            b12 = L.sinSeries(ssig2, csig2, c1a)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - distance / b
            sig12 -= serr / V.sqrt(1 + k2 * ssig2 * ssig2)
            (ssig12, csig12) = V.sincos(sig12)
        }
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = V.hypot(salp0, calp0 * csig2)
        let pole = cbet2 .== 0
        cbet2 = V.select(pole, Lanes(repeating: GeodesicConstants.tiny), cbet2)
        csig2 = V.select(pole, Lanes(repeating: GeodesicConstants.tiny), csig2)
        let salp2 = salp0
        let calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2
        let comg2 = csig2
        let omg12 = V.atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (sig12 + (L.sinSeries(ssig2, csig2, c3a) - b31))
        let lon12 = lam12 / GeoMath.degree
        let lon2 = L.angNormalize(lon1Reduced + L.angNormalize(lon12))
        return DirectLanes(
            latitude: V.atan2d(sbet2, f1 * cbet2), longitude: lon2,
            azimuth2: V.atan2d(salp2, calp2))
    }
}
