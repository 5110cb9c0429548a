/// A window of cells the sampling kernels read: ``ElevationGrid`` (Float64 cells) and
/// ``Float32ElevationGrid`` (Float32 cells, exact copies of a Float32 or 16-bit raster's values).
///
/// Both read every cell as a `Double` (a Float32 widens exactly), and both run the same code
/// below: one scalar reference for each method, written once, and one SIMD bilinear kernel
/// (`BilinearKernel.swift`) specialised for each cell type. A Float32 window therefore samples
/// to the same bits as a Float64 window holding the same values.
protocol SampledWindow {
    associatedtype Cell: SampledCell
    /// Columns and rows in the window.
    var width: Int { get }
    var height: Int { get }
    /// The window's first cell in the whole raster.
    var originColumn: Int { get }
    var originRow: Int { get }
    /// `width × height` cells, row after row; `nan` where there is no data.
    var cells: [Cell] { get }
}

/// A cell type the kernels read: its value as a `Double`, and the vector load of two adjacent
/// cells for four lanes.
protocol SampledCell {
    /// The cell's value, exactly.
    var elevation: Double { get }
    /// Cells `i` and `i + 1` of `base` for the four indices, as (left, right) lanes: one load of
    /// two adjacent cells per lane (64 bits for Float32, 128 for Float64), deinterleaved and
    /// widened in vector registers.
    static func pairs(_ base: UnsafePointer<Self>, _ i: SIMD4<Int>) -> (left: SIMD4<Double>, right: SIMD4<Double>)
}

extension Float: SampledCell {
    @inline(__always)
    var elevation: Double { Double(self) }

    @inline(__always)
    static func pairs(_ base: UnsafePointer<Float>, _ i: SIMD4<Int>) -> (left: SIMD4<Double>, right: SIMD4<Double>) {
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Float>.stride
        let q = SIMD4<UInt64>(
            raw.loadUnaligned(fromByteOffset: i[0] &* stride, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: i[1] &* stride, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: i[2] &* stride, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: i[3] &* stride, as: UInt64.self))
        // Little-endian: each 64-bit load holds cell i in its low half, i + 1 in its high half.
        let f = unsafeBitCast(q, to: SIMD8<Float>.self)
        return (SIMD4<Double>(f.evenHalf), SIMD4<Double>(f.oddHalf))
    }
}

extension Double: SampledCell {
    @inline(__always)
    var elevation: Double { self }

    @inline(__always)
    static func pairs(_ base: UnsafePointer<Double>, _ i: SIMD4<Int>) -> (left: SIMD4<Double>, right: SIMD4<Double>) {
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Double>.stride
        let p0 = raw.loadUnaligned(fromByteOffset: i[0] &* stride, as: SIMD2<Double>.self)
        let p1 = raw.loadUnaligned(fromByteOffset: i[1] &* stride, as: SIMD2<Double>.self)
        let p2 = raw.loadUnaligned(fromByteOffset: i[2] &* stride, as: SIMD2<Double>.self)
        let p3 = raw.loadUnaligned(fromByteOffset: i[3] &* stride, as: SIMD2<Double>.self)
        let both = SIMD8(lowHalf: SIMD4(lowHalf: p0, highHalf: p1), highHalf: SIMD4(lowHalf: p2, highHalf: p3))
        return (both.evenHalf, both.oddHalf)
    }
}

extension SampledWindow {
    /// The value of the cell at raster column `column`, row `row`, or `nan` outside the window.
    @inline(__always)
    func cellValue(column: Int, row: Int) -> Double {
        let i = column - originColumn
        let j = row - originRow
        guard i >= 0, j >= 0, i < width, j < height else { return .nan }
        return cells[j * width + i].elevation
    }

    /// Any method over a batch: bilinear through the SIMD kernel, nearest and cubic per point.
    func sampleBatch(columns: [Double], rows: [Double], interpolation: Interpolation) -> [Double] {
        precondition(columns.count == rows.count, "one row coordinate per column coordinate")
        switch interpolation {
        case .bilinear: return bilinearBatch(columns: columns, rows: rows)
        case .nearest, .cubic:
            var out = [Double](repeating: .nan, count: columns.count)
            sampleBatch(columns: columns, rows: rows, interpolation: interpolation, into: &out)
            return out
        }
    }

    /// Any method at `count` evenly spaced points of a segment (see
    /// ``bilinearSegment(column:row:columnSpan:rowSpan:fraction:first:count:into:)``) into `out`.
    func segmentSamples(
        column: Double, row: Double, columnSpan: Double, rowSpan: Double, fraction: Double, first: Int, count: Int,
        interpolation: Interpolation, into out: UnsafeMutablePointer<Double>
    ) {
        switch interpolation {
        case .bilinear:
            bilinearSegment(
                column: column, row: row, columnSpan: columnSpan, rowSpan: rowSpan, fraction: fraction, first: first, count: count, into: out)
        case .nearest, .cubic:
            for k in 0..<count {
                let u = Double(first + k) * fraction
                out[k] = referenceSample(column: column + u * columnSpan, row: row + u * rowSpan, interpolation: interpolation)
            }
        }
    }

    /// ``sampleBatch(columns:rows:interpolation:)`` into `out`, which must hold one element per
    /// point (refused otherwise); every element is overwritten, to the same bits.
    func sampleBatch(columns: [Double], rows: [Double], interpolation: Interpolation, into out: inout [Double]) {
        precondition(columns.count == rows.count, "one row coordinate per column coordinate")
        precondition(out.count == columns.count, "one result element per point")
        switch interpolation {
        case .bilinear:
            out.withUnsafeMutableBufferPointer { bilinearBatch(columns: columns, rows: rows, into: $0) }
        case .nearest, .cubic:
            for k in columns.indices {
                out[k] = referenceSample(column: columns[k], row: rows[k], interpolation: interpolation)
            }
        }
    }

    /// The scalar reference: one point, any method.
    func referenceSample(column x: Double, row y: Double, interpolation: Interpolation) -> Double {
        guard x.isFinite, y.isFinite else { return .nan }
        switch interpolation {
        case .nearest:
            let c = x.rounded(.down)
            let r = y.rounded(.down)
            guard abs(c) < 1e15, abs(r) < 1e15 else { return .nan }
            return cellValue(column: Int(c), row: Int(r))
        case .bilinear:
            return bilinearScalar(x: x, y: y)
        case .cubic:
            return cubicScalar(x: x, y: y)
        }
    }

    /// The cell whose centre is the lower-left of the four around (x, y), and the offsets from
    /// that centre; nil for non-finite or far-off coordinates (no taps).
    @inline(__always)
    func anchor(x: Double, y: Double) -> (column: Int, row: Int, tx: Double, ty: Double)? {
        let u = x - 0.5
        let v = y - 0.5
        let fu = u.rounded(.down)
        let fv = v.rounded(.down)
        guard abs(fu) < 1e15, abs(fv) < 1e15 else { return nil }
        return (Int(fu), Int(fv), u - fu, v - fv)
    }

    /// The bilinear reference, with the half-weight no-data rule of ``Interpolation``.
    func bilinearScalar(x: Double, y: Double) -> Double {
        guard let (c0, r0, tx, ty) = anchor(x: x, y: y) else { return .nan }
        let w00 = (1 - tx) * (1 - ty)
        let w10 = tx * (1 - ty)
        let w01 = (1 - tx) * ty
        let w11 = tx * ty
        var sum = 0.0
        var weightSum = 0.0
        // Taps in the order the SIMD kernel adds them, so the two agree bit for bit; a tap
        // without data, or with zero weight, takes no part.
        func add(_ z: Double, _ w: Double) {
            guard !z.isNaN, w > 0 else { return }
            sum += w * z
            weightSum += w
        }
        add(cellValue(column: c0, row: r0), w00)
        add(cellValue(column: c0 + 1, row: r0), w10)
        add(cellValue(column: c0, row: r0 + 1), w01)
        add(cellValue(column: c0 + 1, row: r0 + 1), w11)
        // The half-weight rule (see ``Interpolation``): the four weights sum to 1 up to
        // rounding; comparing with their computed sum keeps the exact midpoint on the data side.
        let total = w00 + w10 + w01 + w11
        return weightSum > 0 && !(2 * weightSum < total) ? sum / weightSum : .nan
    }

    /// Keys' cubic over the sixteen taps when all have data; otherwise bilinear, whose
    /// half-weight rule then decides whether the point is a gap (see ``Interpolation``).
    func cubicScalar(x: Double, y: Double) -> Double {
        guard let (c0, r0, tx, ty) = anchor(x: x, y: y) else { return .nan }
        var sum = 0.0
        for dj in -1...2 {
            let wy = keysCubic(Double(dj) - ty)
            for di in -1...2 {
                let z = cellValue(column: c0 + di, row: r0 + dj)
                if z.isNaN { return bilinearScalar(x: x, y: y) }
                sum += wy * keysCubic(Double(di) - tx) * z
            }
        }
        return sum
    }
}

/// Keys' cubic convolution kernel with a = −½ at offset `t` (|t| < 2).
func keysCubic(_ t: Double) -> Double {
    let a = -0.5
    let s = abs(t)
    if s <= 1 { return ((a + 2) * s - (a + 3)) * s * s + 1 }
    if s < 2 { return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a }
    return 0
}
