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
    static func runPairs(path: String, terrain: TerrainOptions, aboveGround: Double, strict: Bool,
                         out: String?, console: Console) throws -> Int32 {
        let source = path == "-" ? "stdin" : path
        let reader = try LineReader(path: path)
        guard let headerLine = reader.next() else { throw CLIError.badInput("pairs '\(source)': empty file, expected a header") }
        let header = splitCSV(headerLine).map { $0.trimmingSpacesAndBOM.lowercased() }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        var required: [Int] = []
        for name in ["from_lon", "from_lat", "to_lon", "to_lat"] {
            guard let c = column(name) else {
                throw CLIError.badInput("pairs '\(source)': header lacks '\(name)' (needs from_lon,from_lat,to_lon,to_lat)")
            }
            required.append(c)
        }
        let idColumn = column("id"), fromZColumn = column("from_z"), toZColumn = column("to_z")

        let model = try terrain.openDEM(console: console)
        let geoid = try terrain.openGeoid()
        let inputCRS: CoordinateTransformer? = try terrain.crs.map { (crs: String) throws(TerrainError) in
            try CoordinateTransformer(from: SpatialReference(crs), to: .wgs84())
        }
        var files = RunFiles()
        files.input("--pairs", path)
        files.inputs(dem: model, terrain: terrain)
        files.output("-o", out)
        try files.check(command: "measure")
        let output = try OutputTarget(path: out, console: console)
        output.write(pairsHeader + "\n")

        struct Row { var id: String; var fields: [String]; var pair: Pair?; var error: String? }
        var rowNumber = 0
        var badRows = 0
        let progress = Progress("measuring '\(source)'", total: nil, console: console)
        defer { progress.finish() }
        var done = false
        while !done {
            var rows: [Row] = []
            rows.reserveCapacity(pairsBatchRows)
            while rows.count < pairsBatchRows {
                guard let line = reader.next() else { done = true; break }
                if line.trimmingSpacesAndBOM.isEmpty { continue }
                rowNumber += 1
                let fields = splitCSV(line)
                let id = idColumn.flatMap { $0 < fields.count ? fields[$0] : nil } ?? String(rowNumber)
                var row = Row(id: id, fields: fields)
                switch parsePair(fields, required: required, fromZ: fromZColumn, toZ: toZColumn, crs: inputCRS) {
                case .success(let pair): row.pair = pair
                case .failure(let e): row.error = e.text
                }
                rows.append(row)
            }
            progress.update(rowNumber)
            let pairs = rows.compactMap(\.pair)
            let results = try measure(pairs, model: model, geoid: geoid, aboveGround: aboveGround,
                                      interpolation: terrain.interpolation)
            var next = 0
            for row in rows {
                var cells: [String]
                if let pair = row.pair {
                    let result = results[next]
                    next += 1
                    switch result {
                    case .success(let m):
                        let r = m.measurement
                        cells = [row.id, Fixed.format(pair.from.longitude, decimals: 9), Fixed.format(pair.from.latitude, decimals: 9),
                                 Fixed.format(r.start.heightMetres, decimals: 6),
                                 Fixed.format(pair.to.longitude, decimals: 9), Fixed.format(pair.to.latitude, decimals: 9),
                                 Fixed.format(r.end.heightMetres, decimals: 6),
                                 Fixed.format(r.horizontalMetres, decimals: 6), Fixed.format(r.verticalMetres, decimals: 6),
                                 Fixed.format(r.directMetres, decimals: 6), Fixed.format(r.azimuthStartDegrees, decimals: 9), ""]
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
                output.write(cells.map(csvField).joined(separator: ",") + "\n")
            }
        }
        try output.commit()
        if badRows > 0 {
            console.err("note: \(badRows) of \(rowNumber) rows in '\(source)' could not be measured; see the error column\n")
        }
        return 0
    }

    static func failedCells(_ id: String, pair: Pair?, error: String) -> [String] {
        [id, Fixed.format(pair?.from.longitude, decimals: 9), Fixed.format(pair?.from.latitude, decimals: 9), "",
         Fixed.format(pair?.to.longitude, decimals: 9), Fixed.format(pair?.to.latitude, decimals: 9), "", "", "", "", "", error]
    }

    static func parsePair(_ fields: [String], required: [Int], fromZ: Int?, toZ: Int?,
                          crs: CoordinateTransformer?) -> Result<Pair, PointError> {
        Result { () throws(PointError) -> Pair in
            try parsePairFields(fields, required: required, fromZ: fromZ, toZ: toZ, crs: crs)
        }
    }

    static func parsePairFields(_ fields: [String], required: [Int], fromZ: Int?, toZ: Int?,
                                crs: CoordinateTransformer?) throws(PointError) -> Pair {
        func number(_ index: Int, _ name: String) throws(PointError) -> Double {
            guard index < fields.count else { throw .malformed("missing \(name)") }
            let text = Substring(fields[index]).trimmingSpaces
            guard let v = Double(text) else { throw .malformed("\(name) '\(text)' is not a number") }
            guard v.isFinite else { throw .malformed("\(name) '\(text)' is not a finite number") }
            return v
        }
        func optional(_ index: Int?, _ name: String) throws(PointError) -> Double? {
            guard let index, index < fields.count, !Substring(fields[index]).trimmingSpaces.isEmpty else { return nil }
            return try number(index, name)
        }
        var xs = [try number(required[0], "from_lon"), try number(required[2], "to_lon")]
        var ys = [try number(required[1], "from_lat"), try number(required[3], "to_lat")]
        if let crs {
            crs.transform(x: &xs, y: &ys)
            guard xs[0].isFinite, xs[1].isFinite else { throw .malformed("cannot transform the coordinates to WGS84") }
        }
        for k in 0..<2 {
            if let problem = PointArgument.checkGeographic(longitude: xs[k], latitude: ys[k]) { throw problem }
        }
        return Pair(from: GeoPoint(longitude: xs[0], latitude: ys[0]), to: GeoPoint(longitude: xs[1], latitude: ys[1]),
                    fromZ: try optional(fromZ, "from_z"), toZ: try optional(toZ, "to_z"))
    }
}

extension String {
    /// Without surrounding spaces, tabs, carriage returns or a byte-order mark.
    var trimmingSpacesAndBOM: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\u{FEFF}" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
