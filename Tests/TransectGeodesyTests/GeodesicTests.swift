import Testing
import TransectGeodesy
import TransectTestSupport

// Regression tests numbered after GeographicLib's geodtest.c (GeodSolveN), with the expected
// values and tolerances of that file: the reference table here, the special cases in
// GeodesicSpecialCaseTests.swift; seeded random comparisons with PROJ in GeodesicOracleTests.swift.

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
}
