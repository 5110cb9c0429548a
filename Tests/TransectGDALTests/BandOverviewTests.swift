import CGDAL
import Foundation
import Testing
import TransectTestSupport

@testable import TransectGDAL

@Suite("A data band's overviews: the nearest cells, as GDAL's own NEAREST builder picks them")
struct BandOverviewTests {
    /// `width` × `height` cells of `type`, their bytes from a seeded sequence.
    static func cells(width: Int, height: Int, type: GDALDataType) -> [UInt8] {
        let size = Int(GDALGetDataTypeSizeBytes(type))
        var state: UInt64 = 0x2545_F491_4F6C_DD1D &+ UInt64(width * 7919 + height)
        return (0..<(width * height * size)).map { _ -> UInt8 in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// A MEM band of `cells` with overviews at `factors`, GDAL's `NEAREST` builder's or the
    /// writer's own, read back level by level.
    static func overviews(
        _ cells: [UInt8], width: Int, height: Int, type: GDALDataType, factors: [Int32], own: Bool
    ) throws -> [(width: Int, height: Int, cells: [UInt8])] {
        prepareGDAL()
        let size = Int(GDALGetDataTypeSizeBytes(type))
        var cells = cells
        let dataset = try #require(GDALCreate(GDALGetDriverByName("MEM"), "", Int32(width), Int32(height), 1, type, nil))
        defer { GDALClose(dataset) }
        let band = try #require(GDALGetRasterBand(dataset, 1))
        let written = cells.withUnsafeMutableBytes {
            GDALRasterIO(band, GF_Write, 0, 0, Int32(width), Int32(height), $0.baseAddress, Int32(width), Int32(height), type, 0, 0)
        }
        #expect(written == CE_None)
        var levels = factors
        #expect(GDALBuildOverviews(dataset, own ? "NONE" : "NEAREST", Int32(levels.count), &levels, 0, nil, nil, nil) == CE_None)
        if own {
            try cells.withUnsafeBytes { raw in
                try GeoTIFFWriter.fillNearestOverviews(of: band, cells: raw, width: width, height: height, threads: 2) {
                    TerrainError.cannotWriteImage(path: "memory", reason: $0)
                }
            }
        }
        return (0..<Int(GDALGetOverviewCount(band))).map { k in
            let overview = GDALGetOverview(band, Int32(k))
            let w = Int(GDALGetRasterBandXSize(overview))
            let h = Int(GDALGetRasterBandYSize(overview))
            var out = [UInt8](repeating: 0, count: w * h * size)
            _ = out.withUnsafeMutableBytes { GDALRasterIO(overview, GF_Read, 0, 0, Int32(w), Int32(h), $0.baseAddress, Int32(w), Int32(h), type, 0, 0) }
            return (w, h, out)
        }
    }

    /// Byte bands (a viewshed's classes): sides that halve evenly and unevenly, one level and several.
    static let byteBands: [(Int, Int)] = [(1024, 1024), (862, 921), (1537, 1201), (4096, 600)]

    @Test("a Byte band's overviews equal GDAL's NEAREST builder's, bit for bit", arguments: byteBands)
    func byteOverviewsEqualGDALsNearest(width: Int, height: Int) throws {
        let factors = GeoTIFFWriter.bandOverviewFactors(width: width, height: height).map(Int32.init)
        #expect(!factors.isEmpty)
        let cells = Self.cells(width: width, height: height, type: GDT_Byte)
        let gdal = try Self.overviews(cells, width: width, height: height, type: GDT_Byte, factors: factors, own: false)
        let own = try Self.overviews(cells, width: width, height: height, type: GDT_Byte, factors: factors, own: true)
        #expect(gdal.count == factors.count && own.count == factors.count)
        // The first byte that differs, not the arrays (whose difference would take long to show).
        for (k, (a, b)) in zip(gdal, own).enumerated() {
            let first = a.cells.indices.first { $0 >= b.cells.count || a.cells[$0] != b.cells[$0] }
            #expect(a.cells.count == b.cells.count && first == nil, "\(width) × \(height), overview \(k + 1): byte \(first ?? -1)")
        }
    }

    @Test(
        "every overview cell is, bit for bit, the band's cell at ⌊½ + i·w/w′⌋, ⌊½ + j·h/h′⌋, for every band type (a 64-bit mask's bits too)",
        arguments: [(1201, 700, GDT_UInt32), (999, 1030, GDT_UInt64), (1100, 1031, GDT_Float32), (1537, 1201, GDT_Byte)])
    func overviewCellsAreTheNearest(width: Int, height: Int, type: GDALDataType) throws {
        let size = Int(GDALGetDataTypeSizeBytes(type))
        let factors = GeoTIFFWriter.bandOverviewFactors(width: width, height: height).map(Int32.init)
        let cells = Self.cells(width: width, height: height, type: type)
        let own = try Self.overviews(cells, width: width, height: height, type: type, factors: factors, own: true)
        #expect(own.count == factors.count && !own.isEmpty)
        for level in own {
            let columns = GeoTIFFWriter.nearestSources(count: level.width, of: width)
            let rows = GeoTIFFWriter.nearestSources(count: level.height, of: height)
            var wrong = 0
            for j in 0..<level.height {
                for i in 0..<level.width {
                    let s = (rows[j] * width + columns[i]) * size
                    let t = (j * level.width + i) * size
                    if cells[s..<(s + size)] != level.cells[t..<(t + size)] { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(level.width) × \(level.height)")
        }
    }
}
