import CGDAL
import Foundation
import Testing
import TransectSupport
import TransectTestSupport

@testable import TransectGDAL

@Suite("Float32 windows: only where exact, and to the same bits as Float64")
struct Float32WindowTests {
    /// A 600 × 300 DEM of `type` in 0.001° cells (3 × 2 chunks) with no data every 97th cell.
    /// Values in 1/1024 m for the floating types (exact in Float32), whole metres for integers.
    static func write(_ path: String, type: GDALDataType, scale: Double? = nil, unit: String? = nil, noData: Double = -9999) {
        var rng = SeededRandom(seed: 21)
        let integer = type == GDT_Int16 || type == GDT_UInt16 || type == GDT_Byte
        let top = type == GDT_Byte ? 250.0 : 4000.0
        var cells = [Double](repeating: 0, count: 600 * 300)
        for k in cells.indices {
            let v = rng.uniform(0, top)
            cells[k] = k % 97 == 5 ? noData : integer ? v.rounded() : (v * 1024).rounded() / 1024
        }
        SyntheticDEM.write(
            path: path, width: 600, height: 300, geoTransform: [10, 0.001, 0, 45.3, 0, -0.001],
            crs: "EPSG:4326", type: type, noData: noData, unitType: unit, scale: scale
        ) { c, r in cells[r * 600 + c] }
    }

    /// Cells in the twelve windows of the 600 × 300 raster: chunk columns 259 wide for margin 1
    /// and 261 for margin 2, rows clipped to the raster (258 + 45 rows, then 259 + 46).
    static let windowCells = 3 * 259 * (258 + 45) + 3 * 261 * (259 + 46)

    @Test(
        "Float32, Int16, UInt16 and Byte DEMs keep Float32 windows, equal bit for bit to the Float64 reads",
        arguments: [GDT_Float32, GDT_Int16, GDT_UInt16, GDT_Byte])
    func exactTypes(type: GDALDataType) throws {
        let dir = TemporaryDirectory()
        Self.write(dir.file("dem.tif"), type: type, noData: type == GDT_Byte ? 255 : type == GDT_UInt16 ? 65535 : -9999)
        let model = try ElevationModel([dir.file("dem.tif")])
        #expect(model.storesFloat32Windows)
        try ElevationWindowCacheTests.expectCachedEqualsUncached(model, seed: 4)
        // Twelve windows (3 × 2 chunks, two margins) at four bytes a cell.
        #expect(model.windowCache.count == 12)
        #expect(model.windowCache.heldBytes == Self.windowCells * 4)
    }

    @Test("Float64 cells, a scale or a unit in feet keep Float64 windows, which the reference equals")
    func inexactStaysFloat64() throws {
        let dir = TemporaryDirectory()
        Self.write(dir.file("f64.tif"), type: GDT_Float64)
        Self.write(dir.file("scaled.tif"), type: GDT_Int16, scale: 0.1)
        Self.write(dir.file("feet.tif"), type: GDT_Float32, unit: "ft")
        Self.write(dir.file("i32.tif"), type: GDT_Int32)
        for name in ["f64.tif", "scaled.tif", "feet.tif", "i32.tif"] {
            let model = try ElevationModel([dir.file(name)])
            #expect(!model.storesFloat32Windows, "\(name)")
            try ElevationWindowCacheTests.expectCachedEqualsUncached(model, seed: 5)
            #expect(model.windowCache.heldBytes == Self.windowCells * 8, "\(name) holds doubles")
        }
    }

    @Test("a Float32 window's cells are the Float64 window's, no data included")
    func windowsHoldTheSameValues() throws {
        let dir = TemporaryDirectory()
        Self.write(dir.file("dem.tif"), type: GDT_Float32)
        let model = try ElevationModel([dir.file("dem.tif")])
        // A window that straddles the raster's west edge and a chunk seam.
        let wide = try model.readWindow(column: -3, row: 250, width: 300, height: 20)
        guard case .float32(let narrow) = try model.readDecodedWindow(column: -3, row: 250, width: 300, height: 20) else {
            Issue.record("a Float32 DEM gives a Float32 window")
            return
        }
        #expect(narrow.values.count == wide.values.count)
        let differing = wide.values.indices.filter { k in
            let a = Double(narrow.values[k])
            return a.isNaN ? !wide.values[k].isNaN : a.bitPattern != wide.values[k].bitPattern
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(wide.values.contains { $0.isNaN } && wide.values.contains { !$0.isNaN })
    }
}

@Suite("A viewshed's whole-DEM read: a plain GeoTIFF opened again for direct reads, the same cells")
struct DirectReadTests {
    /// Every cell of `a` equals `b`'s bit for bit, no data where `b` has it.
    static func expectSame(_ a: DecodedWindow, _ b: DecodedWindow, _ name: String) {
        switch (a, b) {
        case (.float32(let x), .float32(let y)):
            #expect(x.values.count == y.values.count && zip(x.values, y.values).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(name)")
        case (.float64(let x), .float64(let y)):
            #expect(x.values.count == y.values.count && zip(x.values, y.values).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(name)")
        default: Issue.record("\(name): windows of different cell types")
        }
    }

    /// Puts the file at `other` where `path` was.
    static func replace(_ path: String, with other: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: other, toPath: path)
    }

    @Test("Float32, Int16 and Float64 GeoTIFFs read directly give the cells of the DEM's own band", arguments: [GDT_Float32, GDT_Int16, GDT_Float64])
    func sameCells(type: GDALDataType) throws {
        let dir = TemporaryDirectory()
        Float32WindowTests.write(dir.file("dem.tif"), type: type)
        let model = try ElevationModel([dir.file("dem.tif")])
        let direct = try #require(model.directReadBand(), "a local GeoTIFF is opened again")
        let own = try model.readDecodedWindow(column: 0, row: 0, width: model.width, height: model.height)
        let through = try model.readDecodedWindow(column: 0, row: 0, width: model.width, height: model.height, source: direct)
        Self.expectSame(through, own, "\(type)")
        Self.expectSame(try model.viewshedWindow(), own, "\(type) viewshed window")
    }

    @Test("a GeoTIFF that became a VRT after the DEM opened is not opened again: the DEM keeps its own band")
    func reopensOnlyAGeoTIFF() throws {
        let dir = TemporaryDirectory()
        Float32WindowTests.write(dir.file("dem.tif"), type: GDT_Float32)
        Float32WindowTests.write(dir.file("other.tif"), type: GDT_Float32)
        let model = try ElevationModel([dir.file("dem.tif")])
        #expect(model.directReadBand() != nil)
        // The same name now a VRT over another raster of the same size and type.
        #expect(try ExternalTool.run("gdalbuildvrt", ["-q", dir.file("swap.vrt"), dir.file("other.tif")]).code == 0)
        try Self.replace(dir.file("dem.tif"), with: dir.file("swap.vrt"))
        #expect(model.directReadBand() == nil)
        // GDAL is not let open it as anything but a GeoTIFF (it would open the VRT otherwise).
        #expect(throws: TerrainError.self) { _ = try Dataset(reopeningGeoTIFF: dir.file("dem.tif")) }
        #expect(try Dataset(path: dir.file("dem.tif")).driverName == "VRT")
    }

    @Test("a mosaic, a --nodata DEM and a VRT keep the DEM's own band")
    func othersKeepTheirBand() throws {
        let dir = TemporaryDirectory()
        Float32WindowTests.write(dir.file("a.tif"), type: GDT_Float32)
        SyntheticDEM.write(
            path: dir.file("b.tif"), width: 600, height: 300, geoTransform: [10.6, 0.001, 0, 45.3, 0, -0.001], crs: "EPSG:4326",
            type: GDT_Float32, noData: -9999
        ) { c, r in Double(c + r) }
        #expect(try ExternalTool.run("gdalbuildvrt", ["-q", dir.file("a.vrt"), dir.file("a.tif")]).code == 0)
        #expect(try ElevationModel([dir.file("a.tif"), dir.file("b.tif")]).directReadBand() == nil, "mosaic")
        #expect(try ElevationModel([dir.file("a.tif")], noData: [0]).directReadBand() == nil, "--nodata")
        let vrt = try ElevationModel([dir.file("a.vrt")])
        #expect(vrt.directReadBand() == nil, "VRT")
        let own = try vrt.readDecodedWindow(column: 0, row: 0, width: vrt.width, height: vrt.height)
        Self.expectSame(try vrt.viewshedWindow(), own, "VRT viewshed window")
    }
    @Test(
        "a Float32 GeoTIFF read whole as it opens (tiled and deflated, or in strips) gives the window read afterwards, no data included",
        arguments: [true, false])
    func earlyWholeRead(tiled: Bool) throws {
        let dir = TemporaryDirectory()
        Float32WindowTests.write(dir.file("dem.tif"), type: GDT_Float32)
        if tiled {
            let translated = try ExternalTool.run(
                "gdal_translate", ["-q", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", dir.file("dem.tif"), dir.file("t.tif")])
            #expect(translated.code == 0)
            try Self.replace(dir.file("dem.tif"), with: dir.file("t.tif"))
        }
        let early = try ElevationModel([dir.file("dem.tif")], readsWholeEarly: true)
        #expect(early.earlyWhole != nil)
        let plain = try ElevationModel([dir.file("dem.tif")])
        #expect(plain.earlyWhole == nil)
        let own = try plain.readDecodedWindow(column: 0, row: 0, width: plain.width, height: plain.height)
        Self.expectSame(try early.viewshedWindow(), own, "early, tiled \(tiled)")
        // Handed over once: a second window is read as before, to the same cells.
        #expect(early.earlyWhole?.take() == nil)
        Self.expectSame(try early.viewshedWindow(), own, "read again")
    }

    @Test(
        "metres and the first height beyond the limit in one pass equal the two passes, about the lanes and chunks",
        arguments: [0, 5, 8, 4095, 4096, 4097, 20_003])
    func fusedPassMatchesTwoPasses(count: Int) {
        var rng = SeededRandom(seed: UInt64(count + 3))
        let limit = Float(ElevationModel.maximumHeightMetres)
        for beyondAt in [nil, count / 3, count - 1].compactMap({ $0 }).filter({ $0 >= 0 }) + [-1] {
            var cells = (0..<count).map { _ -> Float in
                let r = rng.uniform(0, 1)
                if r < 0.03 { return -9999 }
                if r < 0.05 { return r < 0.04 ? .infinity : -.infinity }
                if r < 0.06 { return .nan }
                if r < 0.07 { return -0.0 }
                return Float(rng.uniform(-400, 9000))
            }
            if beyondAt >= 0, beyondAt < count { cells[beyondAt] = beyondAt.isMultiple(of: 2) ? -2e9 : limit.nextUp }
            var fused = cells
            var plain = cells
            let found = fused.withUnsafeMutableBufferPointer { ElevationModel.unscaledMetresFirstBeyond($0, noDataAsRead: -9999, limit: limit) }
            plain.withUnsafeMutableBufferPointer { ElevationModel.unscaledMetres($0, noDataAsRead: -9999) }
            let expected = ElevationModel.firstBeyond(limit, in: plain)
            #expect(found == expected, "\(count) cells, beyond at \(beyondAt)")
            // The cells up to the chunk that holds the first beyond are the metres, bit for bit.
            let checked = expected.map { ($0 / 4096 + 1) * 4096 } ?? count
            #expect(zip(fused, plain).prefix(checked).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(count) cells")
        }
    }

    @Test("a height beyond the limit in a Float32 GeoTIFF read whole as it opens is refused, naming its cell")
    func earlyWholeReadRefusesAnImplausibleHeight() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("dem.tif")
        SyntheticDEM.write(
            path: path, width: 600, height: 300, geoTransform: [10, 0.001, 0, 45.3, 0, -0.001], crs: "EPSG:4326", type: GDT_Float32, noData: -9999
        ) { c, r in c == 421 && r == 207 ? 3e8 : 100 }
        let early = try ElevationModel([path], readsWholeEarly: true)
        #expect(early.earlyWhole != nil)
        #expect(throws: TerrainError.implausibleHeight(path: path, metres: 3e8, point: "column 421, row 207")) { try early.viewshedWindow() }
    }

    @Test("no early read for other cell types, a mosaic, a --nodata DEM or a VRT")
    func earlyWholeReadOnlyWhereItApplies() throws {
        let dir = TemporaryDirectory()
        Float32WindowTests.write(dir.file("a.tif"), type: GDT_Float32)
        Float32WindowTests.write(dir.file("i.tif"), type: GDT_Int16)
        SyntheticDEM.write(
            path: dir.file("b.tif"), width: 600, height: 300, geoTransform: [10.6, 0.001, 0, 45.3, 0, -0.001], crs: "EPSG:4326",
            type: GDT_Float32, noData: -9999
        ) { c, r in Double(c + r) }
        #expect(try ExternalTool.run("gdalbuildvrt", ["-q", dir.file("a.vrt"), dir.file("a.tif")]).code == 0)
        #expect(try ElevationModel([dir.file("i.tif")], readsWholeEarly: true).earlyWhole == nil, "Int16")
        #expect(try ElevationModel([dir.file("a.tif"), dir.file("b.tif")], readsWholeEarly: true).earlyWhole == nil, "mosaic")
        #expect(try ElevationModel([dir.file("a.tif")], noData: [0], readsWholeEarly: true).earlyWhole == nil, "--nodata")
        #expect(try ElevationModel([dir.file("a.vrt")], readsWholeEarly: true).earlyWhole == nil, "VRT")
    }
}
