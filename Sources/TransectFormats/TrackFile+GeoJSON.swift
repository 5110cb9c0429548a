import Foundation
import TransectAnalysis
import TransectGeodesy
import TransectSupport

// MARK: - GeoJSON

/// GeoJSON tracks (LineString, MultiLineString, Feature, FeatureCollection, GeometryCollection),
/// as ``TrackFile`` describes them. The document is walked with a work list, not recursion.
enum GeoJSONTrackReader {
    /// `capture` is the ``GeoJSONCapture`` the document was parsed with, if any: its stand-ins
    /// are resolved to the points and times it read.
    static func read(
        _ document: JSON, path: String, pointLimit: Int = TrackFile.maximumPoints, capture: GeoJSONCapture? = nil
    ) throws(FormatError) -> Track {
        var segments: [[TrackPoint]] = []
        var waypoints: [Waypoint] = []
        var lineName: String?
        var collectionName: String?
        var pointCount = 0

        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }

        func position(_ value: JSON, _ context: String) throws(FormatError) -> TrackPoint {
            guard let c = value.array, c.count >= 2, let lon = c[0].number, let lat = c[1].number else {
                throw fail("\(context) is not [lon, lat] or [lon, lat, ele]")
            }
            if let problem = TrackFile.rangeProblem(longitude: lon, latitude: lat) { throw fail("\(context): \(problem)") }
            var elevation: Double?
            if c.count >= 3, !c[2].isNull {
                guard let e = c[2].number else { throw fail("\(context) has an elevation that is not a number") }
                if let problem = PointArgument.checkHeight(e, name: "elevation") { throw fail("\(context): \(problem.text)") }
                elevation = e
            }
            pointCount += 1
            guard pointCount <= pointLimit else { throw fail(TrackFile.tooManyPoints(pointLimit)) }
            return TrackPoint(longitude: lon, latitude: lat, elevationMetres: elevation)
        }

        /// Points read by the capture, counted against the limit with the others.
        func counted<T>(_ points: T, _ count: Int) throws(FormatError) -> T {
            pointCount += count
            guard pointCount <= pointLimit else { throw fail(TrackFile.tooManyPoints(pointLimit)) }
            return points
        }

        func line(_ value: JSON?, _ context: String) throws(FormatError) -> [TrackPoint] {
            switch capture?.coordinates(of: value) {
            case .line(let points): return try counted(points, points.count)
            case .position, .lines: throw fail("\(context) position 1 is not [lon, lat] or [lon, lat, ele]")
            case nil: break
            }
            guard let list = value?.array else { throw fail("\(context) has no coordinates array") }
            var points: [TrackPoint] = []
            points.reserveCapacity(list.count)
            for (k, p) in list.enumerated() { points.append(try position(p, "\(context) position \(k + 1)")) }
            return points
        }

        func time(_ value: JSON, _ context: String) throws(FormatError) -> Double? {
            if value.isNull { return nil }
            guard let s = value.string, let t = Timestamp.parseISO8601(s.trimmingCharacters(in: .whitespaces)) else {
                throw fail("\(context) has a time that is not an ISO 8601 string: \(value.string?.printable ?? TrackFile.kind(value))")
            }
            return t
        }

        /// Applies `coordTimes`/`times` to the lines of one geometry.
        func applyTimes(_ properties: JSON?, to lines: inout [[TrackPoint]], _ context: String) throws(FormatError) {
            guard let properties else { return }
            let key = properties["coordTimes"] != nil ? "coordTimes" : "times"
            guard let raw = properties[key], !raw.isNull else { return }
            let total = lines.reduce(0) { $0 + $1.count }
            func seconds(_ t: Double) -> Double? { t.isNaN ? nil : t }
            if let capture, let captured = capture.times(of: raw) {
                switch captured {
                case .nested(_, let counts):
                    guard counts.count == lines.count else { throw fail("\(context): \(key) has \(counts.count) lists for \(lines.count) lines") }
                    for i in lines.indices where counts[i] != lines[i].count {
                        throw fail("\(context): \(key) line \(i + 1) has \(counts[i]) times for \(lines[i].count) positions")
                    }
                case .flat(_, let count):
                    guard count == total else { throw fail("\(context): \(key) has \(count) times for \(total) positions") }
                }
                // The same order either way: line after line, position after position.
                var (i, j) = (0, 0)
                try capture.forEachTime(captured, context: "\(context) \(key)") { t in
                    while j == lines[i].count {
                        i += 1
                        j = 0
                    }
                    lines[i][j].time = seconds(t)
                    j += 1
                }
                return
            }
            guard let list = raw.array else { throw fail("\(context): \(key) is not an array") }
            if lines.count > 1 || list.first?.array != nil {
                // One list per line (togeojson's MultiLineString form), or a flat list over all.
                let nested = list.compactMap(\.array)
                if nested.count == list.count, nested.count == lines.count {
                    for i in lines.indices {
                        guard nested[i].count == lines[i].count else {
                            throw fail("\(context): \(key) line \(i + 1) has \(nested[i].count) times for \(lines[i].count) positions")
                        }
                        for j in lines[i].indices { lines[i][j].time = try time(nested[i][j], "\(context) \(key)") }
                    }
                    return
                }
                if list.first?.array != nil { throw fail("\(context): \(key) has \(list.count) lists for \(lines.count) lines") }
            }
            guard list.count == total else { throw fail("\(context): \(key) has \(list.count) times for \(total) positions") }
            var k = 0
            for i in lines.indices {
                for j in lines[i].indices {
                    lines[i][j].time = try time(list[k], "\(context) \(key)")
                    k += 1
                }
            }
        }

        // A work list rather than recursion: nested GeometryCollections cost heap, not stack.
        // Items are taken from the end, so children are pushed in reverse to keep document order.
        var work: [(value: JSON, context: String, properties: JSON?)] = [(document, "the document", nil)]
        while let (value, context, properties) = work.popLast() {
            guard value.isObject else { throw fail("\(context) is not a JSON object") }
            guard let type = value["type"]?.string else { throw fail("\(context) has no GeoJSON \"type\"") }
            switch type {
            case "FeatureCollection":
                guard let features = value["features"]?.array else { throw fail("FeatureCollection has no features array") }
                for (k, f) in features.enumerated().reversed() { work.append((f, "feature \(k + 1)", nil)) }
                if collectionName == nil, let n = value["name"]?.string, !n.isEmpty { collectionName = n }
            case "Feature":
                let props = value["properties"].flatMap { $0.isObject ? $0 : nil }
                guard let geometry = value["geometry"], !geometry.isNull else { continue }
                work.append((geometry, context, props ?? .object([])))
            case "GeometryCollection":
                guard let geometries = value["geometries"]?.array else { throw fail("\(context): GeometryCollection has no geometries array") }
                for (k, g) in geometries.enumerated().reversed() { work.append((g, "\(context) geometry \(k + 1)", nil)) }
            case "LineString", "MultiLineString":
                var lines: [[TrackPoint]]
                if type == "LineString" {
                    lines = [try line(value["coordinates"], "\(context) LineString")]
                } else {
                    switch capture?.coordinates(of: value["coordinates"]) {
                    case .lines(let captured):
                        lines = try counted(captured, captured.reduce(0) { $0 + $1.count })
                    case .line: throw fail("\(context) MultiLineString line 1 position 1 is not [lon, lat] or [lon, lat, ele]")
                    case .position: throw fail("\(context) MultiLineString line 1 has no coordinates array")
                    case nil:
                        guard let list = value["coordinates"]?.array else { throw fail("\(context) MultiLineString has no coordinates array") }
                        lines = []
                        for (k, l) in list.enumerated() { lines.append(try line(l, "\(context) MultiLineString line \(k + 1)")) }
                    }
                }
                try applyTimes(properties, to: &lines, context)
                segments += lines.filter { !$0.isEmpty }
                if lineName == nil, let n = properties?["name"]?.string, !n.isEmpty { lineName = n }
            case "Point":
                guard let label = properties?["name"].flatMap(TrackFile.label), !label.isEmpty else { continue }
                var p: TrackPoint
                switch capture?.coordinates(of: value["coordinates"]) {
                case .position(let captured): p = try counted(captured, 1)
                case .line, .lines: throw fail("\(context) Point is not [lon, lat] or [lon, lat, ele]")
                case nil: p = try position(value["coordinates"] ?? .null, "\(context) Point")
                }
                if let t = properties?["time"] { p.time = try time(t, "\(context) Point") }
                waypoints.append(Waypoint(name: label, point: p))
            case "MultiPoint", "Polygon", "MultiPolygon":
                continue
            default:
                throw fail("\(context) has unknown GeoJSON type '\(type.printable)'")
            }
        }
        return Track(name: lineName ?? collectionName, segments: segments, waypoints: waypoints)
    }
}
