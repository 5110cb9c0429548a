import Testing
import TransectGDAL
import TransectSupport
import TransectTestSupport

@Suite("LayerWriter")
struct LayerWriterTests {
    @Test(
        "the date a GeoPackage records is SOURCE_DATE_EPOCH in UTC, else 2000-01-01; text that is not a whole number of seconds is ignored",
        arguments: [
            ("0", "1970-01-01T00:00:00Z"), ("1700000000", "2023-11-14T22:13:20Z"), (nil, "2000-01-01T00:00:00Z"),
            ("-5", "2000-01-01T00:00:00Z"), ("12.5", "2000-01-01T00:00:00Z"), ("253402300799", "9999-12-31T23:59:59Z"),
        ] as [(String?, String)])
    func date(epoch: String?, expected: String) {
        #expect(LayerWriter.date(sourceDateEpoch: epoch) == expected)
    }

    @Test("a layer written and read back gives the same values, ids and geometries", arguments: LayerFormat.allCases)
    func roundTrip(format: LayerFormat) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("t." + format.extensions[0])
        let writer = try LayerWriter(path: path, format: format)
        let layer = try writer.createLayer("t", geometry: .lineString, fields: [.init("n", .integer), .init("r", .real), .init("s", .string)])
        try writer.write(layer, fid: 5, values: [.integer(7), .real(1.25), .string("é, \"q\"")], geometry: .lineString(x: [1, 2], y: [3, 4], z: [5, 6]))
        try writer.write(layer, fid: 6, values: [.null, .real(-0.5), .null], geometry: .lineString(x: [-1, -2, -3], y: [0, 1, 2], z: [0, 0, 9]))
        try writer.close()
        let reader = try LayerReader(path: path)
        #expect(reader.fields.map(\.name) == ["n", "r", "s"])
        var features: [LayerReader.Feature] = []
        while let f = reader.next() { features.append(f) }
        #expect(features.count == 2)
        #expect(features.first?.values == [.integer(7), .real(1.25), .string("é, \"q\"")])
        #expect(features.last?.values == [.null, .real(-0.5), .null])
        if case .lineString(let x, let y, let z)? = features.last?.geometry {
            #expect(x == [-1, -2, -3] && y == [0, 1, 2] && z == [0, 0, 9])
        } else {
            Issue.record("no line string read back")
        }
        // GeoPackage keeps the ids given; FlatGeobuf numbers from 0; GeoJSON writes them as "id".
        #expect(features.map(\.fid) == (format == .flatgeobuf ? [0, 1] : [5, 6]))
    }
}
