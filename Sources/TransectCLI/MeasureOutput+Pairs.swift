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
            switch measured.results[k] {
            case .success(let r):
                // The row's ten numbers in one reservation: at most 24 bytes each, and the
                // scratch room of the last.
                out.append(maximum: 11 * OutputBytes.roundedRoom) { p in
                    var w = 0
                    func comma() {
                        p[w] = UInt8(ascii: ",")
                        w += 1
                    }
                    // Inlined, so that each call's decimal count is a constant.
                    @inline(__always) func number(_ value: Double?, _ decimals: Int) {
                        if let value { w += OutputBytes.writeRounded(value, decimals: decimals, to: p + w) }
                    }
                    @inline(__always) func endpoint(_ point: GeoPoint?, _ height: Double?) {
                        comma()
                        number(point?.longitude, 9)
                        comma()
                        number(point?.latitude, 9)
                        comma()
                        number(height, 6)
                    }
                    endpoint(pair?.from, r.start.heightMetres)
                    endpoint(pair?.to, r.end.heightMetres)
                    comma()
                    number(r.horizontalMetres, 6)
                    comma()
                    number(r.verticalMetres, 6)
                    comma()
                    number(r.directMetres, 6)
                    comma()
                    number(r.azimuthStartDegrees, 9)
                    comma()
                    return w
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
