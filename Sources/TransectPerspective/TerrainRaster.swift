import TransectSupport

/// The depth-buffered rasteriser behind ``TerrainView``: triangles binned into fixed tiles,
/// each tile drawn by one worker into the samples it owns.
///
/// Vertices are snapped to 1/256 pixel and the edge functions evaluated exactly in 64-bit
/// integers, so two triangles sharing an edge cover each sample on it exactly once (a sample on
/// the edge goes to the triangle for which the edge runs down the image, or right along it).
/// Depth (as 1/z, nearer is larger) and colour are planes over the triangle in the image; a
/// sample is written where the triangle is strictly nearer than what the sample holds.
struct TerrainRaster {
    let width: Int
    let height: Int
    let frontSign: Float
    static let tileSize = 64
    /// Triangles per binning chunk: each chunk bins on its own, the tiles read the chunks in order.
    static let chunkTriangles = 1 << 15
    /// Sample offsets within a pixel in 1/256 pixel (``TerrainView/samplePositions``).
    static let sampleX: SIMD4<Int64> = [96, 224, 32, 160]
    static let sampleY: SIMD4<Int64> = [32, 96, 160, 224]
    /// Vertices farther out than this from the image (pixels) leave their triangle out.
    static let guardBand: Float = 2_097_152

    var tilesAcross: Int { (width + Self.tileSize - 1) / Self.tileSize }
    var tilesDown: Int { (height + Self.tileSize - 1) / Self.tileSize }

    /// Projects, bins and draws the mesh; returns RGB bytes and the samples' 1/depth.
    func draw(_ mesh: TerrainView.Mesh, frame: ViewCamera.Frame, parallel: ParallelLoop) -> ([UInt8], [Float]) {
        let screen = project(mesh.camera, frame: frame, parallel: parallel)
        let triangleCount = mesh.triangles.count / 3
        let chunks = (triangleCount + Self.chunkTriangles - 1) / Self.chunkTriangles
        let tiles = tilesAcross * tilesDown
        let bins = Bins(chunks: chunks, tiles: tiles)
        var depth = [Float](repeating: 0, count: width * height * 4)
        var colour = [UInt32](repeating: 0, count: width * height * 4)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        screen.withUnsafeBufferPointer { s in
            mesh.colours.withUnsafeBufferPointer { c in
                mesh.triangles.withUnsafeBufferPointer { t in
                    depth.withUnsafeMutableBufferPointer { d in
                        colour.withUnsafeMutableBufferPointer { o in
                            rgb.withUnsafeMutableBufferPointer { r in
                                let shared = SharedRaster(screen: s, colours: c, triangles: t, depth: d, colour: o, rgb: r)
                                parallel(chunks) { chunk in bin(chunk, shared, into: bins) }
                                parallel(tiles) { tile in
                                    drawTile(tile, shared, bins: bins)
                                    resolveTile(tile, shared, frame: frame)
                                }
                            }
                        }
                    }
                }
            }
        }
        return (rgb, depth)
    }

    /// (x, y, 1/z) in pixels of each vertex; nan for vertices behind the near plane or without data.
    func project(_ camera: [SIMD4<Float>], frame: ViewCamera.Frame, parallel: ParallelLoop) -> [SIMD4<Float>] {
        var out = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: camera.count)
        let f = Float(frame.focalPixels)
        let cx = Float(frame.centreX)
        let cy = Float(frame.centreY)
        let chunk = 1 << 14
        camera.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                let shared = SharedProjection(input: input, output: output)
                parallel((camera.count + chunk - 1) / chunk) { part in
                    for k in (part * chunk)..<min(camera.count, (part + 1) * chunk) {
                        let v = shared.input[k]
                        guard v.z >= TerrainView.nearMetres else { continue }
                        let iz = 1 / v.z
                        shared.output[k] = SIMD4(cx + f * v.x * iz, cy - f * v.y * iz, iz, 0)
                    }
                }
            }
        }
        return out
    }

    /// Sorts chunk `chunk`'s front-facing triangles into the tiles their boxes touch.
    func bin(_ chunk: Int, _ s: SharedRaster, into bins: Bins) {
        let first = chunk * Self.chunkTriangles
        let last = min(s.triangles.count / 3, first + Self.chunkTriangles)
        var lists = [[Int32]](repeating: [], count: tilesAcross * tilesDown)
        let g = Self.guardBand
        for t in first..<last {
            let a = s.screen[Int(s.triangles[3 * t])]
            let b = s.screen[Int(s.triangles[3 * t + 1])]
            let c = s.screen[Int(s.triangles[3 * t + 2])]
            let lo = pointwiseMin(pointwiseMin(a, b), c)
            let hi = pointwiseMax(pointwiseMax(a, b), c)
            // nan coordinates fail these tests too.
            guard lo.x >= -g, lo.y >= -g, hi.x <= g, hi.y <= g else { continue }
            let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            guard area * frontSign > 0 else { continue }
            guard hi.x >= 0, hi.y >= 0, lo.x < Float(width), lo.y < Float(height) else { continue }
            let tx0 = max(0, Int(lo.x) / Self.tileSize)
            let ty0 = max(0, Int(lo.y) / Self.tileSize)
            let tx1 = min(tilesAcross - 1, Int(hi.x) / Self.tileSize)
            let ty1 = min(tilesDown - 1, Int(hi.y) / Self.tileSize)
            for ty in ty0...ty1 {
                for tx in tx0...tx1 { lists[ty * tilesAcross + tx].append(Int32(t)) }
            }
        }
        bins.set(chunk, lists)
    }

    /// Draws the tile's triangles, chunk by chunk in order, into its samples.
    func drawTile(_ tile: Int, _ s: SharedRaster, bins: Bins) {
        let x0 = (tile % tilesAcross) * Self.tileSize
        let y0 = (tile / tilesAcross) * Self.tileSize
        let x1 = min(width, x0 + Self.tileSize)
        let y1 = min(height, y0 + Self.tileSize)
        for chunk in 0..<bins.chunks {
            for t in bins.list(chunk, tile) {
                let i = Int(t) * 3
                let a = s.screen[Int(s.triangles[i])]
                var b = s.screen[Int(s.triangles[i + 1])]
                var c = s.screen[Int(s.triangles[i + 2])]
                let ca = s.colours[Int(s.triangles[i])]
                var cb = s.colours[Int(s.triangles[i + 1])]
                var cc = s.colours[Int(s.triangles[i + 2])]
                if frontSign < 0 {
                    swap(&b, &c)
                    swap(&cb, &cc)
                }
                fill(a: a, b: b, c: c, ca: ca, cb: cb, cc: cc, x0: x0, y0: y0, x1: x1, y1: y1, s)
            }
        }
    }

    /// One triangle (positive area in the image) over pixels x0..<x1, y0..<y1.
    @inline(__always)
    func fill(
        a: SIMD4<Float>, b: SIMD4<Float>, c: SIMD4<Float>, ca: SIMD4<Float>, cb: SIMD4<Float>, cc: SIMD4<Float>,
        x0: Int, y0: Int, x1: Int, y1: Int, _ s: SharedRaster
    ) {
        let ax = Int64((a.x * 256).rounded())
        let ay = Int64((a.y * 256).rounded())
        let bx = Int64((b.x * 256).rounded())
        let by = Int64((b.y * 256).rounded())
        let cx = Int64((c.x * 256).rounded())
        let cy = Int64((c.y * 256).rounded())
        let area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        guard area > 0 else { return }
        let px0 = max(x0, Int(Swift.min(ax, bx, cx) >> 8))
        let py0 = max(y0, Int(Swift.min(ay, by, cy) >> 8))
        let px1 = min(x1 - 1, Int(Swift.max(ax, bx, cx) >> 8))
        let py1 = min(y1 - 1, Int(Swift.max(ay, by, cy) >> 8))
        guard px0 <= px1, py0 <= py1 else { return }
        // Edge i→j: E(P) = (xj − xi)(Py − yi) − (yj − yi)(Px − xi), ≥ 0 inside. A sample on an
        // edge belongs to this triangle when the edge runs down (or right along a row).
        func edge(_ xi: Int64, _ yi: Int64, _ xj: Int64, _ yj: Int64) -> (a: Int64, b: Int64, c: Int64) {
            let dy = yj - yi
            let dx = xj - xi
            let owns = dy > 0 || (dy == 0 && dx > 0)
            return (-dy, dx, dy * xi - dx * yi - (owns ? 0 : 1))
        }
        let e0 = edge(bx, by, cx, cy)
        let e1 = edge(cx, cy, ax, ay)
        let e2 = edge(ax, ay, bx, by)
        // Attribute planes over the image, in pixels from a: value = v_a + gx·dx + gy·dy.
        let fx1 = Double(bx - ax) / 256
        let fy1 = Double(by - ay) / 256
        let fx2 = Double(cx - ax) / 256
        let fy2 = Double(cy - ay) / 256
        let inv = 1 / (fx1 * fy2 - fx2 * fy1)
        func plane(_ va: Float, _ vb: Float, _ vc: Float) -> (Float, Float) {
            let d1 = Double(vb - va)
            let d2 = Double(vc - va)
            return (Float((d1 * fy2 - d2 * fy1) * inv), Float((d2 * fx1 - d1 * fx2) * inv))
        }
        let gz = plane(a.z, b.z, c.z)
        let gr = plane(ca.x, cb.x, cc.x)
        let gg = plane(ca.y, cb.y, cc.y)
        let gb = plane(ca.z, cb.z, cc.z)
        let originX = Float(ax) / 256
        let originY = Float(ay) / 256
        let sx = Self.sampleX
        let sy = Self.sampleY
        for py in py0...py1 {
            let rowY = Int64(py) << 8 &+ sy
            var w0 = e0.a &* ((Int64(px0) << 8) &+ sx) &+ e0.b &* rowY &+ e0.c
            var w1 = e1.a &* ((Int64(px0) << 8) &+ sx) &+ e1.b &* rowY &+ e1.c
            var w2 = e2.a &* ((Int64(px0) << 8) &+ sx) &+ e2.b &* rowY &+ e2.c
            for px in px0...px1 {
                let inside = (w0 | w1 | w2) .>= 0
                if any(inside) {
                    for k in 0..<4 where inside[k] {
                        let dx = Float(px) + Float(TerrainView.samplePositions[k].x) - originX
                        let dy = Float(py) + Float(TerrainView.samplePositions[k].y) - originY
                        let z = a.z + gz.0 * dx + gz.1 * dy
                        let index = ((py * width) + px) * 4 + k
                        if z > s.depth[index] {
                            s.depth[index] = z
                            let r = ca.x + gr.0 * dx + gr.1 * dy
                            let g = ca.y + gg.0 * dx + gg.1 * dy
                            let bl = ca.z + gb.0 * dx + gb.1 * dy
                            s.colour[index] = Self.pack(r, g, bl)
                        }
                    }
                }
                w0 &+= e0.a << 8
                w1 &+= e1.a << 8
                w2 &+= e2.a << 8
            }
        }
    }

    @inline(__always)
    static func pack(_ r: Float, _ g: Float, _ b: Float) -> UInt32 {
        func byte(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 1) * 255 + 0.5) }
        return byte(r) | byte(g) << 8 | byte(b) << 16
    }

    /// Each pixel of the tile: the mean of its four samples, sky where a sample is empty.
    func resolveTile(_ tile: Int, _ s: SharedRaster, frame: ViewCamera.Frame) {
        let x0 = (tile % tilesAcross) * Self.tileSize
        let y0 = (tile / tilesAcross) * Self.tileSize
        for py in y0..<min(height, y0 + Self.tileSize) {
            for px in x0..<min(width, x0 + Self.tileSize) {
                var sum = SIMD3<UInt32>(repeating: 0)
                var sky: SIMD3<UInt32>? = nil
                for k in 0..<4 {
                    let index = (py * width + px) * 4 + k
                    if s.depth[index] > 0 {
                        let v = s.colour[index]
                        sum &+= SIMD3(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff)
                    } else {
                        if sky == nil { sky = Self.sky(frame, x: Double(px) + 0.5, y: Double(py) + 0.5) }
                        sum &+= sky!
                    }
                }
                let out = (py * width + px) * 3
                s.rgb[out] = UInt8((sum.x + 2) / 4)
                s.rgb[out + 1] = UInt8((sum.y + 2) / 4)
                s.rgb[out + 2] = UInt8((sum.z + 2) / 4)
            }
        }
    }

    /// The sky through pixel position (x, y): the horizon's colour at and below the horizon,
    /// towards the zenith's by √(sin elevation).
    static func sky(_ frame: ViewCamera.Frame, x: Double, y: Double) -> SIMD3<UInt32> {
        let ray = frame.ray(x: x, y: y)
        let sine = ray.z / (ray * ray).sum().squareRoot()
        let t = Float(max(0, min(1, sine)).squareRoot())
        let c = ViewStyle.skyHorizon + (ViewStyle.skyZenith - ViewStyle.skyHorizon) * t
        let v = pack(c.x, c.y, c.z)
        return SIMD3(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff)
    }
}
