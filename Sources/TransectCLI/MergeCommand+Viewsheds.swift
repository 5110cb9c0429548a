import TransectCLIMeasure
import TransectGDAL
import TransectSupport
import TransectVisibility

extension MergeCommand {
    /// Whether the parts are a `viewshed --shard` run's (their manifests record its product).
    static func isViewshed(_ parts: [(String, ShardManifest)]) -> Bool {
        parts.first?.1.options.contains { $0.hasPrefix("product=") } ?? false
    }

    /// Joins the parts of one `viewshed --shard` run, in shard order, into the raster one run
    /// writes: counts added, masks or-ed (each part holds its observers' bits), visibility
    /// combined as one run combines observers (visible over unknown over hidden over out of
    /// range), written with the parts' georeference, description and metadata, which are one
    /// run's. The parts' manifests already matched their bytes.
    static func mergeViewsheds(_ parts: [(String, ShardManifest)], out: String?) throws {
        guard let out, out != "-" else {
            throw CLIError.usage("option '-o': a viewshed raster is written to a FILE.tif, not stdout", command: "merge")
        }
        var merged: ViewshedRaster.Band?
        for (path, manifest) in parts {
            let part = try ViewshedRaster.readBand(path: path)
            guard var total = merged else {
                merged = part
                continue
            }
            guard part.type == total.type, part.width == total.width, part.height == total.height, part.geoTransform == total.geoTransform,
                part.wkt == total.wkt
            else {
                throw CLIError.badInput("'\(path)' (shard \(manifest.shard.text)) is not on the grid of '\(parts[0].0)' or not of its type")
            }
            switch total.type {
            case .byte: ViewshedRun.combine(&total.values, with: part.values)
            case .uint32: combine(&total.values, part.values, as: UInt32.self) { a, b in a &+ b }
            case .uint64: combine(&total.values, part.values, as: UInt64.self) { a, b in a | b }
            case .float32: throw CLIError.badInput("'\(path)' holds one observer's heights or angles, which do not merge")
            }
            merged = total
        }
        guard let band = merged else { return }
        let transaction = OutputTransaction()
        try transaction.writeBand(band, to: out)
        try transaction.commit()
    }

    /// `total[i] = op(total[i], part[i])` over the cells of two rasters of `T`, as bytes.
    static func combine<T: FixedWidthInteger>(_ total: inout [UInt8], _ part: [UInt8], as _: T.Type, _ op: (T, T) -> T) {
        total.withUnsafeMutableBytes { t in
            part.withUnsafeBytes { p in
                let a = t.bindMemory(to: T.self)
                let b = p.bindMemory(to: T.self)
                for i in 0..<a.count { a[i] = op(a[i], b[i]) }
            }
        }
    }
}
