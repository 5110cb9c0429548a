import TransectAnalysis
import TransectFormatsBase
import TransectGDAL
import TransectGeodesy
import TransectSupport

// Extended across modules on purpose: `MeasureOutput` is TransectCLIBase's so the launcher
// formats a measure with given heights itself; a batch's rows are TransectGDAL's
// `PairsMeasurement.Measured`, which the launcher must not link.
extension MeasureOutput {
    /// A batch of `--pairs` rows as CSV bytes (the columns of ``MeasureCommand/pairsHeader``),
    /// byte for byte what ``MeasureCommand/cells(_:)`` joined with commas writes, with where
    /// each row ends (for a strict run that stops inside the batch).
    package static func appendPairs(
        _ batch: PairsBatch, _ measured: PairsMeasurement.Measured, to out: inout OutputBytes, rowEnds: inout [Int]
    ) {
        rowEnds.reserveCapacity(rowEnds.count + batch.count)
        for k in 0..<batch.count {
            batch.withID(k) { id in
                if let id { appendField(id, to: &out) } else { out.append(integer: batch.number(k)) }
            }
            let pair = measured.pairs[k]
            switch measured.results[k] {
            case .success(let r):
                // The row's ten numbers in one reservation: at most 24 bytes each, and the
                // scratch room of the last.
                out.append(maximum: 11 * OutputBytes.roundedRoom) { p in
                    var w = 0
                    field(pair?.from.longitude, 9, p, &w)
                    field(pair?.from.latitude, 9, p, &w)
                    field(r.start.heightMetres, 6, p, &w)
                    field(pair?.to.longitude, 9, p, &w)
                    field(pair?.to.latitude, 9, p, &w)
                    field(r.end.heightMetres, 6, p, &w)
                    field(r.horizontalMetres, 6, p, &w)
                    field(r.verticalMetres, 6, p, &w)
                    field(r.directMetres, 6, p, &w)
                    field(r.azimuthStartDegrees, 9, p, &w)
                    p[w] = UInt8(ascii: ",")
                    return w + 1
                }
            case .failure(let problem):
                func coordinates(_ p: GeoPoint?) {
                    out.append(UInt8(ascii: ","))
                    if let p { out.appendRounded(p.longitude, decimals: 9) }
                    out.append(UInt8(ascii: ","))
                    if let p { out.appendRounded(p.latitude, decimals: 9) }
                    out.append(UInt8(ascii: ","))
                }
                coordinates(pair?.from)
                coordinates(pair?.to)
                out.append(",,,,,")
                out.append(CSVLine.field(problem.message))
            }
            out.append(UInt8(ascii: "\n"))
            rowEnds.append(out.count)
        }
    }

    /// Writes a comma and `value` rounded to `decimals` (nothing for nil) at `p + w`, and moves
    /// `w` past them. The rows' two decimal counts are spelled as constants, so that the
    /// writer's divisions by 10^decimals become multiplications whether or not this is inlined.
    package static func field(_ value: Double?, _ decimals: Int, _ p: UnsafeMutablePointer<UInt8>, _ w: inout Int) {
        p[w] = UInt8(ascii: ",")
        w += 1
        guard let value else { return }
        switch decimals {
        case 6: w += OutputBytes.writeRounded(value, decimals: 6, to: p + w)
        case 9: w += OutputBytes.writeRounded(value, decimals: 9, to: p + w)
        default: w += OutputBytes.writeRounded(value, decimals: decimals, to: p + w)
        }
    }

    /// A CSV field from its UTF-8, quoted as ``CSVLine/field(_:)`` quotes it.
    package static func appendField(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout OutputBytes) {
        var needsQuotes = false
        var ascii = true
        for byte in bytes {
            if byte == 44 || byte == 34 || byte == 10 || byte == 13 { needsQuotes = true }
            if byte >= 0x80 { ascii = false }
        }
        guard needsQuotes else { return out.append(bytes) }
        // Beyond ASCII a quote may be part of a larger character, as `field` reads it.
        guard ascii else { return out.append(CSVLine.field(String(decoding: bytes, as: UTF8.self))) }
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            out.append(byte)
            if byte == 34 { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
