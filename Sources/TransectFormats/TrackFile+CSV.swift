import Foundation
import TransectAnalysis
import TransectGeodesy
import TransectSupport

// MARK: - CSV

/// CSV tracks with a header naming their columns, as ``TrackFile`` describes them.
enum CSVTrackReader {
    static func read(_ data: Data, path: String, pointLimit: Int = TrackFile.maximumPoints) throws(FormatError) -> Track {
        func fail(_ reason: String) -> FormatError { .malformed(path: path, reason: reason) }
        let lines = try TextInput.lines(data, path: path)
        guard let headerIndex = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else { throw fail("is empty") }
        let header = CSVLine.split(String(lines[headerIndex])).map {
            $0.replacingOccurrences(of: "\u{FEFF}", with: "").trimmingCharacters(in: .whitespaces).lowercased()
        }
        func column(_ names: [String]) -> Int? { header.firstIndex { names.contains($0) } }
        guard let lonColumn = column(["lon", "longitude", "lng"]), let latColumn = column(["lat", "latitude"]) else {
            throw fail("line \(headerIndex + 1): header needs lon and lat columns (found \(header.joined(separator: ",").printable))")
        }
        let eleColumn = column(["ele", "elevation", "elevation_m", "alt", "altitude"])
        let timeColumn = column(["time", "timestamp"])
        let accuracyColumn = column(["accuracy", "accuracy_m"])
        let segmentColumn = column(["segment"])

        var segments: [[TrackPoint]] = []
        var current: [TrackPoint] = []
        var currentSegment: String?
        var pointCount = 0
        for k in (headerIndex + 1)..<lines.count {
            let raw = lines[k]
            if raw.allSatisfy(\.isWhitespace) { continue }
            let lineNumber = k + 1
            let fields = CSVLine.split(String(raw))
            // Trailing optional fields may be left off; lon and lat must be there.
            guard fields.count > max(lonColumn, latColumn) else {
                throw fail("line \(lineNumber): has \(fields.count) fields, the header has \(header.count)")
            }
            func field(_ c: Int?) -> String? {
                guard let c, c < fields.count else { return nil }
                let f = CSVLine.trimmed(fields[c])
                return f.isEmpty ? nil : f
            }
            func required(_ c: Int, _ label: String) throws(FormatError) -> Double {
                guard let f = field(c) else { throw fail("line \(lineNumber): \(label) is empty") }
                guard let v = TrackFile.number(f) else { throw fail("line \(lineNumber): \(label.printable) '\(f.printable)' is not a number") }
                return v
            }
            func optional(_ c: Int?, _ label: String) throws(FormatError) -> Double? {
                guard let f = field(c) else { return nil }
                guard let v = TrackFile.number(f) else { throw fail("line \(lineNumber): \(label.printable) '\(f.printable)' is not a number") }
                return v
            }
            let lon = try required(lonColumn, header[lonColumn])
            let lat = try required(latColumn, header[latColumn])
            if let problem = TrackFile.rangeProblem(longitude: lon, latitude: lat) { throw fail("line \(lineNumber): \(problem)") }
            var point = TrackPoint(longitude: lon, latitude: lat)
            point.elevationMetres = try optional(eleColumn, eleColumn.map { header[$0] } ?? "")
            if let e = point.elevationMetres, let problem = PointArgument.checkHeight(e, name: header[eleColumn!].printable) {
                throw fail("line \(lineNumber): \(problem.text)")
            }
            point.accuracyMetres = try optional(accuracyColumn, accuracyColumn.map { header[$0] } ?? "")
            if let a = point.accuracyMetres, a.magnitude > TrackFile.accuracyLimitMetres {
                throw fail("line \(lineNumber): \(header[accuracyColumn!].printable) \(JSON.format(a)) m is beyond \(GeoPoint.heightLimitText)")
            }
            if let t = field(timeColumn) {
                guard let seconds = Timestamp.parseISO8601(t) else { throw fail("line \(lineNumber): time '\(t.printable)' is not an ISO 8601 time") }
                point.time = seconds
            }
            if segmentColumn != nil {
                let s = field(segmentColumn) ?? ""
                if let currentSegment, s != currentSegment, !current.isEmpty {
                    segments.append(current)
                    current = []
                }
                currentSegment = s
            }
            pointCount += 1
            guard pointCount <= pointLimit else { throw fail(TrackFile.tooManyPoints(pointLimit)) }
            current.append(point)
        }
        if !current.isEmpty { segments.append(current) }
        return Track(segments: segments)
    }
}
