import CGDAL

/// Transforms coordinates between two CRSs, in traditional GIS axis order (x = longitude or
/// easting). Not thread-safe: make one per task.
/// The corresponding GDAL functions are `OCTNewCoordinateTransformation` and `OCTTransform`.
public final class CoordinateTransformer {
    private let handle: OGRCoordinateTransformationH
    /// The CRS coordinates come from.
    public let source: SpatialReference
    /// The CRS coordinates go to.
    public let target: SpatialReference

    public init(from source: SpatialReference, to target: SpatialReference) throws(TerrainError) {
        GDALEnvironment.ensure()
        handle = try gdal(fallback: "no transformation found") {
            withExtendedLifetime((source, target)) { OCTNewCoordinateTransformation(source.handle, target.handle) }
        } orThrow: {
            .cannotTransform(from: source.label, to: target.label, reason: $0)
        }
        self.source = source
        self.target = target
    }

    deinit { OCTDestroyCoordinateTransformation(handle) }

    /// Transforms `x`, `y` in place. Points PROJ cannot transform become `nan`.
    public func transform(x: inout [Double], y: inout [Double]) {
        precondition(x.count == y.count, "one y per x")
        let n = x.count
        guard n > 0 else { return }
        var success = [Int32](repeating: 0, count: n)
        x.withUnsafeMutableBufferPointer { xs in
            y.withUnsafeMutableBufferPointer { ys in
                success.withUnsafeMutableBufferPointer { ok in
                    // Large batches go in pieces so one call's buffers stay small.
                    let piece = 1 << 16
                    var start = 0
                    while start < n {
                        let count = min(piece, n - start)
                        _ = OCTTransformEx(
                            handle, Int32(count), xs.baseAddress! + start, ys.baseAddress! + start,
                            nil, ok.baseAddress! + start)
                        start += count
                    }
                }
            }
        }
        for k in 0..<n where success[k] == 0 || !x[k].isFinite || !y[k].isFinite {
            x[k] = .nan
            y[k] = .nan
        }
    }

    /// One point; nil when PROJ cannot transform it.
    public func transform(x: Double, y: Double) -> (x: Double, y: Double)? {
        var xs = [x]
        var ys = [y]
        transform(x: &xs, y: &ys)
        return xs[0].isNaN ? nil : (xs[0], ys[0])
    }

    /// The bounds of the box `minX`…`maxX` × `minY`…`maxY` once transformed, each edge
    /// densified with `densifyPoints` points so that curved edges are covered. A failure is
    /// `failure(GDAL's message)`.
    /// The corresponding GDAL function is `OCTTransformBounds`.
    func transformBounds(
        minX: Double, minY: Double, maxX: Double, maxY: Double, densifyPoints: Int32 = 21,
        orThrow failure: (String) -> TerrainError
    ) throws(TerrainError) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var bounds = (minX: 0.0, minY: 0.0, maxX: 0.0, maxY: 0.0)
        try gdal {
            OCTTransformBounds(handle, minX, minY, maxX, maxY, &bounds.minX, &bounds.minY, &bounds.maxX, &bounds.maxY, densifyPoints) != 0
        } orThrow: {
            failure($0)
        }
        return bounds
    }
}
