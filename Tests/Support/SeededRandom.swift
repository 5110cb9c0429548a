/// SplitMix64 (Steele, Lea & Flood 2014): a small seeded generator, so every run of a
/// randomised test sees exactly the same cases. The one generator of every test target (and of
/// `make bench`); use it with the standard library's `random(in:using:)` or the helpers below.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Uniform in [lo, hi).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    /// ±1 with equal probability.
    public mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }
    /// An integer in 0..<n (n > 0).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// ±10^−e with e uniform in [lo, hi]: a small offset spread over many decades.
    public mutating func tiny(_ lo: Double, _ hi: Double) -> Double {
        var p = 1.0
        let e = uniform(lo, hi)
        // 10^−e by repeated division and a linear last decade: no libm, monotone enough for
        // spreading test cases.
        var k = e
        while k >= 1 {
            p /= 10
            k -= 1
        }
        p *= 1 - 0.9 * k
        return sign() * p
    }
}
