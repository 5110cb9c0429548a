import TransectAnalysis
import TransectGDAL
import TransectGeodesy
import TransectSupport

/// The `measurements` layer `measure` writes for one pair or a `--pairs` batch: the CSV's
/// columns (``MeasureCommand/pairsHeader``) as typed fields, `id` as a string and every number
/// a Real rounded to the decimals the CSV prints, and each measured line as a 3D line string
/// along the geodesic (``Measurement/geodesicVertices(maxSegmentMetres:)``) in WGS84 longitude,
/// latitude and the elevations the CSV prints. A row in error keeps its coordinates and its
/// `error` and has no geometry. A feature's id is its row's number in the input (1 for one
/// measurement), so shards of a batch keep the ids of one run.
package enum MeasurementsLayer {
    package static let name = "measurements"

    package static let fields: [LayerWriter.Field] = [
        .init("id", .string), .init("from_lon", .real), .init("from_lat", .real), .init("from_elevation_m", .real),
        .init("to_lon", .real), .init("to_lat", .real), .init("to_elevation_m", .real), .init("horizontal_m", .real),
        .init("vertical_m", .real), .init("direct_m", .real), .init("azimuth_deg", .real), .init("error", .string),
    ]

    /// One feature, made on a worker thread and written on the writer's.
    package struct Feature: Sendable {
        package var fid: Int
        package var values: [LayerWriter.Value]
        package var geometry: LayerWriter.Geometry?
    }

    /// The feature of row `number` (its `id`), measured as `result` from `pair`.
    package static func feature(
        number: Int, id: String, pair: MeasurementPair?, result: Result<Measurement, PairsMeasurement.Problem>, maxSegmentMetres: Double
    ) -> Feature {
        let from = pair?.from
        let to = pair?.to
        switch result {
        case .success(let m):
            var (x, y, z) = m.geodesicVertices(maxSegmentMetres: maxSegmentMetres)
            for k in x.indices {
                x[k] = rounded(x[k], 9)
                y[k] = rounded(y[k], 9)
                z[k] = rounded(z[k], 6)
            }
            return Feature(
                fid: number,
                values: [
                    .string(id), .real(rounded(from?.longitude, 9)), .real(rounded(from?.latitude, 9)), .real(rounded(m.start.heightMetres, 6)),
                    .real(rounded(to?.longitude, 9)), .real(rounded(to?.latitude, 9)), .real(rounded(m.end.heightMetres, 6)),
                    .real(rounded(m.horizontalMetres, 6)), .real(rounded(m.verticalMetres, 6)), .real(rounded(m.directMetres, 6)),
                    .real(rounded(m.azimuthStartDegrees, 9)), .null,
                ],
                geometry: .lineString(x: x, y: y, z: z))
        case .failure(let problem):
            return Feature(
                fid: number,
                values: [
                    .string(id), .real(rounded(from?.longitude, 9)), .real(rounded(from?.latitude, 9)), .null,
                    .real(rounded(to?.longitude, 9)), .real(rounded(to?.latitude, 9)), .null, .null, .null, .null, .null,
                    .string(problem.message),
                ],
                geometry: nil)
        }
    }

    /// `value` to `decimals` decimals, as the CSV prints it (ties away from zero).
    package static func rounded(_ value: Double, _ decimals: Int) -> Double {
        let scale = decimals == 9 ? 1e9 : decimals == 6 ? 1e6 : pow10(decimals)
        let r = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        return r == 0 ? 0 : r
    }

    static func rounded(_ value: Double?, _ decimals: Int) -> Double? { value.map { rounded($0, decimals) } }

    private static func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// Creates the layer in `output`.
    package static func create(in output: LayerOutput) throws(CLIError) -> LayerWriter.Layer {
        try output.createLayer(name, geometry: .lineString, fields: fields)
    }

    /// Writes `feature` to `layer` of `output`.
    package static func write(_ feature: Feature, to layer: LayerWriter.Layer, of output: LayerOutput) throws(CLIError) {
        try output.write(layer, fid: feature.fid, values: feature.values, geometry: feature.geometry)
    }
}
