import TransectGeodesy

/// Shaded relief of a north-up elevation grid, reproducing `gdaldem hillshade` (GDAL 3.6,
/// `apps/gdaldem_lib.cpp`) grey level for grey level.
///
/// ## The maths
/// Each cell's 3 × 3 neighbourhood, numbered
/// ```
///   w0 w1 w2        north
///   w3 w4 w5   west       east
///   w6 w7 w8        south
/// ```
/// gives Horn's (1981) gradient, summed differences first as GDAL's same-resolution path does:
/// ```
///   gx = (w0 − w8) + 2(w3 − w5) + (w6 − w2)     = 8·Δx · (west − east slope)
///   gy = (w0 − w8) + 2(w1 − w7) − (w6 − w2)     = 8·Δy · (north − south slope)
///   p  = z · gx / (8 · Δx · s),   q = z · gy / (8 · Δy · s)
/// ```
/// (Δx, Δy the cell size in metres, z the exaggeration, s the vertical-to-horizontal ratio).
/// The slope is atan √(p² + q²); instead of trigonometry per cell, GDAL's closed form of
/// `cos(incidence) = sin(alt)·cos(slope) + cos(alt)·sin(slope)·cos(az − π/2 − aspect)` is used:
/// ```
///   254 · cos(incidence) = (254 sin(alt) + p · 254 sin(az) cos(alt) − q · 254 cos(az) cos(alt))
///                          / √(1 + p² + q²)
///   grey = 1 + 254 · cos(incidence),   or 1 where cos(incidence) ≤ 0 (cells in shadow)
/// ```
/// The multidirectional variant shades each cell with lights from 225°, 270°, 315° and 360°
/// at the same altitude, as in Mark (1992, USGS Open-File Report 92-422) and GDAL. Each light's
/// term, halved and clamped at 0, is
/// ```
///   v225 = max(0, 127 sin(alt) + 127 cos(225°) cos(alt) · (p − q))
///   v270 = max(0, 127 sin(alt) − 127 cos(alt) · p)
///   v315 = max(0, 127 sin(alt) + 127 cos(225°) cos(alt) · (p + q))
///   v360 = max(0, 127 sin(alt) − 127 cos(alt) · q)
/// ```
/// weighted by sin²(aspect − azimuth): w225 = ½(p² + q²) − pq, w270 = p², w315 = ½(p² + q²) + pq,
/// w360 = q², which sum to 2(p² + q²), so that
/// ```
///   grey = 1 + (Σ w_a · v_a) / ((p² + q²) · √(1 + p² + q²))
/// ```
/// and a flat cell gets 1 + 254 sin(alt). Grey levels are rounded half up to 1…255 as GDAL
/// converts its `Float` results to `Byte` (`UInt8(value + 0.5)`); 0 means no data.
///
/// ## Edges and no data
/// `nan` marks no data. A cell without data is 0. Without `computeEdges` a cell with any
/// neighbour missing, and every cell of the outermost rows and columns, is 0 as gdaldem writes
/// them. With `computeEdges` a missing neighbour takes the centre's value, and neighbours beyond
/// the grid are extrapolated linearly, 2·a − b from the two nearest cells along the row (left and
/// right edges) or the column (top and bottom rows); on the top and bottom rows a column beyond
/// the left or right edge repeats the edge column, as gdaldem -compute_edges does. Grids less
/// than 2 cells wide or high are all 0.
///
/// ## Accuracy
/// Everything after the `Float` elevations runs in `Float`: one rounding in each of about
/// 20 operations, a relative error of a few 1e−7, i.e. below 1e−4 of a grey level. GDAL works
/// in `Double` but divides by an approximate square root (`rsqrtss` plus one Newton step, about
/// 1e−7 relative). The two therefore differ only where the exact value lies within ~1e−4 of a
/// half grey level, where the rounding can go either way: ±1 grey level on a tiny share of cells.
/// The SIMD kernel and ``shadeScalar(elevations:width:height:cellWidth:cellHeight:parameters:computeEdges:rows:into:)``
/// perform the same `Float` operations in the same order (Swift does not fuse multiply–adds), so
/// they agree exactly.
public enum Hillshade {
    /// Shades rows `rows` of a north-up grid of elevations (Float, row-major, width × height,
    /// `nan` = no data) with cells `cellWidth` × `cellHeight` metres (positive), writing grey
    /// levels 1…255 (0 = no data / not computed) into `output` (same size). With `computeEdges`
    /// false the outermost rows/columns are 0 as gdaldem writes them; with true they are computed as
    /// gdaldem -compute_edges does. Rows of the output outside `rows` are untouched, so callers
    /// can split the rows across threads.
    ///
    /// Interior cells run eight at a time in `SIMD8<Float>` lanes, loaded as three shifted
    /// vectors from each of the three rows; the row ends, the tail of each row and any block of
    /// eight whose neighbourhoods hold no data go through the scalar path.
    ///
    /// ```swift
    /// var grey = [UInt8](repeating: 0, count: w * h)
    /// elevations.withUnsafeBufferPointer { e in
    ///     grey.withUnsafeMutableBufferPointer { g in
    ///         Hillshade.shade(elevations: e, width: w, height: h, cellWidth: 30, cellHeight: 30,
    ///                         parameters: .init(), computeEdges: false, rows: 0..<h, into: g)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - elevations: `width · height` elevations in the vertical unit, row 0 northmost.
    ///   - width: Columns, ≥ 0.
    ///   - height: Rows, ≥ 0.
    ///   - cellWidth: East–west cell size in horizontal units (metres when `scale` is 1), > 0.
    ///   - cellHeight: North–south cell size, > 0.
    ///   - parameters: Light and exaggeration.
    ///   - computeEdges: Shade the outermost cells and the cells next to no data, as
    ///     `gdaldem -compute_edges`.
    ///   - rows: The rows to write, within `0..<height`.
    ///   - output: `width · height` grey levels; only the rows in `rows` are written.
    /// - Complexity: O(width · rows.count).
    public static func shade(
        elevations: UnsafeBufferPointer<Float>, width: Int, height: Int,
        cellWidth: Double, cellHeight: Double, parameters: HillshadeParameters,
        computeEdges: Bool, rows: Range<Int>, into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        check(
            elevations: elevations, width: width, height: height, cellWidth: cellWidth,
            cellHeight: cellHeight, rows: rows, output: output)
        guard !rows.isEmpty, let e = elevations.baseAddress, let o = output.baseAddress else { return }
        let k = Coefficients(parameters, cellWidth: cellWidth, cellHeight: cellHeight)
        let grid = Grid(e: e, width: width, height: height, computeEdges: computeEdges)
        for r in rows {
            let out = o + r * width
            if width < 2 || height < 2 || r == 0 || r == height - 1 {
                for c in 0..<width { out[c] = grid.cell(row: r, column: c, k) }
                continue
            }
            out[0] = grid.cell(row: r, column: 0, k)
            let up = e + (r - 1) * width
            let mid = e + r * width
            let down = e + (r + 1) * width
            var c = 1
            // Lanes c…c+7 are interior while c + 7 ≤ width − 2; loads reach column c + 8.
            while c + 9 <= width {
                let w0 = load(up + c - 1)
                let w1 = load(up + c)
                let w2 = load(up + c + 1)
                let w3 = load(mid + c - 1)
                let w4 = load(mid + c)
                let w5 = load(mid + c + 1)
                let w6 = load(down + c - 1)
                let w7 = load(down + c)
                let w8 = load(down + c + 1)
                let d08 = w0 - w8
                let d62 = w6 - w2
                let d35 = w3 - w5
                let d17 = w1 - w7
                var gx = d08
                var gy = d08
                gx += d35
                gy += d17
                gx += d35
                gy += d17
                gx += d62
                gy -= d62
                // A nan in any of the nine inputs makes this sum nan (w4 is not in gx or gy).
                let probe = gx + gy + w4
                if any(probe .!= probe) {
                    for j in c..<(c + 8) { out[j] = grid.cell(row: r, column: j, k) }
                } else {
                    let v = k.multidirectional ? k.multiGrey(gx: gx, gy: gy) : k.singleGrey(gx: gx, gy: gy)
                    UnsafeMutableRawPointer(out + c).storeBytes(of: toBytes(v), as: SIMD8<UInt8>.self)
                }
                c += 8
            }
            while c < width {
                out[c] = grid.cell(row: r, column: c, k)
                c += 1
            }
        }
    }

    /// The plain scalar reference of the same (what tests compare the SIMD kernel with): every
    /// cell through the scalar path. Same parameters and result as
    /// ``shade(elevations:width:height:cellWidth:cellHeight:parameters:computeEdges:rows:into:)``.
    public static func shadeScalar(
        elevations: UnsafeBufferPointer<Float>, width: Int, height: Int,
        cellWidth: Double, cellHeight: Double, parameters: HillshadeParameters,
        computeEdges: Bool, rows: Range<Int>, into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        check(
            elevations: elevations, width: width, height: height, cellWidth: cellWidth,
            cellHeight: cellHeight, rows: rows, output: output)
        guard !rows.isEmpty, let e = elevations.baseAddress, let o = output.baseAddress else { return }
        let k = Coefficients(parameters, cellWidth: cellWidth, cellHeight: cellHeight)
        let grid = Grid(e: e, width: width, height: height, computeEdges: computeEdges)
        for r in rows {
            for c in 0..<width { o[r * width + c] = grid.cell(row: r, column: c, k) }
        }
    }

    /// Convenience: the whole grid, single-threaded, from arrays.
    ///
    /// - Returns: `width · height` grey levels, 1…255, 0 for no data and uncomputed edges.
    public static func shade(
        elevations: [Float], width: Int, height: Int, cellWidth: Double, cellHeight: Double,
        parameters: HillshadeParameters = .init(), computeEdges: Bool = false
    ) -> [UInt8] {
        precondition(
            width >= 0 && height >= 0 && elevations.count == width * height,
            "elevations must hold width × height values")
        var grey = [UInt8](repeating: 0, count: width * height)
        elevations.withUnsafeBufferPointer { e in
            grey.withUnsafeMutableBufferPointer { g in
                shade(
                    elevations: e, width: width, height: height, cellWidth: cellWidth, cellHeight: cellHeight,
                    parameters: parameters, computeEdges: computeEdges, rows: 0..<height, into: g)
            }
        }
        return grey
    }

    // MARK: - Implementation

    private static func check(
        elevations: UnsafeBufferPointer<Float>, width: Int, height: Int,
        cellWidth: Double, cellHeight: Double, rows: Range<Int>,
        output: UnsafeMutableBufferPointer<UInt8>
    ) {
        precondition(width >= 0 && height >= 0, "width and height must not be negative")
        precondition(elevations.count == width * height, "elevations must hold width × height values")
        precondition(output.count == width * height, "output must hold width × height values")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows must lie within 0..<height")
        precondition(
            cellWidth > 0 && cellHeight > 0 && cellWidth.isFinite && cellHeight.isFinite,
            "cell sizes must be positive and finite")
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// `UInt8(v + 0.5)` clamped to 255, lane by lane, with nan → 0, using only SSE2-friendly
    /// operations (comparisons stay in `Float`, which Swift lowers to vector compares):
    /// t + 2²³ rounds t ∈ [0, 2²²) to the nearest integer (ties to even) in the low mantissa
    /// bits; one is taken off where that rounded up, which leaves ⌊t⌋.
    @inline(__always)
    private static func toBytes(_ v: SIMD8<Float>) -> SIMD8<UInt8> {
        let magic = SIMD8<Float>(repeating: 8_388_608)  // 2²³
        var t = v + 0.5  // exact for 0 ≤ v < 2²²
        t.replace(with: 255, where: t .> 255)
        t.replace(with: 0, where: .!(v .>= 0))  // nan (and negatives) → 0
        let m = t + magic
        let roundedUp = unsafeBitCast((m - magic) .> t, to: SIMD8<Int32>.self)  // −1 where true
        let n = (unsafeBitCast(m, to: SIMD8<Int32>.self) &- 0x4B00_0000) &+ roundedUp
        return SIMD8<UInt8>(truncatingIfNeeded: n)
    }

    /// The scalar twin of `toBytes`: `UInt8(v + 0.5)` clamped to 255, nan → 0.
    @inline(__always)
    private static func toByte(_ v: Float) -> UInt8 {
        guard v >= 0 else { return 0 }
        let t = v + 0.5
        return t >= 255 ? 255 : UInt8(t)
    }

    /// Per-grid constants in `Float`, computed once in `Double`.
    private struct Coefficients {
        /// z / (8 Δx s) and z / (8 Δy s): Horn sums to exaggerated slopes p, q.
        let ex: Float, ey: Float
        /// 254 sin(alt), 254 sin(az) cos(alt), −254 cos(az) cos(alt).
        let a: Float, bx: Float, by: Float
        let multidirectional: Bool
        /// 127 sin(alt), 127 cos(alt), 127 cos(225°) cos(alt), and 1 + 254 sin(alt) for flat cells.
        let a127: Float, c127: Float, d127: Float, flat: Float

        init(_ p: HillshadeParameters, cellWidth: Double, cellHeight: Double) {
            let zOver8 = p.zFactor / 8
            ex = Float(zOver8 / (cellWidth * p.scale))
            ey = Float(zOver8 / (cellHeight * p.scale))
            let (sinAlt, cosAlt) = GeoMath.sincosd(p.altitudeDegrees)
            let (sinAz, cosAz) = GeoMath.sincosd(p.azimuthDegrees)
            a = Float(254 * sinAlt)
            bx = Float(254 * sinAz * cosAlt)
            by = Float(-254 * cosAz * cosAlt)
            multidirectional = p.multidirectional
            a127 = Float(127 * sinAlt)
            c127 = Float(127 * cosAlt)
            d127 = Float(127 * GeoMath.sincosd(225).cos * cosAlt)
            flat = Float(1 + 254 * sinAlt)
        }

        // The scalar and SIMD formulas below are written operation for operation alike.

        @inline(__always)
        func singleGrey(gx: Float, gy: Float) -> Float {
            let p = gx * ex
            let q = gy * ey
            let num = a + p * bx + q * by
            let den = 1 + p * p + q * q
            let c = num / den.squareRoot()
            return c <= 0 ? 1 : 1 + c
        }

        @inline(__always)
        func singleGrey(gx: SIMD8<Float>, gy: SIMD8<Float>) -> SIMD8<Float> {
            let p = gx * ex
            let q = gy * ey
            let num = a + p * bx + q * by
            let den = 1 + p * p + q * q
            let c = num / den.squareRoot()
            return (1 + c).replacing(with: 1, where: c .<= 0)
        }

        @inline(__always)
        func multiGrey(gx: Float, gy: Float) -> Float {
            let p = gx * ex
            let q = gy * ey
            let pp = p * p
            let qq = q * q
            let sum = pp + qq
            if sum == 0 { return flat }
            var v225 = a127 + (p - q) * d127
            v225 = v225 <= 0 ? 0 : v225
            var v270 = a127 - p * c127
            v270 = v270 <= 0 ? 0 : v270
            var v315 = a127 + (p + q) * d127
            v315 = v315 <= 0 ? 0 : v315
            var v360 = a127 - q * c127
            v360 = v360 <= 0 ? 0 : v360
            let w225 = 0.5 * sum - p * q
            let w315 = sum - w225
            let num = w225 * v225 + pp * v270 + w315 * v315 + qq * v360
            return 1 + num / (sum * (1 + sum).squareRoot())
        }

        @inline(__always)
        func multiGrey(gx: SIMD8<Float>, gy: SIMD8<Float>) -> SIMD8<Float> {
            let p = gx * ex
            let q = gy * ey
            let pp = p * p
            let qq = q * q
            let sum = pp + qq
            var v225 = a127 + (p - q) * d127
            v225.replace(with: 0, where: v225 .<= 0)
            var v270 = a127 - p * c127
            v270.replace(with: 0, where: v270 .<= 0)
            var v315 = a127 + (p + q) * d127
            v315.replace(with: 0, where: v315 .<= 0)
            var v360 = a127 - q * c127
            v360.replace(with: 0, where: v360 .<= 0)
            let w225 = 0.5 * sum - p * q
            let w315 = sum - w225
            let num = w225 * v225 + pp * v270 + w315 * v315 + qq * v360
            return (1 + num / (sum * (1 + sum).squareRoot())).replacing(with: flat, where: sum .== 0)
        }
    }

    /// The elevations with the edge and no-data rules; one cell at a time.
    private struct Grid {
        let e: UnsafePointer<Float>
        let width: Int, height: Int
        let computeEdges: Bool

        @inline(__always) func z(_ r: Int, _ c: Int) -> Float { e[r * width + c] }

        /// gdaldem's linear extrapolation beyond an edge (`INTERPOL`): 2a − b, nan if either is.
        @inline(__always) static func extrapolate(_ a: Float, _ b: Float) -> Float { 2 * a - b }

        /// The grey level of one cell by the scalar path.
        func cell(row r: Int, column c: Int, _ k: Coefficients) -> UInt8 {
            guard width >= 2, height >= 2 else { return 0 }
            let lastRow = height - 1
            let lastColumn = width - 1
            let isEdge = r == 0 || r == lastRow || c == 0 || c == lastColumn
            if isEdge && !computeEdges { return 0 }
            var w0: Float
            var w1: Float
            var w2: Float
            var w3: Float
            var w4: Float
            var w5: Float
            var w6: Float
            var w7: Float
            var w8: Float
            if r == 0 || r == lastRow {
                // Top and bottom rows: columns beyond the left or right edge repeat the edge
                // column; the missing row is extrapolated along each column.
                let cl = c == 0 ? c : c - 1
                let cr = c == lastColumn ? c : c + 1
                if r == 0 {
                    (w3, w4, w5) = (z(0, cl), z(0, c), z(0, cr))
                    (w6, w7, w8) = (z(1, cl), z(1, c), z(1, cr))
                    w0 = Self.extrapolate(w3, w6)
                    w1 = Self.extrapolate(w4, w7)
                    w2 = Self.extrapolate(w5, w8)
                } else {
                    (w0, w1, w2) = (z(r - 1, cl), z(r - 1, c), z(r - 1, cr))
                    (w3, w4, w5) = (z(r, cl), z(r, c), z(r, cr))
                    w6 = Self.extrapolate(w3, w0)
                    w7 = Self.extrapolate(w4, w1)
                    w8 = Self.extrapolate(w5, w2)
                }
            } else if c == 0 {
                (w1, w2) = (z(r - 1, 0), z(r - 1, 1))
                (w4, w5) = (z(r, 0), z(r, 1))
                (w7, w8) = (z(r + 1, 0), z(r + 1, 1))
                w0 = Self.extrapolate(w1, w2)
                w3 = Self.extrapolate(w4, w5)
                w6 = Self.extrapolate(w7, w8)
            } else if c == lastColumn {
                (w0, w1) = (z(r - 1, c - 1), z(r - 1, c))
                (w3, w4) = (z(r, c - 1), z(r, c))
                (w6, w7) = (z(r + 1, c - 1), z(r + 1, c))
                w2 = Self.extrapolate(w1, w0)
                w5 = Self.extrapolate(w4, w3)
                w8 = Self.extrapolate(w7, w6)
            } else {
                (w0, w1, w2) = (z(r - 1, c - 1), z(r - 1, c), z(r - 1, c + 1))
                (w3, w4, w5) = (z(r, c - 1), z(r, c), z(r, c + 1))
                (w6, w7, w8) = (z(r + 1, c - 1), z(r + 1, c), z(r + 1, c + 1))
            }
            // No data: the centre gives 0; a neighbour gives 0, or the centre's value with
            // computeEdges.
            if w4.isNaN { return 0 }
            var missing = false
            func fix(_ v: inout Float) {
                if v.isNaN {
                    missing = true
                    v = w4
                }
            }
            fix(&w0)
            fix(&w1)
            fix(&w2)
            fix(&w3)
            fix(&w5)
            fix(&w6)
            fix(&w7)
            fix(&w8)
            if missing && !computeEdges { return 0 }

            let d08 = w0 - w8
            let d62 = w6 - w2
            let d35 = w3 - w5
            let d17 = w1 - w7
            var gx = d08
            var gy = d08
            gx += d35
            gy += d17
            gx += d35
            gy += d17
            gx += d62
            gy -= d62
            let v = k.multidirectional ? k.multiGrey(gx: gx, gy: gy) : k.singleGrey(gx: gx, gy: gy)
            return toByte(v)
        }
    }
}
