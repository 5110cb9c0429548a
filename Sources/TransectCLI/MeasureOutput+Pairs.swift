import TransectCore
import TransectFormats
import TransectGDAL

extension MeasureOutput {
    /// A batch of `--pairs` rows as CSV bytes (the columns of ``MeasureCommand/pairsHeader``),
    /// byte for byte what ``MeasureCommand/cells(_:)`` joined with commas writes, with where
    /// each row ends (for a strict run that stops inside the batch).
    static func appendPairs(
        _ batch: PairsBatch, _ measured: PairsMeasurement.Measured, to out: inout OutputBytes, rowEnds: inout [Int]
    ) {
        rowEnds.reserveCapacity(rowEnds.count + batch.count)
        for k in 0..<batch.count {
            batch.withID(k) { id in
                if let id { appendField(id, to: &out) } else { out.append(integer: batch.number(k)) }
            }
            let pair = measured.pairs[k]
            func coordinates(_ p: GeoPoint?) {
                out.append(UInt8(ascii: ","))
                if let p { out.appendRounded(p.longitude, decimals: 9) }
                out.append(UInt8(ascii: ","))
                if let p { out.appendRounded(p.latitude, decimals: 9) }
                out.append(UInt8(ascii: ","))
            }
            switch measured.results[k] {
            case .success(let r):
                coordinates(pair?.from)
                if let h = r.start.heightMetres { out.appendRounded(h, decimals: 6) }
                coordinates(pair?.to)
                if let h = r.end.heightMetres { out.appendRounded(h, decimals: 6) }
                for value in [r.horizontalMetres, r.verticalMetres, r.directMetres] {
                    out.append(UInt8(ascii: ","))
                    out.appendRounded(value, decimals: 6)
                }
                out.append(UInt8(ascii: ","))
                out.appendRounded(r.azimuthStartDegrees, decimals: 9)
                out.append(UInt8(ascii: ","))
            case .failure(let problem):
                coordinates(pair?.from)
                coordinates(pair?.to)
                out.append(",,,,,")
                out.append(CSVLine.field(problem.message))
            }
            out.append(UInt8(ascii: "\n"))
            rowEnds.append(out.count)
        }
    }

    /// A CSV field from its UTF-8, quoted as ``CSVLine/field(_:)`` quotes it.
    static func appendField(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout OutputBytes) {
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
