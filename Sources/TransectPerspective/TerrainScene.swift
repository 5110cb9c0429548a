import TransectGeodesy
import TransectRaster
import TransectSupport

/// A DEM's cells as surface points for a perspective view: one vertex per cell centre, row 0
/// northmost, columns eastwards, each with its WGS84 longitude and latitude (degrees) and its
/// height (metres, the DEM's heights; `nan` = no data).
public struct TerrainGrid: Sendable {
    public let width: Int
    public let height: Int
    public let longitudes: [Double]
    public let latitudes: [Double]
    public let heights: [Float]
    /// East–west and north–south spacing of the cells, metres (for the hillshade and shadows).
    public let cellWidthMetres: Double
    public let cellHeightMetres: Double

    /// - Precondition: the arrays hold `width · height` values; the sizes are positive.
    public init(
        width: Int, height: Int, longitudes: [Double], latitudes: [Double], heights: [Float],
        cellWidthMetres: Double, cellHeightMetres: Double
    ) {
        precondition(width >= 2 && height >= 2, "a terrain grid needs 2 × 2 cells")
        precondition(longitudes.count == width * height && latitudes.count == width * height && heights.count == width * height)
        precondition(cellWidthMetres > 0 && cellHeightMetres > 0)
        self.width = width
        self.height = height
        self.longitudes = longitudes
        self.latitudes = latitudes
        self.heights = heights
        self.cellWidthMetres = cellWidthMetres
        self.cellHeightMetres = cellHeightMetres
    }
}

/// How terrain is coloured and lit.
public struct ViewStyle: Sendable {
    /// Grey hillshade, or a hypsometric ramp (stops at 0…1 of the height range with RGB 0…1)
    /// multiplied by a softened hillshade, as the maps' tint basemap.
    public enum Shading: Sendable {
        case hillshade
        case tint(ramp: [(Double, SIMD3<Float>)])
    }
    public var shading: Shading
    /// The light of the hillshade and of the cast shadows (the sun): azimuth and altitude.
    public var light: HillshadeParameters
    /// Cast shadows from the sun.
    public var shadows: Bool
    /// The distance at which haze reaches half its strength, metres.
    public var hazeMetres: Double

    public init(shading: Shading = .hillshade, light: HillshadeParameters = .init(), shadows: Bool = true, hazeMetres: Double = 60_000) {
        self.shading = shading
        self.light = light
        self.shadows = shadows
        self.hazeMetres = hazeMetres
    }

    /// Sky at the horizon and at the zenith, and the colour haze tends to, RGB 0…1.
    static let skyHorizon = SIMD3<Float>(0.86, 0.90, 0.95)
    static let skyZenith = SIMD3<Float>(0.38, 0.56, 0.82)
    static let haze = SIMD3<Float>(0.80, 0.85, 0.92)
    /// How much light a vertex in a cast shadow keeps.
    static let shadowLight: Float = 0.62
}

/// Everything about the terrain that does not depend on the camera, computed once for any
/// number of views (an orbit's frames): each vertex in ECEF, its lit colour (hillshade or tint,
/// cast shadow), and the level-of-detail table of its blocks.
public struct TerrainScene: Sendable {
    public let grid: TerrainGrid
    /// ECEF of each vertex (heights taken as ellipsoidal; `nan` where there is no data).
    let positions: [SIMD3<Double>]
    /// Lit colour of each vertex, RGB 0…1.
    let colours: [SIMD4<Float>]
    /// The blocks of ``blockCells`` × ``blockCells`` cells and their coarsening errors.
    let blocks: [TerrainBlock]
    let blocksAcross: Int
    let blocksDown: Int
    /// +1 when a front-facing triangle (a, b, c) of the grid has a positive signed area in the
    /// image (y down), −1 otherwise: set by the grid's orientation.
    let frontSign: Float
    /// Lowest and highest heights with data, metres.
    public let lowestMetres: Double
    public let highestMetres: Double

    /// - Parameter veil: a colour to lay over each vertex's lit colour, RGB with its opacity in
    ///   the fourth lane (a viewshed's hidden ground, say); nil or `.zero` for none.
    public init(grid: TerrainGrid, style: ViewStyle, parallel: ParallelLoop, veil: [SIMD4<Float>]? = nil) {
        precondition(veil == nil || veil!.count == grid.width * grid.height, "one veil a vertex")
        self.grid = grid
        let n = grid.width * grid.height
        var low = Double.infinity
        var high = -Double.infinity
        for h in grid.heights where !h.isNaN {
            low = min(low, Double(h))
            high = max(high, Double(h))
        }
        lowestMetres = low
        highestMetres = high
        let ellipsoid = Ellipsoid.wgs84
        positions = ParallelFill.array(count: n, parallel: parallel) { k in
            let h = grid.heights[k]
            return h.isNaN
                ? SIMD3(repeating: .nan)
                : ellipsoid.ecef(latitude: grid.latitudes[k], longitude: grid.longitudes[k], heightMetres: Double(h)).xyz
        }
        let shade = Hillshade.shade(
            elevations: grid.heights, width: grid.width, height: grid.height, cellWidth: grid.cellWidthMetres,
            cellHeight: grid.cellHeightMetres, parameters: style.light, computeEdges: true)
        let lit = style.shadows ? Self.sunlit(grid, light: style.light) : [Float](repeating: 1, count: n)
        let span = Float(max(high - low, 1))
        let shading = style.shading
        let lowest = Float(low)
        let colours = ParallelFill.array(count: n, parallel: parallel) { k -> SIMD4<Float> in
            guard !grid.heights[k].isNaN else { return .zero }
            let g = Float(shade[k]) / 255
            var c: SIMD3<Float>
            switch shading {
            case .hillshade:
                c = SIMD3(0.97, 0.955, 0.93) * (0.12 + 0.88 * g)
            case .tint(let ramp):
                c = Self.rampColour(ramp, (grid.heights[k] - lowest) / span) * (0.45 + 0.55 * g)
            }
            c *= lit[k]
            if let veil {
                let v = veil[k]
                c = c * (1 - v.w) + SIMD3(v.x, v.y, v.z) * v.w
            }
            return SIMD4(c, 1)
        }
        self.colours = colours
        blocksAcross = (grid.width - 1 + Self.blockCells - 1) / Self.blockCells
        blocksDown = (grid.height - 1 + Self.blockCells - 1) / Self.blockCells
        blocks = Self.makeBlocks(grid: grid, positions: positions, across: blocksAcross, down: blocksDown, parallel: parallel)
        frontSign = Self.frontSign(positions, width: grid.width, height: grid.height)
    }

    /// The colour of the ramp at `t` (0…1, clamped), linear between stops.
    static func rampColour(_ ramp: [(Double, SIMD3<Float>)], _ t: Float) -> SIMD3<Float> {
        guard let first = ramp.first else { return SIMD3(repeating: 0.8) }
        let t = Double(min(max(t, 0), 1))
        if t <= first.0 { return first.1 }
        for k in 1..<ramp.count where t <= ramp[k].0 {
            let (t0, c0) = ramp[k - 1]
            let (t1, c1) = ramp[k]
            let f = Float(t1 > t0 ? (t - t0) / (t1 - t0) : 1)
            return c0 + (c1 - c0) * f
        }
        return ramp[ramp.count - 1].1
    }

    /// Which way round the grid's triangles face up: the sign of (b − a) × (c − a) against the
    /// outward normal for a quad's corners a = (i, j), b = (i + 1, j), c = (i, j + 1). A north-up
    /// grid has east × south pointing down, and such a triangle seen from above is positive in
    /// an image whose y grows down.
    static func frontSign(_ p: [SIMD3<Double>], width: Int, height: Int) -> Float {
        for j in 0..<(height - 1) {
            for i in 0..<(width - 1) {
                let a = p[j * width + i]
                let b = p[j * width + i + 1]
                let c = p[(j + 1) * width + i]
                let u = b - a
                let v = c - a
                let normal = SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
                let d = (normal * a).sum()
                if d.isFinite && d != 0 { return d < 0 ? 1 : -1 }
            }
        }
        return 1
    }

}
