import TransectFormatsBase
import TransectGDAL
import TransectGeodesy
import TransectSupport

extension MeasureCommand {
    /// Output columns of a `--pairs` batch.
    package static let pairsHeader = "id,from_lon,from_lat,from_elevation_m,to_lon,to_lat,to_elevation_m,horizontal_m,vertical_m,direct_m,azimuth_deg,error"

    /// Streams a CSV of pairs in batches of ``PairsMeasurement/batchRows`` rows and writes its
    /// rows in input order. A bad row gets its `error` filled and the batch goes on; `strict`
    /// stops at the first bad row with exit 1 and no output file.
    ///
    /// With `threads` above 1, the batches are parsed, measured and formatted on that many
    /// worker threads (``OrderedWorkers``), each with its own DEM dataset, geoid and input
    /// transform (GDAL handles are not thread-safe), while this thread reads lines and writes
    /// bytes; a batch's bytes depend on the batch alone, so the output is the same for any
    /// thread count.
    ///
    /// With `layer`, the rows go to a `measurements` layer (``MeasurementsLayer``) in that
    /// format at `out` instead: the workers make the features (lines densified to
    /// `maxSegmentMetres`), and this thread writes them in input order as they come.
    package static func runPairs(
        path: String, terrain: TerrainOptions, aboveGround: Double, strict: Bool,
        out: String?, threads: Int, shard: Shard? = nil, skipExisting: Bool = false,
        layer: (format: LayerFormat, maxSegmentMetres: Double)? = nil, console: Console
    ) throws -> Int32 {
        var plan: PairsShardPlan?
        if let shard {
            plan = try PairsShardPlan(
                shard: shard, path: path, out: out,
                options: pairsOptions(terrain: terrain, aboveGround: aboveGround, strict: strict, layer: layer))
            if skipExisting, let out, try plan?.isDone(out: out) == true {
                console.err("note: shard \(shard.text) of '\(path)' is already in '\(out)' (its manifest matches); skipped\n")
                return 0
            }
        }
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
        // The manifest beside the output is written too: never over an input either.
        if plan?.manifest != nil, let out { files.output("-o", ShardManifest.path(for: out)) }
        try files.check(command: "measure")
        let transaction = plan?.manifest == nil ? nil : OutputTransaction()
        let layerOutput = try layer.map { (layer) throws(CLIError) in try LayerOutput(path: out ?? "-", format: layer.format, transaction: transaction) }
        let layerHandle = try layerOutput.map { (o) throws(CLIError) in try MeasurementsLayer.create(in: o) }
        let output = try OutputTarget(path: layerOutput == nil ? out : "-", console: console, transaction: transaction)
        // The output's hash goes in the shard manifest, and is taken only when there is one.
        var outputHash = SHA256()
        // Only the first shard writes the header, so the shards' outputs concatenate as they are.
        if layer == nil && plan.map({ $0.shard.index == 1 }) ?? true {
            output.write(pairsHeader + "\n")
            if transaction != nil { outputHash.update(Array((pairsHeader + "\n").utf8)) }
        }
        var remaining = Int.max
        if let plan {
            remaining = plan.rows?.count ?? 0
            do { try reader.skip(toRow: (plan.rows?.lowerBound ?? 1) - 1, survey: plan.survey) } catch {
                output.abandon()
                layerOutput?.abandon()
                throw CLIError.badInput("pairs " + error.message)
            }
        }

        let layout = reader.layout
        let check: @Sendable (Double, Double) -> PairsMeasurement.Problem? = {
            PointArgument.checkGeographic(longitude: $0, latitude: $1).map { .init($0.text) }
        }
        let terrainOptions = terrain
        let progress = Progress("measuring '\(source)'", total: nil, console: console)
        defer { progress.finish() }
        var rowsRead = 0
        var badRows = 0
        var readError: (any Error)?
        // Output buffers go back to the workers once written.
        let buffers = OrderedWorkers.Recycler<OutputBytes>(capacity: (OrderedWorkers.batchesPerWorker + 1) * threads)
        do {
            // Spans of rows, each measured in batches with its DEM reads together (one batch when
            // the DEM's windows all fit in its cache); two spans in flight per worker keep memory
            // where six batches kept it.
            let spanRows = PairsMeasurement.rowsReadTogether(model: model, interpolation: terrain.interpolation)
            try OrderedWorkers.run(
                threads: threads, inFlight: spanRows > PairsMeasurement.batchRows ? 2 : OrderedWorkers.batchesPerWorker,
                first: PairsWorker(measurer: measurer, inputCRS: inputCRS.transformer),
                make: { try PairsWorker(terrain: terrainOptions, aboveGround: aboveGround) },
                read: {
                    // Batch by batch into a span: a line error ends the span with the batches
                    // before it, and is thrown by the next read, after they are written.
                    if let error = readError {
                        readError = nil
                        throw error
                    }
                    var span: PairsReader.Lines?
                    while remaining > 0 && (span?.count ?? 0) < spanRows {
                        let lines: PairsReader.Lines?
                        do { lines = try reader.nextLines(rows: min(PairsMeasurement.batchRows, remaining)) } catch {
                            guard span != nil else { throw error }
                            readError = error
                            break
                        }
                        guard let lines else { break }
                        remaining -= lines.count
                        if span == nil { span = lines } else { span?.append(lines) }
                    }
                    return span
                },
                work: { worker, lines in
                    try worker.run(lines, layout: layout, checkWGS84: check, buffers: buffers, layerSegmentMetres: layer?.maxSegmentMetres)
                },
                emit: { chunk in
                    if let layerOutput, let layerHandle {
                        let count = strict ? chunk.problems.first?.index ?? chunk.features.count : chunk.features.count
                        for feature in chunk.features[0..<count] { try MeasurementsLayer.write(feature, to: layerHandle, of: layerOutput) }
                        if strict, let bad = chunk.problems.first { throw PairsMeasurementError.badRow(id: bad.id, message: bad.message) }
                    } else if strict, let bad = chunk.problems.first {
                        output.write(chunk.bytes, count: bad.index == 0 ? 0 : chunk.rowEnds[bad.index - 1])
                        throw PairsMeasurementError.badRow(id: bad.id, message: bad.message)
                    }
                    if layerOutput == nil { output.write(chunk.bytes) }
                    if transaction != nil && layerOutput == nil { chunk.bytes.withBytes { outputHash.update(UnsafeRawBufferPointer($0)) } }
                    buffers.put(chunk.bytes)
                    rowsRead += chunk.rowEnds.count
                    badRows += chunk.problems.count
                    progress.update(rowsRead)
                })
        } catch let error as FormatError {
            output.abandon()
            layerOutput?.abandon()
            throw CLIError.badInput("pairs " + error.message)
        } catch PairsMeasurementError.badRow(let id, let message) {
            output.abandon()
            layerOutput?.abandon()
            throw CLIError.badInput("pairs '\(source)' row \(id): \(message)")
        } catch {
            output.abandon()
            layerOutput?.abandon()
            throw error
        }
        do throws(CLIError) { try plan?.checkUnchanged() } catch {
            output.abandon()
            throw error
        }
        try output.commit()
        // A layer file's bytes are whole only once it is closed: its hash is the file's.
        var layerDigest: String?
        if let layerOutput {
            if transaction == nil {
                try layerOutput.commit()
            } else {
                try layerOutput.finish()
                layerDigest = try ShardManifest.digest(ofFile: layerOutput.temporary)
            }
        }
        if let transaction, let out, var manifest = plan?.manifest {
            manifest.goodRows = rowsRead - badRows
            manifest.badRows = badRows
            manifest.outputSHA256 = layerDigest ?? outputHash.hexDigest
            try transaction.write(manifest.json.serialized() + "\n", to: ShardManifest.path(for: out))
            try transaction.commit()
        }
        if badRows > 0 {
            // GDAL's FlatGeobuf driver (3.6) skips a feature without a geometry, which is what
            // a row in error is in a layer.
            let see =
                layer?.format == .flatgeobuf
                ? "FlatGeobuf keeps no feature without a geometry, so they are not in '\(out ?? "")'" : "see the error column"
            console.err(
                "note: \(badRows) of \(NumberFormatting.count(rowsRead, "row")) in \(plan.map { "shard \($0.shard.text) of " } ?? "")'\(source)' could not be measured; \(see)\n"
            )
        }
        return 0
    }

    /// A batch's CSV bytes, where each row ends, and its bad rows (index, id, problem).
    package struct PairsChunk: Sendable {
        package var bytes = OutputBytes()
        package var rowEnds: [Int] = []
        package var problems: [(index: Int, id: String, message: String)] = []
        package var lastNumber = 0
        /// The rows as layer features, for a layer output (the bytes stay empty).
        package var features: [MeasurementsLayer.Feature] = []
    }

    /// What one worker thread measures with: its own measurer (DEM, geoid) and input transform.
    package struct PairsWorker {
        package var measurer: TerrainMeasurer
        package var inputCRS: CoordinateTransformer?
        /// The measurement's arrays, kept from span to span.
        package var scratch = PairsMeasurement.Scratch()

        package init(measurer: TerrainMeasurer, inputCRS: CoordinateTransformer?) {
            self.measurer = measurer
            self.inputCRS = inputCRS
        }

        /// Opens what the first worker has, again, without its notes (they were given once).
        package init(terrain: TerrainOptions, aboveGround: Double) throws {
            let model =
                terrain.demSpecs.isEmpty
                ? try ElevationModel([TerrainOptions.defaultSurfacePath]) : try ElevationModel(terrain.demSpecs, access: terrain.access, noData: terrain.noData)
            measurer = try terrain.measurer(model: model, aboveGroundMetres: aboveGround)
            inputCRS = try InputCRS(terrain.crs).transformer
        }

        /// Parses, measures and formats one span of rows, in batches of
        /// ``PairsMeasurement/batchRows`` with one DEM read for the span, into a buffer from
        /// `buffers` (emptied first) when it has one.
        package mutating func run(
            _ lines: PairsReader.Lines, layout: PairsReader.Layout, checkWGS84: (Double, Double) -> PairsMeasurement.Problem?,
            buffers: OrderedWorkers.Recycler<OutputBytes>? = nil, layerSegmentMetres: Double? = nil
        ) throws -> PairsChunk {
            let span = layout.parse(lines)
            var chunk = PairsChunk()
            // Taken straight into the chunk, so that its storage has no other owner to copy for.
            chunk.bytes = buffers?.take() ?? OutputBytes(capacity: span.count * 160)
            chunk.bytes.removeAll()
            try PairsMeasurement.measure(
                span, measurer: measurer, inputCRS: inputCRS, checkWGS84: checkWGS84, rowsPerStep: PairsMeasurement.batchRows,
                scratch: &scratch
            ) { batch, measured in
                let offset = chunk.rowEnds.count
                if let layerSegmentMetres {
                    for k in 0..<batch.count {
                        chunk.features.append(
                            MeasurementsLayer.feature(
                                number: batch.number(k), id: batch.id(k), pair: measured.pairs[k], result: measured.results[k],
                                maxSegmentMetres: layerSegmentMetres))
                        chunk.rowEnds.append(0)
                    }
                } else {
                    MeasureOutput.appendPairs(batch, measured, to: &chunk.bytes, rowEnds: &chunk.rowEnds)
                }
                for (k, result) in measured.results.enumerated() {
                    if case .failure(let problem) = result { chunk.problems.append((offset + k, batch.id(k), problem.message)) }
                }
            }
            chunk.lastNumber = span.number(span.count - 1)
            return chunk
        }
    }

    /// A row's CSV cells: the pair (where it was read), its heights and distances, or its
    /// problem in the `error` column.
    package static func cells(_ row: PairsMeasurement.Row) -> [String] {
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
    package static func input(_ row: PairsReader.Row, reader: PairsReader) -> PairsMeasurement.Input {
        PairsMeasurement.Input(
            number: row.number, id: row.id,
            coordinates: reader.coordinates(row.fields).mapError { .init($0.text) },
            heights: reader.heights(row.fields).mapError { .init($0.text) })
    }
}
