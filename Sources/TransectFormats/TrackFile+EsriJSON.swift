import TransectAnalysis
import TransectGeodesy
import TransectSupport

// MARK: - Esri JSON

/// Esri JSON polylines and FeatureSets of them, in WGS84 or Web Mercator, as ``TrackFile``
/// describes them.
enum EsriTrackReader {
    /// Web Mercator wkids (102113 is the older code for the same projection).
    static let webMercatorWkids: Set<Int> = [3857, 102100, 102113, 900913]

    /// True for an Esri polyline or a FeatureSet of them (decided on `paths`, `spatialReference`
    /// or `geometryType`, which GeoJSON does not have).
    static func looksLikeEsri(_ object: JSON) -> Bool {
        guard object.isObject else { return false }
        if object["paths"] != nil || object["spatialReference"] != nil || object["geometryType"] != nil { return true }
        if let first = object["features"]?.array?.first, let geometry = first["geometry"], geometry.isObject {
            return geometry["paths"] != nil || geometry["x"] != nil || geometry["rings"] != nil
        }
        return false
    }

    enum Reference { case geographic, webMercator }

    /// The spatial reference a wkid names, or nil. The wkid is compared as a double before any
    /// conversion to an integer: `1e300` or `-1e19` are simply not supported, never a trap.
    static func reference(wkid: Double) -> Reference? {
        if wkid == 4326 { return .geographic }
        guard wkid == wkid.rounded(), wkid.magnitude < 1e9 else { return nil }
        return webMercatorWkids.contains(Int(wkid)) ? .webMercator : nil
    }

    static func read(_ top: JSON, path: String, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }
        guard top.isObject else { throw fail("is not an Esri JSON object") }
        var pointCount = 0

        func reference(_ value: JSON?) throws(FormatError) -> Reference {
            guard let sr = value, sr.isObject else {
                throw fail("has no spatialReference (wkid 4326, 3857 or 102100 expected)")
            }
            let ids = [sr["latestWkid"], sr["wkid"]].compactMap { $0?.number }
            for id in ids {
                if let r = EsriTrackReader.reference(wkid: id) { return r }
            }
            guard let id = ids.last else {
                throw fail("spatialReference has no wkid (4326, 3857 or 102100 expected)")
            }
            throw fail("spatialReference wkid \(NumberFormatting.shortest(id)) is not supported (only 4326, 3857 and 102100 are)")
        }

        func polyline(_ geometry: JSON, inherited: JSON?, hasZ inheritedZ: Bool, _ context: String) throws(FormatError) -> [[TrackPoint]] {
            guard let paths = geometry["paths"]?.array else { throw fail("\(context) has no paths array") }
            let ref = try reference(geometry["spatialReference"] ?? inherited)
            let hasZ = geometry["hasZ"]?.bool ?? inheritedZ
            var lines: [[TrackPoint]] = []
            for (i, p) in paths.enumerated() {
                guard let vertices = p.array else { throw fail("\(context) path \(i + 1) is not an array of vertices") }
                var line: [TrackPoint] = []
                line.reserveCapacity(vertices.count)
                for (j, v) in vertices.enumerated() {
                    let at = "\(context) path \(i + 1) vertex \(j + 1)"
                    guard let c = v.array, c.count >= 2, let x = c[0].number, let y = c[1].number else {
                        throw fail("\(at) is not [x, y]")
                    }
                    var point: TrackPoint
                    switch ref {
                    case .geographic:
                        if let problem = TrackFile.rangeProblem(longitude: x, latitude: y) { throw fail("\(at): \(problem)") }
                        point = TrackPoint(longitude: x, latitude: y)
                    case .webMercator:
                        // x within ±540° of longitude (as coordinates elsewhere); any finite y
                        // is a latitude short of the pole.
                        let g = WebMercator.geographic(x: x, y: y)
                        guard x.magnitude <= 3 * Double.pi * WebMercator.radiusMetres, g.longitude.isFinite, g.latitude.isFinite else {
                            throw fail("\(at): x \(NumberFormatting.shortest(x)), y \(NumberFormatting.shortest(y)) is outside the Web Mercator plane")
                        }
                        point = TrackPoint(longitude: g.longitude, latitude: g.latitude)
                    }
                    if hasZ, c.count >= 3 {
                        guard let z = c[2].number else { throw fail("\(at) has a z that is not a number") }
                        if let problem = PointArgument.checkHeight(z, name: "z") { throw fail("\(at): \(problem.text)") }
                        point.elevationMetres = z
                    }
                    pointCount += 1
                    guard pointCount <= pointLimit else { throw fail(TrackFile.tooManyPoints(pointLimit)) }
                    line.append(point)
                }
                if !line.isEmpty { lines.append(line) }
            }
            return lines
        }

        let topZ = top["hasZ"]?.bool ?? false
        if let features = top["features"]?.array, top["paths"] == nil {
            var segments: [[TrackPoint]] = []
            var sawPolyline = false
            for (k, feature) in features.enumerated() {
                guard feature.isObject else { throw fail("feature \(k + 1) is not a JSON object") }
                guard let geometry = feature["geometry"], geometry.isObject, geometry["paths"] != nil else { continue }
                sawPolyline = true
                segments += try polyline(geometry, inherited: top["spatialReference"], hasZ: topZ, "feature \(k + 1)")
            }
            guard sawPolyline else { throw fail("has no polyline features (geometry.paths)") }
            return Track(segments: segments)
        }
        guard top["paths"] != nil else { throw fail("is neither an Esri polyline (paths) nor a FeatureSet of polylines") }
        return Track(segments: try polyline(top, inherited: nil, hasZ: topZ, "the polyline"))
    }
}
