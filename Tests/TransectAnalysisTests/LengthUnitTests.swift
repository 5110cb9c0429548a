import Testing
@testable import TransectSupport
@testable import TransectAnalysis

@Suite("units by name, signs and counts in text")
struct LengthUnitTests {
    @Test(
        "a unit by symbol or by name, as GIS users type it",
        arguments: [
            ("m", LengthUnit.metres), ("metres", .metres), ("Meters", .metres), ("metre", .metres),
            ("km", .kilometres), ("kilometers", .kilometres), ("KILOMETRES", .kilometres),
            ("ft", .feet), ("feet", .feet), ("foot", .feet),
            ("mi", .miles), ("miles", .miles), ("mile", .miles),
            ("yd", .yards), ("yards", .yards),
            ("nmi", .nauticalMiles), ("nautical-miles", .nauticalMiles), ("nautical miles", .nauticalMiles), ("nautical_mile", .nauticalMiles),
        ])
    func names(name: String, unit: LengthUnit) {
        #expect(LengthUnit(name: name) == unit)
        #expect(UnitSystem(name: name) == .fixed(unit))
    }

    @Test("names that are not these units are refused", arguments: ["furlong", "us-ft", "us survey feet", "nm", "meterss", "", "m "])
    func notUnits(name: String) {
        #expect(LengthUnit(name: name) == nil)
        #expect(UnitSystem(name: name) == nil)
    }

    @Test(
        "no negative zero: a value that rounds to zero prints unsigned",
        arguments: [
            (-0.0, 2, "0.00"), (-0.004, 2, "0.00"), (-0.005, 2, "-0.01"), (-0.04, 1, "0.0"), (-0.4, 0, "0"),
            (-1234.567, 2, "-1,234.57"), (0.0, 2, "0.00"),
        ])
    func negativeZero(value: Double, decimals: Int, expected: String) {
        #expect(NumberFormatting.grouped(value, decimals: decimals) == expected)
    }

    @Test(
        "plusSign marks values that round above zero, and only those",
        arguments: [
            (1181.88, "+1,181.88"), (0.004, "0.00"), (0.0, "0.00"), (-0.0, "0.00"), (-0.004, "0.00"), (-2009.45, "-2,009.45"),
        ])
    func plusSign(value: Double, expected: String) {
        #expect(NumberFormatting.grouped(value, decimals: 2, plusSign: true) == expected)
    }

    @Test("lengths of zero either side print as 0.00 in every unit", arguments: [UnitSystem.metric, .imperial, .fixed(.nauticalMiles)])
    func zeroLengths(units: UnitSystem) {
        let unit = units.unit(for: 0).rawValue
        #expect(units.format(-0.0) == "0.00 " + unit)
        #expect(units.format(-1e-9) == "0.00 " + unit)
    }

    @Test(
        "counts agree with their nouns",
        arguments: [
            (0, "sample", nil, "0 samples"), (1, "sample", nil, "1 sample"), (2, "segment", nil, "2 segments"),
            (1, "fix", "fixes", "1 fix"), (1204, "fix", "fixes", "1,204 fixes"), (-1, "row", nil, "-1 rows"),
        ] as [(Int, String, String?, String)])
    func counts(count: Int, singular: String, plural: String?, expected: String) {
        #expect(NumberFormatting.count(count, singular, plural: plural) == expected)
        #expect(NumberFormatting.noun(singular, count: count, plural: plural) == String(expected.split(separator: " ", maxSplits: 1)[1]))
    }
}
