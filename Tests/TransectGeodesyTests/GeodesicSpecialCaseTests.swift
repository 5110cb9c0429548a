import Testing
import TransectGeodesy
import TransectTestSupport

/// geodtest.c's GeodSolveN cases: the bugs GeographicLib fixed, and the edges (poles, antipodes,
/// NaN and infinite input, signs of zero) each pins.
extension GeodesicRegressionTests {
    @Test("GeodSolve0: JFK to CDG, inverse")
    func geodSolve0() {
        let r = geodWGS84.inverse(latitude1: 40.6, longitude1: -73.8, latitude2: 49.01666667, longitude2: 2.55)
        #expect(isClose(r.azimuth1Degrees, 53.47022, 0.5e-5))
        #expect(isClose(r.azimuth2Degrees, 111.59367, 0.5e-5))
        #expect(isClose(r.distanceMetres, 5_853_226, 0.5))
    }

    @Test("GeodSolve1: JFK towards CDG, direct")
    func geodSolve1() {
        let r = geodWGS84.direct(
            latitude1: 40.63972222, longitude1: -73.77888889,
            azimuth1Degrees: 53.5, distanceMetres: 5850e3)
        #expect(isClose(r.latitude, 49.01467, 0.5e-5))
        #expect(isClose(r.longitude, 2.56106, 0.5e-5))
        #expect(isClose(r.azimuth2Degrees, 111.62947, 0.5e-5))
    }

    @Test("GeodSolve2: antipodal points on a prolate ellipsoid (bug of 2010-09-04)")
    func geodSolve2() {
        let g = Geodesic(Ellipsoid(equatorialRadius: 6.4e6, flattening: -1 / 150.0))
        var r = g.inverse(latitude1: 0.07476, longitude1: 0, latitude2: -0.07476, longitude2: 180)
        #expect(isClose(r.azimuth1Degrees, 90.00078, 0.5e-5))
        #expect(isClose(r.azimuth2Degrees, 90.00078, 0.5e-5))
        #expect(isClose(r.distanceMetres, 20_106_193, 0.5))
        r = g.inverse(latitude1: 0.1, longitude1: 0, latitude2: -0.1, longitude2: 180)
        #expect(isClose(r.azimuth1Degrees, 90.00105, 0.5e-5))
        #expect(isClose(r.azimuth2Degrees, 90.00105, 0.5e-5))
        #expect(isClose(r.distanceMetres, 20_106_193, 0.5))
    }

    @Test("GeodSolve4: very short line (bug of 2010-05-21)")
    func geodSolve4() {
        let r = geodWGS84.inverse(
            latitude1: 36.493349428792, longitude1: 0,
            latitude2: 36.49334942879201, longitude2: 0.0000008)
        #expect(isClose(r.distanceMetres, 0.072, 0.5e-3))
    }

    @Test("GeodSolve5: direct ending at a pole (bug of 2010-05-03)")
    func geodSolve5() {
        let r = geodWGS84.direct(
            latitude1: 0.01777745589997, longitude1: 30, azimuth1Degrees: 0,
            distanceMetres: 10e6)
        #expect(isClose(r.latitude, 90, 0.5e-5))
        if r.longitude < 0 {
            #expect(isClose(r.longitude, -150, 0.5e-5))
            #expect(isClose(r.azimuth2Degrees.magnitude, 180, 0.5e-5))
        } else {
            #expect(isClose(r.longitude, 30, 0.5e-5))
            #expect(isClose(r.azimuth2Degrees, 0, 0.5e-5))
        }
    }

    @Test(
        "GeodSolve6: nearly antipodal, volatile sbet12a (bug of 2011-06-25)",
        arguments: [
            (88.202499451857, -88.202499451857, 179.981022032992859592, 20003898.214),
            (89.262080389218, -89.262080389218, 179.992207982775375662, 20003925.854),
            (89.333123580033, -89.333123580032997687, 179.99295812360148422, 20003926.881),
        ])
    func geodSolve6(_ c: (Double, Double, Double, Double)) {
        let r = geodWGS84.inverse(latitude1: c.0, longitude1: 0, latitude2: c.1, longitude2: c.2)
        #expect(isClose(r.distanceMetres, c.3, 0.5e-3))
    }

    @Test("GeodSolve9: nearly antipodal, volatile x (bug of 2011-06-25)")
    func geodSolve9() {
        let r = geodWGS84.inverse(
            latitude1: 56.320923501171, longitude1: 0,
            latitude2: -56.320923501171, longitude2: 179.664747671772880215)
        #expect(isClose(r.distanceMetres, 19993558.287, 0.5e-3))
    }

    @Test("GeodSolve10: nearly antipodal, tol1 (bug of 2011-06-25)")
    func geodSolve10() {
        let r = geodWGS84.inverse(
            latitude1: 52.784459512564, longitude1: 0,
            latitude2: -52.784459512563990912, longitude2: 179.634407464943777557)
        #expect(isClose(r.distanceMetres, 19991596.095, 0.5e-3))
    }

    @Test("GeodSolve11: nearly antipodal, bet2 = −bet1 (bug of 2011-06-25)")
    func geodSolve11() {
        let r = geodWGS84.inverse(
            latitude1: 48.522876735459, longitude1: 0,
            latitude2: -48.52287673545898293, longitude2: 179.599720456223079643)
        #expect(isClose(r.distanceMetres, 19989144.774, 0.5e-3))
    }

    @Test("GeodSolve12: inverse on an extremely prolate ellipsoid (fixed 2012-10-07)")
    func geodSolve12() {
        let g = Geodesic(Ellipsoid(equatorialRadius: 89.8, flattening: -1.83))
        let r = g.inverse(latitude1: 0, longitude1: 0, latitude2: -10, longitude2: 160)
        #expect(isClose(r.azimuth1Degrees, 120.27, 1e-2))
        #expect(isClose(r.azimuth2Degrees, 105.15, 1e-2))
        #expect(isClose(r.distanceMetres, 266.7, 1e-1))
    }

    @Test("GeodSolve14: NaN longitude in, NaN out")
    func geodSolve14() {
        let r = geodWGS84.inverse(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: .nan)
        #expect(r.azimuth1Degrees.isNaN)
        #expect(r.azimuth2Degrees.isNaN)
        #expect(r.distanceMetres.isNaN)
    }

    @Test("GeodSolve17: long direct line, longitude reduced (bug of 2015-05-07)")
    func geodSolve17() {
        let r = geodWGS84.direct(latitude1: 40, longitude1: -75, azimuth1Degrees: -10, distanceMetres: 2e7)
        #expect(isClose(r.latitude, -39, 1))
        #expect(isClose(r.longitude, 105, 1))
        #expect(isClose(r.azimuth2Degrees, -170, 1))
        let p = geodWGS84.line(latitude1: 40, longitude1: -75, azimuth1Degrees: -10).position(atDistance: 2e7)
        #expect(isClose(p.latitude, -39, 1))
        #expect(isClose(p.longitude, 105, 1))
        #expect(isClose(p.azimuth2Degrees, -170, 1))
    }

    @Test("GeodSolve33: equatorial and nearly equatorial antipodes on three ellipsoids")
    func geodSolve33() {
        func check(
            _ g: Geodesic, _ lat2: Double, _ lon2: Double,
            _ azi1: Double, _ azi2: Double, _ s12: Double, absAzi2: Bool = false
        ) {
            let r = g.inverse(latitude1: 0, longitude1: 0, latitude2: lat2, longitude2: lon2)
            #expect(isClose(r.azimuth1Degrees, azi1, 0.5e-5), "\(lat2) \(lon2)")
            #expect(
                isClose(absAzi2 ? r.azimuth2Degrees.magnitude : r.azimuth2Degrees, azi2, 0.5e-5),
                "\(lat2) \(lon2)")
            #expect(isClose(r.distanceMetres, s12, 0.5), "\(lat2) \(lon2)")
        }
        check(geodWGS84, 0, 179, 90, 90, 19_926_189)
        check(geodWGS84, 0, 179.5, 55.96650, 124.03350, 19_980_862)
        check(geodWGS84, 0, 180, 0, 180, 20_003_931, absAzi2: true)
        check(geodWGS84, 1, 180, 0, 180, 19_893_357, absAzi2: true)
        let sphere = Geodesic(Ellipsoid(equatorialRadius: 6.4e6, flattening: 0))
        check(sphere, 0, 179, 90, 90, 19_994_492)
        check(sphere, 0, 180, 0, 180, 20_106_193, absAzi2: true)
        check(sphere, 1, 180, 0, 180, 19_994_492, absAzi2: true)
        let prolate = Geodesic(Ellipsoid(equatorialRadius: 6.4e6, flattening: -1 / 300.0))
        check(prolate, 0, 179, 90, 90, 19_994_492)
        check(prolate, 0, 180, 90, 90, 20_106_193)
        check(prolate, 0.5, 180, 33.02493, 146.97364, 20_082_617)
        check(prolate, 1, 180, 0, 180, 20_027_270, absAzi2: true)
    }

    @Test("GeodSolve55: NaN latitude with the other point on the equator or a pole")
    func geodSolve55() {
        for (lat2, lon2) in [(0.0, 90.0), (90, 9)] {
            let r = geodWGS84.inverse(latitude1: .nan, longitude1: 0, latitude2: lat2, longitude2: lon2)
            #expect(r.azimuth1Degrees.isNaN)
            #expect(r.azimuth2Degrees.isNaN)
            #expect(r.distanceMetres.isNaN)
        }
    }

    @Test("GeodSolve59: longitudes almost exactly 180° apart")
    func geodSolve59() {
        let r = geodWGS84.inverse(latitude1: 5, longitude1: 0.00000000000001, latitude2: 10, longitude2: 180)
        #expect(isClose(r.azimuth1Degrees, 0.000000000000035, 1.5e-14))
        #expect(isClose(r.azimuth2Degrees, 179.99999999999996, 1.5e-14))
        #expect(isClose(r.distanceMetres, 18345191.174332713, 5e-9))
    }

    @Test("GeodSolve61: tiny negative azimuths are west-going")
    func geodSolve61() {
        let r = geodWGS84.direct(
            latitude1: 45, longitude1: 0, azimuth1Degrees: -0.000000000000000003,
            distanceMetres: 1e7)
        #expect(isClose(r.latitude, 45.30632, 0.5e-5))
        #expect(angleError(r.longitude, -180) <= 0.5e-5)  // GeodSolve prints 5 decimals: half a unit of the 5th
        #expect(isClose(r.azimuth2Degrees.magnitude, 180, 0.5e-5))
        let l = geodWGS84.inverseLine(
            latitude1: 45, longitude1: 0, latitude2: 80,
            longitude2: -0.000000000000000003)
        let p = l.position(atDistance: 1e7)
        #expect(isClose(p.latitude, 45.30632, 0.5e-5))
        #expect(angleError(p.longitude, -180) <= 0.5e-5)  // GeodSolve prints 5 decimals: half a unit of the 5th
        #expect(isClose(p.azimuth2Degrees.magnitude, 180, 0.5e-5))
    }

    @Test("GeodSolve65: inverse line just west of a meridian (bug of 2015-12-19)")
    func geodSolve65() {
        let l = geodWGS84.inverseLine(
            latitude1: 30, longitude1: -0.000000000000000001,
            latitude2: -31, longitude2: 180)
        var p = l.position(atDistance: 1e7)
        #expect(isClose(p.latitude, -60.23169, 0.5e-5))
        #expect(isClose(p.longitude, -0.00000, 0.5e-5))
        #expect(isClose(p.azimuth2Degrees.magnitude, 180.00000, 0.5e-5))
        p = l.position(atDistance: 2e7)
        #expect(isClose(p.latitude, -30.03547, 0.5e-5))
        #expect(angleError(p.longitude, -180) <= 0.5e-5)  // GeodSolve prints 5 decimals: half a unit of the 5th
        #expect(isClose(p.azimuth2Degrees, -0.00000, 0.5e-5))
    }

    @Test("GeodSolve67: inverse line slightly west of south, and its length")
    func geodSolve67() throws {
        let l = geodWGS84.inverseLine(
            latitude1: -5, longitude1: -0.000000000000002,
            latitude2: -10, longitude2: 180)
        var p = l.position(atDistance: 2e7)
        #expect(isClose(p.latitude, 4.96445, 0.5e-5))
        #expect(angleError(p.longitude, -180) <= 0.5e-5)  // GeodSolve prints 5 decimals: half a unit of the 5th
        #expect(isClose(p.azimuth2Degrees, -0.00000, 0.5e-5))
        let s13 = try #require(l.distanceMetres)
        p = l.position(atDistance: 0.5 * s13)
        #expect(isClose(p.latitude, -87.52461, 0.5e-5))
        #expect(isClose(p.longitude, -0.00000, 0.5e-5))
        #expect(isClose(p.azimuth2Degrees, -180.00000, 0.5e-5))
    }

    @Test("GeodSolve71: half-way along a 1e7 m line (geod_directline)")
    func geodSolve71() {
        let p = geodWGS84.line(latitude1: 1, longitude1: 2, azimuth1Degrees: 45).position(atDistance: 0.5e7)
        #expect(isClose(p.latitude, 30.92625, 0.5e-5))
        #expect(isClose(p.longitude, 37.54640, 0.5e-5))
        #expect(isClose(p.azimuth2Degrees, 55.43104, 0.5e-5))
    }

    @Test("GeodSolve73: backwards from the pole; azi2 is +0, not −0")
    func geodSolve73() {
        let r = geodWGS84.direct(latitude1: 90, longitude1: 10, azimuth1Degrees: 180, distanceMetres: -1e6)
        #expect(isClose(r.latitude, 81.04623, 0.5e-5))
        #expect(isClose(r.longitude, -170, 0.5e-5))
        #expect(r.azimuth2Degrees == 0)
        #expect(r.azimuth2Degrees.sign == .plus)
    }

    @Test("GeodSolve74: accurate short inverse (bug of v1.46)")
    func geodSolve74() {
        let r = geodWGS84.inverse(latitude1: 54.1589, longitude1: 15.3872, latitude2: 54.1591, longitude2: 15.3877)
        #expect(isClose(r.azimuth1Degrees, 55.723110355, 5e-9))
        #expect(isClose(r.azimuth2Degrees, 55.723515675, 5e-9))
        #expect(isClose(r.distanceMetres, 39.527686385, 5e-9))
        #expect(isClose(r.arcDegrees, 0.000355495, 5e-9))
    }

    @Test("GeodSolve76: Wellington to Salamanca (a classic Vincenty failure)")
    func geodSolve76() {
        let r = geodWGS84.inverse(
            latitude1: -(41 + 19 / 60.0), longitude1: 174 + 49 / 60.0,
            latitude2: 40 + 58 / 60.0, longitude2: -(5 + 30 / 60.0))
        #expect(isClose(r.azimuth1Degrees, 160.39137649664, 0.5e-11))
        #expect(isClose(r.azimuth2Degrees, 19.50042925176, 0.5e-11))
        #expect(isClose(r.distanceMetres, 19960543.857179, 0.5e-6))
    }

    @Test("GeodSolve78: where the NGS calculator fails to converge")
    func geodSolve78() {
        let r = geodWGS84.inverse(latitude1: 27.2, longitude1: 0.0, latitude2: -27.1, longitude2: 179.5)
        #expect(isClose(r.azimuth1Degrees, 45.82468716758, 0.5e-11))
        #expect(isClose(r.azimuth2Degrees, 134.22776532670, 0.5e-11))
        #expect(isClose(r.distanceMetres, 19974354.765767, 0.5e-6))
    }

    @Test("GeodSolve80: zero-length geodesics, signs of zero")
    func geodSolve80() {
        var r = geodWGS84.inverse(latitude1: 20.001, longitude1: 0, latitude2: 20.001, longitude2: 0)
        #expect(isClose(r.arcDegrees, 0, 1e-13))
        #expect(isClose(r.distanceMetres, 0, 1e-8))
        #expect(isClose(r.azimuth1Degrees, 180, 1e-13))
        #expect(isClose(r.azimuth2Degrees, 180, 1e-13))
        #expect(r.arcDegrees.sign == .plus && r.distanceMetres.sign == .plus)
        r = geodWGS84.inverse(latitude1: 90, longitude1: 0, latitude2: 90, longitude2: 180)
        #expect(isClose(r.arcDegrees, 0, 1e-13))
        #expect(isClose(r.distanceMetres, 0, 1e-8))
        #expect(isClose(r.azimuth1Degrees, 0, 1e-13))
        #expect(isClose(r.azimuth2Degrees, 180, 1e-13))
    }

    @Test("GeodSolve84: infinite and NaN arguments to direct")
    func geodSolve84() {
        func d(_ lat: Double, _ lon: Double, _ azi: Double, _ s: Double) -> GeodesicDirectResult {
            geodWGS84.direct(latitude1: lat, longitude1: lon, azimuth1Degrees: azi, distanceMetres: s)
        }
        for r in [
            d(0, 0, 90, .infinity), d(0, 0, 90, .nan), d(0, 0, .infinity, 1000),
            d(0, 0, .nan, 1000), d(.infinity, 0, 90, 1000), d(.nan, 0, 90, 1000),
        ] {
            #expect(r.latitude.isNaN && r.longitude.isNaN && r.azimuth2Degrees.isNaN, "\(r)")
        }
        for r in [d(0, .infinity, 90, 1000), d(0, .nan, 90, 1000)] {
            #expect(r.latitude == 0 && r.longitude.isNaN && r.azimuth2Degrees == 90, "\(r)")
        }
    }

    @Test("GeodSolve92: inaccurate hypot (geopy issue 466)")
    func geodSolve92() {
        let r = geodWGS84.inverse(
            latitude1: 37.757540000000006, longitude1: -122.47018,
            latitude2: 37.75754, longitude2: -122.470177)
        #expect(isClose(r.azimuth1Degrees, 89.99999923, 1e-7))
        #expect(isClose(r.azimuth2Degrees, 90.00000106, 1e-7))
        #expect(isClose(r.distanceMetres, 0.264, 0.5e-3))
    }

    @Test("GeodSolve94: lat2 = NaN is not treated as 0")
    func geodSolve94() {
        let r = geodWGS84.inverse(latitude1: 0, longitude1: 0, latitude2: .nan, longitude2: 90)
        #expect(r.azimuth1Degrees.isNaN)
        #expect(r.azimuth2Degrees.isNaN)
        #expect(r.distanceMetres.isNaN)
    }

    @Test("GeodSolve99: consistent sincosd(±45)")
    func geodSolve99() {
        let r = geodWGS84.inverse(latitude1: 45.0, longitude1: 0.0, latitude2: -45.0, longitude2: 179.572719)
        #expect(isClose(r.azimuth1Degrees, 90.00000028, 1e-8))
        #expect(isClose(r.azimuth2Degrees, 90.00000028, 1e-8))
        #expect(isClose(r.distanceMetres, 19987083.007, 0.5e-3))
    }

    @Test("Latitudes outside [−90, 90] give NaN")
    func latitudeOutOfRange() {
        let r = geodWGS84.inverse(latitude1: 91, longitude1: 0, latitude2: 0, longitude2: 0)
        #expect(r.distanceMetres.isNaN)
        #expect(
            geodWGS84.direct(
                latitude1: -90.5, longitude1: 0, azimuth1Degrees: 0,
                distanceMetres: 1
            ).latitude.isNaN)
    }

    @Test("GeoPoint overloads give the same answers")
    func geoPointOverloads() {
        let a = GeoPoint(longitude: -73.8, latitude: 40.6, heightMetres: 12)
        let b = GeoPoint(longitude: 2.55, latitude: 49.01666667)
        #expect(geodWGS84.inverse(from: a, to: b) == geodWGS84.inverse(latitude1: 40.6, longitude1: -73.8, latitude2: 49.01666667, longitude2: 2.55))
        #expect(
            geodWGS84.direct(from: a, azimuthDegrees: 53.5, distanceMetres: 5850e3)
                == geodWGS84.direct(latitude1: 40.6, longitude1: -73.8, azimuth1Degrees: 53.5, distanceMetres: 5850e3))
    }
}
