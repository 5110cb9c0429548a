// The starting guess and λ₁₂(α₁) of the inverse problem over four lanes: the lane twins of
// `inverseStart` and `lambda12` in Geodesic.swift (see Geodesic+InverseLanes.swift).

extension Geodesic {
    struct StartLanes {
        var sig12: Lanes
        var salp1: Lanes, calp1: Lanes
        var salp2: Lanes, calp2: Lanes
        var dnm: Lanes
    }

    /// `inverseStart` over lanes. The nearly antipodal lanes solve the astroid one by one
    /// with the scalar `astroid` (it needs a cube root), the same function in a batch and alone.
    func inverseStart(
        _ sbet1: Lanes, _ cbet1: Lanes, _ dn1: Lanes,
        _ sbet2: Lanes, _ cbet2: Lanes, _ dn2: Lanes,
        _ lam12: Lanes, _ slam12: Lanes, _ clam12: Lanes
    ) -> StartLanes {
        typealias C = GeodesicConstants
        typealias L = GeoLanes
        typealias V = VectorMath
        let zero = Lanes(repeating: 0)
        var sig12 = Lanes(repeating: -1)
        var salp2 = zero
        var calp2 = zero
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = (cbet12 .>= 0) .& (sbet12 .< 0.5) .& (cbet2 * lam12 .< 0.5)
        var somg12 = slam12
        var comg12 = clam12
        var dnm = zero
        if any(shortline) {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            let sdnm = V.sqrt(1 + ep2 * sbetm2)
            let omg12 = lam12 / (f1 * sdnm)
            let (so, co) = V.sincos(V.select(shortline, omg12, zero))
            dnm = V.select(shortline, sdnm, dnm)
            somg12 = V.select(shortline, so, somg12)
            comg12 = V.select(shortline, co, comg12)
        }

        var salp1 = cbet2 * somg12
        var calp1 = V.select(
            comg12 .>= 0,
            sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12),
            sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12))

        let ssig12 = V.hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        let tiny = shortline .& (ssig12 .< etol2)
        if any(tiny) {
            var s2 = cbet1 * somg12
            var c2 =
                sbet12 - cbet1 * sbet2
                * V.select(comg12 .>= 0, somg12 * somg12 / (1 + comg12), 1 - comg12)
            L.norm2(&s2, &c2)
            salp2 = V.select(tiny, s2, salp2)
            calp2 = V.select(tiny, c2, calp2)
            sig12 = V.select(tiny, V.atan2(ssig12, csig12), sig12)
        }
        var antipodal = .!tiny .& .!(csig12 .>= 0) .& .!(ssig12 .>= 6 * n.magnitude * .pi * cbet1 * cbet1)
        if n.magnitude > 0.1 { antipodal = LaneMask(repeating: false) }
        if any(antipodal) {
            // f ≥ 0 here: the batch entry points send f < 0 to the scalar port.
            let lam12x = V.atan2(-slam12, -clam12)
            let k2 = sbet1 * sbet1 * ep2
            let eps = L.epsilon(k2: k2)
            let lamscale = f * cbet1 * a3(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            let strip = antipodal .& (y .> -C.tol1) .& (x .> -1 - C.xthresh)
            let astro = antipodal .& .!strip
            if any(strip) {
                let s1 = V.select(-x .< 1, -x, Lanes(repeating: 1))  // Swift.min(1, −x)
                salp1 = V.select(strip, s1, salp1)
                calp1 = V.select(strip, -V.sqrt(1 - s1 * s1), calp1)
            }
            if any(astro) {
                var k = zero
                for i in 0..<4 where astro[i] { k[i] = Geodesic.astroid(x[i], y[i]) }
                let omg12a = lamscale * (-x * k / (1 + k))
                let (so, co) = V.sincos(V.select(astro, omg12a, zero))
                let nco = -co
                salp1 = V.select(astro, cbet2 * so, salp1)
                calp1 = V.select(astro, sbet12a - cbet2 * sbet1 * so * so / (1 - nco), calp1)
            }
        }
        let keep = .!(salp1 .<= 0)
        var ns = salp1
        var nc = calp1
        L.norm2(&ns, &nc)
        salp1 = V.select(keep, ns, Lanes(repeating: 1))
        calp1 = V.select(keep, nc, zero)
        return StartLanes(sig12: sig12, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2, dnm: dnm)
    }

    struct Lambda12Lanes {
        var lam12: Lanes, dlam12: Lanes
        var salp2: Lanes, calp2: Lanes, sig12: Lanes
        var ssig1: Lanes, csig1: Lanes, ssig2: Lanes, csig2: Lanes
        var eps: Lanes
    }

    /// `lambda12` over lanes.
    @inline(__always)
    func lambda12(
        _ sbet1: Lanes, _ cbet1: Lanes, _ dn1: Lanes,
        _ sbet2: Lanes, _ cbet2: Lanes, _ dn2: Lanes,
        _ salp1: Lanes, _ calp1In: Lanes,
        _ slam120: Lanes, _ clam120: Lanes,
        derivative: Bool
    ) -> Lambda12Lanes {
        typealias L = GeoLanes
        typealias V = VectorMath
        let zero = Lanes(repeating: 0)
        let calp1 = V.select(
            (sbet1 .== 0) .& (calp1In .== 0), Lanes(repeating: -GeodesicConstants.tiny), calp1In)
        let salp0 = salp1 * cbet1
        let calp0 = V.hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        var csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        L.norm2(&ssig1, &csig1)
        let general = (cbet2 .!= cbet1) .| (V.abs(sbet2) .!= -sbet1)
        let salp2 = V.select(cbet2 .!= cbet1, salp0 / cbet2, salp1)
        let calp2sq =
            (calp1 * cbet1) * (calp1 * cbet1)
            + V.select(cbet1 .< -sbet1, (cbet2 - cbet1) * (cbet1 + cbet2), (sbet1 - sbet2) * (sbet1 + sbet2))
        let calp2 = V.select(general, V.sqrt(calp2sq) / cbet2, V.abs(calp1))
        var ssig2 = sbet2
        var csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2
        let comg2 = calp2 * cbet2
        L.norm2(&ssig2, &csig2)
        let sig12 = V.atan2(
            V.max(zero, csig1 * ssig2 - ssig1 * csig2) + 0,
            csig1 * csig2 + ssig1 * ssig2)
        let somg12 = V.max(zero, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = V.atan2(
            somg12 * clam120 - comg12 * slam120,
            comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = L.epsilon(k2: k2)
        let c3a = c3(eps)
        let b312 = L.sinSeries(ssig2, csig2, c3a) - L.sinSeries(ssig1, csig1, c3a)
        let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)
        let lam12 = eta + domg12

        var r = Lambda12Lanes(
            lam12: lam12, dlam12: zero, salp2: salp2, calp2: calp2,
            sig12: sig12, ssig1: ssig1, csig1: csig1,
            ssig2: ssig2, csig2: csig2, eps: eps)
        if derivative { r.dlam12 = lambda12Slope(r, sbet1, dn1, cbet2, dn2) }
        return r
    }

    /// dλ₁₂/dα₁ (K13 eq. 46) at the point `r` of `lambda12`. Newton's loop asks for it only
    /// when some lane goes on iterating; it changes no other value.
    @inline(__always)
    func lambda12Slope(
        _ r: Lambda12Lanes, _ sbet1: Lanes, _ dn1: Lanes, _ cbet2: Lanes, _ dn2: Lanes
    ) -> Lanes {
        let (_, m12b, _) = lengths(
            eps: r.eps, sig12: r.sig12,
            r.ssig1, r.csig1, dn1, r.ssig2, r.csig2, dn2,
            distance: false, reduced: true)
        return VectorMath.select(r.calp2 .== 0, -2 * f1 * dn1 / sbet1, m12b * f1 / (r.calp2 * cbet2))
    }
}
