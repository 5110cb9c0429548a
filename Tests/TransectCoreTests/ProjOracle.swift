import CPROJ

/// PROJ's copy of GeographicLib's C geodesic routines, used as the oracle.
/// The C functions are `geod_init`, `geod_geninverse` and `geod_direct`.
struct ProjGeodesic: Sendable {
    private let g: geod_geodesic

    init(equatorialRadius a: Double, flattening f: Double) {
        var g = geod_geodesic()
        geod_init(&g, a, f)
        self.g = g
    }

    static let wgs84 = ProjGeodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// `geod_geninverse`: distance, azimuths, arc and reduced length m12 (metres).
    func inverse(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double)
        -> (s12: Double, azi1: Double, azi2: Double, a12: Double, m12: Double) {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0, m12 = 0.0
        let a12 = withUnsafePointer(to: g) { p in
            geod_geninverse(p, lat1, lon1, lat2, lon2, &s12, &azi1, &azi2, &m12, nil, nil, nil)
        }
        return (s12, azi1, azi2, a12, m12)
    }

    /// `geod_direct` (longitude reduced to [−180, 180], no GEOD_LONG_UNROLL).
    func direct(_ lat1: Double, _ lon1: Double, _ azi1: Double, _ s12: Double)
        -> (lat2: Double, lon2: Double, azi2: Double) {
        var lat2 = 0.0, lon2 = 0.0, azi2 = 0.0
        withUnsafePointer(to: g) { p in
            geod_direct(p, lat1, lon1, azi1, s12, &lat2, &lon2, &azi2)
        }
        return (lat2, lon2, azi2)
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, deterministic 64-bit generator, so every
/// run of the randomised tests sees exactly the same cases.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1) with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Uniform in [lo, hi).
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    /// ±1 with equal probability.
    mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }
    /// An integer in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// ±10^−e with e uniform in [lo, hi]: a small offset spread over many decades.
    mutating func tiny(_ lo: Double, _ hi: Double) -> Double {
        var p = 1.0
        let e = uniform(lo, hi)
        // 10^−e by repeated multiplication keeps this file free of libm.
        var k = e
        while k >= 1 { p /= 10; k -= 1 }
        p *= 1 - 0.9 * k            // fractional decade, monotone enough for test spread
        return sign() * p
    }
}

/// |a − b| for angles in degrees, reduced modulo 360 to [0, 180]. Both NaN counts as equal.
func angleError(_ a: Double, _ b: Double) -> Double {
    if a.isNaN && b.isNaN { return 0 }
    return (a - b).remainder(dividingBy: 360).magnitude
}

/// |a − b|, with both NaN counting as equal.
func valueError(_ a: Double, _ b: Double) -> Double {
    if a.isNaN && b.isNaN { return 0 }
    return (a - b).magnitude
}
