import Testing
import TransectAnalysis
import TransectGeodesy
import TransectTestSupport

@Suite("A measurement's line along the geodesic")
struct MeasurementLineTests {
    static let cases: [(from: GeoPoint, to: GeoPoint, maxSegment: Double)] = [
        (GeoPoint(longitude: -119.6, latitude: 37.7, heightMetres: 2392.2), GeoPoint(longitude: -119.4, latitude: 37.8, heightMetres: 2855.18), 1000),
        (GeoPoint(longitude: -73.8, latitude: 40.6, heightMetres: 4), GeoPoint(longitude: 2.55, latitude: 49.01666667, heightMetres: 119), 50_000),
        (GeoPoint(longitude: 170, latitude: -40, heightMetres: 0), GeoPoint(longitude: -170, latitude: -30, heightMetres: 10), 25_000),
        (GeoPoint(longitude: 10, latitude: 10, heightMetres: 5), GeoPoint(longitude: 10, latitude: 10, heightMetres: 7), 1000),
    ]

    @Test("each vertex lies within 1 mm of PROJ's geodesic between the ends, and no step exceeds the maximum", arguments: cases.indices)
    func verticesOnProjGeodesic(index: Int) {
        let (from, to, maxSegment) = Self.cases[index]
        let m = Measurement(start: from, end: to)
        let (x, y, z) = m.geodesicVertices(maxSegmentMetres: maxSegment)
        let proj = ProjGeodesic.wgs84
        let whole = proj.inverse(from.latitude, from.longitude, to.latitude, to.longitude)
        let steps = x.count - 1
        #expect(steps == max(1, Int((whole.s12 / maxSegment).rounded(.up))))
        #expect(x.first == from.longitude && y.first == from.latitude && x.last == to.longitude && y.last == to.latitude)
        for k in 0...steps {
            let expected = proj.direct(from.latitude, from.longitude, whole.azi1, whole.s12 * Double(k) / Double(steps))
            let off = proj.inverse(expected.lat2, expected.lon2, y[k], x[k]).s12
            // 1 mm: the bound for a vertex; both geodesics agree to nanometres, so this
            // fails only for a vertex off the line (a chord, a wrong spacing).
            #expect(off < 1e-3, "vertex \(k) is \(off) m from PROJ's")
            let height = from.heightMetres! + (to.heightMetres! - from.heightMetres!) * Double(k) / Double(steps)
            // Heights are linear in distance; 1e-9 m is round-off of that interpolation.
            #expect(abs(z[k] - height) < 1e-9)
            if k > 0 {
                let step = proj.inverse(y[k - 1], x[k - 1], y[k], x[k]).s12
                // A micrometre over the maximum at most: equal steps of s / ⌈s / max⌉ ≤ max, to round-off.
                #expect(step <= maxSegment + 1e-6)
            }
        }
    }
}
