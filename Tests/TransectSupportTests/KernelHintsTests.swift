import Testing
import TransectTestSupport

@testable import TransectSupport

@Suite("kernel hints: the floor as an index, without a trap")
struct KernelHintsTests {
    @Test("floorIndex is Int(x.rounded(.down)) for cell coordinates of either sign, fractions, -0 and whole numbers")
    func floorsLikeSwift() {
        var rng = SeededRandom(seed: 7)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1, -1, 4095.999999, -0.5000001, 1e15 + 0.5, -1e15 - 0.5]
        for _ in 0..<10_000 { values.append(rng.uniform(-70_000, 70_000)) }
        for x in values {
            #expect(KernelHints.floorIndex(x) == Int(x.rounded(.down)), "\(x)")
        }
    }

    @Test("NaN, the infinities and values beyond Int give Int.min, which no index check passes")
    func beyondIntIsIntMin() {
        for x in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 0x1p63, -0x1p64] {
            #expect(KernelHints.floorIndex(x) == .min, "\(x)")
        }
    }
}
