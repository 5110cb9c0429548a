// The inverse problem over four lanes of point pairs: the lane twin of `solveInverse`.
//
// Every branch of the scalar solution is a mask here. A branch is computed when any lane takes
// it, for all four lanes, and its results are kept only in the lanes that take it, so each lane
// goes through exactly the operations the one-pair solution goes through. Newton's method runs
// with an `active` mask: a lane that has converged keeps its values while the others iterate,
// and the loop stops when no lane is active (or at the iteration cap).

extension Geodesic {
    /// The inverse solution of four pairs, in terms of sines and cosines of the azimuths.
    struct InverseLanes {
        var s12: Lanes, a12: Lanes
        var salp1: Lanes, calp1: Lanes, salp2: Lanes, calp2: Lanes
    }

    func solveInverse(
        _ lat1In: Lanes, _ lon1: Lanes,
        _ lat2In: Lanes, _ lon2: Lanes
    ) -> InverseLanes {
        typealias C = GeodesicConstants
        typealias L = GeoLanes
        typealias V = VectorMath
        let degree = GeoMath.degree
        let zero = Lanes(repeating: 0)
        let one = Lanes(repeating: 1)

        var (lon12, lon12s) = L.angDiff(lon1, lon2)
        var lonsign = V.select(V.signMinus(lon12), -one, one)
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * degree
        let (slam12, clam12) = V.sincosd(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s

        var lat1 = L.angRound(L.latFix(lat1In))
        var lat2 = L.angRound(L.latFix(lat2In))
        let swapMask = (V.abs(lat1) .< V.abs(lat2)) .| (lat2 .!= lat2)
        let swapp = V.select(swapMask, -one, one)
        lonsign = V.select(swapMask, -lonsign, lonsign)
        (lat1, lat2) = (V.select(swapMask, lat2, lat1), V.select(swapMask, lat1, lat2))
        let latsign = V.select(V.signMinus(lat1), one, -one)
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = V.sincosd(lat1)
        sbet1 *= f1
        L.norm2(&sbet1, &cbet1)
        cbet1 = V.max(Lanes(repeating: C.tiny), cbet1)
        var (sbet2, cbet2) = V.sincosd(lat2)
        sbet2 *= f1
        L.norm2(&sbet2, &cbet2)
        cbet2 = V.max(Lanes(repeating: C.tiny), cbet2)

        let byCos = cbet1 .< -sbet1
        sbet2 = V.select(byCos .& (cbet2 .== cbet1), V.copysign(sbet1, sbet2), sbet2)
        cbet2 = V.select(.!byCos .& (V.abs(sbet2) .== -sbet1), cbet1, cbet2)

        let dn1 = V.sqrt(1 + ep2 * sbet1 * sbet1)
        let dn2 = V.sqrt(1 + ep2 * sbet2 * sbet2)

        var a12 = zero
        var sig12 = zero
        var s12x = zero
        var salp1 = zero
        var calp1 = zero
        var salp2 = zero
        var calp2 = zero

        var meridian = (lat1 .== -90) .| (slam12 .== 0)
        if any(meridian) {
            let mcalp1 = clam12
            let msalp1 = slam12
            let ssig1 = sbet1
            let csig1 = mcalp1 * cbet1
            let ssig2 = sbet2
            let csig2 = one * cbet2
            var msig12 = V.atan2(
                V.max(zero, csig1 * ssig2 - ssig1 * csig2) + 0,
                csig1 * csig2 + ssig1 * ssig2)
            var (s12b, m12b, _) = lengths(
                eps: Lanes(repeating: n), sig12: msig12,
                ssig1, csig1, dn1, ssig2, csig2, dn2,
                distance: true, reduced: true)
            let shortest = (msig12 .< 1) .| (m12b .>= 0)
            let tiny = (msig12 .< 3 * C.tiny) .| ((msig12 .< C.tol0) .& ((s12b .< 0) .| (m12b .< 0)))
            msig12 = V.select(tiny, zero, msig12)
            m12b = V.select(tiny, zero, m12b)
            s12b = V.select(tiny, zero, s12b)
            meridian .&= shortest
            calp1 = V.select(meridian, mcalp1, calp1)
            salp1 = V.select(meridian, msalp1, salp1)
            calp2 = V.select(meridian, one, calp2)
            sig12 = V.select(meridian, msig12, sig12)
            s12x = V.select(meridian, s12b * b, s12x)
            a12 = V.select(meridian, msig12 / degree, a12)
        }

        var equatorial = .!meridian .& (sbet1 .== 0)
        if f > 0 { equatorial .&= (lon12s .>= f * 180) }
        if any(equatorial) {
            calp1 = V.select(equatorial, zero, calp1)
            calp2 = V.select(equatorial, zero, calp2)
            salp1 = V.select(equatorial, one, salp1)
            salp2 = V.select(equatorial, one, salp2)
            s12x = V.select(equatorial, a * lam12, s12x)
            sig12 = V.select(equatorial, lam12 / f1, sig12)
            a12 = V.select(equatorial, lon12 / f1, a12)
        }

        let general = .!meridian .& .!equatorial
        if any(general) {
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            let solved = general .& (start.sig12 .>= 0)
            salp1 = V.select(general, start.salp1, salp1)
            calp1 = V.select(general, start.calp1, calp1)
            sig12 = V.select(general, start.sig12, sig12)
            salp2 = V.select(solved, start.salp2, salp2)
            calp2 = V.select(solved, start.calp2, calp2)
            s12x = V.select(solved, start.sig12 * b * start.dnm, s12x)
            a12 = V.select(solved, start.sig12 / degree, a12)
            let newton = general .& .!solved
            if any(newton) {
                var st = NewtonState(salp1: salp1, calp1: calp1)
                newtonLoop(&st, newton, sbet1, cbet1, dn1, sbet2, cbet2, dn2, slam12, clam12)
                let (s12b, _, _) = lengths(
                    eps: st.eps, sig12: st.sig12,
                    st.ssig1, st.csig1, dn1, st.ssig2, st.csig2, dn2,
                    distance: true, reduced: false)
                salp1 = V.select(newton, st.salp1, salp1)
                calp1 = V.select(newton, st.calp1, calp1)
                salp2 = V.select(newton, st.salp2, salp2)
                calp2 = V.select(newton, st.calp2, calp2)
                sig12 = V.select(newton, st.sig12, sig12)
                s12x = V.select(newton, s12b * b, s12x)
                a12 = V.select(newton, st.sig12 / degree, a12)
            }
        }

        let s12 = 0 + s12x
        (salp1, salp2) = (V.select(swapMask, salp2, salp1), V.select(swapMask, salp1, salp2))
        (calp1, calp2) = (V.select(swapMask, calp2, calp1), V.select(swapMask, calp1, calp2))
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return InverseLanes(s12: s12, a12: a12, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2)
    }

    /// The state of Newton's method on λ₁₂(α₁), one set per lane.
    struct NewtonState {
        var salp1: Lanes, calp1: Lanes
        var salp2 = Lanes(repeating: 0), calp2 = Lanes(repeating: 0)
        var sig12 = Lanes(repeating: 0)
        var ssig1 = Lanes(repeating: 0), csig1 = Lanes(repeating: 0)
        var ssig2 = Lanes(repeating: 0), csig2 = Lanes(repeating: 0)
        var eps = Lanes(repeating: 0)
        init(salp1: Lanes, calp1: Lanes) {
            self.salp1 = salp1
            self.calp1 = calp1
        }
    }

    /// Newton's method with bisection fall-back (the loop of `solveInverse`) in the lanes of
    /// `active`; the other lanes are left as they are.
    func newtonLoop(
        _ st: inout NewtonState, _ activeIn: LaneMask,
        _ sbet1: Lanes, _ cbet1: Lanes, _ dn1: Lanes,
        _ sbet2: Lanes, _ cbet2: Lanes, _ dn2: Lanes,
        _ slam12: Lanes, _ clam12: Lanes
    ) {
        typealias C = GeodesicConstants
        typealias L = GeoLanes
        typealias V = VectorMath
        var active = activeIn
        var salp1a = Lanes(repeating: C.tiny)
        var calp1a = Lanes(repeating: 1)
        var salp1b = Lanes(repeating: C.tiny)
        var calp1b = Lanes(repeating: -1)
        var tripn = LaneMask(repeating: false)
        var tripb = LaneMask(repeating: false)
        for numit in 0...C.maxit2 {
            let r = lambda12(
                sbet1, cbet1, dn1, sbet2, cbet2, dn2, st.salp1, st.calp1,
                slam12, clam12, derivative: false)
            let v = r.lam12
            st.salp2 = V.select(active, r.salp2, st.salp2)
            st.calp2 = V.select(active, r.calp2, st.calp2)
            st.sig12 = V.select(active, r.sig12, st.sig12)
            st.ssig1 = V.select(active, r.ssig1, st.ssig1)
            st.csig1 = V.select(active, r.csig1, st.csig1)
            st.ssig2 = V.select(active, r.ssig2, st.ssig2)
            st.csig2 = V.select(active, r.csig2, st.csig2)
            st.eps = V.select(active, r.eps, st.eps)
            let limit = V.select(tripn, Lanes(repeating: 8 * C.tol0), Lanes(repeating: C.tol0))
            var done = tripb .| .!(V.abs(v) .>= limit)
            if numit == C.maxit2 { done = LaneMask(repeating: true) }
            active .&= .!done
            if !any(active) { break }
            let salp1 = st.salp1
            let calp1 = st.calp1
            let late = LaneMask(repeating: numit > C.maxit1)
            let toB = active .& (v .> 0) .& (late .| (calp1 / salp1 .> calp1b / salp1b))
            let toA = active .& .!toB .& (v .< 0) .& (late .| (calp1 / salp1 .< calp1a / salp1a))
            salp1b = V.select(toB, salp1, salp1b)
            calp1b = V.select(toB, calp1, calp1b)
            salp1a = V.select(toA, salp1, salp1a)
            calp1a = V.select(toA, calp1, calp1a)
            var stepped = LaneMask(repeating: false)
            if numit < C.maxit1 {
                // The slope, computed only now that some lane needs it (the scalar solution
                // computes it with λ₁₂ and the same operations).
                let dv = lambda12Slope(r, sbet1, dn1, cbet2, dn2)
                let dalp1 = -v / dv
                let ok = active .& (dv .> 0) .& (V.abs(dalp1) .< .pi)
                if any(ok) {
                    let (sdalp1, cdalp1) = V.sincos(V.select(ok, dalp1, Lanes(repeating: 0)))
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    let positive = ok .& (nsalp1 .> 0)
                    stepped = positive
                    var ncalp1 = calp1 * cdalp1 - salp1 * sdalp1
                    var ns = nsalp1
                    L.norm2(&ns, &ncalp1)
                    st.salp1 = V.select(stepped, ns, st.salp1)
                    st.calp1 = V.select(stepped, ncalp1, st.calp1)
                    tripn = V.select(stepped, V.abs(v) .<= 16 * C.tol0, tripn)
                }
            }
            let bisect = active .& .!stepped
            if any(bisect) {
                var bs = (salp1a + salp1b) / 2
                var bc = (calp1a + calp1b) / 2
                L.norm2(&bs, &bc)
                st.salp1 = V.select(bisect, bs, st.salp1)
                st.calp1 = V.select(bisect, bc, st.calp1)
                tripn .&= .!bisect
                let nb =
                    (V.abs(salp1a - bs) + (calp1a - bc) .< C.tolb) .| (V.abs(bs - salp1b) + (bc - calp1b) .< C.tolb)
                tripb = V.select(bisect, nb, tripb)
            }
        }
    }
}

extension VectorMath {
    /// `a` where `m` is set, else `b`, for masks.
    @inline(__always) static func select(_ m: LaneMask, _ a: LaneMask, _ b: LaneMask) -> LaneMask {
        (m .& a) .| (.!m .& b)
    }
}
