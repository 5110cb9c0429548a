import TransectCLIMeasure
import TransectGDAL
import TransectSupport

extension MergeCommand {
    /// The layer format the parts were written in (their manifests' `format=` option), or nil
    /// for CSV, whose parts concatenate. GeoJSONSeq parts concatenate too.
    static func layerFormat(_ parts: [(String, ShardManifest)]) -> LayerFormat? {
        guard let options = parts.first?.1.options,
            let format = options.first(where: { $0.hasPrefix("format=") }).flatMap({ LayerFormat(rawValue: String($0.dropFirst("format=".count))) }),
            format.needsFile
        else { return nil }
        return format
    }

    /// Joins the parts' `measurements` features, in shard order, into one file at `out` in
    /// `format`, written as one run writes it (``MeasurementsLayer``), so that it holds the
    /// bytes of one run.
    static func mergeLayers(_ parts: [(String, ShardManifest)], format: LayerFormat, out: String?) throws {
        guard let out, out != "-" else {
            throw CLIError.usage("option '-o': the parts are \(format.rawValue) files, which merge into a file: give -o FILE", command: "merge")
        }
        let output = try LayerOutput(path: out, format: format)
        do {
            let layer = try MeasurementsLayer.create(in: output)
            for (path, manifest) in parts {
                // GDAL's FlatGeobuf driver writes nothing at all for a layer of no features.
                if format == .flatgeobuf && manifest.goodRows == 0 { continue }
                let reader: LayerReader
                do { reader = try LayerReader(path: path) } catch {
                    guard case .cannotOpen(_, let reason) = error else { throw CLIError.badInput(error.message) }
                    throw CLIError.badInput("'\(path)': cannot be read as \(format.rawValue): \(reason)")
                }
                guard reader.name == MeasurementsLayer.name, reader.fields.map(\.name) == MeasurementsLayer.fields.map(\.name) else {
                    throw CLIError.badInput("'\(path)' is not a measurements layer measure wrote (layer '\(reader.name)')")
                }
                while let feature = reader.next() {
                    // FlatGeobuf numbers its features from 0 in each file; the writer ignores ids there.
                    try output.write(layer, fid: format == .flatgeobuf ? nil : feature.fid, values: feature.values, geometry: feature.geometry)
                }
            }
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }
}
