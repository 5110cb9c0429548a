import TransectAnalysis
import TransectCLIMeasure
import TransectFormats
import TransectGDAL
import TransectSupport

/// A track as a GeoPackage of two layers, written by OGR's driver (``LayerOutput``):
/// - `lines`: one feature per segment, a line string (3D when every point of the track has an
///   elevation, 2D otherwise), with `name`, `segment` (from 1), `points`, and `start_time` /
///   `end_time` (ISO 8601, null when the segment's points have no times);
/// - `fixes`: one point per fix (3D or 2D as `lines`), with `segment`, `time`, `lon`, `lat`,
///   `elevation_m` (null where unknown) and, for simulated fixes, `course_deg` and `speed_mps`.
///
/// Numbers are rounded as ``TrackWriter`` writes them (9 decimals of a degree, 3 of a metre,
/// 6 of a course or speed), so the layers hold what the GPX or CSV of the same run holds.
/// Features are numbered from 1 in each layer; the bytes are deterministic (``LayerWriter``).
enum TrackLayers {
    static let lineFields: [LayerWriter.Field] = [
        .init("name", .string), .init("segment", .integer), .init("points", .integer), .init("start_time", .string), .init("end_time", .string),
    ]
    static let fixFields: [LayerWriter.Field] = [
        .init("segment", .integer), .init("time", .string), .init("lon", .real), .init("lat", .real), .init("elevation_m", .real),
    ]
    static let motionFields: [LayerWriter.Field] = [.init("course_deg", .real), .init("speed_mps", .real)]

    static func write<P: WritableTrackPoint>(_ segments: [[P]], name: String?, to output: LayerOutput) throws(CLIError) {
        let segments = segments.filter { !$0.isEmpty }
        let threeD = segments.allSatisfy { $0.allSatisfy { $0.elevationMetres != nil } }
        let simulated = P.self == Fix.self
        func r(_ v: Double, _ decimals: Int) -> Double { MeasurementsLayer.rounded(v, decimals) }
        func time(_ p: P?) -> LayerWriter.Value { p?.writtenTime.map { .string(Timestamp.iso8601($0)) } ?? .null }

        let lines = try output.createLayer("lines", geometry: threeD ? .lineString : .lineString2D, fields: lineFields)
        for (s, segment) in segments.enumerated() {
            let firstTimed = segment.first { $0.writtenTime != nil }
            let lastTimed = segment.last { $0.writtenTime != nil }
            let geometry = LayerWriter.Geometry.lineString(
                x: segment.map { r($0.longitude, 9) }, y: segment.map { r($0.latitude, 9) }, z: segment.map { r($0.elevationMetres ?? 0, 3) })
            try output.write(
                lines, fid: s + 1,
                values: [name.map { .string($0) } ?? .null, .integer(s + 1), .integer(segment.count), time(firstTimed), time(lastTimed)],
                geometry: segment.count > 1 ? geometry : nil)
        }

        let fixes = try output.createLayer(
            "fixes", geometry: threeD ? .point : .point2D, fields: fixFields + (simulated ? motionFields : []))
        var fid = 0
        for (s, segment) in segments.enumerated() {
            for p in segment {
                fid += 1
                var values: [LayerWriter.Value] = [
                    .integer(s + 1), time(p), .real(r(p.longitude, 9)), .real(r(p.latitude, 9)), .real(p.elevationMetres.map { r($0, 3) }),
                ]
                if let m = p.motion {
                    let course = r(m.courseDegrees, 6)
                    values += [.real(course >= 360 ? 0 : course), .real(r(m.speedMetresPerSecond, 6))]
                }
                try output.write(
                    fixes, fid: fid, values: values,
                    geometry: .point(x: r(p.longitude, 9), y: r(p.latitude, 9), z: r(p.elevationMetres ?? 0, 3)))
            }
        }
    }
}
