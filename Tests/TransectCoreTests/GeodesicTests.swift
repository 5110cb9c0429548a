import Testing
import TransectCore
import TransectTestSupport

// Regression tests numbered after GeographicLib's geodtest.c (GeodSolveN), with the expected
// values and tolerances of that file, followed by seeded random comparisons with PROJ.

let geodWGS84 = Geodesic.wgs84

/// geodtest.c `testcases`: lat1 lon1 azi1 lat2 lon2 azi2 s12 a12 (the m12, M12, M21 and S12
/// columns are not part of our API). Longitudes are as given (unrolled); compare mod 360.
let geodTestCases: [[Double]] = [
    [
        35.60777, -139.44815, 111.098748429560326, -11.17491, -69.95921, 129.289270889708762,
        8935244.5604818305, 80.50729714281974,
    ],
    [
        55.52454, 106.05087, 22.020059880982801, 77.03196, 197.18234, 109.112041110671519,
        4105086.1713924406, 36.892740690445894,
    ],
    [
        -21.97856, 142.59065, -32.44456876433189, 41.84138, 98.56635, -41.84359951440466,
        8394328.894657671, 75.62930491011522,
    ],
    [
        -66.99028, 112.2363, 173.73491240878403, -12.70631, 285.90344, 2.512956620913668,
        11150344.2312080241, 100.278634181155759,
    ],
    [
        -17.42761, 173.34268, -159.033557661192928, -15.84784, 5.93557, -20.787484651536988,
        16076603.1631180673, 144.640108810286253,
    ],
    [
        32.84994, 48.28919, 150.492927788121982, -56.28556, 202.29132, 48.113449399816759,
        16727068.9438164461, 150.565799985466607,
    ],
    [
        6.96833, 52.74123, 92.581585386317712, -7.39675, 206.17291, 90.721692165923907,
        17102477.2496958388, 154.147366239113561,
    ],
    [
        -50.56724, -16.30485, -105.439679907590164, -33.56571, -94.97412, -47.348547835650331,
        6455670.5118668696, 58.083719495371259,
    ],
    [
        -58.93002, -8.90775, 140.965397902500679, -8.91104, 133.13503, 19.255429433416599,
        11756066.0219864627, 105.755691241406877,
    ],
    [
        -68.82867, -74.28391, 93.774347763114881, -50.63005, -8.36685, 34.65564085411343,
        3956936.926063544, 35.572254987389284,
    ],
    [
        -10.62672, -32.0898, -86.426713286747751, 5.883, -134.31681, -80.473780971034875,
        11470869.3864563009, 103.387395634504061,
    ],
    [
        -21.76221, 166.90563, 29.319421206936428, 48.72884, 213.97627, 43.508671946410168,
        9098627.3986554915, 81.963476716121964,
    ],
    [
        -19.79938, -174.47484, 71.167275780171533, -11.99349, -154.35109, 65.589099775199228,
        2319004.8601169389, 20.896611684802389,
    ],
    [
        -11.95887, -116.94513, 92.712619830452549, 4.57352, 7.16501, 78.64960934409585,
        13834722.5801401374, 124.688684161089762,
    ],
    [
        -87.85331, 85.66836, -65.120313040242748, 66.48646, 16.09921, -4.888658719272296,
        17286615.3147144645, 155.58592449699137,
    ],
    [
        1.74708, 128.32011, -101.584843631173858, -11.16617, 11.87109, -86.325793296437476,
        12942901.1241347408, 116.650512484301857,
    ],
    [
        -25.72959, -144.90758, -153.647468693117198, -57.70581, -269.17879, -48.343983158876487,
        9413446.7452453107, 84.664533838404295,
    ],
    [
        -41.22777, 122.32875, 14.285113402275739, -7.57291, 130.37946, 10.805303085187369,
        3812686.035106021, 34.34330804743883,
    ],
    [
        11.01307, 138.25278, 79.43682622782374, 6.62726, 247.05981, 103.708090215522657,
        11911190.819018408, 107.341669954114577,
    ],
    [
        -29.47124, 95.14681, -163.779130441688382, -27.46601, -69.15955, -15.909335945554969,
        13487015.8381145492, 121.294026715742277,
    ],
]

/// |x − y| ≤ d, reported with both values on failure.
func isClose(_ x: Double, _ y: Double, _ d: Double) -> Bool { (x - y).magnitude <= d }

@Suite("Geodesic: GeographicLib regression cases (geodtest.c)")
struct GeodesicRegressionTests {
    @Test("testinverse: 20 reference geodesics, inverse", arguments: geodTestCases.indices)
    func testInverse(_ i: Int) {
        let t = geodTestCases[i]
        let r = geodWGS84.inverse(latitude1: t[0], longitude1: t[1], latitude2: t[3], longitude2: t[4])
        // geodtest.c tolerances: 1e−13° for angles, 1e−8 m for distances.
        #expect(isClose(r.azimuth1Degrees, t[2], 1e-13))
        #expect(isClose(r.azimuth2Degrees, t[5], 1e-13))
        #expect(isClose(r.distanceMetres, t[6], 1e-8))
        #expect(isClose(r.arcDegrees, t[7], 1e-13))
    }

    @Test("testdirect: 20 reference geodesics, direct", arguments: geodTestCases.indices)
    func testDirect(_ i: Int) {
        let t = geodTestCases[i]
        let r = geodWGS84.direct(
            latitude1: t[0], longitude1: t[1], azimuth1Degrees: t[2],
            distanceMetres: t[6])
        #expect(isClose(r.latitude, t[3], 1e-13))
        // Our longitudes are reduced, the reference is unrolled: compare modulo 360.
        #expect(angleError(r.longitude, t[4]) <= 1e-13)
        #expect((-180...180).contains(r.longitude))
        #expect(isClose(r.azimuth2Degrees, t[5], 1e-13))
    }

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
        #expect(angleError(r.longitude, -180) <= 0.5e-5)
        #expect(isClose(r.azimuth2Degrees.magnitude, 180, 0.5e-5))
        let l = geodWGS84.inverseLine(
            latitude1: 45, longitude1: 0, latitude2: 80,
            longitude2: -0.000000000000000003)
        let p = l.position(atDistance: 1e7)
        #expect(isClose(p.latitude, 45.30632, 0.5e-5))
        #expect(angleError(p.longitude, -180) <= 0.5e-5)
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
        #expect(angleError(p.longitude, -180) <= 0.5e-5)
        #expect(isClose(p.azimuth2Degrees, -0.00000, 0.5e-5))
    }

    @Test("GeodSolve67: inverse line slightly west of south, and its length")
    func geodSolve67() throws {
        let l = geodWGS84.inverseLine(
            latitude1: -5, longitude1: -0.000000000000002,
            latitude2: -10, longitude2: 180)
        var p = l.position(atDistance: 2e7)
        #expect(isClose(p.latitude, 4.96445, 0.5e-5))
        #expect(angleError(p.longitude, -180) <= 0.5e-5)
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

/// Kinds of point pairs; each stresses a different branch of the inverse solution.
enum PairCategory: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case general, nearlyAntipodal, exactlyAntipodal, polar, equatorial, meridional,
        coincident, antimeridian
    var testDescription: String { rawValue }
}

struct PairCase {
    var lat1: Double, lon1: Double, lat2: Double, lon2: Double
    var azi: Double, s: Double  // a direct problem from point 1
}

/// Generates `count` cases of `category`, deterministically from `seed`.
func makeCases(_ category: PairCategory, count: Int, seed: UInt64) -> [PairCase] {
    var r = SeededRandom(seed: seed)
    // Longitudes that are multiples of 1/16° so that lon ± 180 is exact.
    func gridLon(_ r: inout SeededRandom) -> Double { (r.uniform(-180, 180) * 16).rounded() / 16 }
    func clampLat(_ x: Double) -> Double { Swift.min(90, Swift.max(-90, x)) }
    var out: [PairCase] = []
    out.reserveCapacity(count)
    for _ in 0..<count {
        var c = PairCase(
            lat1: r.uniform(-90, 90), lon1: r.uniform(-180, 180),
            lat2: r.uniform(-90, 90), lon2: r.uniform(-180, 180),
            azi: r.uniform(-180, 180), s: r.uniform(-1e6, 2.5e7))
        switch category {
        case .general:
            // Some longitudes outside [−180, 180] to exercise the reduction.
            if r.below(8) == 0 { c.lon2 += 360 * Double(r.below(5) - 2) }
        case .nearlyAntipodal:
            c.lat2 = clampLat(-c.lat1 + (r.below(4) == 0 ? 0 : r.tiny(0, 12)))
            c.lon2 = c.lon1 + 180 + (r.below(4) == 0 ? 0 : r.tiny(0, 12))
            if r.below(3) == 0 {
                c.lat1 = r.uniform(-1, 1)
                c.lat2 = clampLat(-c.lat1 + r.tiny(2, 12))
            }
            c.s = -1  // direct problem taken from the inverse solution below
        case .exactlyAntipodal:
            c.lon1 = gridLon(&r)
            c.lon2 = c.lon1 + (r.sign() > 0 ? 180 : -180)
            if r.below(4) == 0 { c.lat1 = (c.lat1 * 16).rounded() / 16 }
            if r.below(8) == 0 { c.lat1 = 0 }
            c.lat2 = -c.lat1
            c.s = r.uniform(1.99e7, 2.01e7)
        case .polar:
            let pole = r.sign() * (r.below(3) == 0 ? 90 : 90 - r.tiny(0, 14).magnitude)
            c.lat1 = pole
            switch r.below(4) {
            case 0: c.lat2 = r.sign() * 90  // pole to pole
            case 1: c.lat2 = r.sign() * (90 - r.tiny(0, 14).magnitude)
            default: break
            }
            if r.below(2) == 0 { swap(&c.lat1, &c.lat2) }
        case .equatorial:
            c.lat1 = r.below(10) == 0 ? -0.0 : 0
            c.lat2 = r.below(10) == 0 ? r.tiny(17, 20) : 0  // angRound → equator
            let lon12: Double
            switch r.below(3) {
            case 0: lon12 = r.uniform(0, 180)
            case 1: lon12 = 180 - r.uniform(0, 1.2)  // the (1 − f)·180 switch
            default: lon12 = 180 - r.tiny(0, 12).magnitude
            }
            c.lon2 = c.lon1 + r.sign() * lon12
            c.azi = r.below(2) == 0 ? r.sign() * 90 : r.sign() * (90 + r.tiny(0, 12))
            c.s = r.uniform(0, 4.2e7)
        case .meridional:
            c.lon1 = gridLon(&r)
            c.lon2 = r.below(2) == 0 ? c.lon1 : c.lon1 + 180
            c.azi = [0.0, -0.0, 180, -180, r.tiny(10, 18)][r.below(5)]
            c.s = r.uniform(-4.2e7, 4.2e7)
        case .coincident:
            c.lat2 = c.lat1
            c.lon2 = c.lon1
            switch r.below(4) {
            case 0: c.lon2 += 360
            case 1:
                c.lat2 = clampLat(c.lat1 + r.tiny(7, 13))
                c.lon2 += r.tiny(7, 13)
            default: break
            }
            c.s = r.below(2) == 0 ? 0 : r.tiny(0, 9)
        case .antimeridian:
            c.lon1 = r.below(8) == 0 ? 180 : r.uniform(170, 180)
            c.lon2 = [r.uniform(-180, -170), -180, r.uniform(180, 190)][r.below(3)]
            c.lat2 = clampLat(c.lat1 + r.uniform(-10, 10))
            if r.below(2) == 0 { swap(&c.lon1, &c.lon2) }
            c.s = r.uniform(0, 3e6)
        }
        out.append(c)
    }
    return out
}

/// Largest differences seen between TransectCore and PROJ, and the first failures.
struct ErrorLog {
    var maxDistance = 0.0, maxAzimuth = 0.0, maxArc = 0.0
    var maxLatitude = 0.0, maxLongitude = 0.0, maxAzimuth2 = 0.0
    var failures: [String] = []
    mutating func fail(_ s: @autoclosure () -> String) {
        if failures.count < 10 { failures.append(s()) }
    }
}

@Suite("Geodesic vs PROJ (GeographicLib C) on seeded random cases")
struct GeodesicOracleTests {
    /// 8 categories × 12 500 = 100 000 inverse problems and 200 000 direct problems.
    static let casesPerCategory = 12_500

    // Tolerances, from the brief: 1 µm for distances (≈ 70× GeographicLib's 15 nm accuracy)
    // and 1e−8° (≈ 1 mm on the ground) for angles.
    static let distanceTolerance = 1e-6
    static let angleTolerance = 1e-8
    /// A 1e−8° azimuth difference moves the far end of a geodesic by m12·1e−8·π/180; where
    /// |m12| is small (nearly antipodal points, points near conjugate) azimuths are
    /// ill-conditioned and we compare that displacement, in metres, instead.
    static let displacementTolerance = 1e-6

    @Test(
        "inverse and direct agree with geod_inverse / geod_direct",
        arguments: PairCategory.allCases)
    func agreesWithPROJ(_ category: PairCategory) {
        let ours = Geodesic.wgs84
        let proj = ProjGeodesic.wgs84
        let seed = 0x5EED_0000 + UInt64(PairCategory.allCases.firstIndex(of: category)!)
        var log = ErrorLog()
        let degree = Double.pi / 180
        for c in makeCases(category, count: Self.casesPerCategory, seed: seed) {
            // Inverse.
            let mine = ours.inverse(
                latitude1: c.lat1, longitude1: c.lon1,
                latitude2: c.lat2, longitude2: c.lon2)
            let ref = proj.inverse(c.lat1, c.lon1, c.lat2, c.lon2)
            let ds = valueError(mine.distanceMetres, ref.s12)
            let da1 = angleError(mine.azimuth1Degrees, ref.azi1)
            let da2 = angleError(mine.azimuth2Degrees, ref.azi2)
            let dsig = valueError(mine.arcDegrees, ref.a12)
            log.maxDistance = Swift.max(log.maxDistance, ds)
            log.maxArc = Swift.max(log.maxArc, dsig)
            // Azimuth error weighted by the reduced length, see displacementTolerance.
            let wa1 = Swift.min(da1, da1 * degree * ref.m12.magnitude)
            let wa2 = Swift.min(da2, da2 * degree * ref.m12.magnitude)
            log.maxAzimuth = Swift.max(log.maxAzimuth, Swift.max(da1, da2))
            if !(ds <= Self.distanceTolerance) || !(dsig <= Self.angleTolerance) || !(da1 <= Self.angleTolerance || wa1 <= Self.displacementTolerance)
                || !(da2 <= Self.angleTolerance || wa2 <= Self.displacementTolerance)
            {
                log.fail("inverse \(c.lat1) \(c.lon1) \(c.lat2) \(c.lon2): ours \(mine) proj \(ref)")
            }

            // Direct: the category's own problem, and the one PROJ's inverse solution defines.
            var problems = [(c.azi, c.s)]
            if c.s < 0 && category == .nearlyAntipodal { problems = [] }
            problems.append((ref.azi1, ref.s12))
            for (azi, s) in problems {
                let d = ours.direct(
                    latitude1: c.lat1, longitude1: c.lon1,
                    azimuth1Degrees: azi, distanceMetres: s)
                let e = proj.direct(c.lat1, c.lon1, azi, s)
                let dlat = valueError(d.latitude, e.lat2)
                // Longitude and azimuth of a point near a pole are ill-conditioned: compare the
                // east–west displacement, i.e. the longitude error scaled by cos(latitude).
                let cosLat = Swift.max(0, (90 - e.lat2.magnitude) * degree)  // ≈ cos φ near a pole
                let dlon = angleError(d.longitude, e.lon2) * Swift.min(1, cosLat)
                let dazi = angleError(d.azimuth2Degrees, e.azi2) * Swift.min(1, cosLat)
                log.maxLatitude = Swift.max(log.maxLatitude, dlat)
                log.maxLongitude = Swift.max(log.maxLongitude, dlon)
                log.maxAzimuth2 = Swift.max(log.maxAzimuth2, dazi)
                if !(dlat <= Self.angleTolerance) || !(dlon <= Self.angleTolerance) || !(dazi <= Self.angleTolerance) {
                    log.fail("direct \(c.lat1) \(c.lon1) \(azi) \(s): ours \(d) proj \(e)")
                }
            }
        }
        print(
            "[\(category.rawValue)] max |Δs| \(log.maxDistance) m, |Δazi| \(log.maxAzimuth)°, " + "|Δa12| \(log.maxArc)°; direct |Δlat| \(log.maxLatitude)°, "
                + "|Δlon|·cosφ \(log.maxLongitude)°, |Δazi2|·cosφ \(log.maxAzimuth2)°")
        #expect(log.failures.isEmpty, "\(log.failures.joined(separator: "\n"))")
    }
}

@Suite("Geodesic on other ellipsoids vs PROJ")
struct GeodesicOtherEllipsoidTests {
    /// f = ±1/150 is the limit GeographicLib quotes for round-off accuracy of the order-6
    /// series; 1/50 is beyond it, where both implementations share the same truncation
    /// error, so they must still agree with each other. The sphere exercises f = 0.
    @Test(
        "inverse and direct agree with PROJ",
        arguments: [
            (6.4e6, 1 / 150.0), (6.4e6, -1 / 150.0), (6.4e6, 0.0), (1.0, 1 / 50.0), (3.3895e6, 1 / 169.8),
        ])
    func agreesWithPROJ(_ shape: (Double, Double)) {
        let (a, f) = shape
        let ours = Geodesic(Ellipsoid(equatorialRadius: a, flattening: f))
        let proj = ProjGeodesic(equatorialRadius: a, flattening: f)
        // Scale the 1 µm tolerance with the size of the ellipsoid.
        let distanceTolerance = 1e-6 * a / 6.4e6
        var failures: [String] = []
        for category in PairCategory.allCases {
            for c in makeCases(category, count: 500, seed: 0xE11_1950 ^ UInt64(a)) {
                let mine = ours.inverse(
                    latitude1: c.lat1, longitude1: c.lon1,
                    latitude2: c.lat2, longitude2: c.lon2)
                let ref = proj.inverse(c.lat1, c.lon1, c.lat2, c.lon2)
                if !(valueError(mine.distanceMetres, ref.s12) <= distanceTolerance) || !(angleError(mine.azimuth1Degrees, ref.azi1) <= 1e-8)
                    || !(angleError(mine.azimuth2Degrees, ref.azi2) <= 1e-8)
                {
                    failures.append("inverse \(c.lat1) \(c.lon1) \(c.lat2) \(c.lon2): \(mine) vs \(ref)")
                }
                let s = c.s < 0 ? ref.s12 : c.s * a / 6.4e6
                let d = ours.direct(
                    latitude1: c.lat1, longitude1: c.lon1, azimuth1Degrees: c.azi,
                    distanceMetres: s)
                let e = proj.direct(c.lat1, c.lon1, c.azi, s)
                if !(valueError(d.latitude, e.lat2) <= 1e-8) || !(angleError(d.longitude, e.lon2) <= 1e-8 || e.lat2.magnitude > 89.999)
                    || !(angleError(d.azimuth2Degrees, e.azi2) <= 1e-8 || e.lat2.magnitude > 89.999)
                {
                    failures.append("direct \(c.lat1) \(c.lon1) \(c.azi) \(s): \(d) vs \(e)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    }
}
