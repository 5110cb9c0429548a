import TransectCore
import TransectFormats
import TransectGDAL

extension MeasureCommand {
    /// Output columns of a `--pairs` batch.
    static let pairsHeader = "id,from_lon,from_lat,from_elevation_m,to_lon,to_lat,to_elevation_m,horizontal_m,vertical_m,direct_m,azimuth_deg,error"

    /// Streams a CSV of pairs through one ``PairsMeasurement`` and writes its rows. A bad row
    /// gets its `error` filled and the batch goes on; `strict` stops at the first bad row with
    /// exit 1 and no output file.
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

        let stream = PairsMeasurement(
            measurer: measurer, inputCRS: inputCRS.transformer, strict: strict,
            checkWGS84: { PointArgument.checkGeographic(longitude: $0, latitude: $1).map { .init($0.text) } },
            next: { try reader.next().map { input($0, reader: reader) } })
        let progress = Progress("measuring '\(source)'", total: nil, console: console)
        defer { progress.finish() }
        while true {
            let measured: PairsMeasurement.Row?
            do { measured = try stream.next() } catch let error as FormatError {
                output.abandon()
                throw CLIError.badInput("pairs " + error.message)
            } catch PairsMeasurementError.badRow(let id, let message) {
                output.abandon()
                throw CLIError.badInput("pairs '\(source)' row \(id): \(message)")
            }
            progress.update(stream.rowsRead)
            guard let row = measured else { break }
            output.write(cells(row).map(CSVLine.field).joined(separator: ",") + "\n")
        }
        try output.commit()
        if stream.badRows > 0 {
            console.err(
                "note: \(stream.badRows) of \(NumberFormatting.count(stream.rowsRead, "row")) in '\(source)' could not be measured; see the error column\n")
        }
        return 0
    }

    /// A row's CSV cells: the pair (where it was read), its heights and distances, or its
    /// problem in the `error` column.
    static func cells(_ row: PairsMeasurement.Row) -> [String] {
        let pair = row.pair
        switch row.result {
        case .success(let r):
            return [
                row.id, Fixed.format(pair?.from.longitude, decimals: 9), Fixed.format(pair?.from.latitude, decimals: 9),
                Fixed.format(r.start.heightMetres, decimals: 6),
                Fixed.format(pair?.to.longitude, decimals: 9), Fixed.format(pair?.to.latitude, decimals: 9),
                Fixed.format(r.end.heightMetres, decimals: 6),
                Fixed.format(r.horizontalMetres, decimals: 6), Fixed.format(r.verticalMetres, decimals: 6),
                Fixed.format(r.directMetres, decimals: 6), Fixed.format(r.azimuthStartDegrees, decimals: 9), "",
            ]
        case .failure(let problem):
            return [
                row.id, Fixed.format(pair?.from.longitude, decimals: 9), Fixed.format(pair?.from.latitude, decimals: 9), "",
                Fixed.format(pair?.to.longitude, decimals: 9), Fixed.format(pair?.to.latitude, decimals: 9), "", "", "", "", "",
                problem.message,
            ]
        }
    }

    /// A row of the file as the measurement stream takes it.
    static func input(_ row: PairsReader.Row, reader: PairsReader) -> PairsMeasurement.Input {
        PairsMeasurement.Input(
            number: row.number, id: row.id,
            coordinates: reader.coordinates(row.fields).mapError { .init($0.text) },
            heights: reader.heights(row.fields).mapError { .init($0.text) })
    }
}
