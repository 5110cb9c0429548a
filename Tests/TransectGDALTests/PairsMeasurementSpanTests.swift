import CGDAL
import Testing
import TransectAnalysis
import TransectGDAL
import TransectTestSupport

/// A span of rows measured in steps, its DEM read once for the whole span in the order of the
/// raster's chunks, gives each step's results as measuring that step alone does, bit for bit.
@Suite("PairsMeasurement spans: one DEM read for many batches, the batches' results")
struct PairsMeasurementSpanTests {
    /// Rows over a 700 × 600 DEM (six 256² chunks and a part) with a hole of no data, in no
    /// spatial order: good rows, rows off the DEM or on the hole, given heights (one end or
    /// both), bad coordinates, bad heights, ids.
    static func batch(count: Int) -> PairsBatch {
        var random = SeededRandom(seed: 41)
        var batch = PairsBatch(firstNumber: 17)
        for k in 0..<count {
            func point() -> (x: Double, y: Double) {
                (random.uniform(-120.05, -119.25), random.uniform(37.35, 38.05))
            }
            let heights: (from: Double?, to: Double?) =
                switch k % 7 {
                case 1: (12.5, nil)
                case 2: (nil, -3.25)
                case 3: (100, 200)
                default: (nil, nil)
                }
            batch.append(from: point(), to: point(), heights: heights, id: "p\(k)")
            if k % 29 == 5 { batch.coordinateProblems[k] = "from_lon 'x' is not a number" }
            if k % 31 == 6 { batch.heightProblems[k] = "from_z 'y' is not a number" }
        }
        return batch
    }

    static func model(_ dir: TemporaryDirectory) throws -> ElevationModel {
        let path = dir.file("dem.tif")
        SyntheticDEM.write(
            path: path, width: 700, height: 600, geoTransform: [-120, 0.001, 0, 38, 0, -0.001], crs: "EPSG:4326",
            type: GDT_Float32, noData: -9999
        ) { c, r in
            (300...340).contains(c) && (200...260).contains(r) ? -9999 : Double((c * 37 + r * 91) % 1000) + 0.25
        }
        return try ElevationModel([path])
    }

    /// A result as bits: the heights and distances, or the problem.
    static func bits(_ result: Result<Measurement, PairsMeasurement.Problem>) -> [UInt64] {
        switch result {
        case .success(let m):
            return [
                m.start.heightMetres ?? .nan, m.end.heightMetres ?? .nan, m.horizontalMetres, m.verticalMetres, m.directMetres,
                m.azimuthStartDegrees, m.azimuthEndDegrees,
            ].map(\.bitPattern)
        case .failure(let problem): return problem.message.utf8.map { UInt64($0) } + [.max]
        }
    }

    @Test("a span in steps gives each step measured alone: rows, pairs and results", arguments: [1, 500, 1024, 3000])
    func stepsEqualBatches(step: Int) throws {
        let dir = TemporaryDirectory()
        let measurer = TerrainMeasurer(model: try Self.model(dir), aboveGroundMetres: 1.5)
        let span = Self.batch(count: 2_600)
        let check: (Double, Double) -> PairsMeasurement.Problem? = { lon, _ in
            lon < -120.02 ? PairsMeasurement.Problem("west of the test's bound") : nil
        }
        var seen = 0
        var measuredRows = 0
        try PairsMeasurement.measure(span, measurer: measurer, inputCRS: nil, checkWGS84: check, rowsPerStep: step) { part, measured in
            let alone = span.rows(seen..<min(seen + step, span.count))
            #expect(part.count == alone.count && part.firstNumber == alone.firstNumber)
            #expect((0..<part.count).allSatisfy { part.id($0) == alone.id($0) })
            let reference = try? PairsMeasurement.measure(alone, measurer: measurer, inputCRS: nil, checkWGS84: check)
            #expect(measured.pairs == reference?.pairs)
            #expect(measured.results.map(Self.bits) == reference?.results.map(Self.bits))
            measuredRows += measured.results.count { (try? $0.get()) != nil }
            seen += part.count
        }
        #expect(seen == span.count)
        // Enough rows of each kind for the comparison to mean something.
        #expect(measuredRows > 1_000 && measuredRows < span.count - 300)
    }

    @Test("a DEM whose windows fit in the cache, or none, is measured batch by batch")
    func smallDEMsKeepBatches() throws {
        let dir = TemporaryDirectory()
        let model = try Self.model(dir)
        #expect(PairsMeasurement.rowsReadTogether(model: model, interpolation: .bilinear) == PairsMeasurement.batchRows)
        #expect(PairsMeasurement.rowsReadTogether(model: nil, interpolation: .cubic) == PairsMeasurement.batchRows)
        #expect(PairsMeasurement.spanRows == 8 * PairsMeasurement.batchRows)
    }
}
