import Testing
import TransectSupport

@Suite struct NumberFormattingTests {
    @Test(
        "shortest: whole numbers as integers, the rest as their round-trip decimal",
        arguments: [
            (0, "0"), (-0.0, "0"), (1200, "1200"), (-1200, "-1200"), (37.75, "37.75"), (0.1, "0.1"), (-119.5, "-119.5"),
            (0.5, "0.5"), (123456.789, "123456.789"), (999_999_999_999_999, "999999999999999"),
            // From 10¹⁵ on, Swift's own form: with a fraction, and further out with an exponent.
            (1e15, "1000000000000000.0"), (-1e15, "-1000000000000000.0"), (1e16, "1e+16"), (1e-7, "1e-07"),
            (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"),
        ] as [(Double, String)])
    func shortest(value: Double, expected: String) {
        #expect(NumberFormatting.shortest(value) == expected)
    }

    @Test(
        "pointZero writes whole numbers with .0 and nothing else differently",
        arguments: [
            (12, "12.0"), (-30, "-30.0"), (0, "0.0"), (-0.0, "0.0"), (0.5, "0.5"), (-2.25, "-2.25"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
        ] as [(Double, String)])
    func pointZero(value: Double, expected: String) {
        #expect(NumberFormatting.shortest(value, pointZero: true) == expected)
    }

    @Test("every shortest text reads back as the value itself")
    func roundTrip() {
        for value in [0.1, 1.0 / 3, -2.0 / 7, 1e-300, .leastNonzeroMagnitude, 6378137.0, 298.257223563, 123456789012345.6, 1e15 + 2, .pi] {
            #expect(Double(NumberFormatting.shortest(value)) == value, "\(value)")
            #expect(Double(NumberFormatting.shortest(value, pointZero: true)) == value, "\(value)")
        }
    }

    @Test(
        "rounding: halves away from zero, and no negative zero",
        arguments: [
            (2.5, 0, 3), (-2.5, 0, -3), (0.5, 0, 1), (-0.5, 0, -1), (1.5, 0, 2), (0.125, 2, 0.13), (-0.125, 2, -0.13),
            (-119.5234567, 4, -119.5235), (37.74999, 3, 37.75), (1200, 6, 1200),
            // 1.005 is stored as 1.00499999999999989…: below the half, so it rounds down.
            (1.005, 2, 1),
            (-0.004, 2, 0), (-0.0, 3, 0), (0.0049999, 2, 0),
            // Once scaled past 4.5·10¹⁵ there is no fraction left to round.
            (4.5e15, 1, 4.5e15), (1e300, 2, 1e300), (-1e300, 2, -1e300),
        ] as [(Double, Int, Double)])
    func rounded(value: Double, decimals: Int, expected: Double) {
        let r = NumberFormatting.rounded(value, decimals: decimals)
        #expect(r.bitPattern == expected.bitPattern, "\(value) at \(decimals) → \(r)")
    }

    @Test("rounding keeps NaN and infinities")
    func roundedNonFinite() {
        #expect(NumberFormatting.rounded(.nan, decimals: 2).isNaN)
        #expect(NumberFormatting.rounded(.infinity, decimals: 2) == .infinity)
        #expect(NumberFormatting.rounded(-.infinity, decimals: 0) == -.infinity)
    }

    @Test(
        "grouped: separators every three digits, halves away from zero",
        arguments: [
            (1234.5, 0, "1,235"), (-1234.5, 0, "-1,235"), (0.005, 2, "0.01"), (10_000_000, 0, "10,000,000"),
            (999, 0, "999"), (1000, 0, "1,000"), (-1_234_567, 0, "-1,234,567"), (1_000_000.125, 2, "1,000,000.13"),
            (0.5, 0, "1"), (-0.5, 0, "-1"), (12.3, 3, "12.300"),
            (.nan, 2, "nan"), (.infinity, 2, "inf"), (-.infinity, 0, "-inf"),
            // Past 2⁶³ once scaled, the integer path cannot hold it: the value's own text.
            (1e19, 2, "1e+19"),
        ] as [(Double, Int, String)])
    func grouped(value: Double, decimals: Int, expected: String) {
        #expect(NumberFormatting.grouped(value, decimals: decimals) == expected)
    }
}
