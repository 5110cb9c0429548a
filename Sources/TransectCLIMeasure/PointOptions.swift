import TransectFormatsBase
import TransectGDAL
import TransectGeodesy

/// Points written on the command line (`LON,LAT[,Z]`, or X,Y[,Z] in `--crs`): read by
/// ``Option/point(_:value:help:)``'s parser, then put in WGS84 and checked for range here.
/// Shared by `measure`, `profile` and `render --measure`.
package enum PointOptions {
    /// One point written as `--option` gave it; `text` is quoted in messages.
    package struct Given {
        package var option: String
        package var text: String
        package var point: PointArgument

        package init(option: String, text: String, point: PointArgument) {
            self.option = option
            self.text = text
            self.point = point
        }
    }

    /// The points in WGS84 (through `--crs` when given). A latitude beyond ±90° or a longitude
    /// beyond ±540° is a usage error of the point's option; with `untransformable`, a point PROJ
    /// cannot transform is bad input saying so (else its NaN fails the range check).
    package static func geographic(
        _ given: [Given], terrain: TerrainOptions, command: String,
        untransformable: Bool = true
    ) throws -> [GeoPoint] {
        let points = try terrain.toWGS84(given.map(\.point))
        for (point, g) in zip(points, given) {
            if untransformable, !point.longitude.isFinite {
                throw CLIError.badInput("option '--\(g.option)': cannot transform '\(g.text)' from \(terrain.crs ?? "the input CRS") to WGS84")
            }
            if let problem = PointArgument.checkGeographic(longitude: point.longitude, latitude: point.latitude) {
                throw CLIError.usage("option '--\(g.option)': \(problem.text)", command: command)
            }
        }
        return points
    }
}
