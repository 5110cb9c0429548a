import CGDAL
import Synchronization

/// Transforms coordinates between two CRSs, in traditional GIS axis order (x = longitude or
/// easting). Not thread-safe: make one per task; making one is cheap after the first for the
/// same pair of CRSs in the process (``TransformationCache``).
/// The corresponding GDAL functions are `OCTNewCoordinateTransformation` and `OCTTransform`.
public final class CoordinateTransformer {
    let handle: OGRCoordinateTransformationH
    /// The CRS coordinates come from.
    public let source: SpatialReference
    /// The CRS coordinates go to.
    public let target: SpatialReference

    public init(from source: SpatialReference, to target: SpatialReference) throws(TerrainError) {
        GDALEnvironment.ensure()
        handle = try TransformationCache.transformation(from: source, to: target)
        self.source = source
        self.target = target
    }

    deinit { OCTDestroyCoordinateTransformation(handle) }

    /// Transforms `x`, `y` in place. Points PROJ cannot transform become `nan`.
    ///
    /// Throws `cannotTransform` (temporary, so exit 75, when the network failed) when points
    /// failed because PROJ could not fetch a grid its operation needs: with `PROJ_NETWORK=ON`,
    /// an unreachable grid server. Those points are not outside anything; their answer is
    /// unknown.
    public func transform(x: inout [Double], y: inout [Double]) throws(TerrainError) {
        precondition(x.count == y.count, "one y per x")
        let n = x.count
        guard n > 0 else { return }
        let mark = TransferFailure.begin()
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
        var failed = false
        for k in 0..<n where success[k] == 0 || !x[k].isFinite || !y[k].isFinite {
            x[k] = .nan
            y[k] = .nan
            failed = true
        }
        if failed, let reason = TransferFailure.message(since: mark, anyThread: false) {
            throw .cannotTransform(from: source.label, to: target.label, reason: reason)
        }
    }

    /// One point; nil when PROJ cannot transform it.
    public func transform(x: Double, y: Double) throws(TerrainError) -> (x: Double, y: Double)? {
        var xs = [x]
        var ys = [y]
        try transform(x: &xs, y: &ys)
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

/// The transformations of the process, one per pair of CRSs: PROJ builds the first from its
/// database (the search for candidate operations, 20–30 ms for WGS84 → NAD83; as long again for
/// each further one while the first is alive, and twice that on a thread whose PROJ context has
/// not opened the database yet); every ``CoordinateTransformer`` after it is a copy
/// (`OCTClone`, about 0.2 ms) that transforms exactly as the first.
///
/// Safe for threads: PROJ objects belong to the thread whose context made them, so the kept
/// transformation never transforms; under the lock it is only copied, and each copy is made in
/// the calling thread's context and owned by its ``CoordinateTransformer`` alone. The key is
/// both CRSs as WKT2 with their axis mappings, and whether PROJ may use the network (which
/// changes the operations it may choose); a pair that WKT2 cannot state is built every time.
enum TransformationCache {
    struct Key: Hashable {
        var source: String
        var target: String
        var axes: [Int]
        var network: Bool
    }

    /// Pairs kept at most; a process meets a handful (the DEM's, a map frame's, `--crs`).
    static let capacity = 32

    /// Kept transformations, by pair. Handles are never transformed with, only copied, and
    /// only under the lock.
    private static let kept = Mutex<[Key: UnsafeTransformation]>([:])

    /// A handle the lock guards.
    struct UnsafeTransformation: @unchecked Sendable {
        let handle: OGRCoordinateTransformationH
    }

    /// A new transformation from `source` to `target`, owned by the caller.
    static func transformation(
        from source: SpatialReference, to target: SpatialReference
    ) throws(TerrainError) -> OGRCoordinateTransformationH {
        guard let sourceWKT = try? source.wkt, let targetWKT = try? target.wkt else { return try build(from: source, to: target) }
        let key = Key(
            source: sourceWKT, target: targetWKT, axes: source.dataAxisMapping + target.dataAxisMapping,
            network: OSRGetPROJEnableNetwork() != 0)
        let copy = try kept.withLock { (kept: inout [Key: UnsafeTransformation]) throws(TerrainError) -> UnsafeTransformation in
            if let found = kept[key] {
                return UnsafeTransformation(handle: try clone(found.handle, from: source, to: target))
            }
            let built = try build(from: source, to: target)
            guard kept.count < capacity else { return UnsafeTransformation(handle: built) }
            kept[key] = UnsafeTransformation(handle: built)
            return UnsafeTransformation(handle: try clone(built, from: source, to: target))
        }
        return copy.handle
    }

    /// Builds a transformation through PROJ's database.
    static func build(from source: SpatialReference, to target: SpatialReference) throws(TerrainError) -> OGRCoordinateTransformationH {
        try gdal(fallback: "no transformation found") {
            withExtendedLifetime((source, target)) { OCTNewCoordinateTransformation(source.handle, target.handle) }
        } orThrow: {
            .cannotTransform(from: source.label, to: target.label, reason: $0)
        }
    }

    static func clone(
        _ handle: OGRCoordinateTransformationH, from source: SpatialReference, to target: SpatialReference
    ) throws(TerrainError) -> OGRCoordinateTransformationH {
        try gdal(fallback: "cannot copy the transformation") {
            OCTClone(handle)
        } orThrow: {
            .cannotTransform(from: source.label, to: target.label, reason: $0)
        }
    }
}
