import TransectGeodesy
import TransectSupport

/// A square of the grid's cells and how far its terrain strays when drawn coarser.
struct TerrainBlock: Sendable {
    /// Vertex columns c0…c1 and rows r0…r1 (inclusive): the block's cells lie between them.
    let c0: Int
    let c1: Int
    let r0: Int
    let r1: Int
    /// A sphere around every vertex of the block, ECEF metres.
    let centre: SIMD3<Double>
    let radius: Double
    /// errors[L]: the most the terrain drawn at stride 2^L departs from the terrain drawn at
    /// stride 1, metres (vertically, plus the chord's sag over the curved earth); infinity when
    /// the block has no data anywhere in it (it is never coarsened).
    let errors: [Float]
    /// The most the DEM's bilinear surface departs from the two triangles each cell is drawn
    /// as, metres: in a cell of corner heights a, b (east of a), c (south of a), d the bilinear
    /// height less the triangle's is u·v·(a − b − c + d) on the triangle (a, b, c) (and the
    /// same from d on the other), largest at the cell's centre, |a − b − c + d| / 4.
    let twist: Float
    /// False when every vertex is without data.
    let hasData: Bool
}

extension TerrainScene {
    /// Cells along a block's side; the coarsest level draws a block as two triangles.
    static let blockCells = 32
    /// Strides 1, 2, 4, …, ``blockCells``.
    static let levelCount = 6

    /// The vertex indices along one side of a block at stride `s`: every s-th from `start`, and
    /// the end.
    static func coarseIndices(_ start: Int, _ end: Int, stride s: Int) -> [Int] {
        var out = Array(Swift.stride(from: start, to: end, by: s))
        out.append(end)
        return out
    }

    /// The blocks of the grid with their level-of-detail errors.
    ///
    /// For level L (stride s = 2^L) each vertex of the block is compared with the terrain the
    /// coarse triangles draw at its place (the coarse quad split along the same diagonal as the
    /// fine ones); the largest difference is the block's error, plus the sag (s·cell)²/(8R) by
    /// which a coarse chord of the earth's curve falls under the finer ones. This is the
    /// min/max pyramid's test made exact for our triangles: where a block's heights all lie
    /// within one pixel of its coarse surface as seen from the camera, it is drawn coarse.
    static func makeBlocks(grid: TerrainGrid, positions: [SIMD3<Double>], across: Int, down: Int, parallel: ParallelLoop) -> [TerrainBlock] {
        let w = grid.width
        let cell = max(grid.cellWidthMetres, grid.cellHeightMetres)
        let box = BlockBox(count: across * down)
        grid.heights.withUnsafeBufferPointer { z in
            positions.withUnsafeBufferPointer { p in
                let shared = SharedSceneInput(z: z, p: p)
                parallel(across * down) { k in
                    let c0 = (k % across) * blockCells
                    let r0 = (k / across) * blockCells
                    let c1 = min(c0 + blockCells, w - 1)
                    let r1 = min(r0 + blockCells, grid.height - 1)
                    box.set(k, block(shared, w: w, c0: c0, c1: c1, r0: r0, r1: r1, cell: cell))
                }
            }
        }
        return box.blocks()
    }

    private static func block(_ s: SharedSceneInput, w: Int, c0: Int, c1: Int, r0: Int, r1: Int, cell: Double) -> TerrainBlock {
        var low = SIMD3<Double>(repeating: .infinity)
        var high = SIMD3<Double>(repeating: -.infinity)
        var missing = false
        var any = false
        for j in r0...r1 {
            for i in c0...c1 {
                let q = s.p[j * w + i]
                if q.x.isNaN {
                    missing = true
                    continue
                }
                any = true
                low = pointwiseMin(low, q)
                high = pointwiseMax(high, q)
            }
        }
        let centre = any ? (low + high) / 2 : SIMD3(repeating: 0)
        var radius = 0.0
        if any {
            for j in r0...r1 {
                for i in c0...c1 where !s.p[j * w + i].x.isNaN {
                    let d = s.p[j * w + i] - centre
                    radius = max(radius, (d * d).sum().squareRoot())
                }
            }
        }
        var errors: [Float] = [0]
        for level in 1..<levelCount {
            let stride = 1 << level
            if missing {
                errors.append(.infinity)
                continue
            }
            let sag = Float(Double(stride) * cell * Double(stride) * cell / (8 * EarthCurvature.meanRadiusMetres))
            errors.append(coarseError(s.z, w: w, c0: c0, c1: c1, r0: r0, r1: r1, stride: stride) + sag)
        }
        var twist: Float = 0
        for j in r0..<r1 {
            for i in c0..<c1 {
                let t = abs(s.z[j * w + i] - s.z[j * w + i + 1] - s.z[(j + 1) * w + i] + s.z[(j + 1) * w + i + 1]) / 4
                if !t.isNaN { twist = max(twist, t) }
            }
        }
        return TerrainBlock(
            c0: c0, c1: c1, r0: r0, r1: r1, centre: centre, radius: radius, errors: errors, twist: twist, hasData: any)
    }

    /// The largest vertical difference between the block's heights and its triangles at `stride`.
    static func coarseError(_ z: UnsafeBufferPointer<Float>, w: Int, c0: Int, c1: Int, r0: Int, r1: Int, stride: Int) -> Float {
        let cols = coarseIndices(c0, c1, stride: stride)
        let rows = coarseIndices(r0, r1, stride: stride)
        var worst: Float = 0
        for cj in 0..<(rows.count - 1) {
            let ja = rows[cj]
            let jb = rows[cj + 1]
            for ci in 0..<(cols.count - 1) {
                let ia = cols[ci]
                let ib = cols[ci + 1]
                let ha = z[ja * w + ia]
                let hb = z[ja * w + ib]
                let hc = z[jb * w + ia]
                let hd = z[jb * w + ib]
                for j in ja...jb {
                    let v = Float(j - ja) / Float(jb - ja)
                    for i in ia...ib {
                        let u = Float(i - ia) / Float(ib - ia)
                        let plane = u + v <= 1 ? ha + u * (hb - ha) + v * (hc - ha) : hd + (1 - u) * (hc - hd) + (1 - v) * (hb - hd)
                        worst = max(worst, abs(z[j * w + i] - plane))
                    }
                }
            }
        }
        return worst
    }
}

/// The grid's heights and positions, read by every worker.
///
/// `@unchecked Sendable` is safe because both buffers are only read, and they outlive the
/// workers (the parallel loop returns inside the `withUnsafeBufferPointer` calls that lend them).
struct SharedSceneInput: @unchecked Sendable {
    let z: UnsafeBufferPointer<Float>
    let p: UnsafeBufferPointer<SIMD3<Double>>
}

/// Blocks written by the workers, one slot each.
///
/// `@unchecked Sendable` is safe because each worker writes only slot k of its own item, the
/// slots are allocated before the workers start, and they are read only after the parallel loop
/// has returned.
final class BlockBox: @unchecked Sendable {
    private let base: UnsafeMutablePointer<TerrainBlock?>

    init(count: Int) {
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
        self.count = count
    }
    private let count: Int
    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func set(_ k: Int, _ block: TerrainBlock) { base[k] = block }
    func blocks() -> [TerrainBlock] { (0..<count).compactMap { base[$0] } }
}
