import TransectCore
import TransectFormats
import TransectGDAL

extension MeasureCommand {
    /// Output columns of a `--pairs` batch.
    static let pairsHeader = "id,from_lon,from_lat,from_elevation_m,to_lon,to_lat,to_elevation_m,horizontal_m,vertical_m,direct_m,azimuth_deg,error"

    /// Rows measured together: one batched DEM read per this many rows keeps memory flat.
    static let pairsBatchRows = 4096

    /// Streams a CSV of pairs through the measurement. A bad row gets its `error` filled and the
    /// batch goes on; `strict` stops at the first bad row with exit 1 and no output file.
    static func runPairs(
        path: String, terrain: TerrainOptions, aboveGround: Double, strict: Bool,
        out: String?, console: Console
    ) throws -> Int32 {
        let reader: PairsReader
        do { reader = try PairsReader(path: path) } catch {
            // "pairs 'FILE': problem", as for every pairs error; unreadable files say so alone.
            if case .cannotRead = error { throw CLIError.badInput(error.message) }
            throw CLIError.badInput("pairs " + error.message)
        }
        let source = reader.source

        let inputCRS = try InputCRS(terrain.crs)
        let model = try terrain.openDEM(console: console)
        let measurer = try terrain.measurer(model: model, aboveGroundMetres: aboveGround)
        var files = RunFiles()
        files.input("--pairs", path)
        files.inputs(dem: model, terrain: terrain)
        files.output("-o", out)
        try files.check(command: "measure")
        let output = try OutputTarget(path: out, console: console)
        output.write(pairsHeader + "\n")

        struct Row {
            var id: String
            var pair: MeasurementPair?
            var error: String?
        }
        var rowNumber = 0
        var badRows = 0
        let progress = Progress("measuring '\(source)'", total: nil, console: console)
        defer { progress.finish() }
        var done = false
        while !done {
            var rows: [Row] = []
            rows.reserveCapacity(pairsBatchRows)
            while rows.count < pairsBatchRows {
                let next: PairsReader.Row?
                do { next = try reader.next() } catch {
                    output.abandon()
                    throw CLIError.badInput("pairs " + error.message)
                }
                guard let line = next else {
                    done = true
                    break
                }
                rowNumber = line.number
                var row = Row(id: line.id)
                switch parsePair(line.fields, reader: reader, crs: inputCRS) {
                case .success(let pair): row.pair = pair
                case .failure(let e): row.error = e.text
                }
                rows.append(row)
            }
            progress.update(rowNumber)
            let pairs = rows.compactMap(\.pair)
            let results = try measurer.measure(pairs)
            var next = 0
            for row in rows {
                var cells: [String]
                if let pair = row.pair {
                    let result = results[next]
                    next += 1
                    switch result {
                    case .success(let m):
                        let r = m.measurement
                        cells = [
                            row.id, Fixed.format(pair.from.longitude, decimals: 9), Fixed.format(pair.from.latitude, decimals: 9),
                            Fixed.format(r.start.heightMetres, decimals: 6),
                            Fixed.format(pair.to.longitude, decimals: 9), Fixed.format(pair.to.latitude, decimals: 9),
                            Fixed.format(r.end.heightMetres, decimals: 6),
                            Fixed.format(r.horizontalMetres, decimals: 6), Fixed.format(r.verticalMetres, decimals: 6),
                            Fixed.format(r.directMetres, decimals: 6), Fixed.format(r.azimuthStartDegrees, decimals: 9), "",
                        ]
                    case .failure(let e):
                        cells = failedCells(row.id, pair: pair, error: e.message)
                    }
                } else {
                    cells = failedCells(row.id, pair: nil, error: row.error ?? "bad row")
                }
                if !cells[11].isEmpty {
                    badRows += 1
                    if strict {
                        output.abandon()
                        throw CLIError.badInput("pairs '\(source)' row \(row.id): \(cells[11])")
                    }
                }
                output.write(cells.map(CSVLine.field).joined(separator: ",") + "\n")
            }
        }
        try output.commit()
        if badRows > 0 {
            console.err("note: \(badRows) of \(NumberFormatting.count(rowNumber, "row")) in '\(source)' could not be measured; see the error column\n")
        }
        return 0
    }

    static func failedCells(_ id: String, pair: MeasurementPair?, error: String) -> [String] {
        [
            id, Fixed.format(pair?.from.longitude, decimals: 9), Fixed.format(pair?.from.latitude, decimals: 9), "",
            Fixed.format(pair?.to.longitude, decimals: 9), Fixed.format(pair?.to.latitude, decimals: 9), "", "", "", "", "", error,
        ]
    }

    static func parsePair(_ fields: [String], reader: PairsReader, crs: InputCRS) -> Result<MeasurementPair, PointError> {
        Result { () throws(PointError) -> MeasurementPair in
            var (xs, ys) = try reader.coordinates(fields).get()
            crs.toWGS84(x: &xs, y: &ys)
            guard xs[0].isFinite, xs[1].isFinite else { throw .malformed("cannot transform the coordinates to WGS84") }
            for k in 0..<2 {
                if let problem = PointArgument.checkGeographic(longitude: xs[k], latitude: ys[k]) { throw problem }
            }
            let z = try reader.heights(fields).get()
            return MeasurementPair(
                from: GeoPoint(longitude: xs[0], latitude: ys[0]), to: GeoPoint(longitude: xs[1], latitude: ys[1]),
                fromZ: z.from, toZ: z.to)
        }
    }
}
