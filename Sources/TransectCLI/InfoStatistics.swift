import TransectFormats
import TransectGDAL
import TransectSupport

/// `transect info --stats`: what reading the DEM asked of the network, in three steps: opening
/// it (the header: GeoTIFF tags and tile offsets), one point read (the nearest cell at the
/// centre: the one block that holds it) and the description (the elevation range, which reads
/// every cell, or overviews for a large DEM). Counted by GDAL's network file systems, so a
/// local DEM costs nothing.
struct InfoStatistics {
    /// Requests and bytes of one step.
    struct Cost: Equatable {
        var get = 0
        var head = 0
        var other = 0
        var bytes = 0

        /// Sums GDAL's serialised statistics (``NetworkStatistics/serializedJSON()``): the
        /// top-level `methods`, each with `count` and `downloaded_bytes`.
        init(serialized text: String) {
            guard !text.isEmpty, let json = try? JSON.parse(Array(text.utf8), path: "GDAL network statistics"),
                case .object(let methods)? = json["methods"]
            else { return }
            for (name, value) in methods {
                let count = Self.integer(value["count"])
                switch name.uppercased() {
                case "GET": get += count
                case "HEAD": head += count
                default: other += count
                }
                bytes += Self.integer(value["downloaded_bytes"])
            }
        }

        init() {}

        private static func integer(_ value: JSON?) -> Int {
            guard case .number(let v)? = value, v.isFinite, v >= 0, v < 1e15 else { return 0 }
            return Int(v)
        }

        var json: JSON {
            .object([
                ("get", .number(Double(get))), ("head", .number(Double(head))), ("other", .number(Double(other))),
                ("bytes", .number(Double(bytes))),
            ])
        }

        var text: String {
            var parts = ["\(get) GET", "\(head) HEAD"]
            if other > 0 { parts.append("\(other) other") }
            return parts.joined(separator: ", ") + ", \(NumberFormatting.grouped(Double(bytes), decimals: 0)) bytes"
        }
    }

    var open = Cost()
    var point = Cost()
    var description = Cost()

    /// Runs `body` with the counts reset before it, and returns its value and what it cost.
    static func counting<T>(_ body: () throws -> T) rethrows -> (T, Cost) {
        NetworkStatistics.reset()
        let value = try body()
        return (value, Cost(serialized: NetworkStatistics.serializedJSON()))
    }

    /// The nearest cell at the centre of `model`, read once (a point query).
    static func readCentre(of model: ElevationModel) throws {
        _ = try model.elevations(
            columns: [Double(model.width / 2) + 0.5], rows: [Double(model.height / 2) + 0.5], interpolation: .nearest)
    }

    var json: JSON { .object([("open", open.json), ("point", point.json), ("description", description.json)]) }

    var lines: [String] {
        [
            "Network:     open \(open.text)",
            "             point \(point.text)",
            "             description \(description.text)",
        ]
    }
}
