import TransectGeodesy
import TransectRaster

extension TerrainScene {
    /// 1 for each vertex the sun reaches, down to ``ViewStyle/shadowLight`` for each in a cast shadow.
    ///
    /// The shadow's top surface is carried across the grid away from the sun, one row (or
    /// column) at a time, in O(cells): with the step s from a vertex to the place one row (or
    /// column, whichever the sun's azimuth crosses faster) towards the sun, and that place's
    /// shadow top S_up interpolated linearly between the two vertices beside it,
    /// ```
    ///   S = max(h, S_up − s·tan(altitude))
    /// ```
    /// and a vertex is in shadow where S_up − s·tan(altitude) stands more than 0.5 m above its
    /// height h: fully once it stands 15.5 m above, partly below that (a soft edge). This is the horizon test along the sun's azimuth, the terrain between the grid
    /// lines read by linear interpolation. Beyond the grid's edge nothing casts a shadow; a
    /// vertex without data passes the shadow on.
    static func sunlit(_ grid: TerrainGrid, light: HillshadeParameters) -> [Float] {
        let w = grid.width
        let h = grid.height
        let (sa, ca) = GeoMath.sincosd(light.azimuthDegrees)
        let (se, ce) = GeoMath.sincosd(light.altitudeDegrees)
        guard se > 0 else { return [Float](repeating: ViewStyle.shadowLight, count: w * h) }
        let tanAltitude = se / max(ce, 1e-12)
        // Towards the sun, in cells per metre.
        let gc = sa / grid.cellWidthMetres
        let gr = -ca / grid.cellHeightMetres
        let byRows = abs(gr) >= abs(gc)
        // Lines are rows (byRows) or columns; `along` indexes within a line.
        let lines = byRows ? h : w
        let along = byRows ? w : h
        let major = byRows ? gr : gc
        let minor = byRows ? gc : gr
        let lineStep = major < 0 ? -1 : 1  // towards the sun
        let shift = minor / abs(major)  // cells along the line per line towards the sun, |shift| ≤ 1
        let drop = Float(tanAltitude / abs(major))
        func index(_ line: Int, _ k: Int) -> Int { byRows ? line * w + k : k * w + line }
        var top = [Float](repeating: -.infinity, count: w * h)
        var lit = [Float](repeating: 1, count: w * h)
        // Lines nearest the sun first.
        let order = lineStep < 0 ? Array(0..<lines) : Array((0..<lines).reversed())
        for line in order {
            let up = line + lineStep
            for k in 0..<along {
                let z = grid.heights[index(line, k)]
                var carried = -Float.infinity
                if up >= 0 && up < lines {
                    let position = Double(k) + shift
                    let k0 = Int(position.rounded(.down))
                    let f = Float(position - Double(k0))
                    if k0 >= 0 && k0 + 1 < along {
                        let a = top[index(up, k0)]
                        let b = top[index(up, k0 + 1)]
                        carried = (a.isFinite && b.isFinite ? a + (b - a) * f : (f < 0.5 ? a : b)) - drop
                    } else if k0 + 1 == along && f == 0 {
                        carried = top[index(up, k0)] - drop
                    }
                }
                if z.isNaN {
                    top[index(line, k)] = carried
                    continue
                }
                if carried > z + 0.5 {
                    // Soft over the first 15 m of depth under the shadow's top, so its edge is no stair.
                    let depth = min(1, (carried - z - 0.5) / 15)
                    lit[index(line, k)] = 1 - (1 - ViewStyle.shadowLight) * max(depth, 0.05)
                }
                top[index(line, k)] = max(z, carried)
            }
        }
        return lit
    }
}
