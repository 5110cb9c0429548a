import TransectSupport

/// A perspective image of terrain, and the depth of every sample in it.
///
/// ## How it is drawn
/// 1. Every vertex of the ``TerrainScene`` goes ECEF → the camera's east-north-up frame (with
///    the refraction lift) → camera axes (``ViewCamera``); its colour is hazed by distance d,
///    towards the haze colour by 0.85·d/(d + ``ViewStyle/hazeMetres``).
/// 2. Each block of the grid outside the view frustum is dropped; the others are drawn at the
///    coarsest stride whose error (``TerrainBlock/errors``) projects to at most one pixel at the
///    block's nearest distance. Where two neighbouring blocks differ in stride, each hangs a skirt
///    as deep as the larger error under the shared edge, so no crack shows.
/// 3. Triangles are clipped at the near plane (1 m), projected, and rasterised with a depth
///    buffer in 64 × 64-pixel tiles: each tile owns its pixels and draws its triangles in the
///    order the blocks gave them, so the image is the same bytes on any number of threads.
///    Each pixel has four samples at fixed positions (a rotated grid), and its colour is their
///    mean; a sample no triangle covers shows the sky, a gradient from the horizon's colour to
///    the zenith's by the sample ray's elevation.
public struct TerrainView: Sendable {
    public let camera: ViewCamera
    public var width: Int { camera.width }
    public var height: Int { camera.height }
    /// RGB, 3 bytes a pixel, row 0 at the top.
    public let rgb: [UInt8]
    /// 1/depth of each sample (metres⁻¹; 4 a pixel, in ``samplePositions`` order), 0 for sky.
    public let inverseDepths: [Float]
    /// Each drawn block's bounding sphere (ECEF) and how far its drawn terrain may stand from
    /// the DEM's bilinear surface, metres: its coarsening error at the level drawn plus its
    /// cells' twist (``TerrainBlock/twist``). ``isVisible(_:)`` reads it.
    let surfaceErrors: [(centre: SIMD3<Double>, radius: Double, metres: Double)]

    /// The four sample positions within a pixel, in pixels from its top-left corner.
    public static let samplePositions: [(x: Double, y: Double)] = [(0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875)]
    /// The near plane, metres in front of the camera.
    static let nearMetres: Float = 1
    /// The largest projected error a coarsened block may have, pixels.
    static let pixelError: Float = 1

    /// Draws `scene` as `camera` sees it.
    ///
    /// - Complexity: O(vertices + samples + covered samples), the vertex and tile work split by
    ///   `parallel`.
    public static func render(_ scene: TerrainScene, camera: ViewCamera, style: ViewStyle, parallel: ParallelLoop) -> TerrainView {
        let frame = camera.frame
        var mesh = transformVertices(scene, frame: frame, style: style, parallel: parallel)
        let levels = chooseLevels(scene, frame: frame, camera: camera)
        emitTriangles(scene, levels: levels, frame: frame, into: &mesh)
        let raster = TerrainRaster(width: camera.width, height: camera.height, frontSign: scene.frontSign)
        let (rgb, depths) = raster.draw(mesh, frame: frame, parallel: parallel)
        let errors = zip(scene.blocks, levels).compactMap { block, level in
            level >= 0 ? (block.centre, block.radius, Double(block.errors[level] + block.twist)) : nil
        }
        return TerrainView(camera: camera, rgb: rgb, inverseDepths: depths, surfaceErrors: errors)
    }

    /// Vertices in camera coordinates (x right, y up, z forward, metres) and their hazed colours;
    /// the grid's first, then those that skirts and clipping add, and the triangles over them.
    struct Mesh {
        var camera: [SIMD4<Float>]
        var colours: [SIMD4<Float>]
        var triangles: [Int32] = []
    }

    static func transformVertices(_ scene: TerrainScene, frame: ViewCamera.Frame, style: ViewStyle, parallel: ParallelLoop) -> Mesh {
        let n = scene.positions.count
        var cam = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: n)
        var col = [SIMD4<Float>](repeating: .zero, count: n)
        let haze = Double(style.hazeMetres)
        let chunk = 1 << 14
        scene.positions.withUnsafeBufferPointer { p in
            scene.colours.withUnsafeBufferPointer { c in
                cam.withUnsafeMutableBufferPointer { camOut in
                    col.withUnsafeMutableBufferPointer { colOut in
                        let shared = SharedVertices(positions: p, colours: c, camera: camOut, hazed: colOut)
                        parallel((n + chunk - 1) / chunk) { part in
                            for k in (part * chunk)..<min(n, (part + 1) * chunk) {
                                let q = shared.positions[k]
                                if q.x.isNaN { continue }
                                let enu = frame.enu(q)
                                let v = frame.camera(enu: enu)
                                shared.camera[k] = SIMD4(Float(v.x), Float(v.y), Float(v.z), 0)
                                let d = (enu * enu).sum().squareRoot()
                                let f = Float(0.85 * d / (d + haze))
                                let base = shared.colours[k]
                                shared.hazed[k] = base + (SIMD4(ViewStyle.haze, 1) - base) * f
                            }
                        }
                    }
                }
            }
        }
        return Mesh(camera: cam, colours: col)
    }

    /// Each block's level (stride 2^level), or −1 for a block outside the view.
    static func chooseLevels(_ scene: TerrainScene, frame: ViewCamera.Frame, camera: ViewCamera) -> [Int] {
        let f = frame.focalPixels
        let tx = frame.centreX / f
        let ty = frame.centreY / f
        let planes: [SIMD3<Double>] = [SIMD3(-1, 0, tx), SIMD3(1, 0, tx), SIMD3(0, -1, ty), SIMD3(0, 1, ty)].map { $0 / ($0 * $0).sum().squareRoot() }
        return scene.blocks.map { block in
            guard block.hasData else { return -1 }
            let c = frame.camera(enu: frame.enu(block.centre))
            // The lift can move a vertex by up to lift·(radius² + 2·radius·distance) more than
            // the centre; a generous margin keeps such blocks.
            let r = block.radius * 1.01 + 1
            if c.z + r < Double(nearMetres) { return -1 }
            for n in planes where (n * c).sum() < -r { return -1 }
            let distance = max((c * c).sum().squareRoot() - r, Double(nearMetres))
            var level = 0
            for l in 1..<TerrainScene.levelCount where Double(block.errors[l]) * f / distance <= Double(pixelError) { level = l }
            return level
        }
    }

    /// The triangles of every visible block at its level, with skirts where strides differ and
    /// clipping at the near plane. Serial, in block order: the order the tiles draw in.
    static func emitTriangles(_ scene: TerrainScene, levels: [Int], frame: ViewCamera.Frame, into mesh: inout Mesh) {
        let w = scene.grid.width
        let down = -SIMD4<Float>(Float(frame.right.z), Float(frame.upward.z), Float(frame.forward.z), 0)
        var emitter = TriangleEmitter(mesh: mesh)
        mesh = Mesh(camera: [], colours: [])
        for (k, block) in scene.blocks.enumerated() {
            let level = levels[k]
            guard level >= 0 else { continue }
            let s = 1 << level
            let cols = TerrainScene.coarseIndices(block.c0, block.c1, stride: s)
            let rows = TerrainScene.coarseIndices(block.r0, block.r1, stride: s)
            for cj in 0..<(rows.count - 1) {
                for ci in 0..<(cols.count - 1) {
                    let a = Int32(rows[cj] * w + cols[ci])
                    let b = Int32(rows[cj] * w + cols[ci + 1])
                    let c = Int32(rows[cj + 1] * w + cols[ci])
                    let d = Int32(rows[cj + 1] * w + cols[ci + 1])
                    emitter.triangle(a, b, c)
                    emitter.triangle(b, d, c)
                }
            }
            // Skirts along the sides shared with a visible block of another stride.
            let bx = k % scene.blocksAcross
            let by = k / scene.blocksAcross
            let sides: [(Int, [Int])] = [
                (bx > 0 ? k - 1 : -1, rows.map { $0 * w + block.c0 }),
                (bx + 1 < scene.blocksAcross ? k + 1 : -1, rows.map { $0 * w + block.c1 }),
                (by > 0 ? k - scene.blocksAcross : -1, cols.map { block.r0 * w + $0 }),
                (by + 1 < scene.blocksDown ? k + scene.blocksAcross : -1, cols.map { block.r1 * w + $0 }),
            ]
            for (neighbour, edge) in sides where neighbour >= 0 && levels[neighbour] >= 0 && levels[neighbour] != level {
                let depth = max(block.errors[level], scene.blocks[neighbour].errors[levels[neighbour]]) + 0.05
                emitter.skirt(edge.map(Int32.init), down: down * depth)
            }
        }
        mesh = emitter.mesh
    }
}

/// Appends triangles to a mesh, clipping those that cross the near plane.
struct TriangleEmitter {
    var mesh: TerrainView.Mesh

    init(mesh: TerrainView.Mesh) {
        self.mesh = mesh
        self.mesh.triangles.reserveCapacity(mesh.camera.count * 6)
    }

    mutating func triangle(_ a: Int32, _ b: Int32, _ c: Int32) {
        let za = mesh.camera[Int(a)].z
        let zb = mesh.camera[Int(b)].z
        let zc = mesh.camera[Int(c)].z
        // nan (no data) fails every comparison: such a triangle is left out.
        let near = TerrainView.nearMetres
        if za >= near && zb >= near && zc >= near {
            mesh.triangles.append(a)
            mesh.triangles.append(b)
            mesh.triangles.append(c)
        } else if za.isNaN || zb.isNaN || zc.isNaN {
            return
        } else if za >= near || zb >= near || zc >= near {
            clip([a, b, c])
        }
    }

    /// A wall hanging `down` under the polyline `edge`, drawn from both sides.
    mutating func skirt(_ edge: [Int32], down: SIMD4<Float>) {
        var lowered: [Int32] = []
        for v in edge {
            lowered.append(Int32(mesh.camera.count))
            mesh.camera.append(mesh.camera[Int(v)] + down)
            mesh.colours.append(mesh.colours[Int(v)])
        }
        for k in 0..<(edge.count - 1) {
            let (a, b, c, d) = (edge[k], edge[k + 1], lowered[k], lowered[k + 1])
            triangle(a, b, c)
            triangle(b, d, c)
            triangle(a, c, b)
            triangle(b, c, d)
        }
    }

    /// The part of a triangle in front of the near plane, as a fan of new triangles.
    private mutating func clip(_ corners: [Int32]) {
        let near = TerrainView.nearMetres
        var out: [Int32] = []
        for k in 0..<3 {
            let i = corners[k]
            let j = corners[(k + 1) % 3]
            let p = mesh.camera[Int(i)]
            let q = mesh.camera[Int(j)]
            if p.z >= near { out.append(i) }
            if (p.z >= near) != (q.z >= near) {
                let t = (near - p.z) / (q.z - p.z)
                let cp = mesh.colours[Int(i)]
                let cq = mesh.colours[Int(j)]
                var v = p + (q - p) * t
                v.z = near
                out.append(Int32(mesh.camera.count))
                mesh.camera.append(v)
                mesh.colours.append(cp + (cq - cp) * t)
            }
        }
        guard out.count >= 3 else { return }
        for k in 1..<(out.count - 1) { mesh.triangles += [out[0], out[k], out[k + 1]] }
    }
}

/// The vertex pass's buffers.
///
/// `@unchecked Sendable` is safe because the inputs are only read, each worker writes only the
/// indices of its own chunk, and every buffer outlives the workers (the parallel loop returns
/// inside the `withUnsafe…BufferPointer` calls that lend them).
struct SharedVertices: @unchecked Sendable {
    let positions: UnsafeBufferPointer<SIMD3<Double>>
    let colours: UnsafeBufferPointer<SIMD4<Float>>
    let camera: UnsafeMutableBufferPointer<SIMD4<Float>>
    let hazed: UnsafeMutableBufferPointer<SIMD4<Float>>
}
