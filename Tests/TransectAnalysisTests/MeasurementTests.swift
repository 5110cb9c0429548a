import Testing
@testable import TransectGeodesy
@testable import TransectAnalysis

@Suite("Measurement and units")
struct MeasurementTests {
    @Test(
        "labels: two decimals, grouping, and the unit switching at 1 km and 1 mi",
        arguments: [
            (UnitSystem.metric, 999.994, "999.99 m"), (.metric, 999.996, "1.00 km"), (.metric, 1000, "1.00 km"),
            (.metric, 1_234_567.891, "1,234.57 km"), (.metric, 0, "0.00 m"), (.metric, -0.001, "0.00 m"),
            (.metric, -1234.5, "-1.23 km"), (.imperial, 1609.343, "1.00 mi"), (.imperial, 1609.34, "5,279.99 ft"), (.imperial, 1609.344, "1.00 mi"),
            (.fixed(.metres), 1_234_567.891, "1,234,567.89 m"), (.fixed(.nauticalMiles), 1852, "1.00 nmi"),
            (.fixed(.yards), 0.9144, "1.00 yd"), (.fixed(.feet), 0.3048 * 1_000_000, "1,000,000.00 ft"),
        ])
    func format(units: UnitSystem, metres: Double, expected: String) {
        #expect(units.format(metres) == expected)
    }

    @Test("unit names parse as the CLI accepts them")
    func names() {
        #expect(UnitSystem(name: "metric") == .metric && UnitSystem(name: "Imperial") == .imperial)
        #expect(UnitSystem(name: "nmi") == .fixed(.nauticalMiles) && UnitSystem(name: "furlong") == nil)
    }

    @Test("a vertical measurement: horizontal 0, direct = vertical, slope 90°")
    func vertical() {
        let m = Measurement(
            start: GeoPoint(longitude: 7, latitude: 46, heightMetres: 1000),
            end: GeoPoint(longitude: 7, latitude: 46, heightMetres: 1290.12))
        #expect(m.horizontalMetres == 0)
        #expect(abs(m.directMetres - 290.12) < 1e-8)  // direct is an ECEF distance; coordinates near 6.4e6 m have ulps of 0.93 nm: about 10 ulp
        #expect(m.slopeDegrees == 90 && m.gradePercent == .infinity)
        #expect(m.label() == "Direct: 290.12 m | Horizontal: 0.00 m | Vertical: 290.12 m")
    }

    @Test("a short line: direct is the chord at the mean height, from the arc length, the heights and the radius")
    func shortLine() {
        let m = Measurement(
            start: GeoPoint(longitude: 0, latitude: 0, heightMetres: 100),
            end: GeoPoint(longitude: 0, latitude: 0.1, heightMetres: 40))
        // 0.1° of meridian at the equator: 11,057.43 m (GeographicLib).
        #expect(abs(m.horizontalMetres - 11_057.427) < 0.01)
        #expect(m.verticalMetres == -60)
        // Along the meridian at the equator the radius of curvature is M = a(1 − e²). At the mean
        // height 70 m the arc is d(1 + 70/M); its chord is shorter by d³/(24M²) (1.4 mm here).
        let a = 6_378_137.0
        let f = 1 / 298.257223563
        let radius = a * (1 - f * (2 - f))
        let d = m.horizontalMetres * (1 + 70 / radius)
        let chord = d - d * d * d / (24 * radius * radius)
        let expected = (chord * chord + 3600).squareRoot()
        // The circle of radius M stands in for the ellipse over 0.1°: good to ~1e-5 m.
        #expect(abs(m.directMetres - expected) < 1e-4, "direct \(m.directMetres), expected \(expected)")
        #expect(m.slopeDegrees < 0 && m.azimuthStartDegrees == 0)
        #expect(m.backAzimuthDegrees == 180)
    }

    @Test("antipodal points: direct is the chord through the earth, about 2a at the equator")
    func antipodal() {
        let m = Measurement(
            start: GeoPoint(longitude: 0, latitude: 0, heightMetres: 0),
            end: GeoPoint(longitude: 180, latitude: 0, heightMetres: 0))
        // The ECEF chord between ±a: ulps of 1.3e7 m are 1.9 nm, so 1 µm is loose; the label prints 2 decimals.
        #expect(abs(m.directMetres - 2 * 6_378_137) < 1e-6)
        // Half the meridian ellipse: 20,003,931.4586 m (GeographicLib).
        #expect(abs(m.horizontalMetres - 20_003_931.4586) < 1e-3)
    }
}
