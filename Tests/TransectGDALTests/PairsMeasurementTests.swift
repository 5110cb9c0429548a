import Foundation
import Testing
import TransectGeodesy
import TransectTestSupport
@testable import TransectGDAL

/// The `--pairs` stream: rows back in input order across batches, bad rows kept with their
/// problem, `strict` stopping at the first, the source's errors passed on.
@Suite("PairsMeasurement: a stream of measured pairs")
struct PairsMeasurementTests {
    /// WGS84's equatorial radius: along the equator a geodesic is an arc of it.
    static let a = 6_378_137.0

    /// Rows from a list, as a reader would hand them.
    final class Rows {
        var inputs: [PairsMeasurement.Input]
        var failAt: Int?
        var index = 0
        init(_ inputs: [PairsMeasurement.Input], failAt: Int? = nil) {
            self.inputs = inputs
            self.failAt = failAt
        }
        func next() throws -> PairsMeasurement.Input? {
            if index == failAt { throw CocoaError(.fileReadCorruptFile) }
            guard index < inputs.count else { return nil }
            index += 1
            return inputs[index - 1]
        }
    }

    struct Broken: Error {}

    /// Row `k`: from (0, 0) to (k·0.001°, 0) on the equator, heights 0 and k metres given.
    static func row(_ k: Int) -> PairsMeasurement.Input {
        PairsMeasurement.Input(
            number: k, id: "r\(k)", coordinates: .success((xs: [0, Double(k) * 0.001], ys: [0, 0])),
            heights: .success((from: 0, to: Double(k))))
    }

    static func stream(_ rows: Rows, strict: Bool = false) -> PairsMeasurement {
        PairsMeasurement(
            measurer: TerrainMeasurer(model: nil), inputCRS: nil, strict: strict,
            checkWGS84: { lon, lat in abs(lat) > 90 ? PairsMeasurement.Problem("latitude \(lat)") : nil },
            next: { try rows.next() })
    }

    @Test("rows come back in input order across batches, each measured along the equator")
    func order() throws {
        let count = PairsMeasurement.batchRows * 2 + 3
        let stream = Self.stream(Rows((1...count).map(Self.row)))
        var k = 0
        while let row = try stream.next() {
            k += 1
            #expect(row.id == "r\(k)")
            let m = try row.result.get()
            let arc = Self.a * Double(k) * 0.001 * .pi / 180
            #expect(abs(m.horizontalMetres - arc) < 1e-6)  // 1 µm, the geodesic oracle suite's distance bound
            #expect(m.verticalMetres == Double(k))
        }
        #expect(k == count)
        #expect(stream.rowsRead == count)
        #expect(stream.badRows == 0)
    }

    @Test("a bad row keeps its problem in place and the stream goes on; strict stops there")
    func badRows() throws {
        var inputs = (1...4).map(Self.row)
        inputs[1].coordinates = .failure(PairsMeasurement.Problem("from_lon 'x' is not a number"))
        inputs[2].coordinates = .success((xs: [0, 0], ys: [0, 95]))
        let stream = Self.stream(Rows(inputs))
        var rows: [PairsMeasurement.Row] = []
        while let row = try stream.next() { rows.append(row) }
        #expect(rows.map(\.id) == ["r1", "r2", "r3", "r4"])
        #expect(rows.map { $0.pair == nil } == [false, true, true, false])
        #expect(throws: PairsMeasurement.Problem("from_lon 'x' is not a number")) { try rows[1].result.get() }
        #expect(throws: PairsMeasurement.Problem("latitude 95.0")) { try rows[2].result.get() }
        #expect(stream.badRows == 2)

        let strict = Self.stream(Rows(inputs), strict: true)
        #expect(try strict.next()?.id == "r1")
        #expect(throws: PairsMeasurementError.badRow(id: "r2", message: "from_lon 'x' is not a number")) { try strict.next() }
    }

    @Test("an end off the DEM fails its row with the DEM's message, not the stream")
    func offTheDEM() throws {
        let dir = TemporaryDirectory()
        SyntheticDEM.write(path: dir.file("flat.tif"), width: 10, height: 10, geoTransform: [0, 0.01, 0, 0.05, 0, -0.01], crs: "EPSG:4326") {
            _, _ in 7
        }
        let model = try ElevationModel([dir.file("flat.tif")])
        var inputs = [Self.row(1), Self.row(2)]
        inputs[1].heights = .success((from: nil, to: nil))
        inputs[1].coordinates = .success((xs: [0.02, 5], ys: [0.01, 0.01]))
        inputs[0].coordinates = .success((xs: [0.02, 0.03], ys: [0.01, 0.01]))
        inputs[0].heights = .success((from: nil, to: 3))
        let rows = Rows(inputs)
        let stream = PairsMeasurement(measurer: TerrainMeasurer(model: model), inputCRS: nil, strict: false, next: { try rows.next() })
        let first = try #require(try stream.next())
        #expect(try first.result.get().start.heightMetres == 7)
        let second = try #require(try stream.next())
        let expected = model.missingHeightError(at: GeoPoint(longitude: 5, latitude: 0.01)).message
        #expect(throws: PairsMeasurement.Problem(expected)) { try second.result.get() }
        #expect(try stream.next() == nil)
    }

    @Test("what the row source throws, the stream throws")
    func sourceErrors() throws {
        let stream = Self.stream(Rows((1...3).map(Self.row), failAt: 2))
        #expect(throws: CocoaError.self) { try stream.next() }
    }
}
