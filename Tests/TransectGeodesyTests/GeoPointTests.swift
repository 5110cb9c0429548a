import Testing
import TransectGeodesy

@Suite struct GeoPointTests {
    @Test(
        "longitudes reduce exactly to [−180, 180], ±180 and zero keeping their sign",
        arguments: [
            (0, 0), (-119.5, -119.5), (180, 180), (-180, -180), (190, -170), (-190, 170), (360, 0), (540, 180),
            (-540, -180), (900, 180), (-119.5 + 720, -119.5), (359.75, -0.25), (-359.75, 0.25),
        ] as [(Double, Double)])
    func reduction(degrees: Double, expected: Double) {
        let reduced = GeoPoint.reducedLongitude(degrees)
        #expect(reduced.bitPattern == expected.bitPattern, "\(degrees) → \(reduced)")
    }

    @Test("the sign of a zero follows the input; NaN and infinities give NaN")
    func zerosAndNonFinite() {
        #expect(GeoPoint.reducedLongitude(-360).bitPattern == (-0.0).bitPattern)
        #expect(GeoPoint.reducedLongitude(-0.0).bitPattern == (-0.0).bitPattern)
        #expect(GeoPoint.reducedLongitude(720).bitPattern == (0.0).bitPattern)
        #expect(GeoPoint.reducedLongitude(.nan).isNaN)
        #expect(GeoPoint.reducedLongitude(.infinity).isNaN && GeoPoint.reducedLongitude(-.infinity).isNaN)
    }

    /// The closed form by truncation (the reduction `Profile` used to write out): the remainder
    /// keeps the sign of `x` and lies in (−360, 360), and one step of 360 brings it into
    /// [−180, 180]. Both are exact, so they agree bit for bit.
    @Test("agrees bit for bit with reduction by truncating remainder")
    func truncationOracle() {
        func truncated(_ lon: Double) -> Double {
            var x = lon.truncatingRemainder(dividingBy: 360)
            if x > 180 { x -= 360 } else if x < -180 { x += 360 }
            return x
        }
        var values: [Double] = []
        for k in -2000...2000 { values.append(Double(k) * 0.375) }
        for k in -8...8 { for e in [0.0, 1e-300, 1e-9, 0.5, 180, 1e6, 1e15] { values += [Double(k) * 180 + e, Double(k) * 180 - e] } }
        values += [
            1e300, -1e300, .ulpOfOne, -.ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            180.nextUp, 180.nextDown, (-180.0).nextUp, (-180.0).nextDown, 540.nextUp, 540.nextDown,
        ]
        for v in values {
            #expect(GeoPoint.reducedLongitude(v).bitPattern == truncated(v).bitPattern, "\(v)")
        }
    }
}
